// Speed of the dataflow-graph tools:
//   BM_Reference/puma560      templated modified Newton-Euler in double (work space allocated once)
//   BM_Reference/puma560/with_sincos  the same with joint_inputs (sin/cos of q) in the loop
//   BM_GeneratedCpp/puma560   the customised graph compiled as a plain C++ function (tests/dfg generates it)
//   BM_GeneratedCpp/puma560/with_sincos  the same, with the joint sines and cosines computed from q in the loop
//                             (the RNEA speed target: < 250 ns per call with sin/cos)
//   BM_EvaluateGraph          evaluate<double> on the same customised graph (an interpreter)
//   BM_TraceAndCustomise      trace random:N:1 (custom flavour) and run fold/CSE/DCE to a fixpoint
// Ratio reported in docs/dfg.md: BM_Reference / BM_GeneratedCpp.
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/modified_ne.hpp"

#include <benchmark/benchmark.h>

void dfg_puma560_double(const double* in, double* out);

namespace {

using namespace neaccel;

struct Puma {
  ref::Robot robot = ref::load_robot("puma560");
  dfg::Graph g = dfg::customise(dfg::trace(robot, dfg::Form::ModifiedNE, dfg::Flavour::Custom));
  Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(6, -1.0, 1.5), qd = 0.5 * q, qdd = -q;
  std::vector<double> in = dfg::robot_input_vector(g, robot, q, qd, qdd);
};

const Puma& puma() {
  static const Puma p;
  return p;
}

void BM_Reference(benchmark::State& state) {
  const Puma& p = puma();
  const ref::ModelT<double> model = ref::model_of(p.robot);
  const ref::JointInputs<double> in = ref::joint_inputs(p.robot, p.q, p.qd, p.qdd);
  ref::NeData<double> data;
  data.resize(6);
  for (auto _ : state) {
    ref::modified_ne(model, in, data);
    benchmark::DoNotOptimize(data.tau.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_Reference)->Name("BM_Reference/puma560");

void BM_ReferenceWithSinCos(benchmark::State& state) {
  const Puma& p = puma();
  const ref::ModelT<double> model = ref::model_of(p.robot);
  ref::JointInputs<double> in = ref::joint_inputs(p.robot, p.q, p.qd, p.qdd);
  ref::NeData<double> data;
  data.resize(6);
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.q.data());
    ref::joint_inputs(p.robot, p.q, p.qd, p.qdd, in);
    ref::modified_ne(model, in, data);
    benchmark::DoNotOptimize(data.tau.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_ReferenceWithSinCos)->Name("BM_Reference/puma560/with_sincos");

void BM_GeneratedCpp(benchmark::State& state) {
  const Puma& p = puma();
  std::vector<double> in = p.in, out(6);
  for (auto _ : state) {
    benchmark::DoNotOptimize(in.data());
    dfg_puma560_double(in.data(), out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_GeneratedCpp)->Name("BM_GeneratedCpp/puma560");

// Where each joint's s, c, qd and qdd go in the generated function's input vector (-1: not an input).
struct JointSlots {
  int s = -1, c = -1, qd = -1, qdd = -1;
};

std::vector<JointSlots> joint_slots(const dfg::Graph& g, int dof) {
  std::vector<JointSlots> slots;
  for (int j = 1; j <= dof; ++j) {
    const std::string k = std::to_string(j);
    slots.push_back({dfg::find_input(g, "s" + k), dfg::find_input(g, "c" + k), dfg::find_input(g, "qd" + k),
                     dfg::find_input(g, "qdd" + k)});
  }
  return slots;
}

void BM_GeneratedCppWithSinCos(benchmark::State& state) {
  const Puma& p = puma();
  const std::vector<JointSlots> slots = joint_slots(p.g, 6);
  std::vector<double> theta0;
  for (const ref::Link& L : p.robot.links) theta0.push_back(L.theta);
  std::vector<double> in = p.in, out(6);
  const Eigen::VectorXd q = p.q, qd = p.qd, qdd = p.qdd;
  for (auto _ : state) {
    benchmark::DoNotOptimize(q.data());
    for (std::size_t j = 0; j < slots.size(); ++j) {
      const auto k = static_cast<Eigen::Index>(j);
      const double th = q[k] + theta0[j];
      const double s = std::sin(th), c = std::cos(th);  // adjacent: one sincos call
      if (slots[j].s >= 0) in[static_cast<std::size_t>(slots[j].s)] = s;
      if (slots[j].c >= 0) in[static_cast<std::size_t>(slots[j].c)] = c;
      if (slots[j].qd >= 0) in[static_cast<std::size_t>(slots[j].qd)] = qd[k];
      if (slots[j].qdd >= 0) in[static_cast<std::size_t>(slots[j].qdd)] = qdd[k];
    }
    dfg_puma560_double(in.data(), out.data());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_GeneratedCppWithSinCos)->Name("BM_GeneratedCpp/puma560/with_sincos");

void BM_EvaluateGraph(benchmark::State& state) {
  const Puma& p = puma();
  for (auto _ : state) benchmark::DoNotOptimize(dfg::evaluate<double>(p.g, p.in));
}
BENCHMARK(BM_EvaluateGraph)->Name("BM_EvaluateGraph/puma560");

void BM_TraceAndCustomise(benchmark::State& state) {
  const ref::Robot robot = ref::load_robot("random:" + std::to_string(state.range(0)) + ":1");
  for (auto _ : state)
    benchmark::DoNotOptimize(dfg::customise(dfg::trace(robot, dfg::Form::ModifiedNE, dfg::Flavour::Custom)));
}
BENCHMARK(BM_TraceAndCustomise)->Arg(6)->Arg(50)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
