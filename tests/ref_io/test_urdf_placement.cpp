// URDF import keeps each joint's placement (robot.hpp Placement) instead of converting to DH parameters. The
// conversion put the common normal of two almost parallel axes kilometres away and lost up to six digits of the
// torques; with placements the torques are a smooth function of the file's angles at any angle, and no offset is
// longer than the file's own.
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

using namespace neaccel::ref;

namespace {

constexpr double kPi = 3.141592653589793;

// A three-joint arm whose second and third joints turn about axes EPS rad apart (joint 3's frame rolled by EPS about
// the 0.3 m link between them), as a file that writes a humanoid wrist with 6 digits, or pi with 10, gives them.
std::string arm(double eps) {
  char roll[64];
  std::snprintf(roll, sizeof roll, "%.17g", eps);
  return std::string(R"(<?xml version="1.0"?>
<robot name="near">
  <link name="base"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.2"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l1"><inertial><origin xyz="0.01 0.02 0.1"/><mass value="3"/>
    <inertia ixx="0.05" ixy="0.001" ixz="0" iyy="0.04" iyz="0" izz="0.02"/></inertial></link>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/>
    <origin xyz="0 0 0.15" rpy="1.5707963267948966 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l2"><inertial><origin xyz="0.15 0.01 0.02"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0.002" iyy="0.03" iyz="0" izz="0.03"/></inertial></link>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/>
    <origin xyz="0.3 0 0" rpy=")") + roll + R"( 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l3"><inertial><origin xyz="0.12 0 0.03"/><mass value="1.5"/>
    <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.015" iyz="0.001" izz="0.01"/></inertial></link>
</robot>
)";
}

Robot load_verbatim(double eps) {
  UrdfOptions verbatim;
  verbatim.verbatim = true;
  return robot_from_urdf(arm(eps), "near.urdf", verbatim);
}

// The largest relative second difference of the torques in eps over 100 seeded states:
// max |tau(2 eps) - 2 tau(eps) + tau(0)| / max |tau(0)|. Smooth in eps, it is O(eps^2) (1e-14 at eps = 1e-7);
// rounding adds a few 1e-16.
double second_difference(double eps) {
  const Robot r0 = load_verbatim(0), r1 = load_verbatim(eps), r2 = load_verbatim(2 * eps);
  std::mt19937_64 gen(20261127);
  const auto u = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(gen() >> 11) * 0x1.0p-53); };
  double worst = 0;
  for (int s = 0; s < 100; ++s) {
    Eigen::VectorXd q(3), qd(3), qdd(3);
    for (int i = 0; i < 3; ++i) q[i] = u(-kPi, kPi), qd[i] = u(-2, 2), qdd[i] = u(-2, 2);
    const Eigen::VectorXd t0 = inverse_dynamics(r0, q, qd, qdd), t1 = inverse_dynamics(r1, q, qd, qdd),
                          t2 = inverse_dynamics(r2, q, qd, qdd);
    worst = std::max(worst, (t2 - 2 * t1 + t0).cwiseAbs().maxCoeff() / t0.cwiseAbs().maxCoeff());
  }
  return worst;
}

}  // namespace

// Axes 1e-7 rad apart (a 6-digit file): the DH conversion's common normal landed 80 km away and the torques lost six
// digits (a second difference of ~1e-6). Bound 1e-12: 100 times the O(eps^2) term, far below that loss.
TEST(UrdfPlacement, NearlyParallelAxesKeepEveryDigit) {
  EXPECT_LE(second_difference(1e-7), 1e-12);
  // No offset longer than the file's offsets together (0.65 m), no centre of mass far from its link.
  const Robot r = load_verbatim(1e-7);
  for (const Link& L : r.links) {
    SCOPED_TRACE(L.name);
    ASSERT_TRUE(L.placement.has_value());
    EXPECT_LE(L.placement->p.norm(), 0.65);
    EXPECT_LE(L.com.norm(), 0.5);
    EXPECT_EQ(L.a, 0.0);
    EXPECT_EQ(L.alpha, 0.0);
  }
}

