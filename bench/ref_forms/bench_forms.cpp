// Time per call of every formulation (double) on a random n-link arm (load_robot("random:N:SEED"), mixed
// revolute/prismatic joints, friction and rotor inertia), n = 6 and 12; the op count at that n is attached as a
// counter ("mul") for the table in docs/formulations.md.
//   build/bench/ref_forms/bench_ref_forms --benchmark_min_time=0.2
#include "neaccel/ref/forms/counts.hpp"
#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/forward.hpp"
#include "neaccel/ref/forms/gibbs_appell.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/recursive_lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"
#include "neaccel/ref/forms/strobe.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/modified_ne.hpp"

#include <Eigen/Cholesky>
#include <benchmark/benchmark.h>

#include <functional>

namespace {

using namespace neaccel::ref;
using namespace neaccel::ref::forms;

struct Case {
  Robot robot;
  ModelT<double> model;
  JointInputs<double> in;
  std::vector<double> tau;
};

Case make_case(int n) {
  Case c;
  c.robot = load_robot("random:" + std::to_string(n) + ":2");  // even seed: standard DH
  c.model = model_of(c.robot);
  c.model.robot = &c.robot;
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(n, 0.1, 0.9);
  c.in = joint_inputs(c.robot, q, q, q);
  c.tau.assign(static_cast<std::size_t>(n), 1.0);
  return c;
}

void run(benchmark::State& st, const std::string& count_name, const std::function<double(const Case&)>& f) {
  const int n = static_cast<int>(st.range(0));
  const Case c = make_case(n);
  for (auto _ : st) benchmark::DoNotOptimize(f(c));
  if (!count_name.empty()) st.counters["mul"] = static_cast<double>(count_formulation(count_name, n).ours.mul);
}

#define FORM_BENCH(NAME, COUNT, EXPR)                                   \
  void NAME(benchmark::State& st) {                                     \
    run(st, COUNT, [](const Case& c) { return EXPR; });                 \
  }                                                                     \
  BENCHMARK(NAME)->Arg(6)->Arg(12)->Unit(benchmark::kMicrosecond);

FORM_BENCH(BM_ModifiedNE, "", modified_ne(c.model, c.in)[0])
FORM_BENCH(BM_Lagrange, "lagrange", lagrange(c.model, c.in)[0])
FORM_BENCH(BM_RecursiveLagrange, "recursive-lagrange", recursive_lagrange(c.model, c.in)[0])
FORM_BENCH(BM_GibbsAppell, "gibbs-appell", gibbs_appell(c.model, c.in)[0])
FORM_BENCH(BM_Dalembert, "dalembert", dalembert(c.model, c.in)[0])
FORM_BENCH(BM_SpatialNE, "spatial-ne", spatial_ne_inverse(c.model, c.in)[0])
FORM_BENCH(BM_StrobeM, "strobe-M", strobe(c.model, c.in, StrobeParts{true, false, false}).M[0])
FORM_BENCH(BM_StrobeC, "strobe-C", strobe(c.model, c.in, StrobeParts{false, true, false}).C[1])
FORM_BENCH(BM_LagrangeCoefficients, "lagrange-coefficients", lagrange_coefficients(c.model, c.in).D[0])
FORM_BENCH(BM_NasserForward, "nasser-forward", nasser_forward(c.model, c.in, c.tau)[0])
FORM_BENCH(BM_KhalilForward, "khalil-forward", khalil_forward(c.model, c.in, c.tau)[0])

// Strobing + LDLT forward dynamics (M by n strobes of the modified N-E, h by one, Eigen LDLT).
double strobe_ldlt(const Case& c) {
  const ExplicitDynamics<double> ex = strobe(c.model, c.in, StrobeParts{true, false, false});
  const int n = ex.n;
  const Eigen::Map<const Eigen::MatrixXd> M(ex.M.data(), n, n);
  JointInputs<double> in0 = c.in;
  for (double& x : in0.qdd) x = 0;
  const std::vector<double> h = modified_ne(c.model, in0);
  Eigen::VectorXd rhs(n);
  for (int i = 0; i < n; ++i) rhs[i] = c.tau[static_cast<std::size_t>(i)] - h[static_cast<std::size_t>(i)];
  return M.ldlt().solve(rhs)[0];
}
FORM_BENCH(BM_StrobeLdltForward, "", strobe_ldlt(c))

}  // namespace

BENCHMARK_MAIN();
