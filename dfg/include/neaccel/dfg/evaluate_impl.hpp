// Template definitions for evaluate.hpp.
#pragma once

#include "neaccel/ref/error.hpp"

#include <string>
#include <vector>

namespace neaccel::dfg {

template <class T>
std::vector<T> evaluate_nodes(const Graph& g, const std::vector<T>& inputs, const Arithmetic<T>& ar,
                              const std::vector<NodeId>& order) {
  if (inputs.size() != g.inputs.size())
    throw Error("evaluate: graph has " + std::to_string(g.inputs.size()) + " inputs, got " +
                std::to_string(inputs.size()));
  std::vector<T> v(g.nodes.size());
  if (order.empty()) {
    for (std::size_t i = 0; i < g.nodes.size(); ++i) v[i] = evaluate_node(g, g.nodes[i], v, inputs, ar);
    return v;
  }
  if (order.size() != g.nodes.size()) throw Error("evaluate: order does not list every node once");
  std::vector<char> done(g.nodes.size(), 0);
  for (NodeId id : order) {
    if (id >= g.nodes.size() || done[id]) throw Error("evaluate: order does not list every node once");
    const Node& n = g.nodes[id];
    for (int k = 0; k < arity(n.op); ++k)
      if (!done[n.arg[static_cast<std::size_t>(k)]])
        throw Error("evaluate: order visits node " + std::to_string(id) + " before its operand");
    v[id] = evaluate_node(g, n, v, inputs, ar);
    done[id] = 1;
  }
  return v;
}

template <class T>
std::vector<T> evaluate(const Graph& g, const std::vector<T>& inputs, const Arithmetic<T>& ar,
                        const std::vector<NodeId>& order) {
  const std::vector<T> v = evaluate_nodes(g, inputs, ar, order);
  std::vector<T> out;
  out.reserve(g.outputs.size());
  for (const Output& o : g.outputs) out.push_back(v[o.node]);
  return out;
}

}  // namespace neaccel::dfg
