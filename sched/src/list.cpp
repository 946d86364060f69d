// Resource-constrained list scheduling with a backward-forward improvement step and randomized restarts.
#include "internal.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <queue>
#include <random>

namespace neaccel::sched {

Priority parse_priority(const std::string& name) {
  if (name == "height") return Priority::Height;
  if (name == "mobility") return Priority::Mobility;
  if (name == "provenance") return Priority::Provenance;
  throw Error(fmt::format("priority: unknown '{}' (height, mobility, provenance)", name));
}

const char* priority_name(Priority p) {
  switch (p) {
    case Priority::Height: return "height";
    case Priority::Mobility: return "mobility";
    case Priority::Provenance: return "provenance";
  }
  return "?";
}

namespace {

using detail::OpGraph;

// Priority of a ready op: larger (k1, k2) first, then the smaller node id.
struct Key {
  long k1 = 0, k2 = 0;
};
struct Entry {
  long k1, k2;
  std::uint32_t id;
  bool operator<(const Entry& o) const {  // std::priority_queue pops the largest
    if (k1 != o.k1) return k1 < o.k1;
    if (k2 != o.k2) return k2 < o.k2;
    return id > o.id;
  }
};

struct Result {
  std::vector<int> start, inst;
  int length = std::numeric_limits<int>::max();
};

// Register-file limits honoured by a forward pass. A value's register is reserved from its producer's
// issue (earlier than its lifetime's begin) and released when its last consumer issues (its lifetime ends one cycle
// later, when the new value cannot have begun yet): the values alive at a cycle are among those reserved at its
// start, so the maximum live -- the registers left-edge allocation needs -- never exceeds max_registers. Read ports:
// distinct non-constant operands read in the issue cycle; write ports: results written at issue + latency - 1.
struct Limits {
  int max_registers = 0, read_ports = 0, write_ports = 0;
  std::vector<char> needs_reg;          // per node: the value needs a register (an op or input that is read or output)
  std::vector<char> is_output;
  std::vector<int> consumers;           // per node: distinct consumer ops
  std::vector<std::vector<dfg::NodeId>> operands;  // per op: distinct non-constant operands (inputs included)
  int inputs_live = 0;
  bool active() const { return max_registers > 0 || read_ports > 0 || write_ports > 0; }
};

Limits make_limits(const Problem& p) {
  Limits l;
  l.max_registers = p.max_registers;
  l.read_ports = p.read_ports;
  l.write_ports = p.write_ports;
  const auto& g = *p.graph;
  const std::size_t n = g.nodes.size();
  l.needs_reg.assign(n, 0);
  l.is_output.assign(n, 0);
  l.consumers.assign(n, 0);
  l.operands.resize(n);
  for (const auto& o : g.outputs) l.is_output[o.node] = 1;
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (!dfg::is_operation(node.op)) continue;
    for (int k = 0; k < dfg::arity(node.op); ++k) {
      const auto a = node.arg[k];
      if (g.nodes[a].op == dfg::Op::Const) continue;
      if (g.nodes[a].op == dfg::Op::Input && is_resident(p, g.nodes[a].input)) continue;  // parameter memory
      if (std::find(l.operands[v].begin(), l.operands[v].end(), a) == l.operands[v].end()) l.operands[v].push_back(a);
    }
    for (auto a : l.operands[v]) ++l.consumers[a];
  }
  for (std::size_t v = 0; v < n; ++v) {
    const auto op = g.nodes[v].op;
    if (op == dfg::Op::Const) continue;
    if (op == dfg::Op::Input && is_resident(p, g.nodes[v].input)) continue;
    l.needs_reg[v] = (l.consumers[v] > 0 || l.is_output[v]) ? 1 : 0;
    if (op == dfg::Op::Input) l.inputs_live += l.needs_reg[v];
  }
  return l;
}

// One list-scheduling pass over g (forward, or a reversed graph), cycle by cycle. An op placed at t keeps its
// instance busy over [t + d, t + d + occupancy) with d = 0 forward and d = latency - occupancy backward (the
// mirror image of a forward issue slot), so a backward schedule mirrored in time is a valid forward schedule.
// earliest (forward passes only; empty: none): per node, the first cycle it may start (the release of the graph
// inputs it reads, Problem::release).
Result run_list(const OpGraph& g, const std::vector<UnitClass>& classes, const std::vector<Key>& key,
                bool backward = false, const Limits* lim = nullptr, const std::vector<int>& earliest = {}) {
  const std::size_t n = g.cls.size();
  Result r;
  r.start.assign(n, 0);
  r.inst.assign(n, -1);
  std::vector<int> ready = earliest.empty() ? std::vector<int>(n, 0) : earliest, np = g.npred;
  using Pending = std::pair<int, std::uint32_t>;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending;
  std::vector<std::priority_queue<Entry>> heap(classes.size());
  std::vector<std::vector<int>> free_at(classes.size());
  for (std::size_t c = 0; c < classes.size(); ++c) free_at[c].assign(classes[c].count, 0);
  for (auto v : g.ops)
    if (np[v] == 0) pending.emplace(ready[v], v);
  std::size_t done = 0;
  int length = 0;
  // Register-file state (lim): registers reserved, consumers left per value, writes per cycle, values read now.
  int reserved = lim ? lim->inputs_live : 0;
  std::vector<int> left = lim ? lim->consumers : std::vector<int>();
  std::vector<int> writes;
  std::vector<dfg::NodeId> read_now;
  int read_cycle = -1;
  if (lim && lim->max_registers > 0 && reserved > lim->max_registers)
    throw Error(fmt::format("list schedule: the {} inputs alone need more than max_registers {}", reserved,
                            lim->max_registers));
  auto fits = [&](std::uint32_t v, int t) {  // the register-file limits allow issuing v at t
    if (!lim) return true;
    if (read_cycle != t) {
      read_cycle = t;
      read_now.clear();
    }
    if (lim->max_registers > 0) {
      int freed = 0;
      for (auto a : lim->operands[v]) freed += (left[a] == 1 && !lim->is_output[a]) ? 1 : 0;
      if (reserved - freed + lim->needs_reg[v] > lim->max_registers) return false;
    }
    if (lim->read_ports > 0) {
      int extra = 0;
      for (auto a : lim->operands[v]) extra += std::find(read_now.begin(), read_now.end(), a) == read_now.end() ? 1 : 0;
      if (static_cast<int>(read_now.size()) + extra > lim->read_ports) return false;
    }
    if (lim->write_ports > 0 && lim->needs_reg[v]) {
      const std::size_t w = static_cast<std::size_t>(t + g.lat[v] - 1);
      if (w < writes.size() && writes[w] >= lim->write_ports) return false;
    }
    return true;
  };
  auto take = [&](std::uint32_t v, int t) {
    if (!lim) return;
    for (auto a : lim->operands[v]) {
      if (--left[a] == 0 && !lim->is_output[a]) --reserved;
      if (std::find(read_now.begin(), read_now.end(), a) == read_now.end()) read_now.push_back(a);
    }
    reserved += lim->needs_reg[v];
    if (lim->needs_reg[v]) {
      const std::size_t w = static_cast<std::size_t>(t + g.lat[v] - 1);
      if (w >= writes.size()) writes.resize(w + 1, 0);
      ++writes[w];
    }
  };
  int stalled = 0;
  std::size_t last_done = 0;
  for (int t = 0; done < g.ops.size();) {
    while (!pending.empty() && pending.top().first <= t) {
      const auto v = pending.top().second;
      pending.pop();
      heap[g.cls[v]].push(Entry{key[v].k1, key[v].k2, v});
    }
    bool waiting = false;
    for (std::size_t c = 0; c < classes.size(); ++c) {
      auto& h = heap[c];
      const int d = backward ? classes[c].latency - classes[c].occupancy : 0;
      std::vector<Entry> skipped;  // ready ops the register-file limits hold back this cycle
      for (int i = 0; i < classes[c].count && !h.empty(); ++i) {
        if (free_at[c][i] > t + d) continue;
        while (!h.empty() && !fits(h.top().id, t)) {
          skipped.push_back(h.top());
          h.pop();
        }
        if (h.empty()) break;
        const auto v = h.top().id;
        h.pop();
        take(v, t);
        r.start[v] = t;
        r.inst[v] = i;
        free_at[c][i] = t + d + g.occ[v];
        length = std::max(length, t + g.lat[v]);
        ++done;
        for (int e = g.succ_off[v]; e < g.succ_off[v + 1]; ++e) {
          const auto s = g.succ[e];
          ready[s] = std::max(ready[s], t + g.lat[v]);
          if (--np[s] == 0) pending.emplace(ready[s], s);
        }
      }
      for (const auto& e : skipped) h.push(e);
      waiting = waiting || !h.empty();
    }
    if (lim) {  // no progress possible: every ready op exceeds the register limit and nothing is in flight
      bool in_flight = !pending.empty();
      stalled = (waiting && !in_flight && done == last_done) ? stalled + 1 : 0;
      last_done = done;
      if (stalled > 2 * static_cast<int>(g.ops.size()) + 16)
        throw Error(fmt::format("list schedule: no schedule found within max_registers {} (read ports {}, write ports "
                                "{}): the register-aware list scheduler is a heuristic", lim->max_registers,
                                lim->read_ports, lim->write_ports));
    }
    t = (waiting || pending.empty()) ? t + 1 : std::max(t + 1, pending.top().first);
  }
  r.length = length;
  return r;
}

std::vector<Key> base_keys(const OpGraph& g, Priority p) {
  const auto h = detail::heights(g);
  const auto a = detail::asap_starts(g);
  int cp = 0;
  for (auto v : g.ops) cp = std::max(cp, h[v]);
  std::vector<Key> k(g.cls.size());
  for (auto v : g.ops) {
    const long mob = cp - h[v] - a[v];
    switch (p) {
      case Priority::Height: k[v] = {h[v], -mob}; break;
      case Priority::Mobility: k[v] = {-mob, h[v]}; break;
      case Priority::Provenance: k[v] = {0, 0}; break;  // node order decides
    }
  }
  return k;
}

Schedule to_schedule(const Problem& p, const OpGraph& g, const Result& r, std::string algo) {
  Schedule s;
  s.slots.resize(g.cls.size());
  for (auto v : g.ops) s.slots[v] = Slot{r.start[v], g.cls[v], r.inst[v]};
  s.length = g.ops.empty() ? 0 : r.length;
  s.ii = 0;
  s.algorithm = std::move(algo);
  (void)p;
  return s;
}

}  // namespace

