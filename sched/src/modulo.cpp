// Iterative modulo scheduling (B. R. Rau, "Iterative modulo scheduling", MICRO-27, 1994) for a stream of
// independent evaluations of an acyclic graph (no recurrences, so MII = ResMII).
#include "internal.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <optional>
#include <tuple>
#include <map>
#include <set>

namespace neaccel::sched {
namespace {

using detail::OpGraph;

// Register-file ports of a modulo schedule being built (verify()'s model): reads per congruence class are
// the distinct (value, absolute cycle) pairs read by ops issued there, writes the results written there. An op placed
// reads at its read key and writes at its write key (forward: issue and issue + latency; a backward pass, mirrored in
// time afterwards, uses issue + latency and issue: the mirror maps equal keys to equal cycles and congruence classes
// to congruence classes).
struct PortTable {
  int ii = 0, reads = 0, writes = 0;
  const detail::RegUse* use = nullptr;
  std::vector<int> read_count, write_count;                  // per congruence class
  std::map<long, std::vector<dfg::NodeId>> read_at;          // absolute read key -> values read there
  PortTable() = default;
  PortTable(const Problem& p, const detail::RegUse& u, int ii_)
      : ii(ii_), reads(p.read_ports), writes(p.write_ports), use(&u), read_count(ii_, 0), write_count(ii_, 0) {}
  bool active() const { return reads > 0 || writes > 0; }
  int extra_reads(dfg::NodeId v, long rkey) const {
    const auto it = read_at.find(rkey);
    int extra = 0;
    for (auto a : use->operands[v])
      extra += it == read_at.end() || std::find(it->second.begin(), it->second.end(), a) == it->second.end() ? 1 : 0;
    return extra;
  }
  bool fits(dfg::NodeId v, long rkey, long wkey) const {
    if (!active()) return true;
    if (reads > 0 && read_count[rkey % ii] + extra_reads(v, rkey) > reads) return false;
    if (writes > 0 && use->writes[v] && write_count[wkey % ii] >= writes) return false;
    return true;
  }
  void take(dfg::NodeId v, long rkey, long wkey) {
    if (!active()) return;
    auto& at = read_at[rkey];
    for (auto a : use->operands[v])
      if (std::find(at.begin(), at.end(), a) == at.end()) {
        at.push_back(a);
        ++read_count[rkey % ii];
      }
    if (use->writes[v]) ++write_count[wkey % ii];
  }
};

bool ports_limited(const Problem& p) { return p.read_ports > 0 || p.write_ports > 0; }

// The wall-clock limit and progress of one modulo_schedule (or modulo_register_schedule) call: the II search, the
// deadline search and the exact ILPs share it. Only the limit's being reached changes a result.
struct Watch {
  using Clock = std::chrono::steady_clock;
  Clock::time_point t0 = Clock::now();
  double limit_s = 0;          // 0: none
  const ProgressFn* progress = nullptr;
  double last = 0;             // elapsed at the last report
  long nodes = 0;              // branch-and-bound nodes of the inner ILP calls that ended
  bool hit = false;            // the limit was reached (sticky)
  Watch(double limit, const ProgressFn& p) : limit_s(limit), progress(p ? &p : nullptr) {
    if (!(limit >= 0)) throw Error(fmt::format("modulo schedule: time limit {} s (need >= 0)", limit));
  }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0).count(); }
  bool active() const { return limit_s > 0; }
  bool watching() const { return active() || progress; }
  double left() const { return limit_s - elapsed(); }
  bool passed() {
    if (active() && !hit && left() <= 0) hit = true;
    return hit;
  }
  std::string note() const { return fmt::format(" (time limit {:g} s)", limit_s); }
  // An inner call's result: its notes name what was left of the limit ("time limit 0.29794 s"); they name this
  // call's limit instead.
  void restate(std::string& algorithm) const {
    const std::string key = "time limit ";
    for (auto at = algorithm.find(key); at != std::string::npos; at = algorithm.find(key, at + 1)) {
      const auto from = at + key.size(), to = algorithm.find(" s", from);
      if (to == std::string::npos) break;
      algorithm.replace(from, to - from, fmt::format("{:g}", limit_s));
    }
  }
  void report(const std::string& phase, int best, int bound, bool done) {
    if (!progress) return;
    const double now = elapsed();
    if (!done && now - last < 1.0) return;
    last = now;
    SearchProgress pr;
    pr.phase = phase;
    pr.elapsed_s = now;
    pr.nodes = nodes;
    pr.best = best;
    pr.bound = bound;
    pr.done = done;
    pr.time_limit = done && hit;
    (*progress)(pr);
  }
  // An inner call's options: what is left of the limit, its reports moved onto this call's clock and node count,
  // its last report not the last one. Unchanged options when nothing is watched (the default path stays as it was).
  template <class O>
  O inner(O o) {
    o.progress = {};
    o.time_limit_s = 0;
    if (!watching()) return o;
    if (active()) o.time_limit_s = std::max(left(), 1e-3);
    const double offset = elapsed();
    o.progress = [this, offset](const SearchProgress& in) {
      SearchProgress pr = in;
      pr.elapsed_s += offset;
      pr.nodes += nodes;
      if (in.done) {
        nodes += in.nodes;
        if (in.time_limit) hit = true;
        pr.done = pr.time_limit = false;
      }
      if (progress) {
        last = pr.elapsed_s;
        (*progress)(pr);
      }
    };
    return o;
  }
};

