// The three Newton-Euler forms agree with each other and with the world-frame oracle; published torques.
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"
#include "test_robots.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel::ref {
namespace {

constexpr double kPi = 3.14159265358979323846;

struct State {
  Eigen::VectorXd q, qd, qdd;
};

State random_state(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-kPi, kPi);
  State s{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) s.q[i] = u(rng), s.qd[i] = u(rng), s.qdd[i] = u(rng);
  return s;
}

// Acceptance: the three forms agree to 1e-10 relative (max |difference| / max(1, max |tau|)) on 100 random states.
// Why 1e-10: each form is a different O(n) sequence of ~1000 double operations on values up to ~1e3 (Stanford's
// 6 m centre-of-mass offsets); rounding differences measured are ~1e-14 relative, while any wrong term changes
// torques by far more than 1e-10. Each state is also checked against the independent world-frame oracle.
void expect_forms_agree(const Robot& robot, unsigned seed, int states) {
  std::mt19937 rng(seed);
  const ModelT<double> model = model_of(robot);  // built once: the sanitizer build is ~100x slower
  auto vec = [](const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), v.size()); };
  for (int k = 0; k < states; ++k) {
    const State s = random_state(robot.dof(), rng);
    const Eigen::VectorXd oracle = test::oracle_torques(robot, s.q, s.qd, s.qdd);
    const JointInputs<double> in = joint_inputs(robot, s.q, s.qd, s.qdd);
    const Eigen::VectorXd ref = vec(modified_ne(model, in));
    const Eigen::VectorXd taus[] = {vec(newton_euler(model, in)), ref, vec(khalil_ne(model, in))};
    for (int f = 0; f < 3; ++f) {
      ASSERT_LT(test::rel_diff(taus[f], ref), 1e-10) << robot.name << " form " << f << " state " << k;
      ASSERT_LT(test::rel_diff(taus[f], oracle), 1e-10) << robot.name << " form " << f << " vs oracle";
    }
    if (k == 0) {  // the double API gives the same numbers
      for (Form f : all_forms())
        ASSERT_LT(test::rel_diff(inverse_dynamics(robot, s.q, s.qd, s.qdd, f), ref), 1e-10) << form_name(f);
    }
  }
}

TEST(Forms, AgreeOnBuiltinRobots) {
  for (const char* name : {"puma560", "stanford", "rx90", "planar2", "twolink", "puma560-motor", "stanford-motor"}) {
    expect_forms_agree(load_robot(name), 1, 100);
  }
}

TEST(Forms, AgreeOnRandomArmsAndTrees) {
  // 20 random arms, N = 1..12, chains and trees (random:N:SEED alternates standard/modified DH by seed parity).
  for (int k = 0; k < 20; ++k) {
    const int n = 1 + (k * 7) % 12;
    const std::string spec = (k % 2 ? "randomtree:" : "random:") + std::to_string(n) + ":" + std::to_string(k);
    expect_forms_agree(load_robot(spec), 100u + static_cast<unsigned>(k), 100);
  }
}

TEST(Forms, AgreeOnTestTreesWithGammaAndExternalWrench) {
  // Trees with gamma, b (modified DH) and standard-DH trees, prismatic joints, external wrench, friction.
  for (DhConvention conv : {DhConvention::Standard, DhConvention::Modified}) {
    for (int n : {3, 7, 12}) expect_forms_agree(test::random_robot(n, 40u + n, conv, true, true), 5, 20);
  }
}

TEST(Forms, PayloadEqualsMergedLink) {
  // A payload on the last link gives the same torques as the oracle on the robot with the payload merged by hand
  // (point mass at the tool: parallel-axis theorem done here, not by the library).
  Robot r = load_robot("puma560");
  Robot merged = r;
  RigidLoad P;
  P.mass = 2.5;
  P.com = Eigen::Vector3d(0.01, 0.02, 0.1);
  r.payload = P;
  Link& L = merged.links.back();
  const double m = L.mass + P.mass;
  const Eigen::Vector3d c = (L.mass * L.com + P.mass * P.com) / m;
  auto shift = [](double mass, const Eigen::Vector3d& d) {
    return Eigen::Matrix3d(mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  L.inertia = L.inertia + shift(L.mass, L.com - c) + shift(P.mass, P.com - c);
  L.com = c;
  L.mass = m;
  std::mt19937 rng(3);
  const State s = random_state(6, rng);
  for (Form f : all_forms()) {
    EXPECT_LT(test::rel_diff(inverse_dynamics(r, s.q, s.qd, s.qdd, f), test::oracle_torques(merged, s.q, s.qd, s.qdd)),
              1e-10);
  }
}

// Published values (../shared/data/robots/README.md): "to 4 decimals" = within half a unit of the 4th decimal.
TEST(Published, Puma560GravityTorques) {
  const Robot r = load_robot("puma560");
  Eigen::VectorXd qn(6), q2(6), tau1(6), tau2(4);
  qn << 0, kPi / 4, kPi, 0, kPi / 4, 0;
  tau1 << 0, 31.6399, 6.0351, 0, 0.0283, 0;
  q2 << 0, kPi / 4, -kPi, 1, kPi / 4, 0;
  tau2 << 31.6334, 6.0286, -0.0119, 0.0218;
  for (Form f : all_forms()) {
    const Eigen::VectorXd g1 = gravity_torque(r, qn, f);
    const Eigen::VectorXd g2 = gravity_torque(r, q2, f);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(g1[i], tau1[i], 5e-5) << "joint " << i + 1 << " " << form_name(f);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(g2[i + 1], tau2[i], 5e-5) << "joint " << i + 2 << " " << form_name(f);
  }
}

TEST(Published, TwolinkCorkeGravityTorques) {
  const Robot r = load_robot("twolink");
  const double g = 9.81;
  // Closed forms of the two-link arm: exact up to double rounding of a few operations on values of ~20 N m.
  const double tol = 1e-12;
  EXPECT_NEAR(gravity_torque(r, Eigen::Vector2d(0, 0))[0], 2 * g, tol);
  EXPECT_NEAR(gravity_torque(r, Eigen::Vector2d(0, 0))[1], 0.5 * g, tol);
  EXPECT_NEAR(gravity_torque(r, Eigen::Vector2d(0, kPi / 2))[0], 1.5 * g, tol);
  EXPECT_NEAR(gravity_torque(r, Eigen::Vector2d(0, kPi / 2))[1], 0.0, tol);
}

}  // namespace
}  // namespace neaccel::ref