namespace {

// Per node, the first cycle it may start: the largest release of the graph inputs it reads (Problem::release).
std::vector<int> earliest_starts(const Problem& problem) {
  const auto& g = *problem.graph;
  std::vector<int> e(g.nodes.size(), 0);
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    const auto& nd = g.nodes[v];
    if (!dfg::is_operation(nd.op)) continue;
    for (int k = 0; k < dfg::arity(nd.op); ++k) {
      const auto& a = g.nodes[nd.arg[k]];
      if (a.op == dfg::Op::Input) e[v] = std::max(e[v], input_release(problem, a.input));
    }
  }
  return e;
}

// The cycles from the first input word to the last output word when every output leaves on a one-word port as soon as
// it is computed, in the order the outputs are ready (sched::io_overlap's rule): what a schedule with input releases
// is ranked by.
int overlapped_span(const Problem& problem, const OpGraph& g, const Result& r) {
  std::vector<int> ready;
  for (const auto& o : problem.graph->outputs) {
    const auto& nd = problem.graph->nodes[o.node];
    ready.push_back(dfg::is_operation(nd.op) ? r.start[o.node] + g.lat[o.node]
                    : nd.op == dfg::Op::Input ? input_release(problem, nd.input)
                                              : 0);
  }
  std::sort(ready.begin(), ready.end());
  int last = -1;
  for (int t : ready) last = std::max(last + 1, t);
  return last + 1;
}

