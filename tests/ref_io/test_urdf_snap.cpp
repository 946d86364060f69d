// URDF import: structural values written with a file's finite precision (pi/2 as 1.570796327, a zero as 1e-11) are
// snapped to exact ones with one warning that gives the torque change, an implausible snap is an error, and
// UrdfOptions::verbatim keeps the file's values (docs/robot-format.md, "URDF import").
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace neaccel::ref;

namespace {

constexpr double kPi = 3.141592653589793;

// A four-joint arm (three revolute, one prismatic) whose joint and inertial frames are turned by multiples of pi/2,
// HALF and PI standing for the file's spelling of pi/2 and pi. Pitch +-pi/2 (the rpy singularity) occurs in j4 and
// in link l3's inertial frame; link l2's inertia product and j3's axis carry noise-level values.
const char* kArm = R"(<?xml version="1.0"?>
<robot name="arm">
  <link name="base"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.3" rpy="0 0 0"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l1"><inertial><origin xyz="0.01 0.02 0.1" rpy="HALF 0 0"/><mass value="3"/>
    <inertia ixx="0.05" ixy="0" ixz="0" iyy="0.04" iyz="0" izz="0.02"/></inertial></link>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 0.2" rpy="HALF 0 PI"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l2"><inertial><origin xyz="0.2 0 0.01" rpy="0 0 -HALF"/><mass value="2"/>
    <inertia ixx="0.01" ixy="IXY" ixz="0" iyy="0.03" iyz="0" izz="0.03"/></inertial></link>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/>
    <origin xyz="0.4 0 0" rpy="-HALF PI 0"/><axis xyz="AXIS 0 1"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l3"><inertial><origin xyz="0 0.05 0.1" rpy="0 HALF 0"/><mass value="1.5"/>
    <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.015" iyz="0" izz="0.01"/></inertial></link>
  <joint name="j4" type="prismatic"><parent link="l3"/><child link="l4"/>
    <origin xyz="0 0.1 0.2" rpy="HALF PITCH 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <link name="l4"><inertial><origin xyz="0.03 0 0.05" rpy="0 0 0"/><mass value="0.8"/>
    <inertia ixx="0.004" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.002"/></inertial></link>
</robot>
)";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// The arm with pi/2 and pi spelt `half` and `pi` ("-HALF" becomes "-" + half), j3's axis x component, l2's ixy
// and j4's pitch (default `half`).
std::string arm(const std::string& half, const std::string& pi, const std::string& axis = "0",
                const std::string& ixy = "0", const std::string& pitch = "") {
  const std::string xml = replace_all(kArm, "PITCH", pitch.empty() ? half : pitch);
  return replace_all(replace_all(replace_all(replace_all(xml, "HALF", half), "PI", pi), "AXIS", axis), "IXY", ixy);
}

struct Loaded {
  Robot robot;
  std::vector<std::string> warnings;
};

Loaded load(const std::string& xml, const std::string& source, UrdfOptions opt = {}) {
  Loaded out;
  opt.warn = [&](const std::string& w) { out.warnings.push_back(w); };
  out.robot = robot_from_urdf(xml, source, opt);
  return out;
}

std::string error_of(const std::string& xml, const std::string& source) {
  try {
    (void)load(xml, source);
  } catch (const neaccel::Error& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The largest relative torque difference of two robots with the same joints: per state max |tau_a - tau_b| /
// max |tau_b|, over 200 seeded random states (q in [-pi, pi] / [-0.5, 0.5] m, qd and qdd in [-2, 2]).
double torque_difference(const Robot& a, const Robot& b) {
  std::mt19937_64 gen(20261126);
  const auto u = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(gen() >> 11) * 0x1.0p-53); };
  double worst = 0;
  for (int s = 0; s < 200; ++s) {
    Eigen::VectorXd q(a.dof()), qd(a.dof()), qdd(a.dof());
    for (int i = 0; i < a.dof(); ++i) {
      q[i] = a.links[static_cast<std::size_t>(i)].joint == JointType::Prismatic ? u(-0.5, 0.5) : u(-kPi, kPi);
      qd[i] = u(-2, 2);
      qdd[i] = u(-2, 2);
    }
    const Eigen::VectorXd ta = inverse_dynamics(a, q, qd, qdd), tb = inverse_dynamics(b, q, qd, qdd);
    worst = std::max(worst, (ta - tb).cwiseAbs().maxCoeff() / tb.cwiseAbs().maxCoeff());
  }
  return worst;
}

