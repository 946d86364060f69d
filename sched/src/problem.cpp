// Problem helpers, check() and the op-level adjacency shared by the algorithms.
#include "internal.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace neaccel::sched {

using dfg::is_operation;

int class_of(const Problem& problem, dfg::Op op) {
  for (std::size_t c = 0; c < problem.classes.size(); ++c) {
    const auto& ops = problem.classes[c].ops;
    if (std::find(ops.begin(), ops.end(), op) != ops.end()) return static_cast<int>(c);
  }
  return -1;
}

int node_latency(const Problem& problem, const Schedule& schedule, dfg::NodeId id) {
  const int c = schedule.slots[id].cls;
  if (!is_operation(problem.graph->nodes[id].op) || c < 0 || c >= static_cast<int>(problem.classes.size())) return 0;
  return problem.classes[c].latency;
}

std::vector<UnitClass> default_classes(int mul, int add, int lat_mul, int lat_add, bool mul_pipelined,
                                       bool add_pipelined) {
  using dfg::Op;
  return {UnitClass{"mul", {Op::Mul}, mul, lat_mul, mul_pipelined ? 1 : lat_mul},
          UnitClass{"add", {Op::Add, Op::Sub, Op::Neg, Op::Cmp}, add, lat_add, add_pipelined ? 1 : lat_add}};
}

std::vector<Lifetime> lifetimes(const Problem& problem, const Schedule& schedule) {
  const auto& nodes = problem.graph->nodes;
  const std::size_t n = nodes.size();
  std::vector<int> last_use(n, -1);
  for (std::size_t v = 0; v < n; ++v) {
    if (!is_operation(nodes[v].op)) continue;
    for (int k = 0; k < dfg::arity(nodes[v].op); ++k) {
      const dfg::NodeId a = nodes[v].arg[k];
      if (a < n) last_use[a] = std::max(last_use[a], schedule.slots[v].start);
    }
  }
  std::vector<char> output(n, 0);
  for (const auto& o : problem.graph->outputs)
    if (o.node < n) output[o.node] = 1;
  std::vector<Lifetime> out;
  for (std::size_t v = 0; v < n; ++v) {
    if (nodes[v].op == dfg::Op::Const) continue;
    if (nodes[v].op == dfg::Op::Input && is_resident(problem, nodes[v].input)) continue;  // parameter memory
    if (last_use[v] < 0 && !output[v]) continue;
    const dfg::NodeId id = static_cast<dfg::NodeId>(v);
    const int begin = is_operation(nodes[v].op) ? schedule.slots[v].start + node_latency(problem, schedule, id)
                      : nodes[v].op == dfg::Op::Input ? input_release(problem, nodes[v].input)
                                                      : 0;
    int end = std::max(begin + 1, last_use[v] + 1);
    if (output[v]) end = std::max(end, schedule.length + 1);
    out.push_back(Lifetime{id, begin, end});
  }
  return out;
}