constexpr int kReleasedRestarts = 64;

// Inputs arriving while the recursion runs (Problem::release): forward passes only (a mirrored backward pass would not
// keep the releases), each op no earlier than its inputs' release, ranked by the overlapped span above, then length.
Schedule list_schedule_released(const Problem& problem, const ListOptions& options, const OpGraph& g, int lb,
                                const Limits& limits) {
  const std::vector<int> earliest = earliest_starts(problem);
  const Limits* lim = limits.active() ? &limits : nullptr;
  const auto h = detail::heights(g);
  Result best;
  int best_span = std::numeric_limits<int>::max();
  std::string how, last_error;
  auto consider = [&](const std::vector<Key>& keys, const std::string& name) {
    try {
      const Result r = run_list(g, problem.classes, keys, false, lim, earliest);
      const int span = overlapped_span(problem, g, r);
      if (span < best_span || (span == best_span && r.length < best.length)) {
        best = r;
        best_span = span;
        how = name;
      }
    } catch (const Error& e) {
      last_error = e.what();  // this order ran out of registers; keep the others
    }
  };
  for (const Priority pr : {options.priority, Priority::Mobility, Priority::Provenance})
    consider(base_keys(g, pr), fmt::format("list/{}/released", priority_name(pr)));
  // Randomized restarts (height with jitter, random ties; seeded, so deterministic) until one reaches the bound: the
  // releases leave several orders of equal height, and the best of them often saves the cycle the first pass loses.
  // No schedule spans less than every op as soon as its operands are there, on unlimited units (io_overlap's
  // construction for these releases).
  Result asap;
  asap.start.assign(g.cls.size(), 0);
  {
    const auto& graph = *problem.graph;
    std::vector<int> ready(graph.nodes.size(), 0);
    for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
      const auto& nd = graph.nodes[v];
      if (nd.op == dfg::Op::Input) ready[v] = input_release(problem, nd.input);
      if (!dfg::is_operation(nd.op)) continue;
      for (int k = 0; k < dfg::arity(nd.op); ++k) asap.start[v] = std::max(asap.start[v], ready[nd.arg[k]]);
      ready[v] = asap.start[v] + g.lat[v];
    }
  }
  const int bound = overlapped_span(problem, g, asap);
  std::mt19937_64 rng(options.seed);
  for (int it = 0; it < std::max(options.restarts, kReleasedRestarts) && best_span > bound; ++it) {
    std::vector<Key> rk(g.cls.size());
    std::uniform_int_distribution<long> jitter(0, 2), tie(0, 1L << 30);
    for (auto v : g.ops) rk[v] = {h[v] + jitter(rng), tie(rng)};
    consider(rk, fmt::format("list/{}/released+restart{}", priority_name(options.priority), it + 1));
  }
  if (best.start.empty()) throw Error(last_error);
  Schedule s = to_schedule(problem, g, best, how);
  s.lower_bound = lb;
  s.proven_optimal = s.length == lb;
  return s;
}

}  // namespace

