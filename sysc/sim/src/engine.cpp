#include "neaccel/sim/engine.hpp"

#include "Vdpsc_f22.h"
#include "Vdpsc_s22.h"
#include "Vdpsc_sx11.h"
#include "Vdpsc_x11.h"
#include "cosim.hpp"
#include "cycle_log.hpp"
#include "neaccel/hw/artifacts.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/process.hpp"
#include "prebuilt.hpp"
#include "run.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace neaccel::sim {

namespace fs = std::filesystem;

std::string rtl_dir() {
  const char* env = std::getenv("NEACCEL_RTL_DIR");
  return env ? env : NEACCEL_RTL_DIR;
}

sysc::Fault model_fault(const Options& o) {
  sysc::Fault f;
  if (o.fault_cycle >= 0) f = {sysc::Fault::Kind::UnitResult, o.fault_cycle, 0, 1, nullptr};
  return f;
}

EngineRun run_systemc(const hw::Design& d, const Words& raw, const Options& o) {
  auto m = sysc::run_model(d.dp, raw, {nullptr, model_fault(o), o.stall_every, o.stall_len});
  EngineRun r;
  r.out = m.out;
  r.cycles = m.cycles;
  r.stream = m.stream;
  return r;
}

namespace {

template <class Rtl>
EngineRun cosim_on(const hw::Datapath& dp, const std::string& dir, const Words& raw, const sysc::Fault& fault) {
  hw::write_hex(dp, dir + "/hex_cosim");
  const std::string plusarg = "+neaccel_hex=" + dir + "/hex_cosim";
  const char* argv[] = {"neaccel", plusarg.c_str()};
  Verilated::commandArgs(2, argv);
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const auto c = sysc::cosimulate<Rtl>(dp, raw, fault);
  EngineRun r;
  r.out = c.rtl_out;
  r.cycles = c.cycles;
  r.cycle_mismatches = c.mismatches;
  r.compared_cycles = c.compared_cycles;
  r.cosim_kind = "lockstep";
  r.messages = c.messages;
  r.stream = c.rtl_stream;
  for (std::size_t k = 0; k < c.rtl_out.size(); ++k)
    if (c.rtl_out[k] != c.model_out[k]) r.cycle_mismatches = std::max<long>(r.cycle_mismatches, 1);
  return r;
}

// Any unit mix: the SystemC model and the Verilator harness each write a cycle log; the logs must be equal line for
// line. They are removed when they are (they grow with the run: about 80 bytes per cycle for 4 units).
EngineRun run_log_cosim(const hw::Design& d, const std::string& dir, const Words& raw, const Options& o) {
  const std::string model_log = dir + "/cosim_model.log", rtl_log = dir + "/cosim_rtl.log";
  sysc::ModelRun m;
  {
    std::ofstream f(model_log);
    m = sysc::run_model(d.dp, raw, {&f, model_fault(o), o.stall_every, o.stall_len});
    if (!f) throw Error(model_log + ": cannot write");
  }
  EngineRun r = run_verilator(d, dir, raw, o, rtl_log, o.rtl_fault_word >= 0 ? write_rtl_fault(d, dir, o) : "");
  const rtlsim::CycleLogDiff diff = rtlsim::compare_cycle_logs(model_log, rtl_log);
  r.cycle_mismatches = diff.differing;
  r.compared_cycles = diff.lines;
  r.cosim_kind = "cycle logs";
  r.messages = diff.messages;
  if (m.out != r.out) r.cycle_mismatches = std::max<long>(r.cycle_mismatches, 1);
  if (diff.lines == 0) throw Error(model_log + ": empty cycle log");
  if (r.cycle_mismatches == 0) {
    fs::remove(model_log);
    fs::remove(rtl_log);
  } else if (!o.quiet) {
    std::fprintf(stderr, "neaccel sim: cycle logs kept: %s, %s\n", model_log.c_str(), rtl_log.c_str());
  }
  return r;
}

// Whether GNU make can build in this directory: no space (verilated.mk refuses it), no '$', quote or other character
// make or a recipe's shell would read as syntax.
bool make_safe(const std::string& path) {
  return std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._+,=@%:-", c) != nullptr;
  });
}

