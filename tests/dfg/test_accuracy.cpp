// Accuracy report: float and fixed point against double.
#include "neaccel/dfg/accuracy.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

namespace neaccel::dfg {
namespace {

TEST(Accuracy, FloatAndFixedErrorsAreOfTheFormatsResolution) {
  const ref::Robot robot = ref::load_robot("puma560");
  const Graph g = customise(trace(robot, Form::ModifiedNE, Flavour::Custom));
  const auto r = accuracy_report(g, robot, {FixedFormat{8, 24}, FixedFormat{16, 16}, FixedFormat{4, 12}}, 50, 7);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].format, "float");
  // binary32: unit roundoff 6e-8; a few hundred operations with cancellation stay well below 1e-4 relative and
  // cannot be exact everywhere (> 0).
  EXPECT_GT(r[0].max_rel, 0.0);
  EXPECT_LT(r[0].max_rel, 1e-4);
  EXPECT_LE(r[0].rms_rel, r[0].max_rel);
  // More fraction bits, smaller error (24 vs 16 fraction bits: 2^-24 vs 2^-16 per rounding), no saturation with
  // 8 integer bits (PUMA torques and intermediates stay below 128).
  EXPECT_LT(r[1].max_rel, r[2].max_rel);
  EXPECT_FALSE(r[1].saturated);
  EXPECT_LT(r[1].max_rel, 1e-3);
  // 4 integer bits (range +-8) saturate on PUMA's torques.
  EXPECT_TRUE(r[3].saturated);
  EXPECT_GT(r[3].max_rel, 0.1);
}

}  // namespace
}  // namespace neaccel::dfg
