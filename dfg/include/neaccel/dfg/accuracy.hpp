// Accuracy of a graph evaluated in binary32 and in fixed point against double, over random robot states.
#pragma once

#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/graph.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

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

// ---- Forward dynamics accuracy as a design question (docs/functions.md "Accuracy") ----

// One robot state for a forward-dynamics graph: tau = ref::inverse_dynamics(q, qd, qdd) for a drawn qdd, so the
// graph's outputs are physically sized accelerations. `cond` is the 2-norm condition number of M(q) (CRBA).
struct FdState {
  std::string set;  // "random", "zero" (q = 0), "wrist" (joint 5 at +-1e-3 rad), "worst-cond"
  Eigen::VectorXd q, qd, qdd, tau;
  double cond = 0;
};

// `random` states drawn as accuracy_report draws q, qd, qdd; then the near-singular ones: "zero" (q = 0, the
// stretched arm of planar2 and puma560's stretched arm with its wrist singular), for robots with at least 6 joints
// `near` "wrist" states (random but q5 = +-1e-3), and the `near` worst-conditioned M among 50 * near random q.
// Deterministic for a seed.
std::vector<FdState> fd_states(const ref::Robot& robot, int random, int near, std::uint64_t seed);

// Per-state error of one format: |y - y_double|_inf / |y_double|_inf (y_double = the graph in double, which equals
// ref's forward dynamics to rounding), and whether any node hit the fixed-point range.
struct StateError {
  double rel = 0;
  bool saturated = false;
};
// The graph's inputs for a state (tau<i> from the state's tau).
std::vector<double> fd_inputs(const Graph& g, const ref::Robot& robot, const FdState& s);
StateError float_error(const Graph& g, const std::vector<double>& in);
StateError fixed_error(const Graph& g, const std::vector<double>& in, const FixedFormat& f);

// The smallest total width W in [min_width, 32] for which some fraction width F (I = W - F >= 1) keeps the
// error at or below `target` on every state; per width the best F and its worst-case error. found = false if no
// format up to 32 bits meets the target.
struct WidthBest {
  int width = 0;
  FixedFormat best;
  double max_rel = 0;  // over all states, for `best`
};
struct FormatScan {
  bool found = false;
  FixedFormat format;  // the smallest width's best format
  double max_rel = 0;
  std::vector<int> fractions_meeting;  // every F meeting the target at that width
  std::vector<WidthBest> widths;       // min_width .. the found width (or 32)
};
FormatScan smallest_fixed_format(const Graph& g, const ref::Robot& robot, const std::vector<FdState>& states,
                                 double target, int min_width = 8);

}  // namespace neaccel::dfg
