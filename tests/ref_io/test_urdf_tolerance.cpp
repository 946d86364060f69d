// URDF import of published, imperfect robot files: noise-level negative principal moments clamped with a
// warning, triangle-inequality violations loaded with a warning (errors with strict_inertia), every message naming
// the URDF link and joint, and the chain between two links of a tree with a floating base.
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace neaccel::ref;

namespace {

const std::string kDir = std::string(NEACCEL_REF_IO_DATA) + "/urdf/";

std::string text(const std::string& name) {
  std::ifstream in(kDir + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Loaded {
  Robot robot;
  std::vector<std::string> warnings;
};

Loaded load(const std::string& name, UrdfOptions opt = {}) {
  Loaded out;
  opt.warn = [&](const std::string& w) { out.warnings.push_back(w); };
  out.robot = robot_from_urdf(text(name), name, opt);
  return out;
}

std::string error_of(const std::string& name, const UrdfOptions& opt = {}) {
  try {
    (void)load(name, opt);
  } catch (const neaccel::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(UrdfTolerance, NoiseNegativeMomentIsClampedWithAWarning) {
  const auto r = load("noise_moment.urdf");
  ASSERT_EQ(r.robot.links.size(), 2u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("link 'hip' (joint 'hip_joint') [links[0]]"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("clamped to 0"), std::string::npos) << r.warnings[0];
  // After clamping every principal moment is >= 0 exactly up to the eigen-solver's rounding (~1e-16 of 0.02).
  const Eigen::Vector3d p =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(r.robot.links[0].inertia).eigenvalues();
  EXPECT_GE(p.minCoeff(), -1e-17);
  EXPECT_NEAR(p.maxCoeff(), 0.02, 1e-15);
  // The clamp changes the tensor by 5.4e-20 at most: torques equal those of the tensor with the moment set to 0.
  EXPECT_NO_THROW(validate(r.robot));
}

TEST(UrdfTolerance, NoiseIsAnErrorWhenStrict) {
  UrdfOptions strict;
  strict.strict_inertia = true;
  const std::string e = error_of("noise_moment.urdf", strict);
  EXPECT_NE(e.find("noise_moment.urdf: link 'hip' (joint 'hip_joint') [links[0]]: inertia"), std::string::npos) << e;
  EXPECT_NE(e.find("--strict-inertia"), std::string::npos) << e;
}

TEST(UrdfTolerance, RealNegativeMomentIsAnErrorNamingTheLink) {
  const std::string e = error_of("negative_moment.urdf");
  EXPECT_NE(e.find("negative_moment.urdf: link 'forearm' (joint 'j2') [links[1]]: inertia"), std::string::npos) << e;
  EXPECT_NE(e.find("-0.001"), std::string::npos) << e;
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

TEST(UrdfTolerance, TriangleViolationLoadsWithAWarning) {
  const auto r = load("triangle.urdf");
  ASSERT_EQ(r.robot.links.size(), 2u);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("link 'upper_arm' (joint 'shoulder_joint') [links[0]]"), std::string::npos)
      << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("triangle inequality"), std::string::npos) << r.warnings[0];
  EXPECT_FALSE(r.robot.links[0].triangle_inequality);
  EXPECT_TRUE(r.robot.links[1].triangle_inequality);
  // The published moments are kept as they are (no silent repair): 0.00191, 0.00846, 0.01059 in some order.
  const Eigen::Vector3d p =
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(r.robot.links[0].inertia).eigenvalues();
  EXPECT_NEAR(p[0], 0.00191, 1e-15);
  EXPECT_NEAR(p[1], 0.00846, 1e-15);
  EXPECT_NEAR(p[2], 0.01059, 1e-15);
}

TEST(UrdfTolerance, TriangleViolationIsAnErrorWhenStrict) {
  UrdfOptions strict;
  strict.strict_inertia = true;
  const std::string e = error_of("triangle.urdf", strict);
  EXPECT_NE(e.find("triangle.urdf: link 'upper_arm' (joint 'shoulder_joint') [links[0]]"), std::string::npos) << e;
  EXPECT_NE(e.find("--strict-inertia"), std::string::npos) << e;
}

TEST(UrdfTolerance, ValidatorErrorsNameTheUrdfLink) {
  // A negative mass is caught by validate(); the message leads with the URDF link and joint.
  std::string xml = text("triangle.urdf");
  const auto at = xml.find("<mass value=\"1.0\"/>", xml.find("forearm"));
  ASSERT_NE(at, std::string::npos);
  xml.replace(at, 19, "<mass value=\"-1\"/>");
  try {
    UrdfOptions quiet;
    quiet.warn = [](const std::string&) {};
    (void)robot_from_urdf(xml, "m.urdf", quiet);
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.urdf: link 'forearm'"), std::string::npos) << e.what();
  }
}

TEST(UrdfTolerance, FloatingBaseIsAClearErrorNamingTheJoint) {
  const std::string e = error_of("humanoid.urdf");
  EXPECT_NE(e.find("joint 'root_joint': unsupported joint type"), std::string::npos) << e;
}

TEST(UrdfTolerance, BaseAndTipPickTheArm) {
  UrdfOptions arm;
  arm.base = "torso";
  arm.tip = "l_hand";
  const auto r = load("humanoid.urdf", arm);
  ASSERT_EQ(r.robot.links.size(), 2u);
  EXPECT_EQ(r.robot.links[0].name, "l_upper");
  EXPECT_EQ(r.robot.links[1].name, "l_lower");
  EXPECT_EQ(r.robot.links[0].parent, -1);
  EXPECT_EQ(r.robot.links[1].parent, 0);
  // The hand (0.3 kg, fixed to l_lower) is merged into l_lower: 1.0 + 0.3 kg.
  EXPECT_DOUBLE_EQ(r.robot.links[1].mass, 1.3);
  // --base alone: every branch below the torso (left arm, right arm, head).
  UrdfOptions upper;
  upper.base = "torso";
  EXPECT_EQ(load("humanoid.urdf", upper).robot.links.size(), 4u);
}

TEST(UrdfTolerance, BadBaseOrTipNamesTheLink) {
  UrdfOptions o;
  o.base = "pelvis";
  EXPECT_NE(error_of("humanoid.urdf", o).find("--base: no link 'pelvis'"), std::string::npos);
  o.base = "torso";
  o.tip = "r_hand";
  EXPECT_NE(error_of("humanoid.urdf", o).find("--tip: no link 'r_hand' below the base link 'torso'"),
            std::string::npos);
  o.tip = "torso";
  EXPECT_NE(error_of("humanoid.urdf", o).find("--tip: link 'torso' is fixed to the base link"), std::string::npos);
}

}  // namespace