// pi written with 10 digits (3.141592654, 4.1e-10 rad off) and kept verbatim: axes 4.1e-10 rad apart, which the
// conversion's 1e-9 parallel threshold treated as parallel (1e-9 errors). The torques follow the file's angle: the
// second difference is rounding only, and the first difference is the angle's own effect (~4e-10 relative).
TEST(UrdfPlacement, TenDigitPiAxesAreTheFilesAxes) {
  constexpr double kTenDigit = 3.141592654 - kPi;  // 4.1e-10
  EXPECT_LE(second_difference(kTenDigit), 1e-13);
  const Robot r0 = load_verbatim(0), r1 = load_verbatim(kTenDigit);
  Eigen::VectorXd q(3), qd(3), qdd(3);
  q << 0.3, -0.7, 1.1;
  qd << 0.5, -1.0, 0.8;
  qdd << 0.2, 0.4, -0.6;
  const Eigen::VectorXd t0 = inverse_dynamics(r0, q, qd, qdd), t1 = inverse_dynamics(r1, q, qd, qdd);
  const double moved = (t1 - t0).cwiseAbs().maxCoeff() / t0.cwiseAbs().maxCoeff();
  EXPECT_GT(moved, 1e-12);  // the file's angle is not snapped away (verbatim)
  EXPECT_LT(moved, 1e-8);   // and moves the torques by about the angle
}

// A joint axis that is not z: the frame is turned onto it, exactly for a signed unit axis (rotations stay signed
// permutations), and the gravity torque has the axis' sign.
TEST(UrdfPlacement, AxisAlongMinusYIsAnExactQuarterTurn) {
  const std::string xml = R"(<?xml version="1.0"?>
<robot name="y">
  <link name="base"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.2"/><axis xyz="0 -1 0"/><limit lower="-3" upper="3" effort="10" velocity="1"/></joint>
  <link name="l1"><inertial><origin xyz="0.3 0 0"/><mass value="2"/>
    <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial></link>
</robot>
)";
  const Robot r = robot_from_urdf(xml, "y.urdf", UrdfOptions{});
  ASSERT_EQ(r.dof(), 1);
  const Eigen::Matrix3d& R = r.links[0].placement->R;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_TRUE(R(i, j) == 0 || std::abs(R(i, j)) == 1) << R;
  EXPECT_EQ(R.col(2), Eigen::Vector3d(0, -1, 0));
  // Turning about -y by q lifts the centre of mass (0.3 m along x) to height 0.3 sin q, so the joint holds
  // m g 0.3 cos q (m = 2, g = 9.81); 1e-13 N m is rounding.
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 0.4);
  EXPECT_NEAR(gravity_torque(r, q)[0], 2 * 9.81 * 0.3 * std::cos(0.4), 1e-13);
}

// The YAML placement form (origin xyz/rpy, axis) gives the same robot as the URDF, and export writes it back exactly.
TEST(UrdfPlacement, YamlOriginFormMatchesTheUrdfAndRoundTrips) {
  const std::string yaml = R"(name: near-yaml
gravity: [0, 0, -9.81]
links:
  - {name: l1, joint: R, origin: {xyz: [0, 0, 0.2]}, mass: 3, com: [0.01, 0.02, 0.1],
     inertia: [0.05, 0.04, 0.02, 0.001, 0, 0]}
  - {name: l2, joint: R, origin: {xyz: [0, 0, 0.15], rpy: [pi/2, 0, 0]}, axis: [0, 0, 1], mass: 2,
     com: [0.15, 0.01, 0.02], inertia: [0.01, 0.03, 0.03, 0, 0.002, 0]}
  - {name: l3, joint: R, origin: {xyz: [0.3, 0, 0], rpy: [1e-7, 0, 0]}, mass: 1.5, com: [0.12, 0, 0.03],
     inertia: [0.02, 0.015, 0.01, 0, 0, 0.001]}
)";
  const Robot y = robot_from_yaml(yaml, "near.yaml");
  const Robot u = load_verbatim(1e-7);
  Eigen::VectorXd q(3), qd(3), qdd(3);
  q << 0.3, -0.7, 1.1;
  qd << 0.5, -1.0, 0.8;
  qdd << 0.2, 0.4, -0.6;
  const Eigen::VectorXd ty = inverse_dynamics(y, q, qd, qdd), tu = inverse_dynamics(u, q, qd, qdd);
  // 1e-14 relative: the same robot in frames that differ by the URDF import's origin slide (rounding only).
  EXPECT_LE((ty - tu).cwiseAbs().maxCoeff(), 1e-14 * tu.cwiseAbs().maxCoeff());
  const Robot back = robot_from_yaml(to_yaml(y), "back.yaml");
  for (std::size_t i = 0; i < y.links.size(); ++i) {
    ASSERT_TRUE(back.links[i].placement.has_value());
    EXPECT_EQ(back.links[i].placement->R, y.links[i].placement->R);
    EXPECT_EQ(back.links[i].placement->p, y.links[i].placement->p);
    EXPECT_EQ(back.links[i].com, y.links[i].com);
    EXPECT_EQ(back.links[i].inertia, y.links[i].inertia);
  }
}

