// `neaccel sim`: runs the datapath written by `neaccel rtl --out DIR` on joint states with one engine:
//   systemc   the SystemC model (sysc/datapath)
//   verilator the generated RTL, built with `verilator --cc --exe --build` into DIR/obj_vlt (standalone harness;
//             DIR/obj_vlt_trace, with VCD tracing compiled in, only when --vcd asks for a trace)
//   cosim     the RTL and the SystemC model compared every cycle: in lockstep (Verilated RTL in SystemC mode beside
//             the model) for the unit mixes verilated at build time (sysc/datapath/prebuilt.hpp); for any other mix
//             by cycle logs (rtl/datapath/harness/cycle_log.hpp) that the SystemC model and the Verilator harness
//             write at the same point of every cycle, then compared line by line
// and checks every output against the graph evaluated in the number format (bit for bit) and against the double
// reference (max relative error). Prints torques, cycles, max error, mismatches (--json for scripts). Streaming
// designs (neaccel rtl --ii) stream all states in one run and report the measured throughput (cycles between
// successive results) and latency (first input word to last result word) beside the claimed ones.
#include "command.hpp"

#include "Vdpsc_f22.h"
#include "Vdpsc_s22.h"
#include "Vdpsc_sx11.h"
#include "Vdpsc_x11.h"
#include "cosim.hpp"
#include "cycle_log.hpp"
#include "fault_campaign.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/hw/artifacts.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/io.hpp"
#include "prebuilt.hpp"
#include "run.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

// libsystemc.so refers to sc_main; the CLI has its own main and calls sc_start directly. Weak: another command
// (cmd_fpcheck.cpp) may define it too.
extern "C" __attribute__((weak)) int sc_main(int, char**) { return 0; }

