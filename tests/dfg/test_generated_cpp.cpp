// The C++ source generated from customised graphs (compiled at build time, tests/dfg/CMakeLists.txt) computes
// the reference torques, and bit for bit what evaluate<T> computes on the same graph.
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/modified_ne.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

void dfg_puma560_double(const double* in, double* out);
void dfg_puma560_float(const float* in, float* out);
void dfg_rx90_double(const double* in, double* out);
void dfg_stanford_double(const double* in, double* out);

namespace neaccel::dfg {
namespace {

using Fn = void (*)(const double*, double*);

TEST(GeneratedCpp, MatchesReferenceAndGraphEvaluation) {
  const std::pair<const char*, Fn> cases[] = {
      {"puma560", dfg_puma560_double}, {"rx90", dfg_rx90_double}, {"stanford", dfg_stanford_double}};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (const auto& [name, fn] : cases) {
    const ref::Robot robot = ref::load_robot(name);
    const Graph g = customise(trace(robot, Form::ModifiedNE, Flavour::Custom));
    const int n = robot.dof();
    for (int trial = 0; trial < 5; ++trial) {
      Eigen::VectorXd q(n), qd(n), qdd(n);
      for (int i = 0; i < n; ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
      const std::vector<double> in = robot_input_vector(g, robot, q, qd, qdd);
      std::vector<double> out(static_cast<std::size_t>(n));
      fn(in.data(), out.data());
      const std::vector<double> graph = evaluate<double>(g, in);
      const std::vector<double> ref_tau = ref::modified_ne(ref::model_of(robot), ref::joint_inputs(robot, q, qd, qdd));
      double scale = 0;
      for (double t : ref_tau) scale = std::max(scale, std::abs(t));
      for (std::size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(std::memcmp(&out[i], &graph[i], sizeof(double)), 0) << name << " tau" << i + 1;
        // Same tolerance and reasoning as the tracing tests (test_robot_trace.cpp).
        EXPECT_NEAR(out[i], ref_tau[i], 1e-12 * scale) << name << " tau" << i + 1;
      }
    }
  }
}

TEST(GeneratedCpp, FloatVersionIsTheBinary32GoldenModel) {
  const ref::Robot robot = ref::load_robot("puma560");
  const Graph g = customise(trace(robot, Form::ModifiedNE, Flavour::Custom));
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(6, -2, 1), qd = 0.3 * q, qdd = Eigen::VectorXd::Ones(6);
  const std::vector<float> in = convert_inputs<float>(robot_input_vector(g, robot, q, qd, qdd));
  std::vector<float> out(6);
  dfg_puma560_float(in.data(), out.data());
  const std::vector<float> graph = evaluate<float>(g, in);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(std::memcmp(&out[i], &graph[i], sizeof(float)), 0) << i;
}

}  // namespace
}  // namespace neaccel::dfg
