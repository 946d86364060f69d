// Google Benchmarks of the scheduler. Run: build/bench/sched/bench_sched
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/source.hpp"

#include <benchmark/benchmark.h>

#include <map>

namespace {

using namespace neaccel;
using namespace neaccel::sched;

const dfg::Graph& graph(const std::string& robot, bool general) {
  static std::map<std::string, dfg::Graph> cache;
  const std::string key = robot + (general ? "/general" : "/custom");
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, dfg::robot_graph(robot, general)).first;
  return it->second;
}

Problem problem(const dfg::Graph& g, int units, int lm, int la) {
  Problem p;
  p.graph = &g;
  p.classes = default_classes(units, units, lm, la);
  return p;
}

// args: general (1/0), backward-forward passes
void BM_ListPuma560(benchmark::State& st) {
  const auto& g = graph("puma560", st.range(0) == 1);
  const auto p = problem(g, 7, 3, 2);
  ListOptions o;
  o.backward_forward = static_cast<int>(st.range(1));
  int len = 0;
  for (auto _ : st) benchmark::DoNotOptimize(len = list_schedule(p, o).length);
  st.counters["ops"] = static_cast<double>(g.nodes.size());
  st.counters["cycles"] = len;
}
BENCHMARK(BM_ListPuma560)->Args({1, 0})->Args({1, 2})->Args({0, 0})->Args({0, 2})->Unit(benchmark::kMillisecond);

void BM_ListRandom100General(benchmark::State& st) {
  const auto& g = graph("random:100:1", true);
  const auto p = problem(g, 7, 3, 2);
  ListOptions o;
  o.backward_forward = static_cast<int>(st.range(0));
  int nops = 0;
  for (const auto& n : g.nodes) nops += dfg::is_operation(n.op);
  for (auto _ : st) benchmark::DoNotOptimize(list_schedule(p, o).length);
  st.counters["ops"] = nops;
}
BENCHMARK(BM_ListRandom100General)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_LowerBoundPuma560(benchmark::State& st) {
  const auto p = problem(graph("puma560", true), 7, 3, 2);
  for (auto _ : st) benchmark::DoNotOptimize(lower_bound(p));
}
BENCHMARK(BM_LowerBoundPuma560)->Unit(benchmark::kMicrosecond);

void BM_ModuloPuma560(benchmark::State& st) {
  const auto p = problem(graph("puma560", true), 4, 3, 2);
  for (auto _ : st) benchmark::DoNotOptimize(modulo_schedule(p).ii);
}
BENCHMARK(BM_ModuloPuma560)->Unit(benchmark::kMillisecond);

void BM_VerifyPuma560(benchmark::State& st) {
  const auto p = problem(graph("puma560", true), 7, 3, 2);
  auto s = list_schedule(p);
  allocate_registers(p, s);
  for (auto _ : st) benchmark::DoNotOptimize(verify(p, s).size());
}
BENCHMARK(BM_VerifyPuma560)->Unit(benchmark::kMillisecond);

// One exploration point as `neaccel explore` runs it (list with 4 restarts + bound + registers + modulo + verify
// of both); 1,000 points on 2 threads take about 500 x this.
void BM_SweepPointPuma560(benchmark::State& st) {
  const auto& g = graph("puma560", true);
  Point pt{"puma560", "general", 5, 4, 3, 2, st.range(0) == 1};
  for (auto _ : st) benchmark::DoNotOptimize(evaluate_point(g, pt, SweepOptions{}).length);
}
BENCHMARK(BM_SweepPointPuma560)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

void BM_IlpHal(benchmark::State& st) {
  const auto g = hal_diffeq();
  Problem p;
  p.graph = &g;
  p.classes = default_classes(1, 1, 2, 1, false);
  for (auto _ : st) benchmark::DoNotOptimize(ilp_schedule(p).length);
}
BENCHMARK(BM_IlpHal)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