namespace {

using namespace neaccel;
namespace fs = std::filesystem;

struct Options {
  std::string out = "out", engine = "systemc", states_file, vcd, sink_stalls, function;
  std::string robot_change;  // issue 16: the second half of the set points use this robot's parameters
  int stall_every = 0, stall_len = 0;  // parsed from sink_stalls
  int random = 0;
  int fault_campaign = 0;  // > 0: that many single-bit flips (fault_campaign.hpp)
  std::vector<std::string> campaign_checks;  // hidden: the checks the campaign counts (tests of the campaign)
  long fault_cycle = -1;  // hidden: corrupt unit 0's result bus in the model at this cycle (tests of the checker)
  long rtl_fault_word = -1;  // hidden: cycle-log co-simulation runs the RTL of a corrupted design (see rtl_fault)
  unsigned long long seed = 1;
  bool json = false, quiet = false;
};

std::string rtl_dir() {
  const char* env = std::getenv("NEACCEL_RTL_DIR");
  return env ? env : NEACCEL_RTL_DIR;
}

// States file: one state per line, q1..qn qd1..qdn u1..un (3n numbers; u = qdd, or tau for the forward dynamics
// functions); '#' starts a comment.
std::vector<std::vector<double>> read_states(const hw::Design& d, const std::string& path) {
  check_file_size(path);
  std::ifstream f(path);
  if (!f) throw Error(path + ": cannot read");
  const int n = d.robot.dof();
  std::vector<std::vector<double>> out;
  int lineno = 0;
  for (std::string line; std::getline(f, line);) {
    ++lineno;
    line = line.substr(0, line.find('#'));
    std::istringstream ls(line);
    std::vector<double> v;
    for (std::string w; ls >> w;) {
      try {
        std::size_t used = 0;
        v.push_back(std::stod(w, &used));
        if (used != w.size() || !std::isfinite(v.back())) throw std::invalid_argument(w);
      } catch (const std::exception&) {
        throw Error(fmt::format("{}:{}: '{}' is not a finite number", path, lineno, w));
      }
    }
    if (v.empty()) continue;
    if (static_cast<int>(v.size()) != 3 * n)
      throw Error(fmt::format("{}:{}: {} numbers, need 3 x {} (q, qd, qdd)", path, lineno, v.size(), n));
    out.push_back(hw::bind_state(d, {v.begin(), v.begin() + n}, {v.begin() + n, v.begin() + 2 * n},
                                 {v.begin() + 2 * n, v.end()}));
  }
  if (out.empty()) throw Error(path + ": no states");
  return out;
}

// The microcode and the sizes (meta.hex: word counts, stages, back-pressure credits) the RTL will read must be the
// manifest's design.
// Hardwired: the generated Verilog must be the manifest's design's.
void check_hex_matches(const hw::Design& d, const std::string& dir) {
  if (d.spec.arch == hw::Arch::Hardwired) {
    const std::string path = dir + "/rtl/nea_top.v";
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(path + ": cannot read");
    std::ostringstream text;
    text << f.rdbuf();
    if (text.str() != hw::hardwired_verilog(d.dp))
      throw Error(path + ": does not match the manifest's design (regenerate with neaccel rtl)");
    return;
  }
  for (const auto& [name, want] : {std::pair{"ucode.hex", hw::microcode_hex(d.dp)}, std::pair{"meta.hex", hw::meta_hex(d.dp)}}) {
    const std::string path = dir + "/hex/" + name;
    std::ifstream f(path);
    if (!f) throw Error(path + ": cannot read");
    std::vector<std::string> lines;
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    if (lines != want) throw Error(path + ": does not match the manifest's design (regenerate with neaccel rtl)");
  }
}

struct EngineRun {
  std::vector<std::vector<std::uint32_t>> out;
  std::vector<long> cycles;
  long cycle_mismatches = -1;  // cosim: cycles in which RTL and model differ
  long compared_cycles = 0;    // cosim: cycles compared
  std::string cosim_kind;      // cosim: "lockstep" or "cycle logs"
  std::vector<std::string> messages;
  rtlsim::StreamResult stream;  // streaming designs
};

sysc::Fault model_fault(const Options& o) {
  sysc::Fault f;
  if (o.fault_cycle >= 0) f = {sysc::Fault::Kind::UnitResult, o.fault_cycle, 0, 1, nullptr};
  return f;
}

template <class Rtl>
EngineRun cosim_on(const hw::Datapath& dp, const std::string& dir,
                   const std::vector<std::vector<std::uint32_t>>& raw, const sysc::Fault& fault) {
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

EngineRun run_verilator(const hw::Design& d, const std::string& dir, const std::vector<std::vector<std::uint32_t>>& raw,
                        const Options& o, const std::string& cycle_log = "", const std::string& fault_dir = "");

// A fault on the RTL side (tests of the co-simulation checks, --rtl-fault-word W): the first register write-back at
// microcode word W or later writes the register below its own (register 1 for register 0) in the RTL only; the
// SystemC model runs the design as built. The corrupted design's hex images (and, hardwired, its generated
// nea_top.v) go to DIR/rtl_fault; returns that directory.
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
        f << hw::hardwired_verilog(bad);
        if (!f) throw Error(fault_dir + "/nea_top.v: cannot write");
      }
      if (!o.quiet)
        std::fprintf(stderr, "neaccel sim: RTL fault: word %zu, unit %zu writes register %d instead of %d\n", pc, u,
                     wb.dest, was);
      return fault_dir;
    }
  throw Error(fmt::format("--rtl-fault-word: no register write-back at word {} or later", o.rtl_fault_word));
}

