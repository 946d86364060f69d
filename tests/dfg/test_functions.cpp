// Dynamics functions as graphs (dfg/functions.hpp): fd, fd-khalil, fd-strobe, mass and dtau evaluated in
// double against ref's own computations (not the traced path: CRBA + Eigen LDLT for forward dynamics and M, the
// Dual<double> recursion for the derivatives), before and after the passes; op counts beside the papers.
#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

namespace neaccel::dfg {
namespace {

struct State {
  Eigen::VectorXd q, qd, u;
};

std::vector<State> states(const ref::Robot& robot, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> a(-M_PI, M_PI), v(-2.0, 2.0), t(-20.0, 20.0);
  std::vector<State> out;
  for (int k = 0; k < count; ++k) {
    State s{Eigen::VectorXd(robot.dof()), Eigen::VectorXd(robot.dof()), Eigen::VectorXd(robot.dof())};
    for (int i = 0; i < robot.dof(); ++i) {
      const bool rev = robot.links[static_cast<std::size_t>(i)].joint == ref::JointType::Revolute;
      s.q(i) = rev ? a(rng) : 0.1 * v(rng);
      s.qd(i) = v(rng);
      s.u(i) = t(rng);
    }
    out.push_back(s);
  }
  return out;
}

// Worst error of the graph's outputs relative to the largest reference output of the state (the outputs of one
// evaluation share a scale: a joint acceleration near zero is compared at the scale of the others).
double worst_relative(const Graph& g, const ref::Robot& robot, Function f, const std::vector<State>& st) {
  double worst = 0;
  for (const State& s : st) {
    const std::vector<double> got = evaluate<double>(g, function_input_vector(g, robot, s.q, s.qd, s.u));
    const std::vector<double> want = function_reference(g, robot, f, s.q, s.qd, s.u);
    double scale = 0;
    for (double w : want) scale = std::max(scale, std::abs(w));
    for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]) / scale);
  }
  return worst;
}

// Tolerances: fd against ref's CRBA + LDLT is a different algorithm (another summation order and another
// elimination), so rounding differs by a few hundred ulps at most for these well-conditioned 6-link arms: 1e-10
// (the acceptance bound). dtau against Dual<double> runs the same recursion in another order (the passes
// regroup sums): 1e-12. mass against CRBA (another algorithm): 1e-12.
struct Case {
  Function f;
  double tol;
};

TEST(Functions, DoubleEqualsReference) {
  for (const char* name : {"puma560", "stanford"}) {
    const ref::Robot robot = ref::load_robot(name);
    const std::vector<State> st = states(robot, 20, 42);
    for (const Case& c : {Case{Function::Fd, 1e-10}, Case{Function::FdKhalil, 1e-10}, Case{Function::FdStrobe, 1e-10},
                          Case{Function::Mass, 1e-12}, Case{Function::Dtau, 1e-12}}) {
      for (Flavour fl : {Flavour::General, Flavour::Custom}) {
        const Graph raw = trace_function(robot, c.f, Form::ModifiedNE, fl);
        const Graph opt = customise(raw);
        const double e0 = worst_relative(raw, robot, c.f, st), e1 = worst_relative(opt, robot, c.f, st);
        std::printf("%-9s %-9s %-8s untouched %.2e  passes %.2e\n", name, function_name(c.f),
                    fl == Flavour::General ? "general" : "custom", e0, e1);
        EXPECT_LE(e0, c.tol) << name << " " << function_name(c.f);
        EXPECT_LE(e1, c.tol) << name << " " << function_name(c.f);
      }
    }
  }
}

TEST(Functions, BaseParametersKeepTheFunction) {
  for (const char* name : {"puma560", "rx90"}) {
    const ref::Robot robot = ref::load_robot(name);
    const std::vector<State> st = states(robot, 10, 7);
    for (const Case& c : {Case{Function::Fd, 1e-10}, Case{Function::FdKhalil, 1e-10}, Case{Function::Mass, 1e-10}}) {
      const Graph g = customise(trace_function_base(robot, c.f, Form::KhalilK));
      const double e = worst_relative(g, robot, c.f, st);
      std::printf("%-9s %-9s base     passes %.2e\n", name, function_name(c.f), e);
      EXPECT_LE(e, c.tol) << name << " " << function_name(c.f);
    }
  }
}

// The forward graphs divide; float and fixed point evaluate them (Div in Arithmetic<float> / <Fixed>). The float
// result is within 1e-3 relative of double on puma560 (binary32 rounding, ~6e-8 per op, grown through a recursion of
// a few hundred operations and n pivots: a loose bound that still catches a wrong division).
TEST(Functions, FloatAndFixedEvaluateDivision) {
  const ref::Robot robot = ref::load_robot("puma560");
  const Graph g = customise(trace_function(robot, Function::Fd, Form::ModifiedNE, Flavour::Custom));
  // At most one division per joint; pivots that are constants of the customised robot fold (puma560: the last link's
  // own inertia, and link 5's, to which link 6's reduced inertia adds a constant for its symmetric wrist).
  EXPECT_GE(count_ops(g).of(Op::Div), 1);
  EXPECT_LE(count_ops(g).of(Op::Div), robot.dof());
  const std::vector<State> st = states(robot, 5, 3);
  for (const State& s : st) {
    const std::vector<double> in = function_input_vector(g, robot, s.q, s.qd, s.u);
    const std::vector<double> d = evaluate<double>(g, in);
    const std::vector<float> f = evaluate<float>(g, convert_inputs<float>(in));
    Arithmetic<Fixed> fx{FixedFormat{12, 20}};
    const std::vector<Fixed> x = evaluate<Fixed>(g, convert_inputs<Fixed>(in, fx), fx);
    double scale = 0;
    for (double v : d) scale = std::max(scale, std::abs(v));
    for (std::size_t i = 0; i < d.size(); ++i) {
      EXPECT_LE(std::abs(f[i] - d[i]) / scale, 1e-3);
      EXPECT_TRUE(std::isfinite(fx.to_double(x[i])));
    }
  }
}