// A schedule keeps the problem's register-file ports (verify()'s port rules; unit use and dependences hold by
// construction where this is asked).
bool keeps_ports(const Problem& p, const Schedule& s) {
  if (!ports_limited(p)) return true;
  Problem q = p;
  q.max_registers = 0;
  return verify(q, s, 1).empty();
}

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


// Iterative modulo scheduling toward a deadline (Rau's eviction scheme with a window per op): every op v must issue
// in [asap(v), deadline - height(v)], so a schedule found has length <= deadline. An op takes the first free slot in
// [Estart, min(Lstart, Estart + II - 1)] (Estart from its placed predecessors, Lstart from its placed successors and
// the deadline); failing that, a free slot up to its own deadline (evicting the successors it then overlaps), and
// failing that, it evicts the holder of a slot (Rau: one later than its last try, within its window). Predecessors
// that make it miss its own deadline are evicted first. At II = ResMII the forward passes leave the ops toward the
// outputs only congruence classes far from their earliest start; a deadline moves the whole schedule instead
// (puma560 custom 1+1 at 3/2, II 220: 227 -> 226). It does not help where the reservation table is exactly full
// (stanford custom 2+2 at II 94: 188 multiplications in 188 slots; docs/scheduling.md).
struct DeadlineAttempt : Attempt {  // the reservation table, predecessors and slot tests of Attempt
  int deadline;
  const std::vector<int>& asap;
  const std::vector<int>& h;
  std::set<std::pair<long, dfg::NodeId>> work;
  const std::vector<long>& prio;

