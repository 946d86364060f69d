// Iterative modulo scheduling (B. R. Rau, "Iterative modulo scheduling", MICRO-27, 1994) for a stream of
// independent evaluations of an acyclic graph (no recurrences, so MII = ResMII).
#include "internal.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace neaccel::sched {
namespace {

using detail::OpGraph;

struct Attempt {
  const OpGraph& g;
  const std::vector<UnitClass>& classes;
  int ii;
  std::vector<int> start, inst, prev;
  std::vector<std::vector<std::vector<dfg::NodeId>>> mrt;  // class -> instance -> congruence class -> op (or kNoNode)
  std::vector<std::vector<std::uint32_t>> preds;

  Attempt(const OpGraph& graph, const std::vector<UnitClass>& cls, int ii_) : g(graph), classes(cls), ii(ii_) {
    const std::size_t n = g.cls.size();
    start.assign(n, -1);
    inst.assign(n, -1);
    prev.assign(n, -1);
    mrt.resize(classes.size());
    for (std::size_t c = 0; c < classes.size(); ++c)
      mrt[c].assign(classes[c].count, std::vector<dfg::NodeId>(ii, dfg::kNoNode));
    preds.resize(n);
    for (auto u : g.ops)
      for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) preds[g.succ[e]].push_back(u);
  }
  int slot(int t, int k) const { return (t + k) % ii; }
  bool free(int c, int i, int t, int occ) const {
    for (int k = 0; k < occ; ++k)
      if (mrt[c][i][slot(t, k)] != dfg::kNoNode) return false;
    return true;
  }
  void unschedule(dfg::NodeId v, std::set<std::pair<long, dfg::NodeId>>& work, const std::vector<int>& h) {
    for (int k = 0; k < g.occ[v]; ++k) mrt[g.cls[v]][inst[v]][slot(start[v], k)] = dfg::kNoNode;
    start[v] = -1;
    inst[v] = -1;
    work.emplace(-static_cast<long>(h[v]), v);
  }
  void place(dfg::NodeId v, int t, int i) {
    start[v] = t;
    inst[v] = i;
    for (int k = 0; k < g.occ[v]; ++k) mrt[g.cls[v]][i][slot(t, k)] = v;
  }

  bool run(const std::vector<int>& h, long budget) {
    std::set<std::pair<long, dfg::NodeId>> work;  // (-height, id): highest first, then graph order
    for (auto v : g.ops) work.emplace(-static_cast<long>(h[v]), v);
    while (!work.empty()) {
      if (budget-- <= 0) return false;
      const auto v = work.begin()->second;
      work.erase(work.begin());
      const int c = g.cls[v];
      int estart = 0;
      for (auto u : preds[v])
        if (start[u] >= 0) estart = std::max(estart, start[u] + g.lat[u]);
      int t = -1, i = -1;
      for (int tt = estart; tt < estart + ii && t < 0; ++tt)
        for (int ii2 = 0; ii2 < classes[c].count; ++ii2)
          if (free(c, ii2, tt, g.occ[v])) {
            t = tt;
            i = ii2;
            break;
          }
      if (t < 0) {  // evict whoever holds the slot (Rau: not earlier than last time + 1)
        t = (prev[v] >= estart) ? prev[v] + 1 : estart;
        i = 0;
        for (int k = 0; k < g.occ[v]; ++k) {
          const auto w = mrt[c][i][slot(t, k)];
          if (w != dfg::kNoNode) unschedule(w, work, h);
        }
      }
      place(v, t, i);
      prev[v] = t;
      for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e) {
        const auto s = g.succ[e];
        if (start[s] >= 0 && start[s] < t + g.lat[v]) unschedule(s, work, h);
      }
    }
    return true;
  }
};

}  // namespace

