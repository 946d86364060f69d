// Acceptance: every inverse formulation agrees with the Newton-Euler reference (ref/newton_euler.hpp,
// Luh-Walker-Paul) to 1e-9 relative on 100 random states for puma560, stanford, rx90, planar2 and 20 random arms
// with N in 1..8, plus random trees and hand-made robots covering both DH conventions, prismatic joints,
// rotor inertia, friction, payload and an external wrench.
// Tolerance 1e-9 relative (|diff|_inf / max(1, |tau|_inf)): the formulations differ only in the order of at most
// a few thousand double operations on quantities of order 1-100 (rounding ~1e-13); a modelling error shows up
// at order 1.
#include "support.hpp"

#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/gibbs_appell.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/recursive_lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace neaccel::ref::forms::test {
namespace {

using Inverse = std::function<std::vector<double>(const ModelT<double>&, const JointInputs<double>&)>;

struct Named {
  std::string name;
  Inverse f;
};

std::vector<Named> candidates() {
  return {{"spatial_ne", [](const auto& m, const auto& in) { return spatial_ne_inverse(m, in); }},
          {"gibbs_appell", [](const auto& m, const auto& in) { return gibbs_appell(m, in); }},
          {"dalembert", [](const auto& m, const auto& in) { return dalembert(m, in); }},
          {"lagrange", [](const auto& m, const auto& in) { return lagrange(m, in); }},
          {"recursive_lagrange", [](const auto& m, const auto& in) { return recursive_lagrange(m, in); }}};
}

Eigen::VectorXd to_eigen(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

void check_robot(const Robot& r, int states, unsigned seed) {
  const ModelT<double> m = model_of(r);
  std::mt19937 rng(seed);
  for (int k = 0; k < states; ++k) {
    const State s = random_state(r, rng);
    const JointInputs<double> in = joint_inputs(r, s.q, s.qd, s.qdd);
    const Eigen::VectorXd ref = to_eigen(newton_euler(m, in));
    for (const Named& c : candidates())
      ASSERT_LT(rel_diff(to_eigen(c.f(m, in)), ref), 1e-9) << c.name << " state " << k << " robot " << r.name;
  }
}

class Builtin : public ::testing::TestWithParam<std::string> {};

TEST_P(Builtin, AgreeWithNewtonEuler) { check_robot(load_robot(GetParam()), 100, 11); }

INSTANTIATE_TEST_SUITE_P(Robots, Builtin, ::testing::Values("puma560", "stanford", "rx90", "planar2"));

// 20 random arms (ref-io's random:N:SEED: mixed joints, both conventions, rotor inertia, friction), N = 1..8.
TEST(RandomArms, AgreeWithNewtonEuler) {
  for (int k = 0; k < 20; ++k) {
    const int n = 1 + k % 8;
    check_robot(load_robot("random:" + std::to_string(n) + ":" + std::to_string(100 + k)), 100, 1000 + k);
  }
}

TEST(RandomTrees, AgreeWithNewtonEuler) {
  for (int k = 0; k < 6; ++k) check_robot(load_robot("randomtree:" + std::to_string(4 + k) + ":" + std::to_string(k)), 20, k);
}

// Hand-made robots: payload and external wrench (not in the loaders' random robots), trees with gamma and b.
class HandMade : public ::testing::TestWithParam<RandomSpec> {};

TEST_P(HandMade, AgreeWithNewtonEuler) {
  for (unsigned seed = 1; seed <= 4; ++seed) check_robot(random_robot(GetParam(), seed), 20, seed);
}

INSTANTIATE_TEST_SUITE_P(
    Specs, HandMade,
    ::testing::Values(RandomSpec{6, DhConvention::Standard, 0.0, false, false},
                      RandomSpec{7, DhConvention::Modified, 0.0, false, false},
                      RandomSpec{6, DhConvention::Standard, 0.4, false, true},
                      RandomSpec{6, DhConvention::Modified, 0.4, false, true},
                      RandomSpec{8, DhConvention::Modified, 0.3, true, true},
                      RandomSpec{8, DhConvention::Standard, 0.3, true, true}));

}  // namespace
}  // namespace neaccel::ref::forms::test
