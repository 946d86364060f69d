// Tracing with dfg::Value: recording, provenance, contract-3 input names, general vs custom flavour.
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/dfg/value.hpp"
#include "neaccel/ref/error.hpp"
#include "robots.hpp"
#include "toy_algorithm.hpp"

#include <gtest/gtest.h>

#include <map>

namespace neaccel::dfg {
namespace {

TEST(Trace, RecordsOperationsAndLiterals) {
  Recorder rec;
  const Value x = rec.input("x");
  const Value y = x * x + Value(2.0) - (-x);
  rec.output("y", y);
  const Graph g = rec.finish();
  const OpCounts c = count_ops(g);
  EXPECT_EQ(c.mul(), 1);
  EXPECT_EQ(c.add(), 2);
  EXPECT_EQ(c.neg(), 1);
  EXPECT_EQ(c.of(Op::Const), 1);
  const std::vector<double> out = evaluate<double>(g, {3.0});
  EXPECT_EQ(out[0], 3.0 * 3.0 + 2.0 + 3.0);
}

TEST(Trace, ValueOutsideRecorderThrows) {
  EXPECT_THROW(Value(1.0), Error);
  Recorder rec;
  Value unset;
  EXPECT_THROW(unset + rec.input("x"), Error);
}

TEST(Trace, ProvenanceScopesNestAndRestore) {
  Recorder rec;
  const Value x = rec.input("x");
  Value a, b, c;
  {
    ref::ProvenanceScope<Value> outer(2, "f", "eq A");
    a = x * x;
    {
      ref::ProvenanceScope<Value> inner(2, "n", "eq B");
      b = a + x;
    }
    c = b * x;
  }
  const Value d = c - x;
  rec.output("d", d);
  const Graph g = rec.finish();
  auto prov = [&](const Value& v) { return g.provenance[g.nodes[v.node()].prov]; };
  EXPECT_EQ(prov(a).quantity, "f");
  EXPECT_EQ(prov(b).quantity, "n");
  EXPECT_EQ(prov(b).equation, "eq B");
  EXPECT_EQ(prov(c).quantity, "f");
  EXPECT_EQ(prov(c).link, 2);
  EXPECT_EQ(prov(d).quantity, "");
}

std::map<std::string, double> named_inputs(const ref::Robot& r, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           const Eigen::VectorXd& qdd) {
  std::map<std::string, double> m;
  const auto in = ref::joint_inputs(r, q, qd, qdd);
  for (int i = 0; i < r.dof(); ++i) {
    const std::string k = std::to_string(i + 1);
    m["s" + k] = in.s[static_cast<std::size_t>(i)];
    m["c" + k] = in.c[static_cast<std::size_t>(i)];
    m["qd" + k] = in.qd[static_cast<std::size_t>(i)];
    m["qdd" + k] = in.qdd[static_cast<std::size_t>(i)];
  }
  ref::cast_model<double>(r, [&](int, const std::string& name, double v) { return m[name] = v; });
  return m;
}

TEST(Trace, GeneralAndCustomFlavoursMatchTheDoubleAlgorithm) {
  const ref::Robot r = test::random_arm(4, 7);
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(4, -1.0, 2.0);
  const Eigen::VectorXd qd = Eigen::VectorXd::LinSpaced(4, 0.5, -0.7);
  const Eigen::VectorXd qdd = Eigen::VectorXd::LinSpaced(4, 1.5, 0.2);
  const std::vector<double> ref_tau =
      test::toy_torques(ref::model_of(r), ref::joint_inputs(r, q, qd, qdd));
  auto algo = [](const auto& m, const auto& in) { return test::toy_torques(m, in); };
  for (Flavour fl : {Flavour::General, Flavour::Custom}) {
    const Graph g = trace_algorithm(r, fl, TraceOptions{}, algo);
    ASSERT_EQ(g.outputs.size(), 4u);
    EXPECT_EQ(g.outputs[3].name, "tau4");
    EXPECT_EQ(g.inputs[0], "s1");
    EXPECT_EQ(g.inputs[1], "c1");
    EXPECT_EQ(g.inputs[2], "qd1");
    EXPECT_EQ(g.inputs[3], "qdd1");
    EXPECT_EQ(find_input(g, "XX2") >= 0, fl == Flavour::General);
    EXPECT_EQ(find_input(g, "gz") >= 0, fl == Flavour::General);
    EXPECT_EQ(find_input(g, "sgn_qd1"), -1);  // no Coulomb friction
    const auto tau = evaluate<double>(g, bind_inputs(g, named_inputs(r, q, qd, qdd)));
    // Same operations in the same order as the double run: equal bits in the untouched graph.
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(tau[i], ref_tau[i]) << i;
  }
}

TEST(Trace, CustomIsSmallerAfterFoldingAndZeroPatternOptionKeepsStructuralConstants) {
  const ref::Robot r = test::random_arm(3, 3);
  auto algo = [](const auto& m, const auto& in) { return test::toy_torques(m, in); };
  const Graph general = customise(trace_algorithm(r, Flavour::General, TraceOptions{}, algo));
  TraceOptions keep;
  keep.keep_zero_pattern = true;
  const Graph pattern = customise(trace_algorithm(r, Flavour::General, keep, algo));
  const Graph custom = customise(trace_algorithm(r, Flavour::Custom, TraceOptions{}, algo));
  EXPECT_LT(count_ops(pattern).mul(), count_ops(general).mul());
  EXPECT_LT(count_ops(custom).mul(), count_ops(pattern).mul());
  EXPECT_EQ(find_input(pattern, "calpha1"), -1);  // alpha = -pi/2: cos is exactly 0, kept constant
  EXPECT_GE(find_input(pattern, "MX1"), 0);
}

TEST(Trace, PrismaticAndCoulombInputs) {
  ref::Robot r = test::random_arm(2, 1);
  r.links[1].joint = ref::JointType::Prismatic;
  r.links[0].Fc = 0.3;
  Recorder rec;
  const auto in = joint_input_values(r);
  (void)in;
  const Graph g = rec.finish();
  const std::vector<std::string> expected{"s1", "c1", "qd1", "qdd1", "sgn_qd1", "q2", "qd2", "qdd2"};
  EXPECT_EQ(g.inputs, expected);
}

}  // namespace
}  // namespace neaccel::dfg
