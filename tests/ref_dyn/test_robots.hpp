// Test fixtures for ref_dyn: seeded random robots (chains and trees, R and P joints, both DH conventions) and an
// independent world-frame Newton-Euler written with 4x4 homogeneous transforms, as an oracle that shares no code
// with the recursions under test (no DH-structured rotations, no A matrices, no frame-local vectors).
#pragma once

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Geometry>

#include <cmath>
#include <functional>
#include <random>
#include <string>

namespace neaccel::ref::test {

// The message of the neaccel::Error that f throws, or "(no error)".
inline std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

inline Eigen::Matrix3d random_inertia(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0.05, 1.0);
  // Principal moments satisfying the triangle inequality: I = sum of three non-negative "mass" directions.
  const double p = u(rng), q = u(rng), r = u(rng);
  const Eigen::Vector3d principal(q + r, p + r, p + q);
  const Eigen::Matrix3d R = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
  return R * principal.asDiagonal() * R.transpose();
}

// A random robot with n links. tree: random parents; prismatic: some prismatic joints.
inline Robot random_robot(int n, unsigned seed, DhConvention conv, bool tree, bool prismatic, bool friction = true) {
  std::mt19937 rng(seed);
  std::srand(seed);  // Eigen's UnitRandom uses std::rand
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_real_distribution<double> pos(0.2, 2.0);
  Robot r;
  r.name = "test-random";
  r.convention = conv;
  for (int i = 0; i < n; ++i) {
    Link L;
    L.parent = (tree && i > 0) ? static_cast<int>(rng() % static_cast<unsigned>(i + 1)) - 1 : i - 1;
    if (L.parent >= i) L.parent = i - 1;
    L.joint = (prismatic && rng() % 3 == 0) ? JointType::Prismatic : JointType::Revolute;
    L.a = u(rng);
    L.alpha = 3.0 * u(rng);
    L.d = u(rng);
    L.theta = 3.0 * u(rng);
    if (conv == DhConvention::Modified && tree) {
      L.gamma = 3.0 * u(rng);
      L.b = u(rng);
    }
    L.mass = pos(rng);
    L.com = Eigen::Vector3d(u(rng), u(rng), u(rng));
    L.inertia = random_inertia(rng);
    if (friction) {
      L.Ia = 0.5 * pos(rng);
      L.Fv = pos(rng);
      L.Fc = pos(rng);
    }
    r.links.push_back(L);
  }
  r.gravity = Eigen::Vector3d(u(rng), u(rng), -9.81 + u(rng));
  r.f_e = Eigen::Vector3d(u(rng), u(rng), u(rng));
  r.n_e = Eigen::Vector3d(u(rng), u(rng), u(rng));
  return r;
}