Schedule list_schedule(const Problem& problem, const ListOptions& options) {
  if (problem.ii != 0) throw Error("list schedule: problem.ii must be 0 (use the modulo scheduler for ii > 0)");
  const auto g = detail::build_op_graph(problem);
  const int lb = lower_bound(problem);
  const auto h = detail::heights(g);
  const Limits limits = make_limits(problem);
  if (!problem.release.empty()) return list_schedule_released(problem, options, g, lb, limits);
  if (limits.active()) {  // register-file limits: forward passes only (a mirrored backward pass would not keep them)
    // The chosen priority, then the trace order (depth-first in the recursion, so fewer values alive at once), then
    // randomized restarts; a pass that runs out of registers is dropped.
    Result best;
    std::string how, last_error;
    for (const Priority pr : {options.priority, Priority::Provenance}) {
      try {
        const Result r = run_list(g, problem.classes, base_keys(g, pr), false, &limits);
        if (r.length < best.length) {
          best = r;
          how = fmt::format("list/{}/regs", priority_name(pr));
        }
      } catch (const Error& e) {
        last_error = e.what();
      }
    }
    std::mt19937_64 rng(options.seed);
    for (int it = 0; it < options.restarts && best.length > lb; ++it) {
      std::vector<Key> rk(g.cls.size());
      std::uniform_int_distribution<long> jitter(0, 2), tie(0, 1L << 30);
      for (auto v : g.ops) rk[v] = {h[v] + jitter(rng), tie(rng)};
      try {
        const Result r = run_list(g, problem.classes, rk, false, &limits);
        if (r.length < best.length) {
          best = r;
          how = fmt::format("list/{}/regs+restart{}", priority_name(options.priority), it + 1);
        }
      } catch (const Error& e) {
        last_error = e.what();  // this order ran out of registers; keep the others
      }
    }
    // The unconstrained list schedule (backward-forward passes, which the limits cannot follow) where it happens to
    // keep the limits and is strictly shorter: a limit that does not bind costs nothing.
    {
      Problem free = problem;
      free.max_registers = free.read_ports = free.write_ports = 0;
      ListOptions fo = options;
      Schedule u = list_schedule(free, fo);
      if (best.start.empty() || u.length < best.length) {
        Problem ports = problem;
        ports.max_registers = 0;
        if (verify(ports, u, 1).empty() && (problem.max_registers == 0 || max_live(problem, u) <= problem.max_registers)) {
          Schedule s = u;
          s.algorithm += problem.max_registers > 0 ? " (within the limits)" : " (within the ports)";
          s.lower_bound = lb;
          s.proven_optimal = s.length == lb;
          return s;
        }
      }
    }
    if (best.start.empty()) throw Error(last_error);
    Schedule s = to_schedule(problem, g, best, how);
    s.lower_bound = lb;
    s.proven_optimal = s.length == lb;
    return s;
  }
  Result best = run_list(g, problem.classes, base_keys(g, options.priority));
  std::string how = fmt::format("list/{}", priority_name(options.priority));
  // Backward-forward improvement: a backward pass with the forward finish times as priority gives each op a
  // latest start; the next forward pass schedules by smallest latest start.
  const OpGraph rg = detail::reversed(g);
  // A backward schedule mirrored in time is itself a valid forward schedule (run_list's backward busy windows
  // mirror the forward ones exactly): it is a candidate too.
  auto mirror = [&](const Result& bwd) {
    Result m = bwd;
    for (auto v : g.ops) m.start[v] = bwd.length - bwd.start[v] - g.lat[v];
    return m;
  };
  Result fwd = best;
  for (int it = 0; it < options.backward_forward && best.length > lb; ++it) {
    std::vector<Key> bk(g.cls.size());
    for (auto v : g.ops) bk[v] = {fwd.start[v] + g.lat[v], h[v]};
    const Result bwd = run_list(rg, problem.classes, bk, true);
    if (bwd.length < best.length) {
      best = mirror(bwd);
      how = fmt::format("list/{}+bf{}b", priority_name(options.priority), it + 1);
    }
    std::vector<Key> fk(g.cls.size());
    for (auto v : g.ops) fk[v] = {-(bwd.length - bwd.start[v] - g.lat[v]), h[v]};
    fwd = run_list(g, problem.classes, fk);
    if (fwd.length < best.length) {
      best = fwd;
      how = fmt::format("list/{}+bf{}", priority_name(options.priority), it + 1);
    }
  }
  std::mt19937_64 rng(options.seed);
  for (int it = 0; it < options.restarts && best.length > lb; ++it) {
    std::vector<Key> rk(g.cls.size());
    std::uniform_int_distribution<long> jitter(0, 2), tie(0, 1L << 30);
    for (auto v : g.ops) rk[v] = {h[v] + jitter(rng), tie(rng)};
    const Result r = run_list(g, problem.classes, rk);
    if (r.length < best.length) {
      best = r;
      how = fmt::format("list/{}+restart{}", priority_name(options.priority), it + 1);
    }
  }
  Schedule s = to_schedule(problem, g, best, how);
  s.lower_bound = lb;
  s.proven_optimal = s.length == lb;
  return s;
}

}  // namespace neaccel::sched
