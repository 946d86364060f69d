// Simulated clock cycles per second for the puma560 datapath (general flavour, binary32, 2 mul + 2 add, latency
// 3/2, pipelined): the Verilated RTL (C++ mode, fast harness), the SystemC model under the SystemC kernel, and the
// bare cycle core. Targets: >= 1 M cycles/s Verilator, >= 100 k cycles/s SystemC.
#include "Vdp_f22.h"
#include "core.hpp"
#include "driver.hpp"
#include "model.hpp"

#include "neaccel/hw/design.hpp"

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>

namespace {

using namespace neaccel;

struct Setup {
  hw::Design design;
  hw::Datapath dp;
  std::vector<std::uint32_t> raw;
  std::string hex_dir;
};

const Setup& setup() {
  static const Setup s = [] {
    hw::DesignSpec spec;
    spec.robot = "puma560";
    spec.mul = 2, spec.add = 2, spec.lat_mul = 3, spec.lat_add = 2;
    Setup r{hw::make_design(spec), {}, {}, {}};
    hw::Config cfg = r.design.dp.config;  // the f22 configuration of rtl/datapath/CMakeLists.txt
    cfg.max_regs = 512, cfg.max_consts = 256, cfg.max_prog = 2048, cfg.max_in = 512, cfg.max_out = 8;
    r.dp = hw::fit(r.design.dp, cfg);
    std::mt19937_64 rng(1);
    r.raw = hw::encode(cfg.format, hw::random_state(r.design, rng));
    r.hex_dir = std::filesystem::temp_directory_path().string() + "/neaccel_bench_dp_f22";
    hw::write_hex(r.dp, r.hex_dir);
    return r;
  }();
  return s;
}

void BM_VerilatorPuma560(benchmark::State& state) {
  const Setup& s = setup();
  auto ctx = std::make_unique<VerilatedContext>();
  const std::string plusarg = "+neaccel_hex=" + s.hex_dir;
  const char* argv[] = {"bench", plusarg.c_str()};
  ctx->commandArgs(2, argv);
  auto model = std::make_unique<Vdp_f22>(ctx.get(), "dp");
  rtlsim::Driver<Vdp_f22> drv(*model);
  drv.reset();
  const long before = drv.total_cycles();
  for (auto _ : state) benchmark::DoNotOptimize(drv.run(s.raw));
  state.counters["cycles_per_s"] =
      benchmark::Counter(static_cast<double>(drv.total_cycles() - before), benchmark::Counter::kIsRate);
  state.counters["cycles_per_eval"] = s.dp.cycles();
}
BENCHMARK(BM_VerilatorPuma560)->Unit(benchmark::kMicrosecond);

void BM_CycleCorePuma560(benchmark::State& state) {
  const Setup& s = setup();
  sysc::DatapathCore core(s.dp);
  long cycles = 0;
  for (auto _ : state) {
    std::size_t k = 0;
    for (long c = 0;; ++c, ++cycles) {
      if (c > 0 && core.done()) break;
      const std::uint32_t d = k < s.raw.size() ? s.raw[k] : 0;
      if (core.in_ready()) ++k;
      core.step(c == 0, true, d, true);
    }
    core.step(false, true, 0, true);
    ++cycles;
  }
  state.counters["cycles_per_s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CycleCorePuma560)->Unit(benchmark::kMicrosecond);

// The SystemC model with a free-running stimulus (start whenever idle); each iteration simulates 10,000 cycles.
SC_MODULE(FreeRun) {
  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n", false}, start{"start", false}, in_valid{"in_valid", true},
      out_ready{"out_ready", true};
  sc_core::sc_signal<std::uint32_t> in_data{"in_data", 0};
  sc_core::sc_signal<bool> in_ready{"in_ready"}, out_valid{"out_valid"}, busy{"busy"}, done{"done"};
  sc_core::sc_signal<std::uint32_t> out_data{"out_data"};
  sysc::DatapathModel model;
  const std::vector<std::uint32_t>& raw;
  SC_HAS_PROCESS(FreeRun);
  FreeRun(sc_core::sc_module_name n, const hw::Datapath& dp, const std::vector<std::uint32_t>& in)
      : sc_core::sc_module(n), model("model", dp), raw(in) {
    model.clk_i(clk), model.rst_ni(rst_n), model.start_i(start), model.in_valid_i(in_valid);
    model.in_data_i(in_data), model.out_ready_i(out_ready), model.in_ready_o(in_ready);
    model.out_valid_o(out_valid), model.out_data_o(out_data), model.busy_o(busy), model.done_o(done);
    SC_THREAD(stimulus);
    sensitive << clk.negedge_event();
    dont_initialize();
  }
  void stimulus() {
    wait();
    rst_n.write(true);
    std::size_t k = 0;
    for (;;) {
      wait();
      if (!busy.read()) k = 0;
      start.write(!busy.read());
      in_data.write(k < raw.size() ? raw[k] : 0);
      if (in_ready.read()) ++k;
    }
  }
};

void BM_SystemCModelPuma560(benchmark::State& state) {
  const Setup& s = setup();
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  static auto* bench = new FreeRun("free_run", s.dp, s.raw);  // one elaboration per process
  (void)bench;
  long cycles = 0;
  for (auto _ : state) {
    sc_core::sc_start(100000, sc_core::SC_NS);  // 10,000 cycles of 10 ns
    cycles += 10000;
  }
  state.counters["cycles_per_s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SystemCModelPuma560)->Unit(benchmark::kMillisecond);

}  // namespace

extern "C" int sc_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