inline Eigen::Matrix4d rot_z(double t) {
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.block<3, 3>(0, 0) = Eigen::AngleAxisd(t, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  return T;
}
inline Eigen::Matrix4d rot_x(double t) {
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.block<3, 3>(0, 0) = Eigen::AngleAxisd(t, Eigen::Vector3d::UnitX()).toRotationMatrix();
  return T;
}
inline Eigen::Matrix4d trans(double x, double y, double z) {
  Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
  T.block<3, 1>(0, 3) = Eigen::Vector3d(x, y, z);
  return T;
}

// World-frame Newton-Euler (oracle). Moments about the joint points, all vectors in the base frame.
inline Eigen::VectorXd oracle_torques(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                      const Eigen::VectorXd& qdd) {
  const int n = robot.dof();
  std::vector<Eigen::Matrix4d> T(n);
  std::vector<Eigen::Vector3d> z(n), j(n), w(n), al(n), aj(n), c(n), ac(n), f(n), m(n);
  for (int i = 0; i < n; ++i) {
    const Link& L = robot.links[i];
    const Eigen::Matrix4d Tp = L.parent < 0 ? Eigen::Matrix4d::Identity() : T[L.parent];
    const bool rev = L.joint == JointType::Revolute;
    const double th = rev ? L.theta + q[i] : L.theta;
    const double d = rev ? L.d : L.d + q[i];
    if (robot.convention == DhConvention::Standard) {
      T[i] = Tp * rot_z(th) * trans(0, 0, d) * trans(L.a, 0, 0) * rot_x(L.alpha);
      z[i] = Tp.block<3, 1>(0, 2);
      j[i] = Tp.block<3, 1>(0, 3);
    } else {
      T[i] = Tp * rot_z(L.gamma) * trans(0, 0, L.b) * rot_x(L.alpha) * trans(L.a, 0, 0) * rot_z(th) * trans(0, 0, d);
      z[i] = T[i].block<3, 1>(0, 2);
      j[i] = T[i].block<3, 1>(0, 3);
    }
    const Eigen::Vector3d wp = L.parent < 0 ? Eigen::Vector3d::Zero() : w[L.parent];
    const Eigen::Vector3d alp = L.parent < 0 ? Eigen::Vector3d::Zero() : al[L.parent];
    const Eigen::Vector3d refp = L.parent < 0 ? Eigen::Vector3d::Zero() : j[L.parent];
    const Eigen::Vector3d arefp = L.parent < 0 ? Eigen::Vector3d(-robot.gravity) : aj[L.parent];
    const Eigen::Vector3d dj = j[i] - refp;
    const Eigen::Vector3d a_par = arefp + alp.cross(dj) + wp.cross(wp.cross(dj));  // parent point at j_i
    if (rev) {
      w[i] = wp + qd[i] * z[i];
      al[i] = alp + qdd[i] * z[i] + wp.cross(qd[i] * z[i]);
      aj[i] = a_par;
    } else {
      w[i] = wp;
      al[i] = alp;
      aj[i] = a_par + qdd[i] * z[i] + 2.0 * wp.cross(qd[i] * z[i]);
    }
    const Eigen::Matrix3d R = T[i].block<3, 3>(0, 0);
    c[i] = T[i].block<3, 1>(0, 3) + R * L.com;
    const Eigen::Vector3d dc = c[i] - j[i];
    ac[i] = aj[i] + al[i].cross(dc) + w[i].cross(w[i].cross(dc));
  }
  Eigen::VectorXd tau(n);
  for (int i = n - 1; i >= 0; --i) {
    const Link& L = robot.links[i];
    const Eigen::Matrix3d R = T[i].block<3, 3>(0, 0);
    const Eigen::Matrix3d Iw = R * L.inertia * R.transpose();
    const Eigen::Vector3d F = L.mass * ac[i];
    const Eigen::Vector3d N = Iw * al[i] + w[i].cross(Iw * w[i]);
    f[i] = F;
    m[i] = N + (c[i] - j[i]).cross(F);
    if (i == n - 1) {
      const Eigen::Vector3d fe = R * robot.f_e;
      f[i] += fe;
      m[i] += R * robot.n_e + (T[i].block<3, 1>(0, 3) - j[i]).cross(fe);
    }
    for (int k = i + 1; k < n; ++k) {
      if (robot.links[k].parent != i) continue;
      f[i] += f[k];
      m[i] += m[k] + (j[k] - j[i]).cross(f[k]);
    }
    const double proj = L.joint == JointType::Revolute ? z[i].dot(m[i]) : z[i].dot(f[i]);
    const double sgn = qd[i] > 0 ? 1.0 : (qd[i] < 0 ? -1.0 : 0.0);
    tau[i] = proj + L.Ia * qdd[i] + L.Fv * qd[i] + L.Fc * sgn;
  }
  return tau;
}

// Relative difference max|x - y| / max(1, max|y|).
inline double rel_diff(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  return (x - y).cwiseAbs().maxCoeff() / std::max(1.0, y.cwiseAbs().maxCoeff());
}

}  // namespace neaccel::ref::test
