// dp.robots.*: robot design points through the cycle core: bit-identical to the graph in the format, close to the
// double reference, cycle count = schedule length + documented overhead.
#include "support.hpp"

#include "neaccel/hw/design.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel {
namespace {

struct RobotPoint {
  dptest::DesignPoint design;
  double tol;  // bound on max_i |tau_i - tau_ref_i| / max(1, max_i |tau_ref_i|)
};

class robot : public ::testing::TestWithParam<RobotPoint> {};

TEST_P(robot, HundredStatesBitExactCloseAndOnTime) {
  const RobotPoint pt = GetParam();
  const hw::DesignSpec spec = pt.design.spec();
  const hw::Design d = hw::make_design(spec);
  std::mt19937_64 rng(2026);
  double max_err = 0;
  const int expected_cycles =
      d.schedule.length + static_cast<int>(d.graph->inputs.size() + d.graph->outputs.size()) + 2;
  for (int k = 0; k < 100; ++k) {
    const auto x = hw::random_state(d, rng);
    const std::vector<std::uint32_t> raw = hw::encode(spec.format, x);
    const auto run = dptest::run_core(d.dp, raw);
    const auto want = hw::golden_raw(*d.graph, spec.format, x);
    const auto ref = hw::reference(*d.graph, x);
    ASSERT_EQ(run.cycles, expected_cycles);
    ASSERT_EQ(run.out.size(), want.size());
    double scale = 1;
    for (double t : ref) scale = std::max(scale, std::abs(t));
    for (std::size_t o = 0; o < want.size(); ++o) {
      ASSERT_TRUE(hw::same(spec.format, run.out[o], want[o])) << "state " << k << " tau" << o + 1;
      max_err = std::max(max_err, std::abs(hw::decode(spec.format, run.out[o]) - ref[o]) / scale);
    }
  }
  RecordProperty("max_rel_error", std::to_string(max_err));
  RecordProperty("cycles", expected_cycles);
  std::printf("%s: nodes %zu length %d registers %d consts %zu cycles %d max_rel_error %.3g\n", pt.design.name().c_str(),
              d.graph->nodes.size(), d.schedule.length, d.dp.num_regs, d.dp.consts.size(), expected_cycles, max_err);
  EXPECT_LE(max_err, pt.tol);
}

// Tolerance 1e-4 of max(1, max |tau|): binary32 keeps 24 bits (6e-8); a few hundred roundings of terms up to the
// torque scale give at most a few 1e-6 (measured <= 2.4e-6). fixed:12.20 rounds each product to 2^-21 ~ 5e-7
// absolute; hundreds of such errors, some amplified by O(10) factors, stay below 1e-5 (measured <= 4.9e-6).
INSTANTIATE_TEST_SUITE_P(
    Points, robot,
    ::testing::Values(RobotPoint{{"puma560", false, "fp32", 2, 2, 3, 2, true}, 1e-4},
                      RobotPoint{{"puma560", true, "fp32", 1, 1, 3, 2, true}, 1e-4},
                      RobotPoint{{"puma560", true, "fixed:12.20", 1, 1, 1, 1, true}, 1e-4},
                      RobotPoint{{"stanford", false, "fp32", 2, 2, 3, 2, true}, 1e-4},
                      RobotPoint{{"stanford", true, "fixed:12.20", 2, 1, 2, 1, true}, 1e-4},
                      RobotPoint{{"rx90", true, "fp32", 1, 2, 4, 3, false}, 1e-4},
                      RobotPoint{{"rx90", false, "fixed:12.20", 1, 1, 1, 1, true}, 1e-4},
                      RobotPoint{{"random:1:1", true, "fp32", 1, 1, 3, 2, true}, 1e-4},
                      RobotPoint{{"random:2:2", false, "fp32", 1, 1, 3, 2, true}, 1e-4},
                      RobotPoint{{"random:3:3", true, "fixed:12.20", 1, 1, 1, 1, true}, 1e-4},
                      RobotPoint{{"random:4:4", false, "fp32", 2, 2, 3, 2, true}, 1e-4},
                      RobotPoint{{"random:5:5", true, "fp32", 2, 1, 3, 3, false}, 1e-4},
                      RobotPoint{{"random:6:6", false, "fixed:12.20", 1, 1, 1, 1, true}, 1e-4},
                      RobotPoint{{"random:7:7", true, "fp32", 3, 3, 4, 2, true}, 1e-4},
                      RobotPoint{{"random:8:8", false, "fp32", 2, 2, 3, 2, true}, 1e-4}),
    [](const auto& info) { return info.param.design.name(); });

}  // namespace
}  // namespace neaccel
