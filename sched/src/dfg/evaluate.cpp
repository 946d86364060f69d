#include "neaccel/dfg/evaluate.hpp"

#include "neaccel/ref/error.hpp"

namespace neaccel::dfg {

namespace {
[[noreturn]] void unsupported(const char* op) {
  throw Error(std::string("evaluate: fixed-point evaluation does not support '") + op + "'");
}
}  // namespace

Fixed Arithmetic<Fixed>::div(Fixed, Fixed) const { unsupported("div"); }
Fixed Arithmetic<Fixed>::sqrt(Fixed) const { unsupported("sqrt"); }
Fixed Arithmetic<Fixed>::fma(Fixed, Fixed, Fixed) const { unsupported("fma"); }

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
