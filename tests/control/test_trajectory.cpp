// Desired trajectories: the quintic time law, planar inverse kinematics (seed 004 Appendix A.1) checked by
// forward kinematics (ref::link_poses) and by differentiating q(t) numerically, and joint-space quintics.
#include "neaccel/ref/control/trajectory.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

namespace ctl = neaccel::ref::control;

TEST(Trajectory, QuinticBoundaryValues) {
  const double tf = 2.0;
  const ctl::Quintic a = ctl::quintic(0.0, tf), b = ctl::quintic(tf, tf), m = ctl::quintic(tf / 2, tf);
  EXPECT_EQ(a.s, 0.0);
  EXPECT_EQ(a.sd, 0.0);
  EXPECT_EQ(a.sdd, 0.0);
  EXPECT_NEAR(b.s, 1.0, 1e-15);
  EXPECT_NEAR(b.sd, 0.0, 1e-15);
  EXPECT_NEAR(b.sdd, 0.0, 1e-14);
  EXPECT_NEAR(m.s, 0.5, 1e-15);
  EXPECT_NEAR(m.sd, 15.0 / 8.0 / tf, 1e-15);  // peak speed of the quintic: 15/8 per unit time
}

TEST(Trajectory, PlanarCircleFollowsThePathThroughTheArm) {
  const neaccel::ref::Robot r = neaccel::ref::load_robot("planar2");
  const double T = 0.002;
  const ctl::DesiredTrajectory d = ctl::planar_circle(r, Eigen::Vector2d(1.0, 0.5), 0.3, 2.0, T);
  ASSERT_EQ(d.t.size(), 1001u);
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    // Forward kinematics of the arm (independent of the IK formulas) reproduces the path (1e-12 m: rounding).
    EXPECT_LE((ctl::end_effector(r, d.q[k]) - d.ee[k]).norm(), 1e-12) << k;
    EXPECT_NEAR((d.ee[k].head<2>() - Eigen::Vector2d(1.0, 0.5)).norm(), 0.3, 1e-12);
  }
  // qd and qdd are the time derivatives of q: central differences over 2T, error O(T^2 q''') < 1e-3 rad/s.
  for (std::size_t k = 1; k + 1 < d.t.size(); k += 37) {
    const Eigen::VectorXd qd_fd = (d.q[k + 1] - d.q[k - 1]) / (2 * T);
    const Eigen::VectorXd qdd_fd = (d.qd[k + 1] - d.qd[k - 1]) / (2 * T);
    EXPECT_LE((qd_fd - d.qd[k]).cwiseAbs().maxCoeff(), 1e-3) << k;
    EXPECT_LE((qdd_fd - d.qdd[k]).cwiseAbs().maxCoeff(), 1e-2) << k;
  }
  // Rest to rest.
  EXPECT_LE(d.qd.front().norm() + d.qd.back().norm(), 1e-12);
}

TEST(Trajectory, PlanarErrors) {
  const neaccel::ref::Robot r = neaccel::ref::load_robot("planar2");
  const Eigen::Vector2d l = ctl::planar_lengths(r), z = Eigen::Vector2d::Zero();
  EXPECT_THROW(ctl::planar_ik(l, Eigen::Vector2d(3.0, 0.0), z, z, 1), neaccel::Error);   // out of reach
  EXPECT_THROW(ctl::planar_ik(l, Eigen::Vector2d(1.8, 0.0), z, z, 1), neaccel::Error);   // stretched: singular
  EXPECT_THROW(ctl::planar_lengths(neaccel::ref::load_robot("puma560")), neaccel::Error);  // not planar
  EXPECT_THROW(ctl::planar_circle(r, Eigen::Vector2d(1.0, 0.5), 0.3, 2.0, 0.0), neaccel::Error);
}

TEST(Trajectory, JointQuinticThroughWaypoints) {
  const neaccel::ref::Robot r = neaccel::ref::load_robot("puma560");
  Eigen::VectorXd a = Eigen::VectorXd::Zero(6), b = Eigen::VectorXd::LinSpaced(6, 0.1, 0.6);
  const ctl::DesiredTrajectory d = ctl::joint_quintic(r, {a, b, a}, 1.0, 0.01);
  ASSERT_EQ(d.t.size(), 201u);
  EXPECT_LE((d.q[100] - b).norm(), 1e-12);
  EXPECT_LE((d.q[200] - a).norm(), 1e-12);
  EXPECT_LE(d.qd[100].norm() + d.qdd[0].norm(), 1e-12);
  EXPECT_THROW(ctl::joint_quintic(r, {a}, 1.0, 0.01), neaccel::Error);
  EXPECT_THROW(ctl::joint_quintic(r, {a, Eigen::VectorXd::Zero(5)}, 1.0, 0.01), neaccel::Error);
}
