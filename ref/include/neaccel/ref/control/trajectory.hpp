// Desired trajectories for the controller (seed 004 section 2.3 and Appendix A.1).
//
// Planar two-link arm: an end-effector path p(t) with velocity v and acceleration a, mapped to the joints by
// inverse kinematics (Appendix A.1): q from the closed-form two-link solution, qd = J^-1 v (eq A.5),
// qdd = J^-1 (a - Jdot qd) (eq A.6), J the Jacobian of eq A.3.
// n-dof arms: joint-space quintic splines, rest to rest between waypoints (zero velocity and acceleration at
// every waypoint).
#pragma once

#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <vector>

namespace neaccel::ref::control {

// Joint-space trajectory sampled at t_k = k T, k = 0..steps (and, for a planar path, the desired end effector).
struct DesiredTrajectory {
  double T = 0.0;
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, qd, qdd;
  std::vector<Eigen::Vector3d> ee;  // desired end-effector position (base frame)
};

// Rest-to-rest quintic s(t) from 0 to 1 over [0, tf]: s = 10 u^3 - 15 u^4 + 6 u^5, u = t / tf (clamped).
struct Quintic {
  double s, sd, sdd;
};
Quintic quintic(double t, double tf);

// Link lengths (l1, l2) of a planar two-link revolute arm (standard DH, alpha = d = theta = 0, joint 2 on
// link 1), or neaccel::Error naming the field that makes the robot non-planar.
Eigen::Vector2d planar_lengths(const Robot& robot);

// Joint state from an end-effector state of the planar arm (Appendix A.1). elbow = +1 or -1 selects the sign of
// q2. Throws neaccel::Error when p is out of reach or at the singularity (det J = l1 l2 sin q2 ~ 0).
struct JointState {
  Eigen::VectorXd q, qd, qdd;
};
JointState planar_ik(const Eigen::Vector2d& lengths, const Eigen::Vector2d& p, const Eigen::Vector2d& v,
                     const Eigen::Vector2d& a, int elbow);

// The Jacobian of eq A.3 at q.
Eigen::Matrix2d planar_jacobian(const Eigen::Vector2d& lengths, const Eigen::Vector2d& q);

// A circle of the given centre and radius in the arm's plane, traversed once counter-clockwise from angle 0 with
// a quintic time law over `duration`, sampled every T, mapped through planar_ik.
DesiredTrajectory planar_circle(const Robot& robot, const Eigen::Vector2d& centre, double radius, double duration,
                                double T, int elbow = 1);

// Quintic rest-to-rest segments through waypoints (each of robot.dof() entries), each segment lasting
// segment_time, sampled every T. ee is the origin of the last link's frame (forward kinematics).
DesiredTrajectory joint_quintic(const Robot& robot, const std::vector<Eigen::VectorXd>& waypoints,
                                double segment_time, double T);

// Origin of the last link's frame in the base frame (the end effector).
Eigen::Vector3d end_effector(const Robot& robot, const Eigen::VectorXd& q);

}  // namespace neaccel::ref::control