  DeadlineAttempt(const OpGraph& graph, const std::vector<UnitClass>& cls, int ii_, int deadline_,
                  const std::vector<int>& asap_, const std::vector<int>& h_, const std::vector<long>& prio_)
      : Attempt(graph, cls, ii_), deadline(deadline_), asap(asap_), h(h_), prio(prio_) {}
  void unschedule(dfg::NodeId v) {
    for (int k = 0; k < g.occ[v]; ++k) mrt[g.cls[v]][inst[v]][slot(start[v], k)] = dfg::kNoNode;
    start[v] = -1;
    inst[v] = -1;
    work.emplace(prio[v], v);
  }
  // First (t, instance) with a free slot in [lo, hi], or (-1, -1).
  std::pair<int, int> first_free(int c, int lo, int hi, int occ) const {
    for (int t = lo; t <= hi && t < lo + ii; ++t)
      for (int i = 0; i < classes[c].count; ++i)
        if (free(c, i, t, occ)) return {t, i};
    return {-1, -1};
  }
  bool run(long budget) {
    for (auto v : g.ops) work.emplace(prio[v], v);
    while (!work.empty()) {
      if (budget-- <= 0) return false;
      const auto v = work.begin()->second;
      work.erase(work.begin());
      const int c = g.cls[v], own = deadline - h[v];
      if (own < asap[v]) return false;  // deadline below the critical path
      for (auto u : preds[v])  // predecessors that make v miss its deadline go back to the queue
        if (start[u] >= 0 && start[u] + g.lat[u] > own) unschedule(u);
      int est = asap[v];
      for (auto u : preds[v])
        if (start[u] >= 0) est = std::max(est, start[u] + g.lat[u]);
      int lst = own;
      for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e)
        if (start[g.succ[e]] >= 0) lst = std::min(lst, start[g.succ[e]] - g.lat[v]);
      auto [t, i] = first_free(c, est, lst, g.occ[v]);
      if (t < 0) std::tie(t, i) = first_free(c, est, own, g.occ[v]);
      if (t < 0) {
        t = prev[v] >= est && prev[v] < own ? prev[v] + 1 : est;
        i = 0;
        // the instance whose holder has the least priority (latest in the order) is evicted
        long worst = std::numeric_limits<long>::min();
        for (int ii2 = 0; ii2 < classes[c].count; ++ii2) {
          long p = std::numeric_limits<long>::min();
          for (int k = 0; k < g.occ[v]; ++k) {
            const auto w = mrt[c][ii2][slot(t, k)];
            if (w != dfg::kNoNode) p = std::max(p, prio[w]);
          }
          if (p > worst) {
            worst = p;
            i = ii2;
          }
        }
        for (int k = 0; k < g.occ[v]; ++k) {
          const auto w = mrt[c][i][slot(t, k)];
          if (w != dfg::kNoNode) unschedule(w);
        }
      }
      start[v] = t;
      inst[v] = i;
      prev[v] = t;
      for (int k = 0; k < g.occ[v]; ++k) mrt[c][i][slot(t, k)] = v;
      for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e) {
        const auto s = g.succ[e];
        if (start[s] >= 0 && start[s] < t + g.lat[v]) unschedule(s);
      }
    }
    return true;
  }
};

// The shortest schedule the deadline scheduler finds at problem.ii with a deadline in [lo, hi] (binary search on
// the deadline, two priorities per deadline: the flat list schedule's order and the latest start), or nothing.
std::optional<Schedule> deadline_search(const Problem& problem, int lo, int hi, long budget_per_op, Watch& watch) {
  const auto g = detail::build_op_graph(problem);
  const auto h = detail::heights(g);
  const auto a = detail::asap_starts(g);
  Problem flat = problem;
  flat.ii = 0;
  const Schedule l = list_schedule(flat);
  const long span = static_cast<long>(*std::max_element(h.begin(), h.end())) + 1;
  std::vector<long> by_flat(g.cls.size(), 0);
  for (auto v : g.ops) by_flat[v] = static_cast<long>(l.slots[v].start) * span - static_cast<long>(h[v]);
  const long budget = budget_per_op * static_cast<long>(g.ops.size()) + 16;
  std::optional<Schedule> best;
  while (lo <= hi && !watch.passed()) {  // at the time limit: the shortest found so far
    watch.report(fmt::format("modulo/deadline ii {}", problem.ii), best ? best->length : 0, 0, false);
    const int mid = lo + (hi - lo) / 2;
    std::vector<long> by_alap(g.cls.size(), 0);
    for (auto v : g.ops) by_alap[v] = static_cast<long>(mid - h[v]) * span + a[v];
    bool ok = false;
    for (const auto* prio : {&by_flat, &by_alap}) {
      DeadlineAttempt d(g, problem.classes, problem.ii, mid, a, h, *prio);
      if (!d.run(budget)) continue;
      Schedule s;
      s.slots.resize(g.cls.size());
      for (auto v : g.ops) {
        s.slots[v] = Slot{d.start[v], g.cls[v], d.inst[v]};
        s.length = std::max(s.length, d.start[v] + g.lat[v]);
      }
      s.ii = problem.ii;
      if (!keeps_ports(problem, s)) continue;  // the deadline scheduler does not model ports: kept only if it fits
      s.algorithm = prio == &by_flat ? "modulo/deadline-flat-order" : "modulo/deadline";
      hi = s.length - 1;
      best = std::move(s);
      ok = true;
      break;
    }
    if (!ok) lo = mid + 1;
  }
  return best;
}


}  // namespace

