// ASAP/ALAP, mobility and lower bounds.
#include "neaccel/sched/bounds.hpp"

#include "internal.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

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

IoOverlap io_overlap(const Problem& problem, int in_words) {
  if (in_words < 1) throw Error(fmt::format("in_words: {} (need >= 1 word per cycle)", in_words));
  check(problem);
  const dfg::Graph& graph = *problem.graph;
  const auto g = detail::build_op_graph(problem);
  const std::size_t n = graph.nodes.size(), ni = graph.inputs.size();
  IoOverlap r;
  r.in_words = in_words;
  r.critical_path = critical_path(problem);
  r.outputs = static_cast<int>(graph.outputs.size());
  // Toward the outputs only: per op, the cycles from its issue to the last output it leads to being ready (-1 when it
  // leads to none); per port input, the largest of that over the ops that read it, 0 when only an output reads it.
  std::vector<int> to_out(n, -1);
  for (auto it = g.ops.rbegin(); it != g.ops.rend(); ++it) {
    const auto v = *it;
    int best = g.is_output[v] ? 0 : -1;
    for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e)
      if (to_out[g.succ[e]] >= 0) best = std::max(best, to_out[g.succ[e]]);
    to_out[v] = best < 0 ? -1 : g.lat[v] + best;
  }
  std::vector<int> tail(ni, -1);
  for (const auto& out : graph.outputs)
    if (graph.nodes[out.node].op == dfg::Op::Input) tail[graph.nodes[out.node].input] = 0;
  for (auto v : g.ops) {
    const auto& nd = graph.nodes[v];
    for (int k = 0; k < dfg::arity(nd.op); ++k) {
      const auto& a = graph.nodes[nd.arg[k]];
      if (a.op == dfg::Op::Input) tail[a.input] = std::max(tail[a.input], to_out[v]);
    }
  }
  for (std::uint32_t i = 0; i < ni; ++i)
    if (!is_resident(problem, i)) r.input_order.push_back(static_cast<int>(i));
  r.port_inputs = static_cast<int>(r.input_order.size());
  // Largest tail first, ties in graph input order (deterministic): it minimises max(release + tail), the cycle the
  // last output is ready, over every order of the port words.
  std::stable_sort(r.input_order.begin(), r.input_order.end(), [&](int a, int b) { return tail[a] > tail[b]; });
  r.release.assign(ni, 0);
  for (std::size_t j = 0; j < r.input_order.size(); ++j)
    r.release[r.input_order[j]] = static_cast<int>(j) / in_words + 1;
  // Every op as soon as its operands are there (ready: the cycle its value is usable), with these releases and, for
  // the bound, with every port input at the first beat's (no order makes an output ready earlier than that).
  auto ready_with = [&](const std::vector<int>& release) {
    std::vector<int> ready(n, 0);
    for (std::size_t v = 0; v < n; ++v) {
      const auto& nd = graph.nodes[v];
      if (nd.op == dfg::Op::Input) ready[v] = release[nd.input];
      if (!dfg::is_operation(nd.op)) continue;
      int s = 0;
      for (int k = 0; k < dfg::arity(nd.op); ++k) s = std::max(s, ready[nd.arg[k]]);
      ready[v] = s + g.lat[v];
    }
    return ready;
  };
  const std::vector<int> ready = ready_with(r.release);
  std::vector<int> first_beat(ni, 0);
  for (std::uint32_t i = 0; i < ni; ++i) first_beat[i] = is_resident(problem, i) ? 0 : 1;
  const std::vector<int> soonest = ready_with(first_beat);
  std::vector<int> out_ready(graph.outputs.size());
  int last_ready = 0, earliest = graph.outputs.empty() ? 0 : 1 << 30;
  for (std::size_t o = 0; o < graph.outputs.size(); ++o) {
    out_ready[o] = ready[graph.outputs[o].node];
    last_ready = std::max(last_ready, out_ready[o]);
    earliest = std::min(earliest, soonest[graph.outputs[o].node]);
    r.output_order.push_back(static_cast<int>(o));
  }
  // Outputs in the order they are ready (ties in graph output order), one word per cycle.
  std::stable_sort(r.output_order.begin(), r.output_order.end(), [&](int a, int b) { return out_ready[a] < out_ready[b]; });
  int last = -1;
  for (int o : r.output_order) last = std::max(last + 1, out_ready[o]);
  r.achieved = last + 1;
  r.bound = std::max(last_ready, earliest + r.outputs - 1) + 1;
  return r;
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
