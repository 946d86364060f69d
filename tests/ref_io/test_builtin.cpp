// Built-in robots: every one loads and validates, the numbers are those of ../shared/data/robots (expected values
// below are copied from the published text files and the RX-90 table, not computed by the code under test).
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace neaccel::ref;

namespace {
constexpr double kHalfPi = 1.5707963267948966;
}

TEST(Builtin, NamesIncludeTheRequiredRobots) {
  const auto names = builtin_robot_names();
  for (const char* n : {"puma560", "stanford", "rx90", "rx90-simplified", "planar2", "twolink", "puma560-motor",
                        "stanford-motor"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
  }
}

TEST(Builtin, EveryBuiltinLoadsAndValidates) {
  for (const auto& name : builtin_robot_names()) {
    SCOPED_TRACE(name);
    const Robot r = load_robot(name);
    EXPECT_EQ(r.name, name);
    EXPECT_EQ(r.source, "builtin:" + name);
    EXPECT_NO_THROW(validate(r));
    EXPECT_GE(r.dof(), 2);
  }
}

TEST(Builtin, Puma560MatchesPublishedTable) {
  const Robot r = load_robot("puma560");
  ASSERT_EQ(r.dof(), 6);
  EXPECT_EQ(r.convention, DhConvention::Standard);
  EXPECT_EQ(r.gravity, Eigen::Vector3d(0, 0, -9.81));
  // Exact equality: the YAML holds the published decimal strings, parsed once.
  EXPECT_EQ(r.links[0].alpha, kHalfPi);
  EXPECT_EQ(r.links[0].mass, 0.0);
  EXPECT_EQ(r.links[0].inertia(1, 1), 0.35);
  EXPECT_EQ(r.links[1].a, 0.4318);
  EXPECT_EQ(r.links[1].mass, 17.4);
  EXPECT_EQ(r.links[1].com, Eigen::Vector3d(-0.3638, 0.006, 0.2275));
  EXPECT_EQ(r.links[2].d, 0.15005);
  EXPECT_EQ(r.links[2].a, 0.0203);
  EXPECT_EQ(r.links[2].alpha, -kHalfPi);
  EXPECT_EQ(r.links[3].d, 0.4318);
  EXPECT_EQ(r.links[5].com.z(), 0.032);
  EXPECT_EQ(r.links[5].inertia(2, 2), 4e-05);
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(r.links[static_cast<std::size_t>(i)].parent, i - 1);
    EXPECT_EQ(r.links[static_cast<std::size_t>(i)].joint, JointType::Revolute);
    EXPECT_EQ(r.links[static_cast<std::size_t>(i)].Ia, 0.0);
  }
  // Published lumped inertias are kept and flagged (links 1 and 3 violate the triangle inequality).
  EXPECT_FALSE(r.links[0].triangle_inequality);
  EXPECT_FALSE(r.links[2].triangle_inequality);
  EXPECT_TRUE(r.links[1].triangle_inequality);
}

TEST(Builtin, Puma560MotorFoldsMotorParameters) {
  const Robot r = load_robot("puma560-motor");
  // Joint 1: Jm = 0.0002, G = -62.6111, B = 0.00148, Tc+ = 0.395 (puma560_motor.txt).
  // Tolerance 1e-15 relative: the products are formed once in double (by the converter script).
  const double G = -62.6111;
  EXPECT_NEAR(r.links[0].Ia, G * G * 0.0002, 1e-15 * G * G * 0.0002);
  EXPECT_NEAR(r.links[0].Fv, G * G * 0.00148, 1e-15 * G * G * 0.00148);
  EXPECT_NEAR(r.links[0].Fc, 62.6111 * 0.395, 1e-15 * 62.6111 * 0.395);
  EXPECT_EQ(r.links[1].mass, 17.4);
}

TEST(Builtin, StanfordHasPrismaticJoint3) {
  const Robot r = load_robot("stanford");
  ASSERT_EQ(r.dof(), 6);
  EXPECT_EQ(r.links[2].joint, JointType::Prismatic);
  EXPECT_EQ(r.links[2].theta, -kHalfPi);
  EXPECT_EQ(r.links[2].com.z(), -6.447);
  EXPECT_EQ(r.links[0].d, 0.412);
  for (int i : {0, 1, 3, 4, 5}) EXPECT_EQ(r.links[static_cast<std::size_t>(i)].joint, JointType::Revolute);
}