Schedule modulo_schedule(const Problem& problem, const ModuloOptions& options) {
  if (!problem.release.empty())
    throw Error("modulo schedule: problem.release (input release times) is for latency schedules only");
  const auto g = detail::build_op_graph(problem);
  const auto h = detail::heights(g);
  const int mii = res_mii(problem);
  long seq = 1;
  for (auto v : g.ops) seq += g.occ[v];
  // Register-file ports: II from the port bound too; Rau's scheduler does not model ports, so its schedule
  // counts only where it keeps them, and the modulo list scheduler (which does) is tried at every II. A sequential
  // schedule (one op at a time, each after the previous result) keeps any ports an op can issue with.
  const bool ports = ports_limited(problem);
  long seq_lat = 1;
  for (auto v : g.ops) seq_lat += g.lat[v];
  const int max_ii = options.max_ii > 0 ? options.max_ii
                                        : static_cast<int>(std::min<long>(ports ? std::max(seq, seq_lat) : seq, 1 << 30));
  const int first_ii = std::max({problem.ii, mii, port_mii(problem)});
  const long budget = options.budget > 0 ? options.budget : 4 * static_cast<long>(g.ops.size()) + 16;
  Watch watch(options.time_limit_s, options.progress);
  for (int ii = first_ii; ii <= max_ii; ++ii) {
    if (watch.passed()) {  // the II search found nothing within the limit: no schedule to hand out
      watch.report(fmt::format("modulo ii {}", ii), 0, 0, true);
      throw Error(fmt::format("modulo schedule: time limit {:g} s reached at ii {} before any schedule was found "
                              "(ii from {})", options.time_limit_s, ii, first_ii));
    }
    watch.report(fmt::format("modulo ii {}", ii), 0, 0, false);
    Problem at = problem;
    at.ii = ii;
    Attempt a(g, problem.classes, ii);
    std::optional<Schedule> found;
    if (a.run(h, budget)) {
      Schedule s;
      s.slots.resize(g.cls.size());
      for (auto v : g.ops) {
        s.slots[v] = Slot{a.start[v], g.cls[v], a.inst[v]};
        s.length = std::max(s.length, a.start[v] + g.lat[v]);
      }
      s.ii = ii;
      s.algorithm = "modulo/ims";
      if (keeps_ports(at, s)) found = std::move(s);
    }
    if (!found && !ports) continue;
    if (options.list || (ports && !found)) {
      try {
        Schedule l = modulo_list_schedule(at);
        if (!found || l.length < found->length) found = std::move(l);
      } catch (const Error&) {
        // fragmented reservation table (occupancy > 1), or no slot within the ports: keep Rau's schedule
      }
    }
    if (!found) continue;
    Schedule s = std::move(*found);
    int bound = modulo_latency_bound(at);  // kept apart: s is replaced by better schedules
    if (options.deadline && s.length > bound && !watch.passed()) {
      auto d = deadline_search(at, bound, s.length - 1, options.deadline_budget, watch);
      if (d && d->length < s.length) s = std::move(*d);
    }
    if (options.exact && s.length > bound && !watch.passed()) {
      // First a short horizon, the flat list schedule's length (usually the target): small windows, and an empty
      // or closed tree there proves the bound horizon + 1 or the optimum. Then the heuristic's length as horizon.
      Problem flat = at;
      flat.ii = 0;
      const int target = std::max(bound, list_schedule(flat).length);
      if (target < s.length - 1) {
        IlpOptions o = watch.inner(options.ilp);
        o.horizon = target;
        Schedule e = modulo_ilp_schedule(at, Schedule{}, o);
        watch.restate(e.algorithm);
        if (!e.slots.empty()) {
          bound = std::max(bound, e.lower_bound);
          if (e.length < s.length) s = std::move(e);
        } else if (e.lower_bound > target) {
          bound = std::max(bound, e.lower_bound);  // no schedule within the short horizon
        }
      }
      if (s.length > bound && !watch.passed()) {
        Schedule e = modulo_ilp_schedule(at, s, watch.inner(options.ilp));
        watch.restate(e.algorithm);
        bound = std::max(bound, e.lower_bound);
        if (e.length < s.length) s = std::move(e);
      }
    }
    s.latency_bound = bound;
    s.ii = ii;
    s.stages = (s.length + ii - 1) / ii;
    s.lower_bound = std::max(mii, port_mii(problem));
    s.proven_optimal = ii == s.lower_bound;
    s.latency_optimal = s.length <= s.latency_bound;
    if (s.latency_optimal) s.latency_bound = s.length;
    if (watch.hit && !s.latency_optimal && s.algorithm.find("(time limit") == std::string::npos)
      s.algorithm += watch.note();  // the latency minimisation stopped at the limit
    watch.report(fmt::format("modulo ii {}", ii), s.length, s.latency_bound, true);
    return s;
  }
  watch.report(fmt::format("modulo ii {}", max_ii), 0, 0, true);
  throw Error(fmt::format("modulo schedule: no schedule found for ii in [{}, {}]{}", first_ii, max_ii,
                          ports ? fmt::format(" within read ports {}, write ports {}", problem.read_ports, problem.write_ports)
                                : std::string()));
}

