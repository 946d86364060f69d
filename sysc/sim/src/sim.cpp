#include "neaccel/sim/sim.hpp"

#include "neaccel/dfg/trace.hpp"
#include "neaccel/hw/artifacts.hpp"
#include "neaccel/hw/number.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace neaccel::sim {

namespace fs = std::filesystem;

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

namespace {

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

// --robot-change ROBOT: the second half of the random set points with another robot's parameters (same graph
// inputs), for a design with a parameter memory (reset, configure again, continue).
void change_robot(const hw::Design& d, const Options& o, std::vector<std::vector<double>>& states) {
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

// --fault-campaign N: the RTL runs once, fault-free, writing its cycle log; N runs of the model's core, each with one
// flip, are compared with it and checked as `neaccel sim` checks results.
Result run_campaign(const hw::Design& d, const std::string& dir, const std::vector<std::vector<double>>& states,
                    const Words& raw, const Options& o) {
  if (o.engine != "cosim") throw Error("--fault-campaign: needs --engine cosim");
  if (o.fault_cycle >= 0) throw Error("--fault-campaign: not with --fault-cycle");
  const auto t0 = std::chrono::steady_clock::now();
  const std::string rtl_log = dir + "/campaign_rtl.log";
  Options q = o;
  q.quiet = true;
  const EngineRun rtl = run_verilator(d, dir, raw, q, rtl_log);
  CampaignSetup s;
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
  Result res;
  res.campaign = true;
  res.faults = run_fault_campaign(s);
  CampaignResult& r = res.faults;
  const hw::DesignSpec& spec = d.spec;
  r.json["design"] = {{"robot", spec.robot},
                      {"format", spec.format.name()},
                      {"arch", spec.arch == hw::Arch::Hardwired ? "hardwired" : "microcoded"},
                      {"mode", d.dp.streaming() ? (d.dp.backpressure() ? "streaming, back-pressure" : "streaming")
                                                : "latency"},
                      {"units", fmt::format("{} mul (latency {}) + {} add (latency {})", spec.mul, spec.lat_mul,
                                            spec.add, spec.lat_add)}};
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  res.json = r.json;
  res.robot = spec.robot;
  res.format = spec.format.name();
  res.mode = r.json["design"]["mode"].get<std::string>();
  res.flips = o.fault_campaign;
  res.passed = r.silent == 0;
  return res;
}

}  // namespace

Result run(Options o) {
  const std::string dir = fs::absolute(o.out).lexically_normal().string();
  // The design directory checks itself before anything runs: the manifest's fields (types, ranges), every file it
  // lists (size, content hash), then the manifest and the files against the design rebuilt from its spec, which is
  // what every engine runs (hw::check_design_files, hw::check_design).
  const std::string manifest_path = dir + "/manifest.json";
  const nlohmann::json manifest = hw::read_manifest(dir);
  const hw::DesignSpec spec = hw::manifest_spec(manifest, manifest_path);
  hw::check_design_files(dir, manifest);
  if (!o.function.empty() && o.function != spec.function)  // the design computes one function: a check, not a choice
    throw Error(fmt::format("--function {}: the design in {} computes '{}' (neaccel rtl --function)", o.function, dir,
                            spec.function));
  hw::Design d;
  try {
    d = hw::make_design(spec);
  } catch (const Error& e) {
    throw Error(manifest_path + ": spec: no design builds from it: " + e.what());
  }
  hw::check_design(d, dir, manifest, rtl_dir());
  parse_sink_stalls(o, d);
  if (o.states_file.empty() == (o.random <= 0)) throw Error("give exactly one of --states FILE and --random N");
  if (!o.vcd.empty() && o.engine == "systemc")
    throw Error("--vcd: a trace is written by the verilator and cosim engines only (--engine verilator)");
  std::vector<std::vector<double>> states;
  if (!o.states_file.empty()) {
    states = read_states(d, o.states_file);
  } else {
    std::mt19937_64 rng(o.seed);
    for (int k = 0; k < o.random; ++k) states.push_back(hw::random_state(d, rng));
  }
  if (!o.robot_change.empty()) change_robot(d, o, states);
  Words raw;
  for (const auto& s : states) raw.push_back(hw::encode(spec.format, s));
  if (o.fault_campaign > 0) return run_campaign(d, dir, states, raw, o);
  const long configurations = d.dp.has_params() ? static_cast<long>(hw::segments(d.dp, raw).size()) : 0;
  EngineRun r;
  if (o.engine == "systemc") {
    r = run_systemc(d, raw, o);
  } else if (o.engine == "verilator") {
    r = run_verilator(d, dir, raw, o);
  } else if (o.engine == "cosim") {
    r = run_cosim(d, dir, raw, o);
  } else {
    throw Error(fmt::format("--engine: unknown '{}' (systemc, verilator, cosim)", o.engine));
  }
  const Golden golden = golden_of(d, states);
  Result res;
  res.checked = check_results(d, golden, r, o.stall_every, segment_starts(d, raw));
  const Checked& c = res.checked;
  const bool streaming = d.dp.streaming();
  res.robot = spec.robot;
  res.format = spec.format.name();
  res.engine = o.engine;
  res.states = states.size();
  res.streaming = streaming;
  res.cycles = d.dp.cycles();
  res.length = d.dp.length;
  res.io_overhead = d.dp.io_overhead();
  res.cycles_per_set_point = d.dp.cycles_per_set_point();
  res.latency = d.dp.latency();
  res.cycle_mismatches = r.cycle_mismatches;
  res.compared_cycles = r.compared_cycles;
  res.cosim_kind = r.cosim_kind;
  res.messages = r.messages;
  res.has_params = d.dp.has_params();
  res.param_words = d.dp.param_names.size();
  res.configurations = configurations;
  res.config_cycles = d.dp.config_cycles();
  res.passed = !(c.mismatches || c.cycle_errors || r.cycle_mismatches > 0);
  res.json = {{"engine", o.engine},
              {"states", states.size()},
              {"mode", streaming ? "streaming" : "latency"},
              {"cycles_per_evaluation", streaming ? nlohmann::json(nullptr) : nlohmann::json(d.dp.cycles())},
              {"cycles_per_set_point", d.dp.cycles_per_set_point()},
              {"latency", d.dp.latency()},
              {"schedule_length", d.dp.length},
              {"io_overhead", d.dp.io_overhead()},
              {"cycle_count_errors", c.cycle_errors},
              {"mismatches", c.mismatches},
              {"cosim_cycle_mismatches", r.cycle_mismatches},
              {"cosim_compared_cycles", r.compared_cycles},
              {"cosim_kind", r.cosim_kind},
              {"max_rel_error", c.max_err},
              {"torques", c.torques}};
  if (d.dp.has_params()) {  // the parameter memory: written once per configuration phase
    res.json["param_words"] = d.dp.param_names.size();
    res.json["config_cycles"] = d.dp.config_cycles();
    res.json["configurations"] = configurations;
  }
  if (streaming)
    res.json["measured"] = {{"ii_min", c.ii_min}, {"ii_max", c.ii_max}, {"latency_min", c.lat_min},
                            {"latency_max", c.lat_max}, {"set_points", r.out.size()}};
  return res;
}

}  // namespace neaccel::sim
