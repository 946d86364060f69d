// Incremental construction of a dfg::Graph in topological order, with optional hash-consing.
//
// Every node is appended after its operands, so the graph is topological by construction. With hash-consing on,
// a request for a node identical to an existing one (same op, same operands, same constant bits) returns the
// existing id; operands of commutative ops (add, mul) are put in canonical order first, so a*b and b*a are one
// node. That is common-subexpression elimination at build time; the CSE pass (passes.hpp) does it afterwards.
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

namespace neaccel::dfg {

class Builder {
 public:
  explicit Builder(bool hash_cons = false) : hash_cons_(hash_cons) {}

  // Provenance index for (link, quantity, equation), added to the table if new (entry 0 stays "unknown").
  std::uint32_t provenance(const Provenance& p);
  // Copies the provenance table of `g` (indices stay the same); call before adding nodes of a transformed graph.
  void adopt_provenance(const Graph& g);

  // The Input node named `name` (created on first request; inputs are always unique by name).
  NodeId input(const std::string& name, std::uint32_t prov = 0);
  // A constant. With hash-consing, equal bit patterns share one node.
  NodeId constant(double value, std::uint32_t prov = 0);
  // An operation node; operands must exist. Throws neaccel::Error on wrong arity or a dangling operand.
  NodeId op(Op op, NodeId a, NodeId b = kNoNode, NodeId c = kNoNode, std::uint32_t prov = 0);
  // Declares an output.
  void output(const std::string& name, NodeId node);
  // Declares an input name without a node (keeps an input slot even when nothing reads it).
  void declare_input(const std::string& name);

  const Graph& graph() const { return g_; }
  Graph take() { return std::move(g_); }

 private:
  using Key = std::tuple<std::uint8_t, NodeId, NodeId, NodeId, std::uint64_t>;
  bool hash_cons_;
  Graph g_;
  std::map<Key, NodeId> cons_;
  std::unordered_map<std::string, NodeId> input_node_;
  std::unordered_map<std::string, std::uint32_t> input_index_;
  std::map<std::tuple<int, std::string, std::string>, std::uint32_t> prov_;
};

}  // namespace neaccel::dfg
