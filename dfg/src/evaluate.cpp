#include "neaccel/dfg/evaluate.hpp"

#include "neaccel/ref/error.hpp"

namespace neaccel::dfg {

std::vector<double> bind_inputs(const Graph& g, const std::map<std::string, double>& values) {
  std::vector<double> in;
  in.reserve(g.inputs.size());
  for (const std::string& name : g.inputs) {
    auto it = values.find(name);
    if (it == values.end()) throw Error("evaluate: no value for graph input '" + name + "'");
    in.push_back(it->second);
  }
  return in;
}

}  // namespace neaccel::dfg
