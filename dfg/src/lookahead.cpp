#include "neaccel/dfg/lookahead.hpp"

namespace neaccel::dfg {

Graph trace_lookahead(const ref::Robot& robot, Flavour flavour, int K, const TraceOptions& opt, unsigned which, int project, bool dense) {
  return trace_algorithm(robot, flavour, opt, [K, which, project, dense](const auto& m, const auto& in) { return lookahead_ne(m, in, K, which, project, dense); });
}

}  // namespace neaccel::dfg
