// Acceptance: both recursive forward-dynamics methods (seed 001 Nasser, seed 003 section 9.7.2 Khalil)
// agree with strobing + LDLT to 1e-9 relative, on the built-in arms, random arms with prismatic joints, a tree
// of at least three branches, rotor inertia, friction, payload and external wrench; and with ref's CRBA + LDLT.
// The cross-check is built here from ref's pieces: M by strobing the modified N-E, h = tau(q, qd, 0), Eigen LDLT.
// Tolerance 1e-9 relative to max(1, |qdd|): M is well conditioned for these arms (condition < 1e5), so the LDLT
// solution carries < 1e-11 relative error.
#include "support.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/forms/forward.hpp"
#include "neaccel/ref/io.hpp"

#include <Eigen/Cholesky>
#include <gtest/gtest.h>

namespace neaccel::ref::forms::test {
namespace {

Eigen::VectorXd strobe_ldlt(const Robot& r, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            const Eigen::VectorXd& tau) {
  const Eigen::MatrixXd M = mass_matrix_strobing(r, q);
  return M.ldlt().solve(tau - bias_torque(r, q, qd));
}

Eigen::VectorXd to_eigen(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

void check(const Robot& r, int states, unsigned seed) {
  const ModelT<double> m = model_of(r);
  std::mt19937 rng(seed);
  for (int k = 0; k < states; ++k) {
    const State s = random_state(r, rng);
    const Eigen::VectorXd tau = inverse_dynamics(r, s.q, s.qd, s.qdd) + Eigen::VectorXd::Constant(r.dof(), 0.3);
    const JointInputs<double> in = joint_inputs(r, s.q, s.qd, s.qdd);
    const std::vector<double> t(tau.data(), tau.data() + tau.size());
    const Eigen::VectorXd ref = strobe_ldlt(r, s.q, s.qd, tau);
    ASSERT_LT(rel_diff(to_eigen(nasser_forward(m, in, t)), ref), 1e-9) << "nasser " << r.name << " state " << k;
    ASSERT_LT(rel_diff(to_eigen(khalil_forward(m, in, t)), ref), 1e-9) << "khalil " << r.name << " state " << k;
    ASSERT_LT(rel_diff(forward_dynamics(r, s.q, s.qd, tau), ref), 1e-9) << "crba " << r.name;
  }
}

TEST(Forward, BuiltinArms) {
  for (const char* name : {"puma560", "stanford", "rx90", "planar2", "puma560-motor", "stanford-motor"})
    check(load_robot(name), 30, 3);
}

TEST(Forward, RandomArmsWithPrismaticJoints) {
  RandomSpec spec{6, DhConvention::Standard, 0.5, false, true};
  for (unsigned s = 1; s <= 4; ++s) check(random_robot(spec, s), 10, s);
  spec.convention = DhConvention::Modified;
  for (unsigned s = 1; s <= 4; ++s) check(random_robot(spec, s), 10, s);
  for (int n = 1; n <= 8; ++n) check(load_robot("random:" + std::to_string(n) + ":" + std::to_string(40 + n)), 10, 1);
}

// A tree with three branches from the root link, one with a prismatic joint, in both conventions.
Robot three_branch_tree(DhConvention convention) {
  RandomSpec spec{9, convention, 0.0, false, true};
  Robot r = random_robot(spec, 77);
  const int parents[9] = {-1, 0, 1, 0, 3, 0, 5, 6, 2};
  for (int i = 0; i < 9; ++i) r.links[static_cast<std::size_t>(i)].parent = parents[i];
  r.links[4].joint = JointType::Prismatic;
  r.links[7].joint = JointType::Prismatic;
  if (convention == DhConvention::Modified) {
    r.links[3].gamma = 0.7;
    r.links[3].b = 0.2;
    r.links[5].gamma = -1.1;
    r.links[5].b = -0.1;
  }
  return r;
}

TEST(Forward, TreeWithThreeBranches) {
  check(three_branch_tree(DhConvention::Standard), 20, 5);
  check(three_branch_tree(DhConvention::Modified), 20, 6);
  for (int k = 0; k < 4; ++k) check(load_robot("randomtree:" + std::to_string(6 + k) + ":" + std::to_string(k)), 10, 2);
}

TEST(Forward, WrongTorqueLengthIsAnError) {
  const Robot r = load_robot("planar2");
  const Eigen::VectorXd z = Eigen::VectorXd::Zero(2);
  EXPECT_THROW(nasser_forward(model_of(r), joint_inputs(r, z, z, z), std::vector<double>(3, 0.0)), neaccel::Error);
  EXPECT_THROW(khalil_forward(model_of(r), joint_inputs(r, z, z, z), std::vector<double>(1, 0.0)), neaccel::Error);
}

}  // namespace
}  // namespace neaccel::ref::forms::test

namespace neaccel::ref::forms::test {
namespace {

// The RK4 simulation with each forward method follows ref::simulate (CRBA + LDLT): 100 steps of a passive
// PUMA 560 and a random tree; 1e-9 relative on the final state (each step's qdd agrees to ~1e-14 and RK4 with
// dt = 1e-3 does not amplify it over 0.1 s).
TEST(Forward, SimulationWithEveryMethodFollowsCrba) {
  for (const char* name : {"puma560", "randomtree:5:2"}) {
    const Robot r = load_robot(name);
    const Eigen::VectorXd q0 = Eigen::VectorXd::LinSpaced(r.dof(), 0.2, 0.8), qd0 = Eigen::VectorXd::Zero(r.dof());
    const TorqueFn zero = [&](double, const Eigen::VectorXd&, const Eigen::VectorXd&) {
      return Eigen::VectorXd::Zero(r.dof()).eval();
    };
    const Trajectory ref = simulate(r, q0, qd0, zero, 1e-3, 0.1);
    for (const char* method : {"strobe", "recursive", "khalil"}) {
      const Trajectory t = simulate_with_method(r, q0, qd0, zero, 1e-3, 0.1, method);
      ASSERT_EQ(t.q.size(), ref.q.size());
      EXPECT_LT(rel_diff(t.q.back(), ref.q.back()), 1e-9) << name << " " << method;
      EXPECT_LT(rel_diff(t.qd.back(), ref.qd.back()), 1e-9) << name << " " << method;
    }
    EXPECT_THROW(simulate_with_method(r, q0, qd0, zero, 1e-3, 0.1, "euler"), neaccel::Error);
  }
}

}  // namespace
}  // namespace neaccel::ref::forms::test
