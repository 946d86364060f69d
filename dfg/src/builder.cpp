#include "neaccel/dfg/builder.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace neaccel::dfg {

std::uint32_t Builder::provenance(const Provenance& p) {
  if (p.link == 0 && p.quantity.empty() && p.equation.empty()) return 0;
  const auto key = std::make_tuple(p.link, p.quantity, p.equation);
  auto it = prov_.find(key);
  if (it != prov_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(g_.provenance.size());
  g_.provenance.push_back(p);
  prov_.emplace(key, id);
  return id;
}

void Builder::adopt_provenance(const Graph& g) {
  g_.provenance = g.provenance;
  prov_.clear();
  for (std::size_t i = 1; i < g.provenance.size(); ++i) {
    const Provenance& p = g.provenance[i];
    prov_.emplace(std::make_tuple(p.link, p.quantity, p.equation), static_cast<std::uint32_t>(i));
  }
}

void Builder::declare_input(const std::string& name) {
  if (input_index_.count(name)) return;
  input_index_.emplace(name, static_cast<std::uint32_t>(g_.inputs.size()));
  g_.inputs.push_back(name);
}

NodeId Builder::input(const std::string& name, std::uint32_t prov) {
  auto it = input_node_.find(name);
  if (it != input_node_.end()) return it->second;
  declare_input(name);
  Node n;
  n.op = Op::Input;
  n.input = input_index_.at(name);
  n.prov = prov;
  const auto id = static_cast<NodeId>(g_.nodes.size());
  g_.nodes.push_back(n);
  input_node_.emplace(name, id);
  return id;
}

NodeId Builder::constant(double value, std::uint32_t prov) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  const Key key{static_cast<std::uint8_t>(Op::Const), kNoNode, kNoNode, kNoNode, bits};
  if (hash_cons_) {
    auto it = cons_.find(key);
    if (it != cons_.end()) return it->second;
  }
  Node n;
  n.op = Op::Const;
  n.value = value;
  n.prov = prov;
  const auto id = static_cast<NodeId>(g_.nodes.size());
  g_.nodes.push_back(n);
  if (hash_cons_) cons_.emplace(key, id);
  return id;
}

NodeId Builder::op(Op op, NodeId a, NodeId b, NodeId c, std::uint32_t prov) {
  const int k = arity(op);
  if (k == 0) throw Error(fmt::format("graph builder: op '{}' is not an operation", op_name(op)));
  std::array<NodeId, 3> args{a, b, c};
  const auto size = static_cast<NodeId>(g_.nodes.size());
  for (int i = 0; i < 3; ++i) {
    const NodeId x = args[static_cast<std::size_t>(i)];
    if (i < k && x >= size)
      throw Error(fmt::format("graph builder: {} operand {} is node {} which does not exist", op_name(op), i, x));
    if (i >= k && x != kNoNode) throw Error(fmt::format("graph builder: {} takes {} operands", op_name(op), k));
  }
  if (hash_cons_ && is_commutative(op) && args[0] > args[1]) std::swap(args[0], args[1]);
  const Key key{static_cast<std::uint8_t>(op), args[0], args[1], args[2], 0};
  if (hash_cons_) {
    auto it = cons_.find(key);
    if (it != cons_.end()) return it->second;
  }
  Node n;
  n.op = op;
  n.arg = args;
  n.prov = prov;
  g_.nodes.push_back(n);
  if (hash_cons_) cons_.emplace(key, size);
  return size;
}

void Builder::output(const std::string& name, NodeId node) {
  if (node >= g_.nodes.size()) throw Error(fmt::format("graph builder: output '{}' names no node", name));
  g_.outputs.push_back({name, node});
}

}  // namespace neaccel::dfg