// The fast transfer's two DH conventions and the general flavour: the papers' general arm (every parameter an
// input) in standard and modified DH, n = 1..7, against ref's forward dynamics (1e-10 as above), and mass (1e-12).
TEST(Functions, GeneralArmBothConventions) {
  for (ref::DhConvention conv : {ref::DhConvention::Standard, ref::DhConvention::Modified})
    for (int n = 1; n <= 7; ++n) {
      const ref::Robot arm = general_arm(n, conv);
      const std::vector<State> st = states(arm, 5, static_cast<unsigned>(n));
      for (const Case& c : {Case{Function::Fd, 1e-10}, Case{Function::FdStrobe, 1e-10}, Case{Function::Mass, 1e-12}}) {
        const Graph g = customise(trace_function(arm, c.f, Form::ModifiedNE, general_arm_params()));
        EXPECT_LE(worst_relative(g, arm, c.f, st), c.tol) << function_name(c.f) << " n = " << n;
      }
    }
}

// Division while tracing: a Div node; literal / literal and x / 1 fold like the other literal rules.
TEST(Functions, ValueDivision) {
  Recorder rec;
  const Value x = rec.input("x"), y = rec.input("y");
  rec.output("q", x / y);
  rec.output("r", reciprocal(y));
  rec.output("one", x / Value(1.0));
  rec.output("lit", Value(3.0) / Value(2.0));
  const Graph g = rec.finish();
  EXPECT_EQ(count_ops(g).of(Op::Div), 2);
  const std::vector<double> out = evaluate<double>(g, {3.0, 4.0});
  EXPECT_EQ(out[0], 0.75);
  EXPECT_EQ(out[1], 0.25);
  EXPECT_EQ(out[2], 3.0);
  EXPECT_EQ(out[3], 1.5);
}

TEST(Functions, NamesRoundTripAndUnknownThrows) {
  for (Function f : all_functions()) EXPECT_EQ(function_from_name(function_name(f)), f);
  EXPECT_THROW(function_from_name("lagrange"), Error);
}

// ---- Counts beside the papers ----

const ParamFn& papers_params() {
  static const ParamFn p = general_arm_params();
  return p;
}

std::string mad(const OpCounts& k) {
  return std::to_string(k.mul()) + "/" + std::to_string(k.add()) + "/" + std::to_string(k.of(Op::Div));
}

// Seed 001's 258N - 119 / 191N - 83 (divisions counted as multiplications) for the general arm whose link frames
// are the joint frames (modified DH: the inertial parameters enter as the recursion uses them, as in seed 001);
// strobing M at or below seed 000's 36n(n+1) (multiplications; its additions 26n(n+1) too).
TEST(FunctionCounts, GeneralArmBesideThePapers) {
  std::printf("%3s %16s %16s %16s %16s %16s %14s\n", "n", "fd std DH", "fd mod DH", "fd-khalil mod", "258N-119/191N-83",
              "mass std DH", "36n(n+1)");
  for (int n = 1; n <= 12; ++n) {
    auto count = [&](Function f, ref::DhConvention c) {
      return count_ops(customise(trace_function(general_arm(n, c), f, Form::ModifiedNE, papers_params())));
    };
    const OpCounts fs = count(Function::Fd, ref::DhConvention::Standard);
    const OpCounts fm = count(Function::Fd, ref::DhConvention::Modified);
    const OpCounts fk = count(Function::FdKhalil, ref::DhConvention::Modified);
    const OpCounts m = count(Function::Mass, ref::DhConvention::Standard);
    std::printf("%3d %16s %16s %16s %16s %16s %14d\n", n, mad(fs).c_str(), mad(fm).c_str(), mad(fk).c_str(),
                (std::to_string(258 * n - 119) + "/" + std::to_string(191 * n - 83)).c_str(), mad(m).c_str(),
                36 * n * (n + 1));
    EXPECT_LE(fm.mul() + fm.of(Op::Div), 258 * n - 119) << n;
    EXPECT_LE(fm.add(), 191 * n - 83) << n;
    EXPECT_LE(m.mul(), 36 * n * (n + 1)) << n;
    EXPECT_LE(m.add(), 26 * n * (n + 1)) << n;
  }
}

// Seed 003 section 9.7 [Khalil 97]: the RX-90's customised direct dynamic model in base parameters, 889 mul / 653
// add; with the simplified inertial parameters of Table 9.4, 637 / 423.
TEST(FunctionCounts, Rx90BesideKhalil97) {
  struct Row {
    const char* robot;
    int mul, add;
  };
  for (const Row& r : {Row{"rx90", 889, 653}, Row{"rx90-simplified", 637, 423}}) {
    const ref::Robot robot = ref::load_robot(r.robot);
    const OpCounts k = count_ops(customise(trace_function_base(robot, Function::Fd, Form::KhalilK)));
    std::printf("%-16s fd base parameters %s (paper %d/%d)\n", r.robot, mad(k).c_str(), r.mul, r.add);
    EXPECT_LE(k.mul() + k.of(Op::Div), r.mul);
    EXPECT_LE(k.add(), r.add);
  }
}

}  // namespace
}  // namespace neaccel::dfg
