// Inverse dynamics in double on the PUMA 560 (6 R joints, standard DH): ns per call, with the joint sines and
// cosines computed from q ("with sin/cos") and from precomputed JointInputs ("without"). Target:
// < 250 ns per call with sin/cos. Model and work space are built once, as a controller would.
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <benchmark/benchmark.h>

namespace {

using namespace neaccel::ref;

struct Fixture {
  Robot robot = load_robot("puma560");
  ModelT<double> model = model_of(robot);
  Eigen::VectorXd q, qd, qdd;
  JointInputs<double> in;
  NeData<double> data;
  Fixture() : q(6), qd(6), qdd(6) {
    q << 0.1, 0.7, -1.2, 0.4, 0.9, -0.3;
    qd << 0.5, -0.4, 0.3, 1.1, -0.7, 0.2;
    qdd << -0.2, 0.6, 0.8, -1.0, 0.3, 0.4;
    joint_inputs(robot, q, qd, qdd, in);
    data.resize(6);
  }
};

template <void (*Rnea)(const ModelT<double>&, const JointInputs<double>&, NeData<double>&)>
void with_sincos(benchmark::State& state) {
  Fixture f;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.q.data());
    joint_inputs(f.robot, f.q, f.qd, f.qdd, f.in);
    Rnea(f.model, f.in, f.data);
    benchmark::DoNotOptimize(f.data.tau.data());
    benchmark::ClobberMemory();
  }
}

template <void (*Rnea)(const ModelT<double>&, const JointInputs<double>&, NeData<double>&)>
void without_sincos(benchmark::State& state) {
  Fixture f;
  for (auto _ : state) {
    benchmark::DoNotOptimize(f.in.s.data());
    Rnea(f.model, f.in, f.data);
    benchmark::DoNotOptimize(f.data.tau.data());
    benchmark::ClobberMemory();
  }
}

void kModified(const ModelT<double>& m, const JointInputs<double>& in, NeData<double>& d) { modified_ne(m, in, d); }
void kLwp(const ModelT<double>& m, const JointInputs<double>& in, NeData<double>& d) { newton_euler(m, in, d); }
void kKhalil(const ModelT<double>& m, const JointInputs<double>& in, NeData<double>& d) { khalil_ne(m, in, d); }

}  // namespace

BENCHMARK_TEMPLATE(with_sincos, kModified)->Name("puma560/modified-ne/with_sincos");
BENCHMARK_TEMPLATE(without_sincos, kModified)->Name("puma560/modified-ne/without_sincos");
BENCHMARK_TEMPLATE(with_sincos, kLwp)->Name("puma560/ne/with_sincos");
BENCHMARK_TEMPLATE(without_sincos, kLwp)->Name("puma560/ne/without_sincos");
BENCHMARK_TEMPLATE(with_sincos, kKhalil)->Name("puma560/khalil/with_sincos");
BENCHMARK_TEMPLATE(without_sincos, kKhalil)->Name("puma560/khalil/without_sincos");

BENCHMARK_MAIN();