// Bad placements: one line naming the field.
TEST(UrdfPlacement, YamlPlacementErrorsNameTheField) {
  const auto error = [](const std::string& links) {
    try {
      (void)robot_from_yaml("name: bad\ngravity: [0, 0, -9.81]\nlinks:\n" + links, "bad.yaml");
    } catch (const neaccel::Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string body = "mass: 1, com: [0, 0, 0], inertia: [0.1, 0.1, 0.1, 0, 0, 0]";
  EXPECT_NE(error("  - {joint: R, origin: {xyz: [0, 0, 1]}, a: 1, " + body + "}\n").find("links[0].a: not with origin"),
            std::string::npos);
  EXPECT_NE(error("  - {joint: R, origin: {xyz: [0, 0, 1]}, axis: [0, 0, 0], " + body + "}\n")
                .find("links[0].axis: must be a non-zero vector"),
            std::string::npos);
  EXPECT_NE(error("  - {joint: R, origin: {rotation: [1, 0, 0, 0, 2, 0, 0, 0, 1]}, " + body + "}\n")
                .find("links[0].origin.rotation: must be a rotation matrix"),
            std::string::npos);
  EXPECT_NE(error("  - {joint: R, a: 0, alpha: 0, d: 0, theta: 0, " + body + "}\n").find("dh: missing field"),
            std::string::npos);
}

// Every formulation takes the placement (the five Newton-Euler forms, Lagrange, d'Alembert, the recursive Lagrangian,
// ...): on a tree with skew, intersecting, parallel and prismatic joints their torques agree with modified N-E, and
// the mass matrix by strobing agrees with the composite-rigid-body one. 1e-10 relative: the explicit Lagrangian
// forms sum O(n^3) products of O(1) terms (~1e-13 seen), far below any misplaced joint (>= 1e-2).
TEST(UrdfPlacement, EveryFormulationTakesThePlacement) {
  const Robot r = load_robot(std::string(NEACCEL_REF_IO_DATA) + "/messy_tree.urdf");
  for (const Link& L : r.links) ASSERT_TRUE(L.placement.has_value()) << L.name;
  std::mt19937_64 gen(20261127);
  const auto u = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(gen() >> 11) * 0x1.0p-53); };
  for (int s = 0; s < 3; ++s) {
    Eigen::VectorXd q(r.dof()), qd(r.dof()), qdd(r.dof());
    for (int i = 0; i < r.dof(); ++i) q[i] = u(-1, 1), qd[i] = u(-1, 1), qdd[i] = u(-1, 1);
    const Eigen::VectorXd ref = inverse_dynamics(r, q, qd, qdd, Form::ModifiedNE);
    for (Form form : all_forms()) {
      const Eigen::VectorXd t = inverse_dynamics(r, q, qd, qdd, form);
      EXPECT_LE((t - ref).cwiseAbs().maxCoeff(), 1e-10 * ref.cwiseAbs().maxCoeff()) << form_name(form);
    }
    const Eigen::MatrixXd Ms = mass_matrix_strobing(r, q), Mc = mass_matrix_crba(r, q);
    EXPECT_LE((Ms - Mc).cwiseAbs().maxCoeff(), 1e-12 * Mc.cwiseAbs().maxCoeff());
  }
}