// Every placement rotation is a signed permutation (entries exactly 0 or +-1) and every inertia product, offset and
// centre-of-mass component that is zero by design is exactly 0: the residues that would survive constant folding
// are gone.
void expect_structural(const Robot& r) {
  for (const Link& L : r.links) {
    SCOPED_TRACE(L.name);
    ASSERT_TRUE(L.placement.has_value());
    const Eigen::Matrix3d& R = L.placement->R;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        EXPECT_TRUE(R(i, j) == 0 || R(i, j) == 1 || R(i, j) == -1) << R;
        if (i != j) {
          EXPECT_EQ(L.inertia(i, j), 0.0) << i << j;
        }
      }
    }
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(L.placement->p[i] == 0 || std::abs(L.placement->p[i]) > 1e-6) << L.placement->p.transpose();
      EXPECT_TRUE(L.com[i] == 0 || std::abs(L.com[i]) > 1e-6) << L.com.transpose();
    }
  }
}

}  // namespace

TEST(UrdfSnap, TenDigitPiLoadsWithOneWarningAndExactPiTorques) {
  const Loaded exact = load(arm("1.5707963267948966", "3.141592653589793"), "exact.urdf");
  const Loaded ten = load(arm("1.570796327", "3.141592654"), "pi10.urdf");
  // Exact pi leaves only ~1e-16 of rpy -> quaternion rounding: below the 1e-12 that is never reported.
  EXPECT_TRUE(exact.warnings.empty()) << exact.warnings.front();
  ASSERT_EQ(ten.warnings.size(), 1u);
  const std::string& w = ten.warnings[0];
  EXPECT_TRUE(contains(w, "pi10.urdf: ")) << w;
  EXPECT_TRUE(contains(w, "snapped to exact ones")) << w;
  EXPECT_TRUE(contains(w, "largest relative torque change")) << w;
  EXPECT_TRUE(contains(w, "--urdf-verbatim keeps the file's values")) << w;
  expect_structural(exact.robot);
  expect_structural(ten.robot);
  // 1e-14 relative: both files snap to the same exact robot, so only the ordering of floating-point operations
  // could differ (~1e-16); a single unsnapped 10-digit angle (4e-10 rad off) moves the torques by ~1e-10.
  EXPECT_LE(torque_difference(ten.robot, exact.robot), 1e-14);
}

TEST(UrdfSnap, VerbatimKeepsTheFilesValues) {
  UrdfOptions verbatim;
  verbatim.verbatim = true;
  const Loaded exact = load(arm("1.5707963267948966", "3.141592653589793"), "exact.urdf", verbatim);
  const Loaded ten = load(arm("1.570796327", "3.141592654"), "pi10.urdf", verbatim);
  EXPECT_TRUE(ten.warnings.empty());
  // The file's 10-digit angles (3.141592654 - pi = 4.1e-10 rad, 1.570796327 - pi/2 = 3.2e-10 rad) stay: the
  // torques differ from exact pi's by far more than the snapped robot's 1e-14 (the check above can fail).
  EXPECT_GT(torque_difference(ten.robot, exact.robot), 1e-12);
  // Verbatim keeps the 10-digit angles: placement rotations with entries that are neither 0 nor +-1.
  bool residue = false;
  for (const Link& L : ten.robot.links) {
    for (double v : L.placement->R.reshaped()) residue |= v != 0 && v != 1 && v != -1;
  }
  EXPECT_TRUE(residue);
}

TEST(UrdfSnap, NoiseAxisComponentAndInertiaProductBecomeZero) {
  // 1e-11 in a unit axis and 1e-13 kg m^2 beside moments of 0.01-0.03: below 1e-9 of their scale.
  const Loaded noisy = load(arm("1.5707963267948966", "3.141592653589793", "1e-11", "1e-13"), "noisy.urdf");
  ASSERT_EQ(noisy.warnings.size(), 1u);
  expect_structural(noisy.robot);
  const Loaded exact = load(arm("1.5707963267948966", "3.141592653589793"), "exact.urdf");
  EXPECT_LE(torque_difference(noisy.robot, exact.robot), 1e-14);
}

