// The planar two-link arm in closed form (written by hand, independent of every recursion) against each
// formulation. Tolerance 1e-10 relative: the closed form and the recursions differ only by rounding of a few
// dozen double operations on numbers of order 10 (torques of order 100 N m).
#include "support.hpp"

#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/gibbs_appell.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/recursive_lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace neaccel::ref::forms::test {
namespace {

// tau = M(q) qdd + c(q, qd) + g(q) for planar2 (lengths l1, l2; COM at lc1, lc2 from the joints; gravity -y).
Eigen::Vector2d planar2_closed_form(const Eigen::Vector2d& q, const Eigen::Vector2d& qd, const Eigen::Vector2d& qdd) {
  const double m1 = 2.0, m2 = 1.5, l1 = 1.0, lc1 = 0.55, lc2 = 0.45, I1 = 0.17, I2 = 0.09, g = 9.81;
  const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const double c1 = std::cos(q[0]), c12 = std::cos(q[0] + q[1]);
  const double M11 = I1 + I2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2);
  const double M12 = I2 + m2 * (lc2 * lc2 + l1 * lc2 * c2);
  const double M22 = I2 + m2 * lc2 * lc2;
  const double h = m2 * l1 * lc2 * s2;
  Eigen::Vector2d tau;
  tau[0] = M11 * qdd[0] + M12 * qdd[1] - h * (2 * qd[0] * qd[1] + qd[1] * qd[1]) + (m1 * lc1 + m2 * l1) * g * c1 +
           m2 * lc2 * g * c12;
  tau[1] = M12 * qdd[0] + M22 * qdd[1] + h * qd[0] * qd[0] + m2 * lc2 * g * c12;
  return tau;
}

using Inverse = std::function<std::vector<double>(const ModelT<double>&, const JointInputs<double>&)>;

void check_planar2(const Inverse& f) {
  const Robot r = planar2();
  const ModelT<double> m = model_of(r);
  std::mt19937 rng(7);
  for (int k = 0; k < 50; ++k) {
    const State s = random_state(r, rng);
    const std::vector<double> tau = f(m, joint_inputs(r, s.q, s.qd, s.qdd));
    const Eigen::Vector2d expect = planar2_closed_form(s.q, s.qd, s.qdd);
    ASSERT_EQ(tau.size(), 2u);
    EXPECT_LT(rel_diff(Eigen::Vector2d(tau[0], tau[1]), expect), 1e-10) << "state " << k;
  }
}

TEST(ClosedForm, SpatialNewtonEuler) {
  check_planar2([](const auto& m, const auto& in) { return spatial_ne_inverse(m, in); });
}

TEST(ClosedForm, GibbsAppell) {
  check_planar2([](const auto& m, const auto& in) { return gibbs_appell(m, in); });
}

TEST(ClosedForm, Dalembert) {
  check_planar2([](const auto& m, const auto& in) { return dalembert(m, in); });
}

TEST(ClosedForm, Lagrange) {
  check_planar2([](const auto& m, const auto& in) { return lagrange(m, in); });
}

TEST(ClosedForm, RecursiveLagrange) {
  check_planar2([](const auto& m, const auto& in) { return recursive_lagrange(m, in); });
}

}  // namespace
}  // namespace neaccel::ref::forms::test
