// A, B of seed 004 eqs 5-6 (dual-number Newton-Euler) against central finite differences of independent code:
// ref::inverse_dynamics (for d tau/dq, d tau/dqd) and ref::forward_dynamics (CRBA + LDLT) for A and B.
#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace ctl = neaccel::ref::control;
using neaccel::ref::Robot;

namespace {

using VecFn = std::function<Eigen::VectorXd(const Eigen::VectorXd&)>;

// Central difference Jacobian, step h (truncation O(h^2 f''') ~ 1e-10, rounding O(eps |f| / h) ~ 1e-11 for
// h = 1e-5 and |f| ~ 100: both far below the 1e-6 relative tolerance).
Eigen::MatrixXd central_jacobian(const VecFn& f, const Eigen::VectorXd& x, double h = 1e-5) {
  const Eigen::VectorXd f0 = f(x);
  Eigen::MatrixXd J(f0.size(), x.size());
  for (Eigen::Index j = 0; j < x.size(); ++j) {
    Eigen::VectorXd xp = x, xm = x;
    xp[j] += h;
    xm[j] -= h;
    J.col(j) = (f(xp) - f(xm)) / (2 * h);
  }
  return J;
}

// |a - b| <= 1e-6 * max(1, max |b|), element-wise: the required 1e-6 relative tolerance.
void expect_close(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, const std::string& what) {
  ASSERT_EQ(a.rows(), b.rows());
  ASSERT_EQ(a.cols(), b.cols());
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), 1e-6 * scale) << what << "\nad:\n" << a << "\nfd:\n" << b;
}

struct Point {
  Eigen::VectorXd q, qd, qdd;
};

Point test_point(int n) {
  // Away from qd = 0 so that the Coulomb term sgn(qd) of random arms is locally constant.
  return {Eigen::VectorXd::LinSpaced(n, 0.3, 1.4), Eigen::VectorXd::LinSpaced(n, -0.9, 0.7).array() + 0.05,
          Eigen::VectorXd::LinSpaced(n, 1.1, -0.6)};
}

void check_robot(const Robot& r) {
  SCOPED_TRACE(r.name);
  const int n = r.dof();
  const Point p = test_point(n);
  const ctl::Linearization lin = ctl::linearize(r, p.q, p.qd, p.qdd);
  using neaccel::ref::forward_dynamics;
  using neaccel::ref::inverse_dynamics;
  expect_close(lin.dtau_dq,
               central_jacobian([&](const Eigen::VectorXd& q) { return inverse_dynamics(r, q, p.qd, p.qdd); }, p.q),
               "dtau/dq");
  expect_close(lin.dtau_dqd,
               central_jacobian([&](const Eigen::VectorXd& qd) { return inverse_dynamics(r, p.q, qd, p.qdd); }, p.qd),
               "dtau/dqd");
  // A, B from the forward dynamics at the feedforward torque: xdot = (qd, qdd(q, qd, tau)).
  const Eigen::VectorXd tau = inverse_dynamics(r, p.q, p.qd, p.qdd);
  Eigen::VectorXd x(2 * n);
  x << p.q, p.qd;
  const VecFn xdot = [&](const Eigen::VectorXd& s) {
    Eigen::VectorXd out(2 * n);
    out << s.tail(n), forward_dynamics(r, s.head(n), s.tail(n), tau);
    return out;
  };
  expect_close(lin.A, central_jacobian(xdot, x), "A");
  const VecFn xdot_u = [&](const Eigen::VectorXd& t) {
    Eigen::VectorXd out(2 * n);
    out << p.qd, forward_dynamics(r, p.q, p.qd, t);
    return out;
  };
  expect_close(lin.B, central_jacobian(xdot_u, tau), "B");
}

}  // namespace

TEST(Linearize, Planar2MatchesFiniteDifferences) { check_robot(neaccel::ref::load_robot("planar2")); }
TEST(Linearize, Puma560MatchesFiniteDifferences) { check_robot(neaccel::ref::load_robot("puma560")); }
TEST(Linearize, RandomArmsWithPrismaticJointsMatchFiniteDifferences) {
  // Random arms (seeded): standard and modified DH, revolute and prismatic joints, friction, rotor inertia.
  for (const char* spec : {"random:4:2", "random:5:3", "randomtree:6:4"}) check_robot(neaccel::ref::load_robot(spec));
}

TEST(Linearize, Planar2MatchesSeed004AppendixA2MassMatrix) {
  // Appendix A.2 (planar, W = 0): M11 = I1* + I2* + I3* c2, M12 = I2* + I3*/2 c2, M22 = I2*, with
  // I1* = I1 + m2 l1^2, I2* = m2 d2^2 + I2, I3* = 2 m2 d2 l1 (I about the joint for link 1: I1 includes m1 d1^2;
  // d1, d2 distances of the centres of mass from the joints).
  const Robot r = neaccel::ref::load_robot("planar2");
  const double l1 = r.links[0].a, m1 = r.links[0].mass, m2 = r.links[1].mass;
  const double d1 = l1 + r.links[0].com.x(), d2 = r.links[1].a + r.links[1].com.x();
  const double I1 = r.links[0].inertia(2, 2) + m1 * d1 * d1, I2 = r.links[1].inertia(2, 2);
  const double I1s = I1 + m2 * l1 * l1, I2s = m2 * d2 * d2 + I2, I3s = 2 * m2 * d2 * l1;
  const Eigen::VectorXd q = Eigen::Vector2d(0.4, 1.1);
  const double c2 = std::cos(q[1]);
  const ctl::Linearization lin = ctl::linearize(r, q, Eigen::Vector2d(0.3, -0.2), Eigen::Vector2d(0.5, 0.1));
  EXPECT_NEAR(lin.M(0, 0), I1s + I2s + I3s * c2, 1e-12);
  EXPECT_NEAR(lin.M(0, 1), I2s + 0.5 * I3s * c2, 1e-12);
  EXPECT_NEAR(lin.M(1, 1), I2s, 1e-12);
}

TEST(Linearize, WrongLengthIsAnError) {
  const Robot r = neaccel::ref::load_robot("planar2");
  EXPECT_THROW(ctl::linearize(r, Eigen::Vector3d::Zero(), Eigen::Vector2d::Zero(), Eigen::Vector2d::Zero()),
               neaccel::Error);
}
