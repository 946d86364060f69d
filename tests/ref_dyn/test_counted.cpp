// The counting scalar: folding rules, counters and per-quantity attribution.
#include "neaccel/ref/counted.hpp"

#include <gtest/gtest.h>

namespace neaccel::ref {
namespace {

TEST(Counted, FoldsLiteralsAndCountsTheRest) {
  counting::reset();
  const Counted x = Counted::unknown(3.0), y = Counted::unknown(4.0);
  const Counted zero(0.0), one(1.0), minus_one(-1.0), two(2.0);
  EXPECT_TRUE((x * zero).is_literal(0.0));
  EXPECT_EQ((x * one).value(), 3.0);
  EXPECT_EQ((x + zero).value(), 3.0);
  EXPECT_EQ((zero + x).value(), 3.0);
  EXPECT_EQ((x - zero).value(), 3.0);
  EXPECT_TRUE((two * two).is_literal(4.0));
  EXPECT_EQ(counting::totals().mul, 0);
  EXPECT_EQ(counting::totals().add, 0);
  EXPECT_EQ(counting::totals().neg, 0);
  EXPECT_EQ((x * minus_one).value(), -3.0);  // a sign flip
  EXPECT_EQ((zero - x).value(), -3.0);       // a sign flip
  EXPECT_EQ((-x).value(), -3.0);
  EXPECT_EQ(counting::totals().neg, 3);
  EXPECT_EQ((x * y).value(), 12.0);
  EXPECT_EQ((x * two).value(), 6.0);  // a literal other than 0, +-1 costs a multiplication
  EXPECT_EQ((x - y).value(), -1.0);
  EXPECT_EQ((x + y).value(), 7.0);
  EXPECT_FALSE((x + y).literal());
  EXPECT_EQ(counting::totals().mul, 2);
  EXPECT_EQ(counting::totals().add, 3);  // the EXPECT_FALSE line adds one
}

TEST(Counted, AttributesToInnermostScope) {
  counting::reset();
  const Counted x = Counted::unknown(2.0);
  {
    ProvenanceScope<Counted> a(1, "omega", "eq");
    (void)(x * x);
    {
      ProvenanceScope<Counted> b(1, "alpha", "eq");
      (void)(x + x);
    }
    (void)(x + x);
  }
  (void)(x * x);
  const auto q = counting::by_quantity();
  EXPECT_EQ(q.at("omega").mul, 1);
  EXPECT_EQ(q.at("omega").add, 1);
  EXPECT_EQ(q.at("alpha").add, 1);
  EXPECT_EQ(q.at("").mul, 1);
}

}  // namespace
}  // namespace neaccel::ref

#include "neaccel/ref/modified_ne.hpp"
#include "test_robots.hpp"

namespace neaccel::ref {
namespace {

// The recursion in Counted gives the same numbers as in double (the counting scalar does not change values).
TEST(Counted, ModifiedNEValuesEqualDouble) {
  for (DhConvention conv : {DhConvention::Standard, DhConvention::Modified}) {
    const Robot robot = test::random_robot(6, 11, conv, true, true);
    const ModelT<Counted> mc =
        cast_model<Counted>(robot, [](int, const std::string&, double v) { return Counted::unknown(v); });
    Eigen::VectorXd q(6), qd(6), qdd(6);
    q << 0.1, -0.2, 0.3, 0.4, -0.5, 0.6;
    qd << 1, 2, -3, 0.5, 0.25, -1;
    qdd = -qd;
    const JointInputs<double> in = joint_inputs(robot, q, qd, qdd);
    JointInputs<Counted> ic;
    auto cast = [](const std::vector<double>& v) {
      std::vector<Counted> r;
      for (double x : v) r.push_back(Counted::unknown(x));
      return r;
    };
    ic.s = cast(in.s), ic.c = cast(in.c), ic.q = cast(in.q), ic.qd = cast(in.qd), ic.qdd = cast(in.qdd);
    ic.sgn_qd = cast(in.sgn_qd);
    counting::reset();
    const std::vector<Counted> tc = modified_ne(mc, ic);
    const std::vector<double> td = modified_ne(model_of(robot), in);
    for (int i = 0; i < 6; ++i) EXPECT_EQ(tc[i].value(), td[i]);  // same operations in the same order
    EXPECT_GT(counting::totals().mul, 0);
  }
}

}  // namespace
}  // namespace neaccel::ref
