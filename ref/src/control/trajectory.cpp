#include "neaccel/ref/control/trajectory.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"

#include <Eigen/LU>

#include <algorithm>
#include <cmath>
#include <string>

namespace neaccel::ref::control {

namespace {
int sample_count(double duration, double T, const char* what) {
  if (!(T > 0.0) || !std::isfinite(T)) throw Error(std::string(what) + ": sampling period T must be positive");
  if (!(duration > 0.0) || !std::isfinite(duration)) throw Error(std::string(what) + ": duration must be positive");
  return static_cast<int>(std::lround(duration / T));
}
}  // namespace

Quintic quintic(double t, double tf) {
  const double u = std::clamp(t / tf, 0.0, 1.0);
  const double u2 = u * u, u3 = u2 * u;
  return {u3 * (10.0 - 15.0 * u + 6.0 * u2), 30.0 * u2 * (1.0 - 2.0 * u + u2) / tf,
          60.0 * u * (1.0 - 3.0 * u + 2.0 * u2) / (tf * tf)};
}

Eigen::Vector2d planar_lengths(const Robot& robot) {
  const std::string who = "control: robot '" + robot.name + "' ";
  if (robot.dof() != 2) throw Error(who + "is not a two-link arm (planar path needs 2 joints)");
  if (robot.convention != DhConvention::Standard) throw Error(who + "planar path needs standard DH");
  for (const Link& L : robot.links) {
    if (L.joint != JointType::Revolute) throw Error(who + "links." + L.name + ".joint: planar path needs revolute");
    if (L.alpha != 0.0 || L.d != 0.0 || L.theta != 0.0)
      throw Error(who + "links." + L.name + ": planar path needs alpha = d = theta = 0");
  }
  return {robot.links[0].a, robot.links[1].a};
}

Eigen::Matrix2d planar_jacobian(const Eigen::Vector2d& l, const Eigen::Vector2d& q) {
  const double s1 = std::sin(q[0]), c1 = std::cos(q[0]), s12 = std::sin(q[0] + q[1]), c12 = std::cos(q[0] + q[1]);
  Eigen::Matrix2d J;  // seed 004 eq A.3
  J << -l[0] * s1 - l[1] * s12, -l[1] * s12, l[0] * c1 + l[1] * c12, l[1] * c12;
  return J;
}

JointState planar_ik(const Eigen::Vector2d& l, const Eigen::Vector2d& p, const Eigen::Vector2d& v,
                     const Eigen::Vector2d& a, int elbow) {
  const double c2 = (p.squaredNorm() - l[0] * l[0] - l[1] * l[1]) / (2.0 * l[0] * l[1]);
  if (!(std::abs(c2) < 1.0)) throw Error("planar_ik: end-effector position out of reach of the arm");
  const double s2 = (elbow >= 0 ? 1.0 : -1.0) * std::sqrt(1.0 - c2 * c2);
  if (std::abs(s2) < 1e-6) throw Error("planar_ik: end-effector position at the singularity sin(q2) = 0");
  Eigen::Vector2d q(std::atan2(p.y(), p.x()) - std::atan2(l[1] * s2, l[0] + l[1] * c2), std::atan2(s2, c2));
  const Eigen::Matrix2d J = planar_jacobian(l, q);
  const Eigen::Vector2d qd = J.partialPivLu().solve(v);  // eq A.5
  // Jdot = dJ/dt (derivative of eq A.3 along qd).
  const double s1 = std::sin(q[0]), c1 = std::cos(q[0]), s12 = std::sin(q[0] + q[1]), c12 = std::cos(q[0] + q[1]);
  const double w1 = qd[0], w12 = qd[0] + qd[1];
  Eigen::Matrix2d Jd;
  Jd << -l[0] * c1 * w1 - l[1] * c12 * w12, -l[1] * c12 * w12, -l[0] * s1 * w1 - l[1] * s12 * w12, -l[1] * s12 * w12;
  const Eigen::Vector2d qdd = J.partialPivLu().solve(a - Jd * qd);  // eq A.6
  return {q, qd, qdd};
}

DesiredTrajectory planar_circle(const Robot& robot, const Eigen::Vector2d& centre, double radius, double duration,
                                double T, int elbow) {
  const Eigen::Vector2d l = planar_lengths(robot);
  const int steps = sample_count(duration, T, "planar_circle");
  DesiredTrajectory d;
  d.T = T;
  const double turn = 2.0 * M_PI;
  for (int k = 0; k <= steps; ++k) {
    const double t = k * T;
    const Quintic s = quintic(t, duration);
    const double th = turn * s.s, thd = turn * s.sd, thdd = turn * s.sdd;
    const Eigen::Vector2d e(std::cos(th), std::sin(th)), n(-std::sin(th), std::cos(th));
    const Eigen::Vector2d p = centre + radius * e;
    const Eigen::Vector2d v = radius * thd * n;
    const Eigen::Vector2d a = radius * thdd * n - radius * thd * thd * e;
    const JointState js = planar_ik(l, p, v, a, elbow);
    d.t.push_back(t);
    d.q.push_back(js.q);
    d.qd.push_back(js.qd);
    d.qdd.push_back(js.qdd);
    d.ee.emplace_back(p.x(), p.y(), 0.0);
  }
  return d;
}

Eigen::Vector3d end_effector(const Robot& robot, const Eigen::VectorXd& q) {
  return link_poses(robot, q).back().block<3, 1>(0, 3);
}

DesiredTrajectory joint_quintic(const Robot& robot, const std::vector<Eigen::VectorXd>& waypoints,
                                double segment_time, double T) {
  if (waypoints.size() < 2) throw Error("joint_quintic: need at least two waypoints");
  for (std::size_t w = 0; w < waypoints.size(); ++w) check_vector(robot, waypoints[w], "waypoint " + std::to_string(w + 1));
  const int segs = static_cast<int>(waypoints.size()) - 1;
  const int per = sample_count(segment_time, T, "joint_quintic");
  DesiredTrajectory d;
  d.T = T;
  for (int k = 0; k <= segs * per; ++k) {
    const int seg = std::min(k / per, segs - 1);
    const double tl = (k - seg * per) * T;
    const Quintic s = quintic(tl, segment_time);
    const Eigen::VectorXd dq = waypoints[static_cast<std::size_t>(seg) + 1] - waypoints[static_cast<std::size_t>(seg)];
    d.t.push_back(k * T);
    d.q.push_back(waypoints[static_cast<std::size_t>(seg)] + s.s * dq);
    d.qd.push_back(s.sd * dq);
    d.qdd.push_back(s.sdd * dq);
    d.ee.push_back(end_effector(robot, d.q.back()));
  }
  return d;
}

}  // namespace neaccel::ref::control
