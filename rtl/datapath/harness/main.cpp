// Standalone Verilator harness for a generated nea_top (built by `neaccel sim --engine verilator` with
// `verilator --cc --exe --build --prefix Vnea_top`). Fast path for large state sets; no SystemC.
//   vharness +neaccel_hex=DIR --in FILE --out FILE [--vcd FILE] [--stream N_OUT]
// FILE in: one evaluation per line, the input words in hex (graph input order). FILE out: per line the output words
// in hex followed by the cycle count (start to DONE). --stream N_OUT (a streaming nea_stream top with N_OUT outputs):
// all evaluations in one run; per line the output words followed by the cycles (since start) of the set point's
// first input word, first and last output word. Exit status 1 with a one-line message on bad input.
#include "Vnea_top.h"
#include "driver.hpp"

#include <verilated.h>
#if VM_TRACE
#include <verilated_vcd_c.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  std::string in_path, out_path, vcd_path;
  long stream_out = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--in" || a == "--out" || a == "--vcd") && i + 1 < argc) {
      (a == "--in" ? in_path : a == "--out" ? out_path : vcd_path) = argv[++i];
    } else if (a == "--stream" && i + 1 < argc) {
      stream_out = std::atol(argv[++i]);
      if (stream_out < 1) {
        std::fprintf(stderr, "vharness: error: --stream needs the number of outputs (>= 1)\n");
        return 1;
      }
    } else if (a.rfind("+", 0) != 0) {
      std::fprintf(stderr, "vharness: error: unknown argument '%s'\n", a.c_str());
      return 1;
    }
  }
  if (in_path.empty() || out_path.empty()) {
    std::fprintf(stderr, "vharness: error: --in FILE and --out FILE are required\n");
    return 1;
  }
  std::ifstream in(in_path);
  if (!in) {
    std::fprintf(stderr, "vharness: error: %s: cannot read\n", in_path.c_str());
    return 1;
  }
  std::vector<std::vector<std::uint32_t>> states;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::vector<std::uint32_t> words;
    for (std::string w; ls >> w;) words.push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
    states.push_back(words);
  }
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto model = std::make_unique<Vnea_top>(ctx.get(), "top");
  neaccel::rtlsim::Driver<Vnea_top> drv(*model);
#if VM_TRACE
  std::unique_ptr<VerilatedVcdC> vcd;
  if (!vcd_path.empty()) {
    ctx->traceEverOn(true);
    vcd = std::make_unique<VerilatedVcdC>();
    model->trace(vcd.get(), 99);
    vcd->open(vcd_path.c_str());
    drv.trace(vcd.get());
  }
#endif
  std::ofstream out(out_path);
  const auto t0 = std::chrono::steady_clock::now();
  drv.reset();
  if (stream_out > 0) {
    const auto r = drv.run_stream(states, static_cast<std::size_t>(stream_out));
    for (std::size_t k = 0; k < r.out.size(); ++k) {
      for (auto w : r.out[k]) out << std::hex << w << ' ';
      out << std::dec << r.first_in[k] << ' ' << r.first_out[k] << ' ' << r.last_out[k] << '\n';
    }
  } else {
    for (const auto& s : states) {
      const auto r = drv.run(s);
      for (auto w : r.out) out << std::hex << w << ' ';
      out << std::dec << r.cycles << '\n';
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "vharness: %ld cycles in %.3f s (%.0f cycles/s)\n", drv.total_cycles(), secs,
               secs > 0 ? drv.total_cycles() / secs : 0.0);
  model->final();
#if VM_TRACE
  if (vcd) vcd->close();
#endif
  return out ? 0 : 1;
}