// A private temporary directory (mkdtemp), removed with everything in it when it goes out of scope; `path` empty
// when none was asked for.
struct TempDir {
  std::string path;
  explicit TempDir(bool make) {
    if (!make) return;
    std::error_code ec;
    std::string base = fs::temp_directory_path(ec).string();
    if (ec || !make_safe(base)) base = "/tmp";
    std::string templ = base + "/neaccel-vlt-XXXXXX";
    if (!::mkdtemp(templ.data())) throw Error(base + ": cannot create a temporary directory for the Verilator build");
    path = templ;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
};

// The first line of a tool's log that says "error" (else its last non-empty line), for a one-line message.
std::string log_reason(const std::string& log) {
  std::ifstream f(log);
  std::string first_error, last;
  for (std::string l; std::getline(f, l);) {
    if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
    last = l;
    if (first_error.empty() && (l.find("error") != std::string::npos || l.find("Error") != std::string::npos)) first_error = l;
  }
  std::string r = first_error.empty() ? last : first_error;
  if (r.size() > 160) r = r.substr(0, 157) + "...";
  return r;
}

}  // namespace

std::string write_rtl_fault(const hw::Design& d, const std::string& dir, const Options& o) {
  hw::Datapath bad = d.dp;
  for (std::size_t pc = static_cast<std::size_t>(o.rtl_fault_word); pc < bad.program.size(); ++pc)
    for (std::size_t u = 0; u < bad.program[pc].wb.size(); ++u) {
      hw::WriteBack& wb = bad.program[pc].wb[u];
      if (!wb.valid) continue;
      const int was = wb.dest;
      wb.dest = was == 0 ? 1 : was - 1;
      const std::string fault_dir = dir + "/rtl_fault";
      hw::write_hex(bad, fault_dir + "/hex");
      if (d.spec.arch == hw::Arch::Hardwired) {
        std::ofstream f(fault_dir + "/nea_top.v", std::ios::binary);
        f << hw::hardwired_verilog(bad, hw::hardwired_options(d.spec));
        if (!f) throw Error(fault_dir + "/nea_top.v: cannot write");
      }
      if (!o.quiet)
        std::fprintf(stderr, "neaccel sim: RTL fault: word %zu, unit %zu writes register %d instead of %d\n", pc, u,
                     wb.dest, was);
      return fault_dir;
    }
  throw Error(fmt::format("--rtl-fault-word: no register write-back at word {} or later", o.rtl_fault_word));
}

EngineRun run_cosim(const hw::Design& d, const std::string& dir, const Words& raw, const Options& o) {
  const sysc::Fault f = model_fault(o);
  if (o.rtl_fault_word >= 0) return run_log_cosim(d, dir, raw, o);  // the RTL of a corrupted design: by cycle logs
  // The prebuilt lockstep benches are the microcoded datapath: a hardwired design is compared by cycle logs.
  if (d.spec.arch == hw::Arch::Hardwired) return run_log_cosim(d, dir, raw, o);
  if (d.dp.config.regfile_mem) return run_log_cosim(d, dir, raw, o);  // likewise the flip-flop register file
  if (sysc::runs_on(d.dp, sysc::config_f22())) return cosim_on<Vdpsc_f22>(hw::fit(d.dp, sysc::config_f22()), dir, raw, f);
  if (sysc::runs_on(d.dp, sysc::config_x11())) return cosim_on<Vdpsc_x11>(hw::fit(d.dp, sysc::config_x11()), dir, raw, f);
  if (sysc::runs_on(d.dp, sysc::config_s22())) return cosim_on<Vdpsc_s22>(hw::fit(d.dp, sysc::config_s22()), dir, raw, f);
  if (sysc::runs_on(d.dp, sysc::config_sx11()))
    return cosim_on<Vdpsc_sx11>(hw::fit(d.dp, sysc::config_sx11()), dir, raw, f);
  return run_log_cosim(d, dir, raw, o);
}