namespace {

// Modulo list scheduling at problem.ii with a priority per op (lower first among the released ones). Backward: g is
// the reversed graph and an op placed at t holds its unit's congruence classes from t + latency - occupancy (the
// mirror image of a forward issue); the caller mirrors the result in time.
Schedule modulo_list_with(const Problem& problem, const detail::OpGraph& g, const std::vector<long>& prio,
                          bool backward = false, const detail::RegUse* use = nullptr) {
  const int ii = problem.ii;
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
  PortTable ports = use ? PortTable(problem, *use, ii) : PortTable();
  std::vector<int> estart(n, 0), waiting(n, 0), start(n, -1), inst(n, -1);
  for (auto v : g.ops) waiting[v] = g.npred[v];
  std::set<std::pair<long, dfg::NodeId>> ready;  // (priority, id), released ops (estart may be in the future)
  for (auto v : g.ops)
    if (waiting[v] == 0) ready.emplace(prio[v], v);
  std::size_t placed = 0;
  // Every op waits at most ii cycles for a free congruence class once released, unless occupancies > 1 fragment the
  // table: bound the search and report failure.
  const long horizon = total + static_cast<long>(ii) * (static_cast<long>(g.ops.size()) + 2);
  for (long t = 0; placed < g.ops.size(); ++t) {
    if (t > horizon)
      throw Error(fmt::format("modulo list schedule: no schedule at ii {} ({})", ii,
                              ports.active() ? "fragmented table or register-file ports full" : "fragmented table"));
    std::vector<dfg::NodeId> now;
    for (auto it = ready.begin(); it != ready.end();) {
      const auto v = it->second;
      const int c = g.cls[v];
      bool done = false;
      const long d = backward ? g.lat[v] - g.occ[v] : 0;
      const long rkey = backward ? t + g.lat[v] : t, wkey = backward ? t : t + g.lat[v];
      if (estart[v] <= t && ports.fits(v, rkey, wkey))
        for (int i = 0; i < problem.classes[c].count && !done; ++i) {
          bool free = true;
          for (int k = 0; k < g.occ[v] && free; ++k) free = !mrt[c][i][(t + d + k) % ii];
          if (!free) continue;
          for (int k = 0; k < g.occ[v]; ++k) mrt[c][i][(t + d + k) % ii] = 1;
          ports.take(v, rkey, wkey);
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
        if (--waiting[s] == 0) ready.emplace(prio[s], s);
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
  return s;
}

// Keeps `s` as `best` if it is shorter (ties to the earlier pass).
void keep_shorter(std::optional<Schedule>& best, Schedule s, const char* algorithm) {
  if (best && best->length <= s.length) return;
  s.algorithm = algorithm;
  best = std::move(s);
}

}  // namespace

Schedule modulo_list_schedule(const Problem& problem, const ModuloListOptions& options) {
  if (problem.ii <= 0) throw Error("modulo list schedule: problem.ii must be > 0");
  if (!options.forward_height && !options.flat_order && !options.backward && !options.backward_flat_order)
    throw Error("modulo list schedule: no pass selected");
  const auto g = detail::build_op_graph(problem);
  const auto h = detail::heights(g);
  const std::size_t n = g.cls.size();
  std::optional<Schedule> best;
  const detail::RegUse use = ports_limited(problem) ? detail::reg_use(problem) : detail::RegUse{};
  const detail::RegUse* up = ports_limited(problem) ? &use : nullptr;
  // With limited ports a pass may find no slot within them at this II while another does: the others still run.
  std::string failed;
  auto pass = [&](const std::function<void()>& run) {
    try {
      run();
    } catch (const Error& e) {
      if (!up) throw;
      failed = e.what();
    }
  };
  // 1. Forward, height priority (critical path first).
  if (options.forward_height) {
    std::vector<long> by_height(n, 0);
    for (auto v : g.ops) by_height[v] = -static_cast<long>(h[v]);
    pass([&] { keep_shorter(best, modulo_list_with(problem, g, by_height, false, up), "modulo/list"); });
  }
  // 2. Forward in the order of the flat (non-modulo) list schedule, height breaking ties: one II above ResMII the
  // height order can leave the last ops only congruence classes far from their earliest start, while the flat
  // order conflicts only where the flat length wraps past II (puma560 custom 2+2 at II 111: 231 -> 118).
  Problem flat = problem;
  flat.ii = 0;
  const Schedule l = list_schedule(flat);
  const long span = static_cast<long>(*std::max_element(h.begin(), h.end())) + 1;  // > any height or depth
  if (options.flat_order) {
    std::vector<long> by_flat(n, 0);
    for (auto v : g.ops) by_flat[v] = static_cast<long>(l.slots[v].start) * span - static_cast<long>(h[v]);
    pass([&] { keep_shorter(best, modulo_list_with(problem, g, by_flat, false, up), "modulo/list-flat-order"); });
  }
  // 3. Backward (from the outputs), mirrored: at II = ResMII a forward pass fills every congruence class from cycle 0
  // and the tail of the chain toward the torques finds none free for a whole II; backward, the tail is the graph's
  // start, wide products of inputs that can take whatever classes are left (puma560 custom 2+2 at II 110: 229 -> 119).
  const auto rg = detail::reversed(g);
  const auto rh = detail::heights(rg);
  auto backward = [&](const std::vector<long>& prio, const char* name) {
    Schedule b = modulo_list_with(problem, rg, prio, true, up);
    for (auto v : g.ops) b.slots[v].start = b.length - b.slots[v].start - g.lat[v];
    keep_shorter(best, std::move(b), name);
  };
  if (options.backward) {
    std::vector<long> by_depth(n, 0);
    for (auto v : g.ops) by_depth[v] = -static_cast<long>(rh[v]);
    pass([&] { backward(by_depth, "modulo/list-backward"); });
  }
  // 4. Backward in the flat schedule's order mirrored (latest finish first): stanford custom 2+2 at II 94: 184 -> 165,
  // puma560 custom 1+1 at II 220: 234 -> 227.
  if (options.backward_flat_order) {
    std::vector<long> by_flat_finish(n, 0);
    for (auto v : g.ops)
      by_flat_finish[v] = static_cast<long>(l.length - l.slots[v].start - g.lat[v]) * span - static_cast<long>(rh[v]);
    pass([&] { backward(by_flat_finish, "modulo/list-backward-flat-order"); });
  }
  if (!best) throw Error(failed);
  return *best;
}

namespace {

// Sum over values of their register lifetime (schedule.hpp's lifetimes): register-cycles of one evaluation; with
// modulo variable expansion the registers a stream needs are about this / ii.
long lifetime_sum(const Problem& problem, const Schedule& s) {
  long sum = 0;
  for (const auto& lt : lifetimes(problem, s)) sum += lt.end - lt.begin;
  return sum;
}

}  // namespace

Schedule modulo_shorten_lifetimes(const Problem& problem, const Schedule& schedule, int passes) {
  if (problem.ii <= 0 || schedule.ii != problem.ii) throw Error("modulo shorten lifetimes: needs a modulo schedule at problem.ii");
  const auto g = detail::build_op_graph(problem);
  const int ii = problem.ii;
  Schedule s = schedule;
  std::vector<std::vector<std::vector<char>>> mrt(problem.classes.size());
  for (std::size_t c = 0; c < problem.classes.size(); ++c)
    mrt[c].assign(problem.classes[c].count, std::vector<char>(ii, 0));
  auto mark = [&](dfg::NodeId v, char on) {
    for (int k = 0; k < g.occ[v]; ++k) mrt[g.cls[v]][s.slots[v].instance][(s.slots[v].start + k) % ii] = on;
  };
  for (auto v : g.ops) mark(v, 1);
  std::vector<std::vector<std::uint32_t>> preds(g.cls.size());
  for (auto u : g.ops)
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) preds[g.succ[e]].push_back(u);
  long cost = lifetime_sum(problem, s);
  for (int pass = 0; pass < passes; ++pass) {
    bool moved = false;
    // Later (reverse topological order, toward the consumers), then earlier (toward the operands).
    for (int dir = 0; dir < 2; ++dir) {
      const auto order = dir == 0 ? std::vector<std::uint32_t>(g.ops.rbegin(), g.ops.rend()) : g.ops;
      for (auto v : order) {
        const int c = g.cls[v], cur = s.slots[v].start;
        int lo = 0, hi = s.length - g.lat[v];
        for (auto u : preds[v]) lo = std::max(lo, s.slots[u].start + g.lat[u]);
        for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e) hi = std::min(hi, s.slots[g.succ[e]].start - g.lat[v]);
        mark(v, 0);
        int best_t = cur, best_i = s.slots[v].instance;
        long best_cost = cost;
        const int from = dir == 0 ? hi : lo, to = dir == 0 ? cur + 1 : cur - 1, step = dir == 0 ? -1 : 1;
        for (int t = from; dir == 0 ? t >= to : t <= to; t += step) {
          int inst = -1;
          for (int i = 0; i < problem.classes[c].count && inst < 0; ++i) {
            bool ok = true;
            for (int k = 0; k < g.occ[v] && ok; ++k) ok = !mrt[c][i][(t + k) % ii];
            if (ok) inst = i;
          }
          if (inst < 0) continue;
          s.slots[v].start = t;
          const long c2 = lifetime_sum(problem, s);
          s.slots[v].start = cur;
          if (c2 < best_cost) {
            best_cost = c2;
            best_t = t;
            best_i = inst;
          }
        }
        s.slots[v].start = best_t;
        s.slots[v].instance = best_i;
        mark(v, 1);
        if (best_t != cur) {
          cost = best_cost;
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  s.algorithm = schedule.algorithm + "+lifetimes";
  return s;
}

Schedule modulo_register_schedule(const Problem& problem, const ModuloOptions& options,
                                  const std::function<int(const Problem&, const Schedule&)>& registers, int max_ii) {
  if (problem.max_registers <= 0) throw Error("modulo register schedule: problem.max_registers must be > 0");
  Problem p = problem;
  p.max_registers = 0;
  auto count = registers ? registers : [](const Problem& q, const Schedule& s) { return max_live(q, s); };
  Watch watch(options.time_limit_s, options.progress);  // one limit over every inner modulo_schedule call
  Schedule first = modulo_schedule(p, watch.inner(options));
  watch.restate(first.algorithm);
  // Flat schedules are modulo schedules too once no two ops of a class collide mod II (always when II >= length):
  // the list schedule and the register-aware one (problem.max_registers as its limit) are candidates at every II.
  std::vector<Schedule> flats;
  {
    Problem f = problem;
    f.ii = 0;
    for (int limited = 0; limited < 2; ++limited) {
      f.max_registers = limited ? problem.max_registers : 0;
      try {
        flats.push_back(list_schedule(f));
      } catch (const Error&) {
        // the register-aware list scheduler found none within the limit
      }
    }
  }
  int fewest = std::numeric_limits<int>::max(), fewest_ii = first.ii;
  const int last = max_ii > 0 ? std::max(max_ii, first.ii) : 2 * first.ii + 8;
  for (int ii = first.ii; ii <= last; ++ii) {
    if (ii > first.ii && watch.passed()) {  // the first II's candidates are at hand: they are always looked at
      watch.report(fmt::format("modulo ii {}", ii), 0, 0, true);
      throw Error(fmt::format("max_registers {}: time limit {:g} s reached at ii {} before a schedule within the limit "
                              "was found (ii from {}; fewest found: {} registers at ii {})", problem.max_registers,
                              options.time_limit_s, ii, first.ii, fewest, fewest_ii));
    }
    watch.report(fmt::format("modulo ii {}", ii), 0, 0, false);
    p.ii = ii;
    std::vector<Schedule> cands;
    if (ii == first.ii) {
      cands.push_back(first);
    } else {
      ModuloOptions o = watch.inner(options);
      o.max_ii = ii;  // this II only (the scheduler may not find one here: occupancy > 1)
      try {
        Schedule m = modulo_schedule(p, o);
        watch.restate(m.algorithm);
        if (m.ii == ii) cands.push_back(std::move(m));
      } catch (const Error&) {
      }
    }
    for (const auto pass : {0, 1, 2, 3}) {
      ModuloListOptions lo{pass == 0, pass == 1, pass == 2, pass == 3};
      try {
        cands.push_back(modulo_list_schedule(p, lo));
      } catch (const Error&) {
        break;  // fragmented table: every pass fails alike
      }
    }
    for (const auto& f : flats) {
      Schedule c = f;
      c.ii = ii;
      try {
        bind_units(p, c);
        cands.push_back(std::move(c));
      } catch (const Error&) {
        // two ops of a class in one congruence class
      }
    }
    const std::size_t base = cands.size();
    for (std::size_t k = 0; k < base; ++k) cands.push_back(modulo_shorten_lifetimes(p, cands[k]));
    std::optional<Schedule> best;
    int best_regs = 0;
    for (auto& c : cands) {
      if (!verify(p, c, 1).empty()) continue;  // never hand out an unverified schedule
      const int r = count(p, c);
      if (r < fewest) {
        fewest = r;
        fewest_ii = ii;
      }
      if (r > problem.max_registers) continue;
      if (!best || c.length < best->length || (c.length == best->length && r < best_regs)) {
        best_regs = r;
        best = std::move(c);
      }
    }
    if (best) {
      best->ii = ii;
      best->stages = (best->length + ii - 1) / ii;
      best->lower_bound = first.lower_bound;
      best->proven_optimal = ii == first.lower_bound;
      best->latency_bound = modulo_latency_bound(p);
      best->latency_optimal = best->length <= best->latency_bound;
      best->algorithm += fmt::format(" (max_registers {}: {} at ii {})", problem.max_registers, best_regs, ii);
      watch.report(fmt::format("modulo ii {}", ii), best->length, best->latency_bound, true);
      return *best;
    }
  }
  watch.report(fmt::format("modulo ii {}", last), 0, 0, true);
  throw Error(fmt::format("max_registers {}: no modulo schedule within the limit for ii in [{}, {}] (fewest found: {} "
                          "registers at ii {})", problem.max_registers, first.ii, last, fewest, fewest_ii));
}

}  // namespace neaccel::sched