// Any unit mix: the SystemC model and the Verilator harness each write a cycle log; the logs must be equal line for
// line. They are removed when they are (they grow with the run: about 80 bytes per cycle for 4 units).
EngineRun run_log_cosim(const hw::Design& d, const std::string& dir, const std::vector<std::vector<std::uint32_t>>& raw,
                        const Options& o) {
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

EngineRun run_cosim(const hw::Design& d, const std::string& dir, const std::vector<std::vector<std::uint32_t>>& raw,
                    const Options& o) {
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

int run_cmd(const std::string& cmd) { return std::system(cmd.c_str()); }

// cycle_log: also write the harness's cycle log there (cycle_log.hpp). fault_dir: run the corrupted design of
// write_rtl_fault instead (its hex images; hardwired, its nea_top.v, built into DIR/obj_vlt_fault).
EngineRun run_verilator(const hw::Design& d, const std::string& dir, const std::vector<std::vector<std::uint32_t>>& raw,
                        const Options& o, const std::string& cycle_log, const std::string& fault_dir) {
  // Tracing roughly doubles the C++ the model compiles to, so it is built in only when a VCD is asked for.
  const bool trace = !o.vcd.empty();
  const bool own_top = !fault_dir.empty() && d.spec.arch == hw::Arch::Hardwired;
  const std::string top = own_top ? fault_dir + "/nea_top.v" : dir + "/rtl/nea_top.v";
  const std::string hex = fault_dir.empty() ? dir + "/hex" : fault_dir + "/hex";
  const std::string obj = dir + (own_top ? "/obj_vlt_fault" : trace ? "/obj_vlt_trace" : "/obj_vlt"), exe = obj + "/vharness";
  const auto sources = hw::rtl_sources(rtl_dir(), d.dp.config, d.spec.arch);
  for (const auto& s : sources)
    if (!fs::exists(s)) throw Error(s + ": missing");
  if (sources.size() < (d.spec.arch == hw::Arch::Hardwired ? 5u : 6u)) throw Error(rtl_dir() + "/units: the arithmetic units are missing");
  if (!fs::exists(exe) || fs::last_write_time(exe) < fs::last_write_time(top)) {
    std::string cmd = std::string("verilator --cc --exe --build -j 2 -O3 ") + (trace ? "--trace " : "") +
                      "-Wno-fatal --top-module nea_top --prefix Vnea_top -Mdir " +
                      obj + " -o vharness -CFLAGS '-O2 -I" + rtl_dir() + "/datapath/harness' " + top;
    for (const auto& s : sources) cmd += " " + s;
    cmd += " " + rtl_dir() + "/datapath/harness/main.cpp > " + obj + ".log 2>&1";
    if (!o.quiet) std::fprintf(stderr, "neaccel sim: building the Verilator harness (log: %s.log)\n", obj.c_str());
    if (run_cmd(cmd) != 0) throw Error(obj + ".log: verilator build failed");
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
  }
  std::string cmd = exe + " +neaccel_hex=" + hex + " --in " + in_path + " --out " + out_path;
  if (d.dp.streaming()) cmd += " --stream " + std::to_string(d.dp.output_names.size());
  if (d.dp.config.in_words > 1) cmd += fmt::format(" --in-words {},{}", d.dp.config.in_words, d.dp.config.format.width());
  if (o.stall_every > 0) cmd += fmt::format(" --sink-stalls {},{}", o.stall_every, o.stall_len);
  if (!o.vcd.empty()) cmd += " --vcd " + o.vcd;
  if (!cycle_log.empty()) {
    const hw::Config& c = d.dp.config;
    cmd += fmt::format(" --cycle-log {} --log-shape {},{},{},{}", cycle_log, c.num_units(), c.format.width(),
                       c.reg_addr_bits(), c.format.fixed ? 0 : 1);
  }
  if (o.quiet) cmd += " 2>/dev/null";
  if (run_cmd(cmd) != 0) throw Error(exe + ": simulation failed");
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
    r.out.push_back(words);
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

// --sink-stalls EVERY,LEN: the sink holds out_ready low for LEN of every EVERY cycles (back-pressure designs).
void parse_sink_stalls(Options& o, const hw::Design& d) {
  if (o.sink_stalls.empty()) return;
  char tail = 0;
  if (std::sscanf(o.sink_stalls.c_str(), "%d,%d%c", &o.stall_every, &o.stall_len, &tail) != 2 || o.stall_every < 1 ||
      o.stall_len < 0 || o.stall_len >= o.stall_every)
    throw Error(fmt::format("--sink-stalls: '{}' (EVERY,LEN with 0 <= LEN < EVERY)", o.sink_stalls));
  if (!d.dp.backpressure())
    throw Error("--sink-stalls: the design has no back-pressure (neaccel rtl --ii ... --backpressure)");
}

// The golden values of every state: the graph evaluated in the format (bit-exact) and in double.
struct Golden {
  std::vector<std::vector<std::uint32_t>> want;
  std::vector<std::vector<double>> ref;
};

Golden golden_of(const hw::Design& d, const std::vector<std::vector<double>>& states) {
  Golden g;
  for (const auto& s : states) {
    g.want.push_back(hw::golden_raw(*d.graph, d.spec.format, s));
    g.ref.push_back(hw::reference(*d.graph, s));
  }
  return g;
}

// The checks of `neaccel sim` on an engine's results (also what the fault campaign counts as "checks").
struct Checked {
  long mismatches = 0, cycle_errors = 0;
  double max_err = 0;
  nlohmann::json torques = nlohmann::json::array();
  long ii_min = 0, ii_max = 0, lat_min = 0, lat_max = 0;  // streaming: measured
};

// 1 where a set point starts a run after a configuration phase (parameter memory: hw::segments); the II is measured
// within a run between configurations.
std::vector<char> segment_starts(const hw::Design& d, const std::vector<std::vector<std::uint32_t>>& raw) {
  std::vector<char> start(raw.size(), 0);
  for (const auto& seg : hw::segments(d.dp, raw)) start[seg.first] = 1;
  return start;
}

Checked check_results(const hw::Design& d, const Golden& g, const EngineRun& r, int stall_every,
                      const std::vector<char>& segment_start) {
  const hw::DesignSpec& spec = d.spec;
  const std::size_t n_states = g.want.size();
  Checked c;
  long& mismatches = c.mismatches;
  long& cycle_errors = c.cycle_errors;
  double& max_err = c.max_err;
  // Streaming: results in order, II apart (measured), each set point's latency as claimed.
  const bool streaming = d.dp.streaming();
  long &ii_min = c.ii_min, &ii_max = c.ii_max, &lat_min = c.lat_min, &lat_max = c.lat_max;
  if (streaming) {
    const auto& st = r.stream;
    if (r.out.size() != n_states) throw Error(fmt::format("{} results for {} set points", r.out.size(), n_states));
    for (std::size_t k = 0; k < st.first_out.size() && k < st.first_in.size(); ++k) {
      const long lat = st.last_out[k] - st.first_in[k] + 1;
      lat_min = k == 0 ? lat : std::min(lat_min, lat);
      lat_max = k == 0 ? lat : std::max(lat_max, lat);
      // A stalling sink slows the stream down: then only order and values are checked, the figures are measured.
      const bool timed = stall_every == 0;
      cycle_errors += timed && lat != d.dp.latency();
      if (k == 0 || segment_start[k]) continue;
      const long ii = st.first_out[k] - st.first_out[k - 1];
      ii_min = ii_min == 0 ? ii : std::min(ii_min, ii);
      ii_max = ii_max == 0 ? ii : std::max(ii_max, ii);
      cycle_errors += timed && ii != d.dp.stream.ii;
    }
  }
  for (std::size_t k = 0; k < n_states; ++k) {
    const auto& want = g.want[k];
    const auto& ref = g.ref[k];
    double scale = 1;
    for (double t : ref) scale = std::max(scale, std::abs(t));
    bool same = r.out[k].size() == want.size();
    nlohmann::json tk = nlohmann::json::array();
    for (std::size_t i = 0; i < want.size() && i < r.out[k].size(); ++i) {
      same = same && hw::same(spec.format, r.out[k][i], want[i]);
      const double v = hw::decode(spec.format, r.out[k][i]);
      tk.push_back(v);
      max_err = std::max(max_err, std::abs(v - ref[i]) / scale);
    }
    mismatches += !same;
    if (!streaming) cycle_errors += r.cycles[k] != d.dp.cycles();
    c.torques.push_back(tk);
  }
  return c;
}

// --fault-campaign N: the RTL runs once, fault-free, writing its cycle log; N runs of the model's core, each with one
// flip, are compared with it and checked as `neaccel sim` checks results.
void run_campaign(const hw::Design& d, const std::string& dir, const std::vector<std::vector<double>>& states,
                  const std::vector<std::vector<std::uint32_t>>& raw, const Options& o) {
  if (o.engine != "cosim") throw Error("--fault-campaign: needs --engine cosim");
  if (o.fault_cycle >= 0) throw Error("--fault-campaign: not with --fault-cycle");
  const auto t0 = std::chrono::steady_clock::now();
  const std::string rtl_log = dir + "/campaign_rtl.log";
  Options q = o;
  q.quiet = true;
  const EngineRun rtl = run_verilator(d, dir, raw, q, rtl_log);
  cli::CampaignSetup s;
  {
    std::ifstream f(rtl_log);
    for (std::string l; std::getline(f, l);) s.rtl_log.push_back(l);
  }
  fs::remove(rtl_log);
  if (s.rtl_log.empty()) throw Error(rtl_log + ": empty cycle log");
  const Golden g = golden_of(d, states);
  s.dp = &d.dp;
  s.raw = &raw;
  s.golden = g.want;
  s.rtl_out = rtl.out;
  s.sim_checks = [&](const sysc::CoreRun& m) {
    EngineRun e;
    e.out = m.out;
    e.cycles = m.cycles;
    e.stream = m.stream;
    const Checked c = check_results(d, g, e, o.stall_every, segment_starts(d, raw));
    std::vector<std::string> fired;
    if (c.mismatches) fired.push_back("golden");
    if (c.cycle_errors) fired.push_back("cycle_count");
    return fired;
  };
  for (const auto& c : o.campaign_checks)
    if (c != "cycle_log" && c != "outputs_vs_rtl" && c != "golden" && c != "cycle_count")
      throw Error("--campaign-checks: unknown '" + c + "' (cycle_log, outputs_vs_rtl, golden, cycle_count)");
  s.checks = o.campaign_checks;
  s.flips = o.fault_campaign;
  s.seed = o.seed;
  s.stall_every = o.stall_every;
  s.stall_len = o.stall_len;
  s.progress = !o.quiet && isatty(2);
  cli::CampaignResult r = cli::run_fault_campaign(s);
  const hw::DesignSpec& spec = d.spec;
  r.json["design"] = {{"robot", spec.robot},
                      {"format", spec.format.name()},
                      {"arch", spec.arch == hw::Arch::Hardwired ? "hardwired" : "microcoded"},
                      {"mode", d.dp.streaming() ? (d.dp.backpressure() ? "streaming, back-pressure" : "streaming")
                                                : "latency"},
                      {"units", fmt::format("{} mul (latency {}) + {} add (latency {})", spec.mul, spec.lat_mul,
                                            spec.add, spec.lat_add)}};
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (o.json) {
    std::printf("%s\n", r.json.dump(1).c_str());
  } else {
    std::printf("fault campaign: %d flips on %s (%s, %s)\n", o.fault_campaign, spec.robot.c_str(),
                spec.format.name().c_str(), r.json["design"]["mode"].get<std::string>().c_str());
    std::printf("%-12s %8s %9s %7s %7s\n", "site", "flips", "detected", "masked", "silent");
    for (const auto& [k, t] : r.json["by_site"].items())
      std::printf("%-12s %8ld %9ld %7ld %7ld\n", k.c_str(), t["flips"].get<long>(), t["detected"].get<long>(),
                  t["masked"].get<long>(), t["silent"].get<long>());
  }
  if (!o.quiet)
    std::fprintf(stderr, "neaccel sim: fault campaign: %d flips, %ld detected, %ld masked, %ld silent (%.1f s)\n",
                 o.fault_campaign, r.detected, r.masked, r.silent, secs);
  if (r.silent > 0) throw neaccel::cli::ExitCode{3};
}

void run(Options o) {
  const std::string dir = fs::absolute(o.out).lexically_normal().string();
  const hw::DesignSpec spec = hw::read_manifest_spec(dir);
  if (!o.function.empty() && o.function != spec.function)  // the design computes one function: a check, not a choice
    throw Error(fmt::format("--function {}: the design in {} computes '{}' (neaccel rtl --function)", o.function, dir,
                            spec.function));
  const hw::Design d = hw::make_design(spec);
  check_hex_matches(d, dir);
  parse_sink_stalls(o, d);
  if (o.states_file.empty() == (o.random <= 0)) throw Error("give exactly one of --states FILE and --random N");
  std::vector<std::vector<double>> states;
  if (!o.states_file.empty()) {
    states = read_states(d, o.states_file);
  } else {
    std::mt19937_64 rng(o.seed);
    for (int k = 0; k < o.random; ++k) states.push_back(hw::random_state(d, rng));
  }
  if (!o.robot_change.empty()) {  // issue 16: the second half with another robot's parameters (same graph inputs)
    if (!d.dp.has_params())
      throw Error("--robot-change: the design has no parameter memory (neaccel rtl --flavour general --params load)");
    if (!o.states_file.empty()) throw Error("--robot-change: with --random only");
    const ref::Robot other = ref::load_robot(o.robot_change);
    // Same shape: joints of the same types and the same Coulomb friction pattern (the general graph's structure).
    bool same_shape = other.dof() == d.robot.dof();
    for (int i = 0; same_shape && i < other.dof(); ++i)
      same_shape = other.links[i].joint == d.robot.links[i].joint &&
                   (other.links[i].Fc != 0) == (d.robot.links[i].Fc != 0);
    if (!same_shape)
      throw Error(fmt::format("--robot-change: '{}' is not of the design's shape (joint count, joint types or Coulomb "
                              "friction differ from '{}')", o.robot_change, d.robot.name));
    std::mt19937_64 rng(o.seed + 1);
    for (std::size_t k = states.size() / 2; k < states.size(); ++k) {
      const int n = d.robot.dof();
      Eigen::VectorXd q(n), qd(n), qdd(n);
      for (int i = 0; i < n; ++i) {
        q[i] = -M_PI + 2 * M_PI * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
        qd[i] = -1 + 2 * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
        qdd[i] = -1 + 2 * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
      }
      try {
        states[k] = dfg::robot_input_vector(*d.graph, other, q, qd, qdd);
      } catch (const Error& e) {
        throw Error(fmt::format("--robot-change: '{}' is not of the design's shape ({})", o.robot_change, e.what()));
      }
    }
  }
  std::vector<std::vector<std::uint32_t>> raw;
  for (const auto& s : states) raw.push_back(hw::encode(spec.format, s));
  if (o.fault_campaign > 0) return run_campaign(d, dir, states, raw, o);
  const long configurations = d.dp.has_params() ? static_cast<long>(hw::segments(d.dp, raw).size()) : 0;
  EngineRun r;
  if (o.engine == "systemc") {
    auto m = sysc::run_model(d.dp, raw, {nullptr, model_fault(o), o.stall_every, o.stall_len});
    r.out = m.out;
    r.cycles = m.cycles;
    r.stream = m.stream;
  } else if (o.engine == "verilator") {
    r = run_verilator(d, dir, raw, o);
  } else if (o.engine == "cosim") {
    r = run_cosim(d, dir, raw, o);
  } else {
    throw Error(fmt::format("--engine: unknown '{}' (systemc, verilator, cosim)", o.engine));
  }
  const Golden golden = golden_of(d, states);
  const Checked checked = check_results(d, golden, r, o.stall_every, segment_starts(d, raw));
  const long mismatches = checked.mismatches, cycle_errors = checked.cycle_errors;
  const double max_err = checked.max_err;
  const nlohmann::json& torques = checked.torques;
  const bool streaming = d.dp.streaming();
  const long ii_min = checked.ii_min, ii_max = checked.ii_max, lat_min = checked.lat_min, lat_max = checked.lat_max;
  if (o.json) {
    nlohmann::json j{{"engine", o.engine},
                     {"states", states.size()},
                     {"mode", streaming ? "streaming" : "latency"},
                     {"cycles_per_evaluation", streaming ? nlohmann::json(nullptr) : nlohmann::json(d.dp.cycles())},
                     {"cycles_per_set_point", d.dp.cycles_per_set_point()},
                     {"latency", d.dp.latency()},
                     {"schedule_length", d.dp.length},
                     {"io_overhead", d.dp.io_overhead()},
                     {"cycle_count_errors", cycle_errors},
                     {"mismatches", mismatches},
                     {"cosim_cycle_mismatches", r.cycle_mismatches},
                     {"cosim_compared_cycles", r.compared_cycles},
                     {"cosim_kind", r.cosim_kind},
                     {"max_rel_error", max_err},
                     {"torques", torques}};
    if (d.dp.has_params()) {  // issue 16: parameters written once per configuration phase
      j["param_words"] = d.dp.param_names.size();
      j["config_cycles"] = d.dp.config_cycles();
      j["configurations"] = configurations;
    }
    if (streaming)
      j["measured"] = {{"ii_min", ii_min}, {"ii_max", ii_max}, {"latency_min", lat_min}, {"latency_max", lat_max},
                       {"set_points", r.out.size()}};
    std::printf("%s\n", j.dump(1).c_str());
  } else {
    const std::size_t show = std::min<std::size_t>(states.size(), 5);
    for (std::size_t k = 0; k < show; ++k) {
      std::printf("state %zu: tau =", k);
      for (double t : torques[k]) std::printf(" %.9g", t);
      std::printf("\n");
    }
    if (show < states.size()) std::printf("... (%zu states; --json prints all)\n", states.size());
    if (streaming) {
      std::printf("engine %s: %zu set points streamed; throughput %d cycles per set point (II; measured %ld..%ld), "
                  "latency %d cycles (measured %ld..%ld), cycle-count errors %ld\n",
                  o.engine.c_str(), states.size(), d.dp.cycles_per_set_point(), ii_min, ii_max, d.dp.latency(), lat_min,
                  lat_max, cycle_errors);
    } else {
      std::printf("engine %s: %zu states, %d cycles each (length %d + I/O %d), cycle-count errors %ld\n",
                  o.engine.c_str(), states.size(), d.dp.cycles(), d.dp.length, d.dp.io_overhead(), cycle_errors);
    }
    if (d.dp.has_params())
      std::printf("parameter memory: %zu words written in %ld configuration phase%s of %d cycles each\n",
                  d.dp.param_names.size(), configurations, configurations == 1 ? "" : "s", d.dp.config_cycles());
    std::printf("mismatches vs the graph in %s: %ld; max relative error vs double: %.3g\n",
                spec.format.name().c_str(), mismatches, max_err);
    if (r.cycle_mismatches >= 0)
      std::printf("co-simulation (%s): %ld of %ld cycles where RTL and SystemC model differ%s%s\n",
                  r.cosim_kind.c_str(), r.cycle_mismatches, r.compared_cycles, r.messages.empty() ? "" : "; first: ",
                  r.messages.empty() ? "" : r.messages[0].c_str());
  }
  if (mismatches || cycle_errors || r.cycle_mismatches > 0) throw neaccel::cli::ExitCode{3};
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("sim", "simulate a datapath written by `neaccel rtl` and check it");
  cmd->add_option("--out", opt->out, "directory written by neaccel rtl");
  cmd->add_option("--engine", opt->engine, "systemc, verilator or cosim");
  cmd->add_option("--states", opt->states_file, "file: per line q1..qn qd1..qdn qdd1..qddn (tau1..taun for fd)");
  cmd->add_option("--function", opt->function, "check that the design computes this function (rtl --function)");
  cmd->add_option("--random", opt->random, "N random states (q in [-pi, pi], qd, qdd in [-1, 1])");
  cmd->add_option("--seed", opt->seed, "seed of --random");
  cmd->add_option("--vcd", opt->vcd, "verilator engine: write a VCD trace to this file");
  cmd->add_option("--sink-stalls", opt->sink_stalls,
                  "EVERY,LEN: the sink holds out_ready low LEN of every EVERY cycles (--backpressure designs)");
  cmd->add_option("--robot-change", opt->robot_change,
                  "ROBOT: the second half of the --random set points use this robot's parameters (a design with "
                  "parameters loaded once: reset, configure again, continue)");
  cmd->add_flag("--quiet", opt->quiet, "no progress messages");
  cmd->add_option("--fault-cycle", opt->fault_cycle, "")->group("");  // hidden: tests of the co-simulation checks
  cmd->add_option("--rtl-fault-word", opt->rtl_fault_word, "")->group("");  // hidden: likewise, on the RTL side
  cmd->add_option("--fault-campaign", opt->fault_campaign,
                  "cosim: N runs with one random single-bit flip each in the model; counts detected/masked/silent")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--campaign-checks", opt->campaign_checks, "")->delimiter(',')->group("");  // hidden: tests
  cmd->add_flag("--json", opt->json, "machine-readable output");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace

NEACCEL_COMMAND(sim, 61, setup)
