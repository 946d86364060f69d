// Throughput of the unit models: reference functions (fp32.hpp with MXCSR flags, fixed.hpp) and the
// Verilated C++-mode units (one cycle() per operation, pipelined).
#include "neaccel/units/fixed.hpp"
#include "neaccel/units/fp32.hpp"
#include "neaccel/units/vl_unit.hpp"

#include <benchmark/benchmark.h>

#include <random>

namespace u = neaccel::units;

static void BM_RefFp32Mul(benchmark::State& state) {
  std::mt19937 rng(1);
  uint32_t a = rng(), b = rng(), acc = 0;
  for (auto _ : state) {
    acc ^= u::fp32::mul(a, b).bits;
    a = a * 1664525u + 1013904223u;
    b ^= a >> 3;
  }
  benchmark::DoNotOptimize(acc);
}
BENCHMARK(BM_RefFp32Mul);

static void BM_RefFixedMul(benchmark::State& state) {
  const u::fixed::Format f{16, 16};
  int64_t a = 12345, b = -67890, acc = 0;
  for (auto _ : state) {
    acc ^= u::fixed::mul(a, b, f);
    a = (a * 1103515245 + 12345) & 0x7FFFFFFF;
  }
  benchmark::DoNotOptimize(acc);
}
BENCHMARK(BM_RefFixedMul);

static void BM_Verilated(benchmark::State& state, u::UnitKind kind) {
  auto unit = u::make_vl_unit({kind, 3, true, 32, 16});
  uint32_t a = 0x3F800001u, b = 0x40490FDBu, acc = 0;
  for (auto _ : state) {
    acc ^= unit->cycle(true, a, b, 0).result;
    a = a * 1664525u + 1013904223u;
  }
  benchmark::DoNotOptimize(acc);
}
BENCHMARK_CAPTURE(BM_Verilated, fp32_mul_l3, u::UnitKind::Fp32Mul);
BENCHMARK_CAPTURE(BM_Verilated, fp32_add_l3, u::UnitKind::Fp32Add);

BENCHMARK_MAIN();
