// ASAP/ALAP, mobility and lower bounds.
#include "neaccel/sched/bounds.hpp"

#include "internal.hpp"

#include <algorithm>

namespace neaccel::sched {
namespace {

int ceil_div(long a, long b) { return static_cast<int>((a + b - 1) / b); }

Schedule from_starts(const Problem& p, const detail::OpGraph& g, const std::vector<int>& start, const char* algo) {
  Schedule s;
  s.slots.resize(g.cls.size());
  for (auto v : g.ops) {
    s.slots[v].start = start[v];
    s.slots[v].cls = g.cls[v];
    s.length = std::max(s.length, start[v] + g.lat[v]);
  }
  s.ii = p.ii;
  s.algorithm = algo;
  return s;
}

// Ops per class.
std::vector<long> class_ops(const Problem& p, const detail::OpGraph& g) {
  std::vector<long> n(p.classes.size(), 0);
  for (auto v : g.ops) ++n[g.cls[v]];
  return n;
}

}  // namespace

Schedule asap(const Problem& problem) {
  const auto g = detail::build_op_graph(problem);
  return from_starts(problem, g, detail::asap_starts(g), "asap");
}

Schedule alap(const Problem& problem, int length) {
  const auto g = detail::build_op_graph(problem);
  auto h = detail::heights(g);
  for (auto v : g.ops) h[v] = length - h[v];
  return from_starts(problem, g, h, "alap");
}

std::vector<int> mobility(const Problem& problem) {
  const auto g = detail::build_op_graph(problem);
  const auto a = detail::asap_starts(g);
  const auto h = detail::heights(g);
  const int cp = h.empty() ? 0 : *std::max_element(h.begin(), h.end());
  std::vector<int> m(g.cls.size(), 0);
  for (auto v : g.ops) m[v] = cp - h[v] - a[v];
  return m;
}

int critical_path(const Problem& problem) {
  const auto h = detail::heights(detail::build_op_graph(problem));
  return h.empty() ? 0 : *std::max_element(h.begin(), h.end());
}

std::vector<int> class_loads(const Problem& problem) {
  const auto g = detail::build_op_graph(problem);
  const auto n = class_ops(problem, g);
  std::vector<int> out(n.size(), 0);
  for (std::size_t c = 0; c < n.size(); ++c)
    out[c] = ceil_div(n[c] * problem.classes[c].occupancy, problem.classes[c].count);
  return out;
}

int resource_bound(const Problem& problem) {
  const auto g = detail::build_op_graph(problem);
  const auto n = class_ops(problem, g);
  int best = 0;
  for (std::size_t c = 0; c < n.size(); ++c) {
    if (n[c] == 0) continue;
    const auto& u = problem.classes[c];
    best = std::max(best, (ceil_div(n[c], u.count) - 1) * u.occupancy + u.latency);
  }
  return best;
}

int head_body_tail_bound(const Problem& problem) {
  const auto g = detail::build_op_graph(problem);
  const auto head = detail::asap_starts(g);
  const auto h = detail::heights(g);
  int cp = 0;
  for (auto v : g.ops) cp = std::max(cp, h[v]);
  int best = cp;
  for (std::size_t c = 0; c < problem.classes.size(); ++c) {
    const auto& u = problem.classes[c];
    // Ops of this class bucketed by head; tails are in [0, cp).
    std::vector<std::vector<int>> by_head(static_cast<std::size_t>(cp) + 1);
    bool any = false;
    for (auto v : g.ops)
      if (g.cls[v] == static_cast<int>(c)) {
        by_head[head[v]].push_back(h[v] - g.lat[v]);
        any = true;
      }
    if (!any) continue;
    std::vector<long> tail_count(static_cast<std::size_t>(cp) + 1, 0);  // ops with head >= a, by tail
    for (int a = cp; a >= 0; --a) {
      if (by_head[a].empty()) continue;
      for (int q : by_head[a]) ++tail_count[q];
      long k = 0;
      for (int b = cp; b >= 0; --b) {
        if (tail_count[b] == 0) continue;
        k += tail_count[b];
        best = std::max(best, a + (ceil_div(k, u.count) - 1) * u.occupancy + u.latency + b);
      }
    }
  }
  return best;
}

// Register-file ports on one evaluation (0 when none is limited): writes happen at issue + latency >= the
// smallest latency, so the results need ceil(written / write_ports) cycles from there; reads happen at issue cycles
// <= length - the smallest latency, so the values read need ceil(read / read_ports) of those.
int port_bound(const Problem& problem) {
  if (problem.read_ports <= 0 && problem.write_ports <= 0) return 0;
  const auto u = detail::reg_use(problem);
  int lmin = 1 << 30;
  for (const auto& c : problem.classes) lmin = std::min(lmin, c.latency);
  int best = 0;
  if (problem.write_ports > 0 && u.results_written > 0)
    best = std::max(best, lmin - 1 + ceil_div(u.results_written, problem.write_ports));
  if (problem.read_ports > 0 && u.values_read > 0) best = std::max(best, lmin - 1 + ceil_div(u.values_read, problem.read_ports));
  return best;
}

int lower_bound(const Problem& problem) {
  return std::max({critical_path(problem), resource_bound(problem), head_body_tail_bound(problem), port_bound(problem)});
}

int res_mii(const Problem& problem) {
  const auto g = detail::build_op_graph(problem);
  const auto n = class_ops(problem, g);
  int best = 1;
  for (std::size_t c = 0; c < n.size(); ++c) {
    if (n[c] == 0) continue;
    const auto& u = problem.classes[c];
    best = std::max({best, ceil_div(n[c] * u.occupancy, u.count), u.occupancy});
  }
  return best;
}

int port_mii(const Problem& problem) {
  if (problem.read_ports <= 0 && problem.write_ports <= 0) return 0;
  const auto u = detail::reg_use(problem);
  int best = 1;
  if (problem.write_ports > 0) best = std::max(best, ceil_div(u.results_written, problem.write_ports));
  if (problem.read_ports > 0) best = std::max(best, ceil_div(u.values_read, problem.read_ports));
  return best;
}

}  // namespace neaccel::sched
