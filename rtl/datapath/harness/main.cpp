// Standalone Verilator harness for a generated nea_top (built by `neaccel sim --engine verilator` with
// `verilator --cc --exe --build --prefix Vnea_top`). Fast path for large state sets; no SystemC.
//   vharness +neaccel_hex=DIR --in FILE --out FILE [--vcd FILE] [--stream N_OUT]
//            [--cycle-log FILE --log-shape UNITS,WIDTH,REG_ADDR_BITS,NAN_CLASS] [--sink-stalls EVERY,LEN]
//            [--in-words WORDS,WIDTH]   (an input port of WORDS words of WIDTH bits per cycle)
// FILE in: one evaluation per line, the input words in hex (graph input order). FILE out: per line the output words
// in hex followed by the cycle count (start to DONE). --stream N_OUT (a streaming nea_stream top with N_OUT outputs):
// all evaluations in one run; per line the output words followed by the cycles (since start) of the set point's
// first input word, first and last output word. --cycle-log: one line per cycle (cycle_log.hpp) from the debug
// ports, whose layout --log-shape gives (NAN_CLASS 1 for binary32). --sink-stalls (streaming): out_ready_i low for
// LEN of every EVERY cycles. Exit status 1 with a one-line message on bad input.
// A line starting with "P" (a design with a parameter memory, docs/datapath.md "Robot parameters loaded once") holds
// the parameter words: the harness configures the datapath with them (after a reset, except before the first) and
// the set point lines that follow run with those parameters; set point lines then hold the port words only.
#include "Vnea_top.h"
#include "cycle_log.hpp"
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
#include <type_traits>
#include <vector>

namespace {

// Bits [lo, lo + w) (w <= 32) of a Verilated port: an integer (up to 64 bits) or a VlWide (wider ports).
template <class T>
std::uint32_t port_bits(const T& v, int lo, int w) {
  const std::uint64_t mask = (std::uint64_t{1} << w) - 1;
  if constexpr (std::is_integral_v<T>) {
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(v) >> lo) & mask);
  } else {
    const auto* words = v.data();
    const int k = lo / 32, off = lo % 32;
    std::uint64_t x = words[k];
    if (off + w > 32) x |= static_cast<std::uint64_t>(words[k + 1]) << 32;
    return static_cast<std::uint32_t>((x >> off) & mask);
  }
}

struct LogShape {
  int units = 0, width = 0, reg_addr_bits = 0;
  bool nan_class = false;
};

neaccel::rtlsim::CycleSample sample(const Vnea_top& m, const LogShape& s) {
  neaccel::rtlsim::CycleSample c;
  c.in_ready = m.in_ready_o, c.out_valid = m.out_valid_o, c.busy = m.busy_o, c.done = m.done_o;
  c.out_data = static_cast<std::uint32_t>(m.out_data_o);
  for (int u = 0; u < s.units; ++u) {
    c.unit_valid.push_back(port_bits(m.dbg_unit_valid_o, u, 1) != 0);
    c.unit_result.push_back(port_bits(m.dbg_unit_result_o, u * s.width, s.width));
    c.wr_en.push_back(port_bits(m.dbg_wr_en_o, u, 1) != 0);
    c.wr_addr.push_back(static_cast<int>(port_bits(m.dbg_wr_addr_o, u * s.reg_addr_bits, s.reg_addr_bits)));
  }
  c.load_en = m.dbg_load_en_o;
  c.load_addr = static_cast<int>(port_bits(m.dbg_load_addr_o, 0, s.reg_addr_bits));
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  std::string in_path, out_path, vcd_path, log_path;
  long stream_out = 0;
  int stall_every = 0, stall_len = 0, in_words = 1, in_width = 32;
  LogShape shape;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--in" || a == "--out" || a == "--vcd" || a == "--cycle-log") && i + 1 < argc) {
      (a == "--in" ? in_path : a == "--out" ? out_path : a == "--vcd" ? vcd_path : log_path) = argv[++i];
    } else if (a == "--sink-stalls" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%d,%d", &stall_every, &stall_len) != 2 || stall_every < 1 || stall_len < 0 ||
          stall_len >= stall_every) {
        std::fprintf(stderr, "vharness: error: --sink-stalls: expected EVERY,LEN with 0 <= LEN < EVERY\n");
        return 1;
      }
    } else if (a == "--in-words" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%d,%d", &in_words, &in_width) != 2 || in_words < 1 || in_width < 1 || in_width > 32) {
        std::fprintf(stderr, "vharness: error: --in-words: expected WORDS,WIDTH\n");
        return 1;
      }
    } else if (a == "--log-shape" && i + 1 < argc) {
      int nan = 0;
      if (std::sscanf(argv[++i], "%d,%d,%d,%d", &shape.units, &shape.width, &shape.reg_addr_bits, &nan) != 4 ||
          shape.units < 1 || shape.width < 1 || shape.width > 32 || shape.reg_addr_bits < 1 ||
          shape.reg_addr_bits > 32) {
        std::fprintf(stderr, "vharness: error: --log-shape: expected UNITS,WIDTH,REG_ADDR_BITS,NAN_CLASS\n");
        return 1;
      }
      shape.nan_class = nan != 0;
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
  if (!log_path.empty() && shape.units == 0) {
    std::fprintf(stderr, "vharness: error: --cycle-log needs --log-shape\n");
    return 1;
  }
  std::ifstream in(in_path);
  if (!in) {
    std::fprintf(stderr, "vharness: error: %s: cannot read\n", in_path.c_str());
    return 1;
  }
  struct Segment {
    bool configure = false;
    std::vector<std::uint32_t> params;
    std::vector<std::vector<std::uint32_t>> states;
  };
  std::vector<Segment> segments(1);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::vector<std::uint32_t> words;
    bool param_line = false;
    for (std::string w; ls >> w;) {
      if (w == "P" && words.empty() && !param_line) {
        param_line = true;
        continue;
      }
      words.push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
    }
    if (param_line) {
      if (segments.back().configure || !segments.back().states.empty()) segments.emplace_back();
      segments.back().configure = true;
      segments.back().params = words;
    } else {
      segments.back().states.push_back(words);
    }
  }
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto model = std::make_unique<Vnea_top>(ctx.get(), "top");
  neaccel::rtlsim::Driver<Vnea_top> drv(*model);
  drv.set_in_words(in_words, in_width);
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
  std::ofstream log;
  long log_cycle = 0;
  if (!log_path.empty()) {
    log.open(log_path);
    drv.on_cycle = [&] { log << neaccel::rtlsim::cycle_line(log_cycle++, sample(*model, shape), shape.nan_class) << '\n'; };
  }
  std::ofstream out(out_path);
  const auto t0 = std::chrono::steady_clock::now();
  drv.reset();
  for (std::size_t g = 0; g < segments.size(); ++g) {
    const auto& states = segments[g].states;
    if (g > 0 && segments[g].configure) drv.reset();  // a robot change: reset, then configure again
    if (segments[g].configure) drv.configure(segments[g].params);
    if (stream_out > 0) {
      const auto r = drv.run_stream(states, static_cast<std::size_t>(stream_out), 0, 0, stall_every, stall_len);
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
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "vharness: %ld cycles in %.3f s (%.0f cycles/s)\n", drv.total_cycles(), secs,
               secs > 0 ? drv.total_cycles() / secs : 0.0);
  model->final();
#if VM_TRACE
  if (vcd) vcd->close();
#endif
  return out && (log_path.empty() || log) ? 0 : 1;
}
