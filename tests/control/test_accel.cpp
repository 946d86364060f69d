// Accelerator in the loop: the feedforward torques from the robot's customised dataflow graph evaluated in fp32
// and fixed point (study/src/control_accel.cpp) against ref::inverse_dynamics, and the closed loop with them.
#include "neaccel/study/control_accel.hpp"

#include "neaccel/ref/control/scenario.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

namespace ctl = neaccel::ref::control;

namespace {
double max_tau_error(const neaccel::ref::Robot& r, const ctl::FeedforwardFn& ff) {
  const ctl::DesiredTrajectory d = ctl::scenario_trajectory(r, 0.05);
  double e = 0.0;
  for (std::size_t k = 0; k < d.t.size(); ++k)
    e = std::max(e, (ff(d.q[k], d.qd[k], d.qdd[k]) - neaccel::ref::inverse_dynamics(r, d.q[k], d.qd[k], d.qdd[k]))
                        .cwiseAbs()
                        .maxCoeff());
  return e;
}
}  // namespace

TEST(Accel, Fp32AndFixedFeedforwardAgreeWithDouble) {
  for (const char* name : {"planar2", "puma560"}) {
    const neaccel::ref::Robot r = neaccel::ref::load_robot(name);
    EXPECT_EQ(neaccel::study::format_feedforward(r, "double"), nullptr);
    // fp32: ~100 roundings of 6e-8 relative on torques up to ~50 N m: well below 1e-3 N m.
    const double e32 = max_tau_error(r, neaccel::study::format_feedforward(r, "fp32"));
    EXPECT_LT(e32, 1e-3) << name;
    EXPECT_GT(e32, 0.0) << name;  // it is really evaluated in binary32
    // fixed:16.16: resolution 1.5e-5, errors accumulate through the recursion; 8 fraction bits are much worse.
    const double e16 = max_tau_error(r, neaccel::study::format_feedforward(r, "fixed:16.16"));
    const double e8 = max_tau_error(r, neaccel::study::format_feedforward(r, "fixed:12.8"));
    EXPECT_LT(e16, 1e-2) << name;
    EXPECT_GT(e8, 10 * e16) << name;
  }
  EXPECT_THROW(neaccel::study::format_feedforward(neaccel::ref::load_robot("planar2"), "fixed:30.10"), neaccel::Error);
  EXPECT_THROW(neaccel::study::format_feedforward(neaccel::ref::load_robot("planar2"), "binary16"), neaccel::Error);
}

TEST(Accel, ClosedLoopWithFixedPointFeedforwardHolds) {
  // Feedback absorbs the feedforward's quantisation: same bound as the double loop (tests/control/test_scenarios).
  const neaccel::ref::Robot r = neaccel::ref::load_robot("planar2");
  ctl::ControlSetup s = ctl::make_setup(r, ctl::Scenario::Disturbance, true);
  s.feedforward = neaccel::study::format_feedforward(s.model, "fixed:12.8");
  const ctl::ControlRun run = ctl::run_control(s);
  EXPECT_FALSE(run.aborted);
  EXPECT_LT(run.max_joint_error, 2e-3);
}

TEST(Accel, TimingOfTheAcceleratorFitsTheControlPeriod) {
  const neaccel::ref::Robot r = neaccel::ref::load_robot("puma560");
  const nlohmann::json a = neaccel::study::accelerator_timing(r, "fp32", 0.005);
  ASSERT_TRUE(a.contains("cycles"));
  EXPECT_GE(a["cycles"].get<int>(), a["lower_bound_cycles"].get<int>());
  EXPECT_TRUE(a["fits_control_period"].get<bool>());
  EXPECT_TRUE(neaccel::study::accelerator_timing(r, "double", 0.005).empty());
}

TEST(Accel, TimingUsesTheEstimatedClock) {
  // The clock is the cost model's estimate for this design, not an assumed 100 MHz; one evaluation takes
  // the schedule plus the I/O overhead: PUMA 560 customised graph, 24 inputs (s, c, qd, qdd per joint) and 6
  // torques, plus two handshake cycles.
  const neaccel::ref::Robot r = neaccel::ref::load_robot("puma560");
  const nlohmann::json a = neaccel::study::accelerator_timing(r, "fp32", 0.005);
  const double period = a["period_ns"];
  ASSERT_GT(period, 0.0);
  EXPECT_NE(a["clock_source"].get<std::string>().find("estimated"), std::string::npos);
  EXPECT_DOUBLE_EQ(a["clock_mhz"].get<double>(), 1000.0 / period);
  EXPECT_EQ(a["eval_cycles"].get<int>(), a["cycles"].get<int>() + 24 + 6 + 2);
  EXPECT_DOUBLE_EQ(a["time_us"].get<double>(), a["eval_cycles"].get<int>() * period / 1000.0);
  EXPECT_DOUBLE_EQ(a["update_rate_khz"].get<double>(), 1e3 / a["time_us"].get<double>());
}
