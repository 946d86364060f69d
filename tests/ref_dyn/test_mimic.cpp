// Mimic joints (robot.hpp Mimic): a joint that follows another, q_m = multiplier q_f + offset, its torque carried to
// the followed joint. Checked against the closed-form dynamics of a two-link arm whose second joint follows the first
// (derived by hand below), against the same robot with every joint independent projected by the coupling matrix G
// (tau = G^T tau_free(G q + o, G qd, G qdd), M = G^T M_free G, the derivatives G^T (d tau_free) G), and on the Franka
// Panda (its second finger follows the first): M symmetric positive definite, forward dynamics undoes inverse dynamics.
#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/model.hpp"
#include "test_robots.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace neaccel::ref {
namespace {

using test::message_of;

constexpr double kPi = 3.14159265358979323846;

double rel(const Eigen::MatrixXd& got, const Eigen::MatrixXd& want) {
  return (got - want).cwiseAbs().maxCoeff() / std::max(1.0, want.cwiseAbs().maxCoeff());
}

// planar2 (two revolute links in a vertical plane, docs/robot-format.md) with joint 2 following joint 1:
// q2 = m q1 + o, qd2 = m qd1, qdd2 = m qdd1. The free arm's closed form (tests/ref_dyn/test_mass.cpp, Lagrange's
// equations) at that state, with c2 = cos q2, s2 = sin q2, c1 = cos q1, c12 = cos(q1 + q2):
//   M11 = I1 + I2 + m1 lc1^2 + m2 (l1^2 + lc2^2 + 2 l1 lc2 c2), M12 = I2 + m2 (lc2^2 + l1 lc2 c2), M22 = I2 + m2 lc2^2
//   h1 = -m2 l1 lc2 s2 (2 qd1 qd2 + qd2^2), h2 = m2 l1 lc2 s2 qd1^2
//   G1 = (m1 lc1 + m2 l1) g c1 + m2 lc2 g c12, G2 = m2 lc2 g c12
// The one coordinate q1 then has (virtual work: delta q2 = m delta q1)
//   M_r = M11 + 2 m M12 + m^2 M22,  tau_r = M_r qdd1 + (h1 + m h2) + (G1 + m G2),
// and forward dynamics qdd1 = (tau - h1 - m h2 - G1 - m G2) / M_r.
TEST(Mimic, TwoLinkArmMatchesTheHandDerivedReducedDynamics) {
  const double m1 = 2.0, m2 = 1.5, l1 = 1.0, lc1 = 1.0 - 0.45, lc2 = 0.8 - 0.35, I1 = 0.17, I2 = 0.09, g = 9.81;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (const auto& [mult, off] : {std::pair{1.0, 0.0}, std::pair{-1.0, 0.4}, std::pair{1.0, -1.1}}) {
    Robot r = load_robot("planar2");
    r.links[1].mimic = Mimic{0, mult, off};
    ASSERT_EQ(r.dof(), 1);
    for (int k = 0; k < 20; ++k) {
      const double q1 = u(rng), qd1 = u(rng), qdd1 = u(rng);
      const double q2 = mult * q1 + off, qd2 = mult * qd1;
      const double c1 = std::cos(q1), c2 = std::cos(q2), s2 = std::sin(q2), c12 = std::cos(q1 + q2);
      const double M11 = I1 + I2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2);
      const double M12 = I2 + m2 * (lc2 * lc2 + l1 * lc2 * c2), M22 = I2 + m2 * lc2 * lc2;
      const double h1 = -m2 * l1 * lc2 * s2 * (2 * qd1 * qd2 + qd2 * qd2), h2 = m2 * l1 * lc2 * s2 * qd1 * qd1;
      const double G1 = (m1 * lc1 + m2 * l1) * g * c1 + m2 * lc2 * g * c12, G2 = m2 * lc2 * g * c12;
      const double Mr = M11 + 2 * mult * M12 + mult * mult * M22;
      const double bias = h1 + mult * h2 + G1 + mult * G2;
      const double tau = Mr * qdd1 + bias;
      const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, q1), qd = Eigen::VectorXd::Constant(1, qd1),
                            qdd = Eigen::VectorXd::Constant(1, qdd1);
      for (Form f : all_forms()) {
        EXPECT_NEAR(inverse_dynamics(r, q, qd, qdd, f)[0], tau, 1e-12) << form_name(f) << " m " << mult;
        EXPECT_NEAR(mass_matrix_strobing(r, q, f)(0, 0), Mr, 1e-12) << form_name(f);
        EXPECT_NEAR(bias_torque(r, q, qd, f)[0], bias, 1e-12) << form_name(f);
      }
      for (const std::string& name : forms::inverse_formulation_names())
        EXPECT_NEAR(forms::inverse_torques(r, name, q, qd, qdd)[0], tau, 1e-11) << name;
      EXPECT_NEAR(mass_matrix_crba(r, q)(0, 0), Mr, 1e-12);
      const Eigen::VectorXd t = Eigen::VectorXd::Constant(1, tau);
      for (const char* method : {"crba", "strobe"})
        EXPECT_NEAR(forms::forward_accelerations(r, method, q, qd, t)[0], qdd1, 1e-11) << method;
    }
  }
}