EngineRun run_verilator(const hw::Design& d, const std::string& dir, const Words& raw, const Options& o,
                        const std::string& cycle_log, const std::string& fault_dir) {
  // Tracing roughly doubles the C++ the model compiles to, so it is built in only when a VCD is asked for.
  const bool trace = !o.vcd.empty();
  const bool own_top = !fault_dir.empty() && d.spec.arch == hw::Arch::Hardwired;
  const std::string top = own_top ? fault_dir + "/nea_top.v" : dir + "/rtl/nea_top.v";
  const std::string hex = fault_dir.empty() ? dir + "/hex" : fault_dir + "/hex";
  const std::string obj = dir + (own_top ? "/obj_vlt_fault" : trace ? "/obj_vlt_trace" : "/obj_vlt"), exe = obj + "/vharness";
  const auto sources = hw::rtl_sources(rtl_dir(), d.dp.config, d.spec.arch);
  for (const auto& s : sources)
    if (!fs::exists(s)) throw Error(s + ": missing");
  if (sources.size() < (d.spec.arch == hw::Arch::Hardwired ? 5u : 7u)) throw Error(rtl_dir() + "/units: the arithmetic units are missing");
  // Rebuilt when the harness is older than the design's top or any unit source it reads (a unit changed in rtl/ is
  // simulated as it now is, not as the harness was built).
  bool stale = !fs::exists(exe);
  for (std::size_t i = 0; !stale && i <= sources.size(); ++i)
    stale = fs::last_write_time(exe) < fs::last_write_time(i < sources.size() ? sources[i] : top);
  if (stale) {
    // Verilator runs in the design directory with the design's own files named relative to it, so no path of the
    // design directory reaches its command line or Makefile. GNU make (verilator --build) refuses to work in a
    // directory whose path holds a space, and would expand a '$' in it: such a design directory is built in a
    // private temporary directory instead, and only the harness is copied back.
    const std::string obj_rel = fs::path(obj).filename().string();
    const std::string top_rel = fs::relative(top, dir).string();
    const TempDir tmp(!make_safe(dir));
    const std::string build_dir = tmp.path.empty() ? dir : tmp.path;
    if (!tmp.path.empty()) {
      fs::create_directories((fs::path(build_dir) / top_rel).parent_path());
      fs::copy_file(top, fs::path(build_dir) / top_rel);
    }
    std::vector<std::string> argv{"verilator", "--cc", "--exe", "--build", "-j", "2", "-O3"};
    if (trace) argv.push_back("--trace");
    for (const char* a : {"-Wno-fatal", "--top-module", "nea_top", "--prefix", "Vnea_top"}) argv.push_back(a);
    argv.insert(argv.end(), {"-Mdir", obj_rel, "-o", "vharness", "-CFLAGS", "-O2 -I" + rtl_dir() + "/datapath/harness",
                             top_rel});
    argv.insert(argv.end(), sources.begin(), sources.end());
    argv.push_back(rtl_dir() + "/datapath/harness/main.cpp");
    const std::string log = obj + ".log";
    if (!proc::find_program("verilator")) throw Error(proc::missing_tool("verilator"));
    if (!o.quiet) std::fprintf(stderr, "neaccel sim: building the Verilator harness (log: %s)\n", log.c_str());
    proc::Spawn sp;
    sp.argv = argv;
    sp.cwd = build_dir;
    sp.stdout_path = log;
    sp.stderr_path = log;
    const proc::Result b = proc::run(sp);
    if (b.not_found) throw Error(proc::missing_tool("verilator"));
    if (!b.ok()) throw Error(log + ": verilator build failed: " + log_reason(log));
    if (!tmp.path.empty()) {
      fs::create_directories(obj);
      fs::copy_file(fs::path(build_dir) / obj_rel / "vharness", exe, fs::copy_options::overwrite_existing);
    }
  }
  const std::string in_path = dir + "/sim_in.txt", out_path = dir + "/sim_out.txt";
  {
    std::ofstream f(in_path);
    for (const auto& seg : hw::segments(d.dp, raw)) {  // "P" lines: configuration phases (parameter memory)
      if (d.dp.has_params()) {
        f << "P ";
        for (auto w : seg.params) f << fmt::format("{:x} ", w);
        f << '\n';
      }
      for (const auto& s : seg.points) {
        for (auto w : s) f << fmt::format("{:x} ", w);
        f << '\n';
      }
    }
    if (!f) throw Error(in_path + ": cannot write");
  }
  // Each path one argument (proc::run: no shell), whatever it holds.
  std::vector<std::string> argv{exe, "+neaccel_hex=" + hex, "--in", in_path, "--out", out_path};
  if (d.dp.streaming()) argv.insert(argv.end(), {"--stream", std::to_string(d.dp.output_names.size())});
  if (d.dp.config.in_words > 1)
    argv.insert(argv.end(), {"--in-words", fmt::format("{},{}", d.dp.config.in_words, d.dp.config.format.width())});
  if (o.stall_every > 0) argv.insert(argv.end(), {"--sink-stalls", fmt::format("{},{}", o.stall_every, o.stall_len)});
  if (!o.vcd.empty()) argv.insert(argv.end(), {"--vcd", o.vcd});
  if (!cycle_log.empty()) {
    const hw::Config& c = d.dp.config;
    argv.insert(argv.end(), {"--cycle-log", cycle_log, "--log-shape",
                             fmt::format("{},{},{},{}", c.num_units(), c.format.width(), c.reg_addr_bits(),
                                         c.format.fixed ? 0 : 1)});
  }
  // The harness's messages go to a log beside its results: its own error lines would make a second error line.
  const std::string run_log = dir + "/sim_harness.log";
  fs::remove(out_path);
  proc::Spawn sp;
  sp.argv = argv;
  sp.stderr_path = run_log;
  const proc::Result h = proc::run(sp);
  if (!h.ok()) throw Error(exe + ": simulation failed (" + run_log + "): " + log_reason(run_log));
  if (!o.quiet) {
    std::ifstream lf(run_log);
    for (std::string l; std::getline(lf, l);) std::fprintf(stderr, "%s\n", l.c_str());
  }
  if (!o.vcd.empty() && !fs::exists(o.vcd)) throw Error(o.vcd + ": the VCD trace was not written (--vcd)");
  EngineRun r;
  std::ifstream f(out_path);
  for (std::string line; std::getline(f, line);) {
    std::istringstream ls(line);
    std::vector<std::string> w;
    for (std::string x; ls >> x;) w.push_back(x);
    if (w.empty()) continue;
    std::vector<std::uint32_t> words;
    const std::size_t tail = d.dp.streaming() ? 3 : 1;  // streaming: first_in first_out last_out; else cycles
    if (w.size() < tail) throw Error(out_path + ": malformed line");
    for (std::size_t i = 0; i + tail < w.size(); ++i)
      words.push_back(static_cast<std::uint32_t>(std::stoul(w[i], nullptr, 16)));
    // Overlapped I/O: the results left in the order they were computed; back in graph output order (a wrong word
    // count stays as it is, for the checker to report).
    r.out.push_back(d.dp.overlapped() && words.size() == d.dp.output_names.size() ? hw::graph_outputs(d.dp, words) : words);
    if (d.dp.streaming()) {
      r.stream.out.push_back(words);
      r.stream.first_in.push_back(std::stol(w[w.size() - 3]));
      r.stream.first_out.push_back(std::stol(w[w.size() - 2]));
      r.stream.last_out.push_back(std::stol(w[w.size() - 1]));
    } else {
      r.cycles.push_back(std::stol(w.back()));
    }
  }
  if (r.out.size() != raw.size()) throw Error(out_path + ": wrong number of results");
  return r;
}

}  // namespace neaccel::sim
