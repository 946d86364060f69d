// Accuracy of a graph evaluated in binary32 and in fixed point against double, over random robot states.
#pragma once

#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/graph.hpp"
#include "neaccel/ref/robot.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace neaccel::dfg {

struct AccuracyResult {
  std::string format;     // "float" or "fixed:I.F"
  double max_rel = 0;     // max over samples of |y - y_ref|_inf / |y_ref|_inf
  double rms_rel = 0;     // root mean square of the same per-sample relative error
  bool saturated = false; // some node value hit the fixed-point range in some sample
};

// Random states: q uniform in [-pi, pi], qd in [-2, 2] rad/s, qdd in [-5, 5] rad/s^2 (prismatic: q in
// [-0.2, 0.2] m), from std::mt19937_64(seed). The reference is the graph evaluated in double. The first result
// is "float", then one per fixed-point format. Graphs of the forward functions (functions.hpp) read their
// tau<i> inputs from the same draw as qdd (in [-5, 5] N m or N).
std::vector<AccuracyResult> accuracy_report(const Graph& g, const ref::Robot& robot,
                                            const std::vector<FixedFormat>& formats, int samples, std::uint64_t seed);

}  // namespace neaccel::dfg
