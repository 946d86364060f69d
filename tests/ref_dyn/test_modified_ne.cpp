// The modified Newton-Euler recursion (seed 000 section 7) against the world-frame oracle (test_robots.hpp).
#include "neaccel/ref/modified_ne.hpp"
#include "test_robots.hpp"

#include <gtest/gtest.h>

namespace neaccel::ref {
namespace {

Eigen::VectorXd to_vec(const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), v.size()); }

struct Case {
  DhConvention conv;
  bool tree, prismatic;
};

// Tolerance 1e-10 relative: both sides are O(n) double recursions of magnitude <= ~1e3 with ~1e3 operations each,
// so rounding differences are ~1e-13 relative; 1e-10 leaves margin yet catches any wrong term (O(1e-2) or more).
TEST(ModifiedNE, MatchesWorldFrameOracleOnRandomRobots) {
  const Case cases[] = {{DhConvention::Standard, false, false}, {DhConvention::Standard, false, true},
                        {DhConvention::Standard, true, true},   {DhConvention::Modified, false, false},
                        {DhConvention::Modified, false, true},  {DhConvention::Modified, true, true}};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (const Case& c : cases) {
    for (int n = 1; n <= 8; ++n) {
      const Robot robot = test::random_robot(n, 100u * n + (c.tree ? 7u : 0u), c.conv, c.tree, c.prismatic);
      const ModelT<double> model = model_of(robot);
      for (int k = 0; k < 5; ++k) {
        Eigen::VectorXd q(n), qd(n), qdd(n);
        for (int i = 0; i < n; ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
        const Eigen::VectorXd expected = test::oracle_torques(robot, q, qd, qdd);
        const Eigen::VectorXd got = to_vec(modified_ne(model, joint_inputs(robot, q, qd, qdd)));
        EXPECT_LT(test::rel_diff(got, expected), 1e-10)
            << "n=" << n << " modified=" << (c.conv == DhConvention::Modified) << " tree=" << c.tree
            << "\n got " << got.transpose() << "\n exp " << expected.transpose();
      }
    }
  }
}

// A one-link pendulum by hand: revolute about the base z axis tilted so gravity acts. Standard DH, alpha = 0,
// a = l: a point mass m at the link end (com = 0 in frame 1 which sits at the tip), gravity -g along base y.
// tau = m l^2 qdd + m g l cos(q) (holding torque), independent of qd.
TEST(ModifiedNE, PointMassPendulumClosedForm) {
  Robot r;
  r.convention = DhConvention::Standard;
  Link L;
  L.a = 0.7;
  L.mass = 1.3;
  r.links.push_back(L);
  r.gravity = Eigen::Vector3d(0, -9.81, 0);
  const ModelT<double> model = model_of(r);
  for (double q : {0.0, 0.4, 2.0}) {
    Eigen::VectorXd Q(1), Qd(1), Qdd(1);
    Q << q;
    Qd << 1.7;
    Qdd << -0.9;
    const double expected = 1.3 * 0.49 * -0.9 + 1.3 * 9.81 * 0.7 * std::cos(q);
    // 1e-12 absolute on torques of ~10: a dozen double operations.
    EXPECT_NEAR(modified_ne(model, joint_inputs(r, Q, Qd, Qdd))[0], expected, 1e-12);
  }
}

}  // namespace
}  // namespace neaccel::ref
