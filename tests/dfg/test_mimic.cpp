// Mimic joints in the traced graph (ref/robot.hpp Mimic): the graph takes one input set per generalized coordinate,
// forms the mimic joint's position, velocity and acceleration inside (a revolute mimic's sine and cosine by the angle
// sum from the followed joint's) and carries its torque to the followed joint. Evaluated in double against ref's own
// computations (function_reference: ref's inverse dynamics, CRBA + LDLT, the Dual recursion), before and after the
// passes, both flavours, on the Franka Panda (a prismatic finger following the other) and a gripper with a revolute
// mimic of multiplier -1 and an offset (tests/ref_io/data/urdf/mimic_gripper.urdf).
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace neaccel::dfg {
namespace {

double worst_relative(const Graph& g, const ref::Robot& robot, Function f, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst = 0;
  const int n = robot.dof();
  for (int k = 0; k < 10; ++k) {
    Eigen::VectorXd q(n), qd(n), v(n);
    for (int i = 0; i < n; ++i) q(i) = 2 * u(rng), qd(i) = u(rng), v(i) = 5 * u(rng);
    const std::vector<double> got = evaluate<double>(g, function_input_vector(g, robot, q, qd, v));
    const std::vector<double> want = function_reference(g, robot, f, q, qd, v);
    double scale = 0;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]) / scale);
  }
  return worst;
}

TEST(Mimic, GraphsEvaluateToTheReference) {
  const std::string gripper = std::string(NEACCEL_DFG_TEST_DATA) + "/../../ref_io/data/urdf/mimic_gripper.urdf";
  for (const std::string& spec : {std::string("panda"), gripper}) {
    const ref::Robot robot = ref::load_robot(spec);
    ASSERT_TRUE(robot.has_mimic()) << spec;
    for (const auto& [f, tol] : {std::pair{Function::Id, 1e-12}, std::pair{Function::Mass, 1e-12},
                                 std::pair{Function::FdStrobe, 1e-9}, std::pair{Function::Dtau, 1e-12}}) {
      for (Flavour fl : {Flavour::General, Flavour::Custom}) {
        for (Form form : {Form::ModifiedNE, Form::NE, Form::KhalilMix}) {
          if (f != Function::Id && form != Form::ModifiedNE) continue;
          const Graph raw = trace_function(robot, f, form, fl);
          // One output per coordinate: no tau, qdd or M entry for a mimic joint.
          if (f == Function::Id || f == Function::FdStrobe) {
            EXPECT_EQ(raw.outputs.size(), std::size_t(robot.dof()));
          }
          const double e0 = worst_relative(raw, robot, f, 5), e1 = worst_relative(customise(raw), robot, f, 5);
          EXPECT_LE(e0, tol) << spec << " " << function_name(f) << " " << form_name(form);
          EXPECT_LE(e1, tol) << spec << " " << function_name(f) << " " << form_name(form);
        }
      }
    }
    // The O(n) forward recursions eliminate each joint link by link: they refuse, naming the mimic joint.
    try {
      trace_function(robot, Function::Fd, Form::ModifiedNE, Flavour::Custom);
      ADD_FAILURE() << "fd of a robot with mimic joints traced";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is a mimic joint"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace neaccel::dfg