namespace {
void check_class(const Problem& p, std::size_t c, std::set<std::string>& names) {
  const auto& u = p.classes[c];
  const std::string where = fmt::format("problem.classes[{}] ('{}')", c, u.name);
  if (u.name.empty()) throw Error(fmt::format("problem.classes[{}].name: empty", c));
  if (!names.insert(u.name).second) throw Error(fmt::format("{}.name: duplicate class name", where));
  if (u.ops.empty()) throw Error(fmt::format("{}.ops: executes no operation", where));
  for (auto op : u.ops)
    if (!is_operation(op)) throw Error(fmt::format("{}.ops: '{}' is not an operation", where, dfg::op_name(op)));
  if (u.count < 1) throw Error(fmt::format("{}.count: {} (need >= 1 unit)", where, u.count));
  if (u.latency < 1) throw Error(fmt::format("{}.latency: {} (need >= 1 cycle)", where, u.latency));
  if (u.occupancy < 1 || u.occupancy > u.latency)
    throw Error(fmt::format("{}.occupancy: {} (need 1 <= occupancy <= latency = {})", where, u.occupancy, u.latency));
}

void check_graph(const Problem& p) {
  const auto& g = *p.graph;
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    const auto& nd = g.nodes[v];
    if (nd.op == dfg::Op::Input && nd.input >= g.inputs.size())
      throw Error(fmt::format("graph.nodes[{}].input: {} out of range ({} inputs)", v, nd.input, g.inputs.size()));
    for (int k = 0; k < dfg::arity(nd.op); ++k)
      if (nd.arg[k] >= v)
        throw Error(fmt::format("graph.nodes[{}].arg[{}]: {} is not an earlier node (graph not topological)", v, k,
                                nd.arg[k] == dfg::kNoNode ? -1 : static_cast<long>(nd.arg[k])));
    if (is_operation(nd.op) && class_of(p, nd.op) < 0)
      throw Error(fmt::format("problem.classes: no unit class executes op '{}' (graph node {})", dfg::op_name(nd.op), v));
  }
  for (std::size_t o = 0; o < g.outputs.size(); ++o)
    if (g.outputs[o].node >= g.nodes.size())
      throw Error(fmt::format("graph.outputs[{}] ('{}'): node {} out of range", o, g.outputs[o].name,
                              static_cast<long>(g.outputs[o].node)));
}
}  // namespace

void check(const Problem& p) {
  if (p.graph == nullptr) throw Error("problem.graph: missing");
  if (p.classes.empty()) throw Error("problem.classes: no unit classes");
  if (!p.resident.empty() && p.resident.size() != p.graph->inputs.size())
    throw Error(fmt::format("problem.resident: {} entries for {} graph inputs", p.resident.size(), p.graph->inputs.size()));
  if (!p.release.empty()) {
    if (p.release.size() != p.graph->inputs.size())
      throw Error(fmt::format("problem.release: {} entries for {} graph inputs", p.release.size(), p.graph->inputs.size()));
    if (p.ii != 0) throw Error("problem.release: input release times are for latency schedules (ii 0)");
    for (std::size_t i = 0; i < p.release.size(); ++i)
      if (p.release[i] < 0) throw Error(fmt::format("problem.release[{}]: {} (need >= 0)", i, p.release[i]));
  }
  std::set<std::string> names;
  for (std::size_t c = 0; c < p.classes.size(); ++c) check_class(p, c, names);
  if (p.ii < 0) throw Error(fmt::format("problem.ii: {} (need >= 0)", p.ii));
  if (p.max_registers < 0) throw Error(fmt::format("problem.max_registers: {} (need >= 0)", p.max_registers));
  if (p.read_ports < 0) throw Error(fmt::format("problem.read_ports: {} (need >= 0)", p.read_ports));
  if (p.write_ports < 0) throw Error(fmt::format("problem.write_ports: {} (need >= 0)", p.write_ports));
  check_graph(p);
  if (p.read_ports > 0) {  // an op reads all its register operands in its issue cycle: more than the ports never fit
    const auto& g = *p.graph;
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
      const auto& nd = g.nodes[v];
      if (!is_operation(nd.op)) continue;
      std::set<dfg::NodeId> regs;
      for (int k = 0; k < dfg::arity(nd.op); ++k) {
        const auto& a = g.nodes[nd.arg[k]];
        if (a.op != dfg::Op::Const && !(a.op == dfg::Op::Input && is_resident(p, a.input))) regs.insert(nd.arg[k]);
      }
      if (static_cast<int>(regs.size()) > p.read_ports)
        throw Error(fmt::format("problem.read_ports: {} but node {} ({}) reads {} register operands in its issue cycle "
                                "(no schedule exists)", p.read_ports, v, dfg::op_name(nd.op), regs.size()));
    }
  }
}

