// Every inverse formulation agrees with the 6x6 spatial Newton-Euler on random robots: both DH conventions,
// revolute and prismatic joints, trees, rotor inertia, friction, payload and external wrench.
// Tolerance 1e-9 relative (issue 3): the formulations differ only in the order of O(n^3) double operations on
// quantities of order 1-100, so rounding stays far below it; any modelling error shows up at order 1.
#include "support.hpp"

#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/gibbs_appell.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/recursive_lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"

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
  return {{"gibbs_appell", [](const auto& m, const auto& in) { return gibbs_appell(m, in); }},
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
    const Eigen::VectorXd ref = to_eigen(spatial_ne_inverse(m, in));
    for (const Named& c : candidates())
      ASSERT_LT(rel_diff(to_eigen(c.f(m, in)), ref), 1e-9) << c.name << " state " << k << " robot " << r.name;
  }
}

class RandomRobots : public ::testing::TestWithParam<RandomSpec> {};

TEST_P(RandomRobots, AgreeWithSpatialNewtonEuler) {
  for (unsigned seed = 1; seed <= 5; ++seed) check_robot(random_robot(GetParam(), seed), 10, seed);
}

INSTANTIATE_TEST_SUITE_P(
    Specs, RandomRobots,
    ::testing::Values(RandomSpec{6, DhConvention::Standard, 0.0, false, false},
                      RandomSpec{7, DhConvention::Modified, 0.0, false, false},
                      RandomSpec{6, DhConvention::Standard, 0.4, false, true},
                      RandomSpec{6, DhConvention::Modified, 0.4, false, true},
                      RandomSpec{8, DhConvention::Modified, 0.3, true, true},
                      RandomSpec{8, DhConvention::Standard, 0.3, true, true}));

}  // namespace
}  // namespace neaccel::ref::forms::test