TEST(UrdfSnap, ValuesAboveTheTolerancesStay) {
  // 7-digit pi/2 (2.7e-8 rad off, above 1e-9), an axis component of 1e-6 and a product of 1e-8 (above 1e-9 of the
  // moments) are real values: the robot keeps them, so its torques differ from exact pi's by far more than the
  // 1e-14 of a snapped file (10-digit files and their 1e-9 relative products are ~1e-10 away in torque), and
  // agree with the verbatim import to 1e-9 relative (what snapping may still do here: products and offsets that
  // the coarse angles leave below 1e-9 of their scale).
  const std::string xml = arm("1.5707963", "3.141592653589793", "1e-6", "1e-8", "1.5707963267948966");
  const Loaded coarse = load(xml, "coarse.urdf");
  const Loaded exact = load(arm("1.5707963267948966", "3.141592653589793"), "exact.urdf");
  EXPECT_GT(torque_difference(coarse.robot, exact.robot), 1e-9);
  UrdfOptions verbatim;
  verbatim.verbatim = true;
  const Loaded v = load(xml, "coarse.urdf", verbatim);
  EXPECT_LE(torque_difference(coarse.robot, v.robot), 1e-9);
  // l2's product 1e-8 (about 3e-7 of its largest moment) stays: without it the torques move by ~1e-9 relative
  // (the 1e-8 kg m^2 against torques of O(1) N m), far above the 1e-14 of a snapped file's rounding.
  const Loaded no_product = load(arm("1.5707963", "3.141592653589793", "1e-6", "0", "1.5707963267948966"), "np.urdf");
  EXPECT_GT(torque_difference(coarse.robot, no_product.robot), 1e-11);
}

TEST(UrdfSnap, ASnapThatChangesTheTorquesIsAnError) {
  // The length scale is the largest joint offset: a fixed joint 2 km away makes 1e-9 of it 2e-6 m, so the 1e-7 m
  // centre-of-mass offset that alone makes the gravity torque of the horizontal joint would be snapped to 0. That
  // changes the torques by 100% (limit 1e-6 relative): an error naming the file, and verbatim loads it.
  const std::string xml = R"(<?xml version="1.0"?>
<robot name="far">
  <link name="world"/>
  <joint name="place" type="fixed"><parent link="world"/><child link="base"/><origin xyz="2000 0 0"/></joint>
  <link name="base"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.5"/><axis xyz="1 0 0"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l1"><inertial><origin xyz="0 1e-7 0"/><mass value="1"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
</robot>
)";
  const std::string e = error_of(xml, "far.urdf");
  EXPECT_TRUE(contains(e, "far.urdf: ")) << e;
  EXPECT_TRUE(contains(e, "the torques change by")) << e;
  EXPECT_TRUE(contains(e, "--urdf-verbatim")) << e;
  UrdfOptions verbatim;
  verbatim.verbatim = true;
  const Loaded v = load(xml, "far.urdf", verbatim);
  // Its gravity torque at q = 0 is m g 1e-7 = 9.81e-7 N m (to 1e-12: the offset is kept to ~1e-16 m).
  EXPECT_NEAR(std::abs(gravity_torque(v.robot, Eigen::VectorXd::Zero(1))[0]), 9.81e-7, 1e-12);
}

TEST(UrdfSnap, BuiltinIiwaIsTheSnappedFile) {
  // The built-in iiwa is data/robots/iiwa.urdf (pi written with 12 digits) imported with snapping, silently.
  const Robot r = load_robot("iiwa");
  EXPECT_EQ(r.name, "iiwa");
  EXPECT_EQ(r.source, "builtin:iiwa");
  ASSERT_EQ(r.dof(), 7);
  expect_structural(r);
  // The KUKA LBR iiwa's link lengths: 0.36 m to the shoulder, 0.42 m upper arm, 0.4 m forearm (to 1e-15 m: sums
  // of the file's decimal offsets, as the origins slide to where consecutive axes meet).
  std::vector<double> lengths;
  for (const Link& L : r.links)
    if (L.placement->p.norm() > 0) lengths.push_back(L.placement->p.norm());
  ASSERT_GE(lengths.size(), 3u);
  EXPECT_NEAR(lengths[0], 0.36, 1e-15);
  EXPECT_NEAR(lengths[1], 0.42, 1e-15);
  EXPECT_NEAR(lengths[2], 0.40, 1e-15);
}
