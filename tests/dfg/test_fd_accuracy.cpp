// Forward-dynamics accuracy as a design question: the state sets, the per-state errors and the
// smallest-fixed-format scan. Mechanics only; the figures for puma560 and planar2 are in docs/functions.md.
#include "neaccel/dfg/accuracy.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace neaccel::dfg {
namespace {

Graph fd_graph(const ref::Robot& robot) {
  return customise(trace_function(robot, Function::Fd, Form::ModifiedNE, Flavour::Custom));
}

TEST(FdAccuracy, StateSetsAreWhatTheyClaim) {
  const ref::Robot robot = ref::load_robot("puma560");
  const std::vector<FdState> s = fd_states(robot, 12, 5, 3);
  std::map<std::string, int> count;
  std::vector<double> random_cond;
  double worst_min = 1e300;
  for (const FdState& x : s) {
    ++count[x.set];
    // tau is the inverse dynamics of the drawn qdd, so ref's forward dynamics gives qdd back (1e-8 relative to
    // |qdd|_inf covers cond(M) ~ 1e5 times double rounding).
    const Eigen::VectorXd back = ref::forward_dynamics(robot, x.q, x.qd, x.tau);
    EXPECT_LT((back - x.qdd).cwiseAbs().maxCoeff(), 1e-8 * x.qdd.cwiseAbs().maxCoeff());
    EXPECT_GE(x.cond, 1.0);
    if (x.set == "zero") { EXPECT_EQ(x.q.cwiseAbs().maxCoeff(), 0.0); }
    if (x.set == "wrist") { EXPECT_DOUBLE_EQ(std::abs(x.q[4]), 1e-3); }
    if (x.set == "random") random_cond.push_back(x.cond);
    if (x.set == "worst-cond") worst_min = std::min(worst_min, x.cond);
  }
  EXPECT_EQ(count["random"], 12);
  EXPECT_EQ(count["zero"], 1);
  EXPECT_EQ(count["wrist"], 5);
  EXPECT_EQ(count["worst-cond"], 5);
  // The worst-conditioned 5 of 250 draws are above the median of 12 other draws (fails only if the top 2 % of
  // one sample lies below the median of another: probability far below 1e-6).
  std::sort(random_cond.begin(), random_cond.end());
  EXPECT_GT(worst_min, random_cond[6]);
  // Deterministic for a seed.
  const std::vector<FdState> again = fd_states(robot, 12, 5, 3);
  ASSERT_EQ(again.size(), s.size());
  for (std::size_t k = 0; k < s.size(); ++k) EXPECT_EQ(again[k].tau, s[k].tau);
  // planar2 has no wrist.
  for (const FdState& x : fd_states(ref::load_robot("planar2"), 3, 2, 1)) EXPECT_NE(x.set, "wrist");
}

TEST(FdAccuracy, ErrorsAreOfTheFormatsResolution) {
  const ref::Robot robot = ref::load_robot("planar2");
  const Graph g = fd_graph(robot);
  for (const FdState& x : fd_states(robot, 10, 2, 5)) {
    const std::vector<double> in = fd_inputs(g, robot, x);
    // binary32 (unit roundoff 6e-8) through a few dozen operations and cond(M) <= ~50: far below 1e-4.
    EXPECT_LT(float_error(g, in).rel, 1e-4);
    // More fraction bits, smaller error: 2^-24 against 2^-10 per rounding.
    EXPECT_LT(fixed_error(g, in, FixedFormat{8, 24}).rel, fixed_error(g, in, FixedFormat{8, 10}).rel);
    // One integer bit (range [-1, 1)) saturates on accelerations of several rad/s^2.
    EXPECT_TRUE(fixed_error(g, in, FixedFormat{1, 20}).saturated);
  }
}

TEST(FdAccuracy, ScanStopsAtTheFirstWidthMeetingTheTarget) {
  const ref::Robot robot = ref::load_robot("planar2");
  const Graph g = fd_graph(robot);
  const std::vector<FdState> states = fd_states(robot, 20, 3, 9);
  const double target = 1e-3;
  const FormatScan scan = smallest_fixed_format(g, robot, states, target, 12);
  ASSERT_TRUE(scan.found);
  ASSERT_FALSE(scan.widths.empty());
  EXPECT_EQ(scan.widths.front().width, 12);
  EXPECT_EQ(scan.widths.back().width, scan.format.width());
  EXPECT_LE(scan.max_rel, target);
  // Re-evaluating the chosen format on every state meets the target; the best of the width below does not.
  double worst = 0;
  for (const FdState& x : states) worst = std::max(worst, fixed_error(g, fd_inputs(g, robot, x), scan.format).rel);
  EXPECT_DOUBLE_EQ(worst, scan.max_rel);
  if (scan.widths.size() > 1) { EXPECT_GT(scan.widths[scan.widths.size() - 2].max_rel, target); }
  EXPECT_NE(std::find(scan.fractions_meeting.begin(), scan.fractions_meeting.end(), scan.format.F),
            scan.fractions_meeting.end());
  // A target nothing meets: not found, every width up to 32 scanned.
  const FormatScan none = smallest_fixed_format(g, robot, states, 1e-12, 30);
  EXPECT_FALSE(none.found);
  EXPECT_EQ(none.widths.back().width, 32);
}

}  // namespace
}  // namespace neaccel::dfg