// A seeded robot with every joint kind followed: revolute mimics (multiplier +-1, offsets) and prismatic ones
// (any multiplier), some following a later link, friction on mimic joints too. Links 3, 6, ... follow a joint of
// their type among the others (which are never mimics), where there is one.
Robot mimic_robot(int n, unsigned seed, DhConvention conv, bool tree) {
  Robot r = test::random_robot(n, seed, conv, tree, true);
  std::mt19937 rng(seed + 100);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t l = 2; l < r.links.size(); l += 3) {
    for (std::size_t f = 0; f < r.links.size(); ++f) {
      const std::size_t pick = (l + 2 * f + 1) % r.links.size();
      if (pick % 3 == 2 || r.links[pick].joint != r.links[l].joint) continue;
      const bool rev = r.links[l].joint == JointType::Revolute;
      r.links[l].mimic = Mimic{static_cast<int>(pick), rev ? (u(rng) < 0 ? -1.0 : 1.0) : 0.5 + u(rng), 0.3 * u(rng)};
      break;
    }
  }
  validate(r);
  return r;
}

// A gripper: a revolute joint followed with multiplier -1 and an offset, two prismatic fingers mirrored with an
// offset (tests/ref_io/data/urdf/mimic_gripper.urdf, the same file).
const char* const kGripper =
    R"(<?xml version="1.0"?><robot name="gripper"><link name="base"/>)"
    R"(<link name="l1"><inertial><mass value="1"/><origin xyz="0 0 0.1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>)"
    R"(<link name="l2"><inertial><mass value="1"/><origin xyz="0 0 0.1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>)"
    R"(<link name="fa"><inertial><mass value="1"/><origin xyz="0 0 0.1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>)"
    R"(<link name="fb"><inertial><mass value="1"/><origin xyz="0 0 0.1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>)"
    R"(<joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0 0 0.2"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="-1" upper="1"/></joint>)"
    R"(<joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0 0 0.2"/><axis xyz="0 1 0"/><limit effort="1" velocity="1" lower="-1" upper="1"/><mimic joint="j1" multiplier="-1" offset="0.3"/></joint>)"
    R"(<joint name="f1" type="prismatic"><parent link="l2"/><child link="fa"/><origin xyz="0 0.05 0.1"/><axis xyz="1 0 0"/><limit effort="1" velocity="1" lower="-1" upper="1"/></joint>)"
    R"(<joint name="f2" type="prismatic"><parent link="l2"/><child link="fb"/><origin xyz="0 -0.05 0.1"/><axis xyz="1 0 0"/><limit effort="1" velocity="1" lower="-1" upper="1"/><mimic joint="f1" multiplier="-1" offset="0.01"/></joint>)"
    R"(</robot>)";

// The same robot with every joint independent.
Robot free_robot(Robot r) {
  for (Link& L : r.links) L.mimic.reset();
  return r;
}

TEST(Mimic, EveryFunctionIsTheFreeRobotProjectedByTheCoupling) {
  std::vector<Robot> robots;
  for (unsigned seed : {1u, 2u, 3u, 4u})
    robots.push_back(mimic_robot(7, seed, seed % 2 ? DhConvention::Modified : DhConvention::Standard, seed > 2));
  robots.push_back(load_robot("panda"));
  robots.push_back(robot_from_urdf(kGripper, "gripper"));
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const Robot& r : robots) {
    ASSERT_TRUE(r.has_mimic()) << r.name;
    const Robot free = free_robot(r);
    const Eigen::MatrixXd G = coupling_matrix(r);
    const int n = r.dof();
    ASSERT_LT(n, static_cast<int>(r.links.size())) << r.name;
    for (int k = 0; k < 5; ++k) {
      Eigen::VectorXd q(n), qd(n), qdd(n);
      for (int i = 0; i < n; ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
      const Eigen::VectorXd qf = link_positions(r, q), qdf = G * qd, qddf = G * qdd;
      const Eigen::VectorXd tau = G.transpose() * inverse_dynamics(free, qf, qdf, qddf);
      for (Form f : all_forms()) {
        EXPECT_LT(rel(inverse_dynamics(r, q, qd, qdd, f), tau), 1e-12) << r.name << " " << form_name(f);
        EXPECT_LT(rel(gravity_torque(r, q, f), G.transpose() * gravity_torque(free, qf, f)), 1e-12) << r.name;
      }
      for (const std::string& name : forms::inverse_formulation_names())
        EXPECT_LT(rel(forms::inverse_torques(r, name, q, qd, qdd), tau), 1e-10) << r.name << " " << name;
      const Eigen::MatrixXd M = G.transpose() * mass_matrix_crba(free, qf) * G;
      EXPECT_LT(rel(mass_matrix_crba(r, q), M), 1e-12) << r.name;
      EXPECT_LT(rel(mass_matrix_strobing(r, q), M), 1e-12) << r.name;
      Eigen::MatrixXd dq, dqd, fq, fqd;
      control::tau_jacobians(r, q, qd, qdd, dq, dqd);
      control::tau_jacobians(free, qf, qdf, qddf, fq, fqd);
      EXPECT_LT(rel(dq, G.transpose() * fq * G), 1e-12) << r.name;
      EXPECT_LT(rel(dqd, G.transpose() * fqd * G), 1e-12) << r.name;
      // Link poses follow the mimic positions.
      const std::vector<Eigen::Matrix4d> T = link_poses(r, q), Tf = link_poses(free, qf);
      for (std::size_t l = 0; l < T.size(); ++l) EXPECT_EQ(T[l], Tf[l]) << r.name << " link " << l + 1;
    }
  }
}

