#include "neaccel/dfg/graph.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cstring>
#include <map>
#include <set>

namespace neaccel::dfg {

int arity(Op op) {
  switch (op) {
    case Op::Input:
    case Op::Const: return 0;
    case Op::Neg:
    case Op::Sqrt: return 1;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Cmp: return 2;
    case Op::Fma: return 3;
  }
  return 0;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::Input: return "input";
    case Op::Const: return "const";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Neg: return "neg";
    case Op::Div: return "div";
    case Op::Sqrt: return "sqrt";
    case Op::Fma: return "fma";
    case Op::Cmp: return "cmp";
  }
  return "?";
}

bool op_from_name(const std::string& name, Op& op) {
  for (int k = 0; k < kNumOps; ++k) {
    if (name == op_name(static_cast<Op>(k))) {
      op = static_cast<Op>(k);
      return true;
    }
  }
  return false;
}

bool is_commutative(Op op) { return op == Op::Add || op == Op::Mul; }

bool operator==(const Provenance& a, const Provenance& b) {
  return a.link == b.link && a.quantity == b.quantity && a.equation == b.equation;
}

bool operator==(const Node& a, const Node& b) {
  return a.op == b.op && a.arg == b.arg && std::memcmp(&a.value, &b.value, sizeof(double)) == 0 &&
         a.input == b.input && a.prov == b.prov;
}

bool operator==(const Output& a, const Output& b) { return a.name == b.name && a.node == b.node; }

bool operator==(const Graph& a, const Graph& b) {
  return a.nodes == b.nodes && a.inputs == b.inputs && a.outputs == b.outputs && a.provenance == b.provenance;
}

void validate(const Graph& g, const std::string& what) {
  if (g.provenance.empty()) throw Error(what + ": provenance table is empty (entry 0 must be 'unknown')");
  std::vector<int> input_used(g.inputs.size(), -1);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    const int k = arity(n.op);
    if (static_cast<int>(n.op) >= kNumOps) throw Error(fmt::format("{}: node {}: unknown op code", what, i));
    for (int a = 0; a < 3; ++a) {
      const NodeId id = n.arg[static_cast<std::size_t>(a)];
      if (a < k && id == kNoNode)
        throw Error(fmt::format("{}: node {} ({}) has {} operands, needs {}", what, i, op_name(n.op), a, k));
      if (a >= k && id != kNoNode)
        throw Error(fmt::format("{}: node {} ({}) has more than {} operands", what, i, op_name(n.op), k));
      if (a < k && id >= i)
        throw Error(fmt::format("{}: node {} ({}) operand {} is node {}: not in topological order or dangling",
                                what, i, op_name(n.op), a, id));
    }
    if (n.op == Op::Input) {
      if (n.input >= g.inputs.size())
        throw Error(fmt::format("{}: node {} reads input {} but there are {} inputs", what, i, n.input, g.inputs.size()));
      if (input_used[n.input] >= 0)
        throw Error(fmt::format("{}: input '{}' is read by nodes {} and {}", what, g.inputs[n.input],
                                input_used[n.input], i));
      input_used[n.input] = static_cast<int>(i);
    }
    if (n.prov >= g.provenance.size())
      throw Error(fmt::format("{}: node {} provenance {} out of range", what, i, n.prov));
  }
  std::set<std::string> names;
  for (const std::string& s : g.inputs)
    if (!names.insert(s).second) throw Error(fmt::format("{}: duplicate input name '{}'", what, s));
  std::set<std::string> outs;
  for (const Output& o : g.outputs) {
    if (o.node >= g.nodes.size()) throw Error(fmt::format("{}: output '{}' names no node ({})", what, o.name, o.node));
    if (!outs.insert(o.name).second) throw Error(fmt::format("{}: duplicate output name '{}'", what, o.name));
  }
}

int OpCounts::operations() const {
  int s = 0;
  for (int k = 0; k < kNumOps; ++k)
    if (is_operation(static_cast<Op>(k))) s += by_op[static_cast<std::size_t>(k)];
  return s;
}

OpCounts count_ops(const Graph& g) {
  OpCounts c;
  for (const Node& n : g.nodes) ++c.by_op[static_cast<std::size_t>(n.op)];
  return c;
}

std::vector<std::pair<std::string, OpCounts>> count_by_quantity(const Graph& g) {
  std::map<std::string, OpCounts> m;
  for (const Node& n : g.nodes) {
    const std::string& q = n.prov < g.provenance.size() ? g.provenance[n.prov].quantity : std::string();
    ++m[q].by_op[static_cast<std::size_t>(n.op)];
  }
  return {m.begin(), m.end()};
}

std::vector<OpCounts> count_by_link(const Graph& g) {
  std::vector<OpCounts> v(1);
  for (const Node& n : g.nodes) {
    const int link = n.prov < g.provenance.size() ? g.provenance[n.prov].link : 0;
    const auto l = static_cast<std::size_t>(link < 0 ? 0 : link);
    if (l >= v.size()) v.resize(l + 1);
    ++v[l].by_op[static_cast<std::size_t>(n.op)];
  }
  return v;
}

int find_input(const Graph& g, const std::string& name) {
  for (std::size_t i = 0; i < g.inputs.size(); ++i)
    if (g.inputs[i] == name) return static_cast<int>(i);
  return -1;
}

}  // namespace neaccel::dfg
