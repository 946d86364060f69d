#include "support.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>

namespace neaccel::ref::forms::test {

Link txt_link(JointType type, double a, double alpha, double d, double theta, double m, Eigen::Vector3d c,
              Eigen::Vector3d Idiag) {
  Link L;
  L.joint = type;
  L.a = a;
  L.alpha = alpha;
  L.d = d;
  L.theta = theta;
  L.mass = m;
  L.com = c;
  L.inertia = Idiag.asDiagonal();
  return L;
}

Robot planar2() {
  Robot r;
  r.name = "planar2";
  r.source = "test:planar2";
  r.gravity = Eigen::Vector3d(0, -9.81, 0);
  r.links.push_back(txt_link(JointType::Revolute, 1.0, 0, 0, 0, 2.0, {-0.45, 0, 0}, {0.02, 0.16, 0.17}));
  r.links.push_back(txt_link(JointType::Revolute, 0.8, 0, 0, 0, 1.5, {-0.35, 0, 0}, {0.01, 0.08, 0.09}));
  r.links[0].parent = -1;
  r.links[1].parent = 0;
  return r;
}

namespace {
Eigen::Matrix3d random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> N(0, 1);
  Eigen::Vector4d q(N(rng), N(rng), N(rng), N(rng));
  q.normalize();
  return Eigen::Quaterniond(q(0), q(1), q(2), q(3)).toRotationMatrix();
}
}  // namespace

Robot random_robot(const RandomSpec& spec, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> U(-1, 1), P(0.05, 1.0), A(-M_PI, M_PI);
  std::bernoulli_distribution prismatic(spec.prismatic_probability);
  Robot r;
  r.name = "random";
  r.source = "test:random";
  r.convention = spec.convention;
  r.gravity = Eigen::Vector3d(U(rng), U(rng), -9.81);
  for (int i = 0; i < spec.n; ++i) {
    Link L;
    L.parent = (spec.tree && i > 0) ? std::uniform_int_distribution<int>(-1, i - 1)(rng) : i - 1;
    L.joint = prismatic(rng) ? JointType::Prismatic : JointType::Revolute;
    L.a = U(rng);
    L.alpha = A(rng);
    L.d = U(rng);
    L.theta = A(rng);
    if (spec.tree && spec.convention == DhConvention::Modified) {
      L.gamma = A(rng);
      L.b = U(rng);
    }
    L.mass = P(rng) * 5;
    L.com = Eigen::Vector3d(U(rng), U(rng), U(rng)) * 0.3;
    const Eigen::Vector3d pm(P(rng), P(rng), P(rng));  // principal moments satisfying the triangle inequality
    const Eigen::Vector3d pr(pm.y() + pm.z(), pm.x() + pm.z(), pm.x() + pm.y());
    const Eigen::Matrix3d Rr = random_rotation(rng);
    L.inertia = Rr * pr.asDiagonal() * Rr.transpose();
    if (spec.extras) {
      L.Ia = P(rng) * 0.1;
      L.Fv = P(rng);
      L.Fc = P(rng) * 0.5;
    }
    r.links.push_back(L);
  }
  if (spec.extras) {
    RigidLoad load;
    load.mass = 1.5;
    load.com = Eigen::Vector3d(0.05, -0.02, 0.1);
    load.inertia = Eigen::Vector3d(0.01, 0.02, 0.015).asDiagonal();
    r.payload = load;
    r.f_e = Eigen::Vector3d(U(rng), U(rng), U(rng)) * 5;
    r.n_e = Eigen::Vector3d(U(rng), U(rng), U(rng));
  }
  return r;
}

State random_state(const Robot& robot, std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1, 1);
  const int n = robot.dof();
  State s{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    s.q[i] = robot.links[static_cast<std::size_t>(i)].joint == JointType::Revolute ? M_PI * U(rng) : 0.5 * U(rng);
    s.qd[i] = 2 * U(rng);
    s.qdd[i] = 3 * U(rng);
  }
  return s;
}

double rel_diff(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

}  // namespace neaccel::ref::forms::test