TEST(Mimic, PandaMassMatrixIsSymmetricPositiveDefiniteAndForwardUndoesInverse) {
  const Robot r = load_robot("panda");
  ASSERT_EQ(r.links.size(), 9u);
  ASSERT_EQ(r.dof(), 8);
  ASSERT_TRUE(r.links[8].mimic.has_value());
  EXPECT_EQ(r.links[8].mimic->link, 7);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst = 0;
  for (int k = 0; k < 20; ++k) {
    Eigen::VectorXd q(8), qd(8), qdd(8);
    for (int i = 0; i < 8; ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
    q[7] = 0.02 + 0.02 * u(rng);  // finger opening, m
    const Eigen::MatrixXd M = mass_matrix_crba(r, q);
    EXPECT_EQ((M - M.transpose()).cwiseAbs().maxCoeff(), 0.0);
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(M);
    EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0);
    const Eigen::VectorXd tau = inverse_dynamics(r, q, qd, qdd);
    for (const char* method : {"crba", "strobe"}) {
      const Eigen::VectorXd back = forms::forward_accelerations(r, method, q, qd, tau);
      worst = std::max(worst, rel(back, qdd));
    }
  }
  EXPECT_LT(worst, 1e-9);  // cond(M) ~ 1e5 (the 15 g fingers beside the 4 kg arm)
  // The O(n) recursions eliminate each joint link by link: they refuse, naming the joint.
  const Eigen::VectorXd z = Eigen::VectorXd::Zero(8);
  EXPECT_NE(message_of([&] { forms::forward_accelerations(r, "khalil", z, z, z); })
                .find("joint of link 'panda_rightfinger' is a mimic joint"),
            std::string::npos);
}

TEST(Mimic, ValidateNamesTheFieldOfABadCoupling) {
  struct Case {
    Mimic m;
    bool prismatic_follower;
    const char* want;
  };
  const Case cases[] = {
      {{5, 1, 0}, false, "links[1].mimic.link: must be another link 0..1 (got 5)"},
      {{1, 1, 0}, false, "links[1].mimic.link: must be another link 0..1 (got 1)"},
      {{0, 0, 0}, false, "links[1].mimic.multiplier: must be finite and non-zero (got 0)"},
      {{0, std::nan(""), 0}, false, "links[1].mimic.multiplier: must be finite and non-zero (got nan)"},
      {{0, HUGE_VAL, 0}, false, "links[1].mimic.multiplier: must be finite and non-zero (got inf)"},
      {{0, 1, std::nan("")}, false, "links[1].mimic.offset: must be finite (got nan)"},
      {{0, 2, 0}, false, "links[1].mimic.multiplier: a revolute mimic joint must have multiplier 1 or -1 (got 2)"},
      {{0, 0.01, 0}, true, "links[1].mimic.link: a prismatic joint cannot follow the revolute joint of link 'link1'"},
  };
  for (const Case& c : cases) {
    Robot r = load_robot("planar2");
    if (c.prismatic_follower) r.links[1].joint = JointType::Prismatic;
    r.links[1].mimic = c.m;
    EXPECT_NE(message_of([&] { validate(r); }).find(c.want), std::string::npos) << message_of([&] { validate(r); });
  }
  // A mimic of a mimic: one line naming the joint followed.
  Robot r = load_robot("puma560");
  r.links[1].mimic = Mimic{0, 1, 0};
  r.links[2].mimic = Mimic{1, -1, 0};
  EXPECT_NE(message_of([&] { validate(r); }).find("links[2].mimic.link: follows link 'link2', itself a mimic joint"),
            std::string::npos)
      << message_of([&] { validate(r); });
}

// Without mimic joints nothing changes: the coordinates are the links, G = 1, expand and reduce are the identity.
TEST(Mimic, NoMimicIsTheIdentity) {
  const Robot r = load_robot("puma560");
  EXPECT_EQ(r.dof(), 6);
  EXPECT_FALSE(r.has_mimic());
  EXPECT_EQ(coupling_matrix(r), Eigen::MatrixXd::Identity(6, 6));
  EXPECT_EQ(coordinate_links(r), (std::vector<int>{0, 1, 2, 3, 4, 5}));
}

}  // namespace
}  // namespace neaccel::ref