namespace detail {

OpGraph build_op_graph(const Problem& p) {
  const auto& nodes = p.graph->nodes;
  const std::size_t n = nodes.size();
  OpGraph g;
  g.cls.assign(n, -1);
  g.lat.assign(n, 0);
  g.occ.assign(n, 0);
  g.npred.assign(n, 0);
  g.is_output.assign(n, 0);
  g.succ_off.assign(n + 1, 0);
  for (const auto& o : p.graph->outputs)
    if (o.node < n) g.is_output[o.node] = 1;
  for (std::size_t v = 0; v < n; ++v) {
    if (!is_operation(nodes[v].op)) continue;
    g.ops.push_back(static_cast<std::uint32_t>(v));
    const int c = class_of(p, nodes[v].op);
    g.cls[v] = c;
    g.lat[v] = p.classes[c].latency;
    g.occ[v] = p.classes[c].occupancy;
    for (int k = 0; k < dfg::arity(nodes[v].op); ++k) {
      const auto a = nodes[v].arg[k];
      if (is_operation(nodes[a].op)) {
        ++g.succ_off[a + 1];
        ++g.npred[v];
      }
    }
  }
  for (std::size_t v = 0; v < n; ++v) g.succ_off[v + 1] += g.succ_off[v];
  g.succ.resize(g.succ_off[n]);
  std::vector<int> fill(g.succ_off.begin(), g.succ_off.end() - 1);
  for (auto v : g.ops)
    for (int k = 0; k < dfg::arity(nodes[v].op); ++k) {
      const auto a = nodes[v].arg[k];
      if (is_operation(nodes[a].op)) g.succ[fill[a]++] = v;
    }
  return g;
}

RegUse reg_use(const Problem& p) {
  const auto& g = *p.graph;
  const std::size_t n = g.nodes.size();
  RegUse r;
  r.operands.resize(n);
  r.writes.assign(n, 0);
  std::vector<char> read(n, 0), by_op(n, 0);
  for (std::size_t v = 0; v < n; ++v) {
    const auto& nd = g.nodes[v];
    if (!is_operation(nd.op)) continue;
    for (int k = 0; k < dfg::arity(nd.op); ++k) {
      const auto a = nd.arg[k];
      const auto& an = g.nodes[a];
      if (an.op == dfg::Op::Const || (an.op == dfg::Op::Input && is_resident(p, an.input))) continue;
      if (std::find(r.operands[v].begin(), r.operands[v].end(), a) == r.operands[v].end()) r.operands[v].push_back(a);
      read[a] = by_op[a] = 1;
    }
  }
  for (const auto& o : g.outputs) read[o.node] = 1;
  for (std::size_t v = 0; v < n; ++v) {
    r.writes[v] = is_operation(g.nodes[v].op) && read[v] ? 1 : 0;
    r.results_written += r.writes[v];
    r.values_read += by_op[v];
  }
  return r;
}

std::vector<int> asap_starts(const OpGraph& g) {
  std::vector<int> s(g.cls.size(), 0);
  for (auto u : g.ops)
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) s[g.succ[e]] = std::max(s[g.succ[e]], s[u] + g.lat[u]);
  return s;
}

std::vector<int> heights(const OpGraph& g) {
  std::vector<int> h(g.cls.size(), 0);
  for (auto it = g.ops.rbegin(); it != g.ops.rend(); ++it) {
    const auto u = *it;
    int best = 0;
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) best = std::max(best, h[g.succ[e]]);
    h[u] = g.lat[u] + best;
  }
  return h;
}

OpGraph reversed(const OpGraph& g) {
  OpGraph r = g;
  const std::size_t n = g.cls.size();
  std::fill(r.succ_off.begin(), r.succ_off.end(), 0);
  std::fill(r.npred.begin(), r.npred.end(), 0);
  for (auto u : g.ops)
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) {
      ++r.succ_off[g.succ[e] + 1];
      ++r.npred[u];
    }
  for (std::size_t v = 0; v < n; ++v) r.succ_off[v + 1] += r.succ_off[v];
  std::vector<int> fill(r.succ_off.begin(), r.succ_off.end() - 1);
  for (auto u : g.ops)
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) r.succ[fill[g.succ[e]]++] = u;
  std::reverse(r.ops.begin(), r.ops.end());
  return r;
}

}  // namespace detail
}  // namespace neaccel::sched