Schedule modulo_schedule(const Problem& problem, const ModuloOptions& options) {
  const auto g = detail::build_op_graph(problem);
  const auto h = detail::heights(g);
  const int mii = res_mii(problem);
  long seq = 1;
  for (auto v : g.ops) seq += g.occ[v];
  const int max_ii = options.max_ii > 0 ? options.max_ii : static_cast<int>(std::min<long>(seq, 1 << 30));
  const long budget = options.budget > 0 ? options.budget : 4 * static_cast<long>(g.ops.size()) + 16;
  for (int ii = std::max(problem.ii, mii); ii <= max_ii; ++ii) {
    Attempt a(g, problem.classes, ii);
    if (!a.run(h, budget)) continue;
    Schedule s;
    s.slots.resize(g.cls.size());
    for (auto v : g.ops) {
      s.slots[v] = Slot{a.start[v], g.cls[v], a.inst[v]};
      s.length = std::max(s.length, a.start[v] + g.lat[v]);
    }
    s.ii = ii;
    s.stages = (s.length + ii - 1) / ii;
    s.lower_bound = mii;
    s.proven_optimal = ii == mii;
    s.algorithm = "modulo/ims";
    return s;
  }
  throw Error(fmt::format("modulo schedule: no schedule found for ii in [{}, {}]", std::max(problem.ii, mii), max_ii));
}

Schedule modulo_list_schedule(const Problem& problem) {
  if (problem.ii <= 0) throw Error("modulo list schedule: problem.ii must be > 0");
  const int ii = problem.ii;
  const auto g = detail::build_op_graph(problem);
  const auto h = detail::heights(g);
  const std::size_t n = g.cls.size();
  long total = 0;
  for (auto v : g.ops) {
    if (g.occ[v] > ii)
      throw Error(fmt::format("modulo list schedule: node {} occupies its unit {} cycles > ii {}", v, g.occ[v], ii));
    total += g.occ[v];
  }
  std::vector<std::vector<std::vector<char>>> mrt(problem.classes.size());
  for (std::size_t c = 0; c < problem.classes.size(); ++c)
    mrt[c].assign(problem.classes[c].count, std::vector<char>(ii, 0));
  std::vector<int> estart(n, 0), waiting(n, 0), start(n, -1), inst(n, -1);
  for (auto v : g.ops) waiting[v] = g.npred[v];
  std::set<std::pair<long, dfg::NodeId>> ready;  // (-height, id), released ops (estart may be in the future)
  for (auto v : g.ops)
    if (waiting[v] == 0) ready.emplace(-static_cast<long>(h[v]), v);
  std::size_t placed = 0;
  // Every op waits at most ii cycles for a free congruence class once released, unless occupancies > 1 fragment the
  // table: bound the search and report failure.
  const long horizon = total + static_cast<long>(ii) * (static_cast<long>(g.ops.size()) + 2);
  for (long t = 0; placed < g.ops.size(); ++t) {
    if (t > horizon) throw Error(fmt::format("modulo list schedule: no schedule at ii {} (fragmented table)", ii));
    std::vector<dfg::NodeId> now;
    for (auto it = ready.begin(); it != ready.end();) {
      const auto v = it->second;
      const int c = g.cls[v];
      bool done = false;
      if (estart[v] <= t)
        for (int i = 0; i < problem.classes[c].count && !done; ++i) {
          bool free = true;
          for (int k = 0; k < g.occ[v] && free; ++k) free = !mrt[c][i][(t + k) % ii];
          if (!free) continue;
          for (int k = 0; k < g.occ[v]; ++k) mrt[c][i][(t + k) % ii] = 1;
          start[v] = static_cast<int>(t);
          inst[v] = i;
          done = true;
        }
      if (done) {
        now.push_back(v);
        it = ready.erase(it);
      } else {
        ++it;
      }
    }
    for (auto v : now) {
      ++placed;
      for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e) {
        const auto s = g.succ[e];
        estart[s] = std::max(estart[s], start[v] + g.lat[v]);
        if (--waiting[s] == 0) ready.emplace(-static_cast<long>(h[s]), s);
      }
    }
  }
  Schedule s;
  s.slots.resize(n);
  for (auto v : g.ops) {
    s.slots[v] = Slot{start[v], g.cls[v], inst[v]};
    s.length = std::max(s.length, start[v] + g.lat[v]);
  }
  s.ii = ii;
  s.stages = (s.length + ii - 1) / ii;
  s.lower_bound = res_mii(problem);
  s.proven_optimal = ii == s.lower_bound;
  s.algorithm = "modulo/list";
  return s;
}

}  // namespace neaccel::sched