TEST(Builtin, PlanarArms) {
  const Robot p = load_robot("planar2");
  ASSERT_EQ(p.dof(), 2);
  EXPECT_EQ(p.gravity, Eigen::Vector3d(0, -9.81, 0));
  EXPECT_EQ(p.links[0].a, 1.0);
  EXPECT_EQ(p.links[1].a, 0.8);
  EXPECT_EQ(p.links[0].com.x(), -0.45);
  EXPECT_EQ(p.links[1].mass, 1.5);
  const Robot t = load_robot("twolink");
  ASSERT_EQ(t.dof(), 2);
  EXPECT_EQ(t.links[1].com.x(), -0.5);
  EXPECT_EQ(t.links[1].inertia, Eigen::Matrix3d::Zero());
}

TEST(Builtin, Rx90ModifiedDhTable) {
  for (const char* name : {"rx90", "rx90-simplified"}) {
    SCOPED_TRACE(name);
    const Robot r = load_robot(name);
    ASSERT_EQ(r.dof(), 6);
    EXPECT_EQ(r.convention, DhConvention::Modified);
    // alpha_j and d_j (= a), r_j (= d) of seed 003 Example 3.1 (README table).
    const double alpha[6] = {0, -kHalfPi, 0, kHalfPi, -kHalfPi, kHalfPi};
    const double a[6] = {0, 0, 0.45, 0, 0, 0};
    const double d[6] = {0, 0, 0, 0.45, 0, 0};
    for (std::size_t j = 0; j < 6; ++j) {
      EXPECT_EQ(r.links[j].alpha, alpha[j]) << j;
      EXPECT_EQ(r.links[j].a, a[j]) << j;
      EXPECT_EQ(r.links[j].d, d[j]) << j;
      EXPECT_EQ(r.links[j].theta, 0.0) << j;
      EXPECT_EQ(r.links[j].gamma, 0.0) << j;
      EXPECT_EQ(r.links[j].b, 0.0) << j;
      EXPECT_GT(r.links[j].Ia, 0.0) << j;
      EXPECT_EQ(r.links[j].Fv, 0.0) << j;
      EXPECT_EQ(r.links[j].Fc, 0.0) << j;
    }
  }
}

// Seed 003 Example 9.3: J_j about the frame origin diagonal, first moments MS_j with the stated zero pattern.
// Checked on the parameters the algorithms consume (model_of), exactly: the customised graph relies on exact zeros.
TEST(Builtin, Rx90SimplifiedHasExample93ZeroPattern) {
  const Robot r = load_robot("rx90-simplified");
  const auto m = model_of(r);
  // Non-zero first-moment components per link: 1: MZ, 2: MX MY, 3: MY, 4: MZ, 5: MY, 6: MZ.
  const bool ms_nonzero[6][3] = {{false, false, true}, {true, true, false}, {false, true, false},
                                 {false, false, true}, {false, true, false}, {false, false, true}};
  for (std::size_t j = 0; j < 6; ++j) {
    SCOPED_TRACE(j + 1);
    const auto& p = m.links[j];
    EXPECT_EQ(p.XY, 0.0);
    EXPECT_EQ(p.XZ, 0.0);
    EXPECT_EQ(p.YZ, 0.0);
    EXPECT_GT(p.XX, 0.0);
    EXPECT_GT(p.YY, 0.0);
    EXPECT_GT(p.ZZ, 0.0);
    const double ms[3] = {p.MX, p.MY, p.MZ};
    for (int k = 0; k < 3; ++k) EXPECT_EQ(ms[k] != 0.0, ms_nonzero[j][k]) << "component " << k;
  }
  // The general rx90 has every inertial parameter non-zero (seed 003 "general" case).
  const auto g = model_of(load_robot("rx90"));
  for (const auto& p : g.links) {
    for (double v : {p.XX, p.XY, p.XZ, p.YY, p.YZ, p.ZZ, p.MX, p.MY, p.MZ, p.M, p.Ia}) EXPECT_NE(v, 0.0);
  }
}

TEST(Builtin, UnknownNameIsOneLineError) {
  try {
    load_robot("puma561");
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("unknown robot 'puma561'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("puma560"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}
