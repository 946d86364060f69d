// `neaccel schedule`: robot or graph + units -> verified schedule (JSON), Gantt chart (SVG), utilisation table.
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/io.hpp"
#include "neaccel/sched/source.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

namespace {

using namespace neaccel;
using namespace neaccel::sched;

struct Options {
  std::string robot, graph, flavour = "general", algo = "list", priority = "height", out = "out", depth = "on";
  std::string function = "id";  // dfg/functions.hpp; a graph with divisions gets a "div" class (--div, --lat-div)
  int div = 1, lat_div = 8;
  bool div_pipelined = false;
  int mul = 1, add = 1, lat_mul = 1, lat_add = 1, fma = 0, lat_fma = 0, ii = 0, restarts = 16, max_registers = 0, read_ports = 0,
      write_ports = 0;
  double depth_budget = 0.10;
  bool mul_np = false, add_np = false, json = false, no_exact = false, no_deadline = false;
  unsigned long long seed = 1;
  long node_limit = IlpOptions{}.max_nodes, simplex_limit = IlpOptions{}.max_simplex_iterations, max_columns = 0;
  bool node_limit_set = false;
  std::vector<std::string> given;  // the options on the command line (validate: those another option makes unused)
  double time_limit = 60;  // seconds, ilp and modulo (0 = none)
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  if (!f) throw Error(fmt::format("{}: cannot write", path.string()));
}

// Progress of the ILP and modulo searches on stderr: on a terminal one line rewritten about once a second (nothing
// when piped); when a search ends at --time-limit with a schedule, a note with its best length and bound (without
// one the command fails with its own error line).
ProgressFn progress_printer(double limit) {
  const bool tty = isatty(STDERR_FILENO) != 0;
  auto shown = std::make_shared<bool>(false);
  return [tty, shown, limit](const SearchProgress& p) {
    if (!p.done) {
      if (!tty) return;
      std::string line = fmt::format("{}: {:.0f} s, {} nodes", p.phase, p.elapsed_s, p.nodes);
      if (p.best > 0) line += fmt::format(", best {}", p.best);
      if (p.bound > 0) line += fmt::format(", bound {}", p.bound);
      std::fprintf(stderr, "\r%s\033[K", line.c_str());
      *shown = true;
      return;
    }
    if (*shown) std::fprintf(stderr, "\r\033[K");
    *shown = false;
    if (p.time_limit && p.best > 0)
      std::fprintf(stderr, "neaccel: note: %s: time limit %g s reached after %ld nodes (%.1f s); best %d cycles, lower "
                   "bound %d%s\n", p.phase.c_str(), limit, p.nodes, p.elapsed_s, p.best, p.bound,
                   p.best <= p.bound ? " (optimal)" : " (not proven optimal)");
  };
}

Schedule solve(const Problem& p, const Options& o) {
  if (o.algo == "list") {
    if (o.ii != 0) throw Error("--ii: only with --algo modulo");
    ListOptions lo;
    lo.priority = parse_priority(o.priority);
    lo.restarts = o.restarts;
    lo.seed = o.seed;
    return list_schedule(p, lo);
  }
  if (o.algo == "ilp") {
    if (o.ii != 0) throw Error("--ii: only with --algo modulo");
    IlpOptions io;
    io.max_nodes = o.node_limit;
    if (o.max_columns > 0) io.max_columns = o.max_columns;
    io.max_simplex_iterations = o.simplex_limit;
    io.time_limit_s = o.time_limit;
    io.progress = progress_printer(o.time_limit);
    return ilp_schedule(p, io);
  }
  if (o.algo == "modulo") {
    ModuloOptions mo;
    mo.exact = !o.no_exact;
    if (o.node_limit_set) mo.ilp.max_nodes = o.node_limit;
    mo.ilp.max_simplex_iterations = o.simplex_limit;
    if (o.max_columns > 0) mo.ilp.max_columns = o.max_columns;
    mo.deadline = !o.no_deadline;
    mo.time_limit_s = o.time_limit;
    mo.progress = progress_printer(o.time_limit);
    if (p.max_registers > 0) return modulo_register_schedule(p, mo);  // II upward until max_live fits
    return modulo_schedule(p, mo);
  }
  throw Error(fmt::format("--algo: unknown '{}' (list, ilp, modulo)", o.algo));
}

// The checks of options against each other and the parses of named values, before any work (usage errors, exit 2;
// the ranges of single values are the validators' of setup()).
void validate(const Options& o) {
  if (o.robot.empty() == o.graph.empty()) throw cli::UsageError("give exactly one of --robot and --graph");
  if (o.node_limit < 0) throw cli::UsageError(fmt::format("--node-limit: {} (need >= 0)", o.node_limit));
  if (o.algo != "modulo" && o.ii != 0) throw cli::UsageError("--ii: only with --algo modulo");
  const dfg::Function fn = cli::as_usage([&] { return dfg::function_from_name(o.function); });
  if (fn != dfg::Function::Id && o.robot.empty()) throw cli::UsageError("--function: needs --robot");
  cli::as_usage([&] { return dfg::parse_depth_mode(o.depth); });
  cli::as_usage([&] { return parse_priority(o.priority); });
  if (o.fma == 0 && o.lat_fma != 0) throw cli::UsageError("--lat-fma: only with --fma N (N >= 1)");
  if (o.fma > 0 && o.lat_fma < 1) throw cli::UsageError("--fma: needs --lat-fma >= 1");
  // Options the chosen algorithm does not use would be ignored without a word: refused.
  const auto given = [&](const char* name) { return std::find(o.given.begin(), o.given.end(), name) != o.given.end(); };
  for (const char* name : {"--priority", "--restarts", "--seed"})
    if (o.algo != "list" && given(name)) throw cli::UsageError(fmt::format("{}: only with --algo list", name));
  for (const char* name : {"--no-exact", "--no-deadline"})
    if (o.algo != "modulo" && given(name)) throw cli::UsageError(fmt::format("{}: only with --algo modulo", name));
  for (const char* name : {"--node-limit", "--max-columns", "--simplex-limit"})
    if (o.algo == "list" && given(name)) throw cli::UsageError(fmt::format("{}: only with --algo ilp or modulo", name));
}

// The largest II worth asking for: one operation at a time, each after the previous result (the modulo
// scheduler's own upper end, sched/src/modulo.cpp); beyond it nothing overlaps and no schedule is searched.
long sequential_ii(const Problem& p) {
  long seq = 1, seq_lat = 1;
  for (const auto& n : p.graph->nodes) {
    const int c = class_of(p, n.op);
    if (!dfg::is_operation(n.op) || c < 0) continue;
    seq += p.classes[c].occupancy;
    seq_lat += p.classes[c].latency;
  }
  return std::max(seq, seq_lat);
}

void run(const Options& o) {
  validate(o);
  const dfg::Function fn = dfg::function_from_name(o.function);
  dfg::DepthSetting depth;
  const dfg::DepthMode mode = dfg::parse_depth_mode(o.depth);
  depth.on = mode.on && !o.robot.empty();  // graph files and benchmarks run as given
  depth.lookahead = fn == dfg::Function::Id ? mode.lookahead : 0;  // lookahead: the inverse dynamics' recursion
  // FMA units: multiply-add fusion after the re-association (on robot graphs, and on graph files too).
  depth.lat = {o.lat_mul, o.lat_add, o.fma > 0 ? o.lat_fma : 0};
  depth.budget = o.depth_budget;
  dfg::Graph traced;
  if (o.robot.empty()) {
    // A built-in graph's name is an option value (bench:random:OPS:SEED has a documented range): a usage error.
    traced = o.graph.rfind("bench:", 0) == 0 ? cli::as_usage([&] { return load_graph(o.graph); }) : load_graph(o.graph);
  } else if (fn == dfg::Function::Id) {
    traced = dfg::robot_graph(o.robot, o.flavour);
  } else {
    dfg::TraceOptions topt;
    topt.keep_zero_pattern = o.flavour == "general-dh";
    traced = dfg::customise(dfg::trace_function(ref::load_robot(o.robot), fn, dfg::Form::ModifiedNE,
                                                o.flavour == "custom" ? dfg::Flavour::Custom : dfg::Flavour::General, topt));
  }
  std::vector<UnitClass> classes = default_classes(o.mul, o.add, o.lat_mul, o.lat_add, !o.mul_np, !o.add_np);
  if (o.fma > 0) classes.push_back(UnitClass{"fma", {dfg::Op::Fma}, o.fma, o.lat_fma, o.mul_np ? o.lat_fma : 1});
  if (dfg::count_ops(traced).of(dfg::Op::Div) > 0) {
    if (o.div < 1 || o.lat_div < 1) throw Error("--div, --lat-div: need >= 1");
    classes.push_back(UnitClass{"div", {dfg::Op::Div}, o.div, o.lat_div, o.div_pipelined ? 1 : o.lat_div});
  }
  const dfg::Graph g = depth.on && depth.lookahead != 0 ? robot_depth_graph(o.robot, o.flavour, depth, classes)
                                                         : apply_depth(traced, depth, classes);
  Problem p;
  p.graph = &g;
  p.classes = classes;
  p.ii = o.algo == "modulo" ? o.ii : 0;
  p.max_registers = o.max_registers;
  p.read_ports = o.read_ports;
  p.write_ports = o.write_ports;
  check(p);
  if (p.ii > 0 && p.ii > sequential_ii(p))
    throw cli::UsageError(fmt::format("--ii: {} is above {}, the largest II this graph can use (one operation at a "
                                      "time); give 0 (from ResMII) or a value in 1..{}",
                                      p.ii, sequential_ii(p), sequential_ii(p)));
  Schedule s = solve(p, o);
  p.ii = s.ii;
  std::string reg_note;
  try {
    allocate_registers(p, s);
  } catch (const Error& e) {
    if (s.ii == 0) throw;
    reg_note = e.what();  // modulo: a lifetime longer than II (no modulo variable expansion)
    s.reg.clear();
    s.num_registers = 0;
  }
  verify_or_throw(p, s);  // nothing unverified is written

  const std::filesystem::path dir(o.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("--out {}: cannot create ({})", o.out, ec.message()));
  const std::string name = o.robot.empty() ? o.graph
                           : fn == dfg::Function::Id ? fmt::format("{} ({})", o.robot, o.flavour)
                                                     : fmt::format("{} {} ({})", o.robot, o.function, o.flavour);
  const auto use = utilisation(p, s);
  // Flat: the bound on the length. Modulo: the bound on the single-evaluation length at this II; the II's
  // own bound (ResMII) is ii_lower_bound.
  const int lb = s.ii > 0 ? std::max(s.latency_bound, modulo_latency_bound(p)) : std::max(s.lower_bound, lower_bound(p));
  const int value = s.length;
  const double gap = lb > 0 ? 100.0 * (value - lb) / lb : 0.0;
  const int mii = s.ii > 0 ? std::max(res_mii(p), port_mii(p)) : 0;  // register-file ports bound the II too
  const int live = max_live(p, s);
  write_file(dir / "schedule.json", to_json(p, s).dump(1) + "\n");
  write_file(dir / "gantt.svg", gantt_svg(p, s, fmt::format("{}: {} cycles, {}", name, s.length, s.algorithm)));
  write_file(dir / "utilisation.txt", utilisation_table(use));
  const int nops = dfg::count_ops(g).operations(), nops_before = dfg::count_ops(traced).operations();
  const int cp_before = dfg::critical_path(traced, depth.lat);
  if (o.json) {
    nlohmann::json u = nlohmann::json::array();
    for (const auto& c : use)
      u.push_back({{"class", c.name}, {"units", c.count}, {"ops", c.ops}, {"busy", c.busy}, {"capacity", c.capacity},
                   {"utilisation", c.utilisation}});
    nlohmann::json j = {{"graph", name}, {"ops", nops}, {"depth", o.depth},
                        {"before_depth", {{"ops", nops_before}, {"critical_path", cp_before}}}, {"algorithm", s.algorithm}, {"length", s.length},
                        {"ii", s.ii}, {"stages", s.stages}, {"lower_bound", lb}, {"gap_percent", gap},
                        {"proven_optimal", value <= lb}, {"ii_lower_bound", mii}, {"ii_optimal", s.ii > 0 && s.ii == mii},
                        {"critical_path", critical_path(p)},
                        {"registers", s.num_registers}, {"max_live", live}, {"register_note", reg_note},
                        {"utilisation", u}, {"verified", true},
                        {"files", {(dir / "schedule.json").string(), (dir / "gantt.svg").string(),
                                   (dir / "utilisation.txt").string()}}};
    std::printf("%s\n", j.dump(1).c_str());
    return;
  }
  std::printf("graph: %s, %d ops (before the depth pass: %d ops, critical path %d; --depth %s)\n", name.c_str(), nops,
              nops_before, cp_before, o.depth.c_str());
  for (const auto& c : p.classes)
    std::printf("units: %d x %s, latency %d, %s\n", c.count, c.name.c_str(), c.latency,
                c.occupancy == 1 ? "pipelined" : "not pipelined");
  if (s.ii > 0)
    std::printf("%s: II %d (ResMII %d%s), single-evaluation latency %d cycles (lower bound %d, gap %.1f%%%s), %d "
                "stages\n", s.algorithm.c_str(), s.ii, mii, s.ii == mii ? ", optimal" : "", s.length, lb, gap,
                value <= lb ? ", proven optimal" : "", s.stages);
  else
    std::printf("%s: %d cycles, lower bound %d (critical path %d), gap %.1f%%%s\n", s.algorithm.c_str(), s.length, lb,
                critical_path(p), gap, value == lb ? ", optimal" : "");
  if (reg_note.empty()) std::printf("registers: %d (max live %d)\n", s.num_registers, live);
  else std::printf("registers: not allocated (%s); max live %d\n", reg_note.c_str(), live);
  std::printf("%s", utilisation_table(use).c_str());
  std::printf("verified; wrote %s, %s, %s\n", (dir / "schedule.json").c_str(), (dir / "gantt.svg").c_str(),
              (dir / "utilisation.txt").c_str());
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("schedule", "schedule a robot's Newton-Euler graph (or a graph file) on units");
  cmd->add_option("--robot", o->robot, "robot: built-in name, YAML/URDF file, random:N:SEED");
  cmd->add_option("--graph", o->graph, "graph JSON file (or schedule JSON), or bench:hal|ewf|arf|dct8|fir16|fir16chain|random:OPS:SEED");
  cmd->add_option("--flavour", o->flavour, "general (parameters are inputs), general-dh (inputs, DH zero pattern kept) or custom (folded in)")->check(cli::one_of({"general", "general-dh", "custom"}))->capture_default_str();
  cmd->add_option("--function", o->function, "with --robot: id | fd | fd-khalil | fd-strobe | mass | dtau")
      ->capture_default_str();
  cmd->add_option("--div", o->div, "dividers (used when the graph divides)")->check(cli::int_in(1, cli::kMaxUnits))->capture_default_str();
  cmd->add_option("--lat-div", o->lat_div, "divider latency (cycles)")->check(cli::int_in(1, cli::kMaxLatency))->capture_default_str();
  cmd->add_flag("--div-pipelined", o->div_pipelined, "dividers accept an op every cycle (default: busy for their latency)");
  cmd->add_option("--depth", o->depth, "depth-reducing re-association for these latencies: on | off | lookahead[:K] (the recursion by lookahead over K links as a candidate shape, K = 2 and 3 when not given)")->capture_default_str();
  cmd->add_option("--depth-budget", o->depth_budget, "depth pass: at most this fraction more operations (0 = none more)")->check(cli::real_in(0, 10))->capture_default_str();
  cmd->add_option("--fma", o->fma, "fused multiply-add units (0 = none); mul + add pairs are fused where that is no slower")->check(cli::int_in(0, cli::kMaxUnits))->capture_default_str();
  cmd->add_option("--lat-fma", o->lat_fma, "FMA latency (cycles), with --fma")->check(cli::int_in(1, cli::kMaxLatency));
  cmd->add_option("--mul", o->mul, "multipliers")->check(cli::int_in(1, cli::kMaxUnits))->capture_default_str();
  cmd->add_option("--add", o->add, "adders (add, sub, neg, cmp)")->check(cli::int_in(1, cli::kMaxUnits))->capture_default_str();
  cmd->add_option("--lat-mul", o->lat_mul, "multiplier latency (cycles)")->check(cli::int_in(1, cli::kMaxLatency))->capture_default_str();
  cmd->add_option("--lat-add", o->lat_add, "adder latency (cycles)")->check(cli::int_in(1, cli::kMaxLatency))->capture_default_str();
  cmd->add_flag("--mul-nonpipelined", o->mul_np, "multipliers busy for their whole latency");
  cmd->add_flag("--add-nonpipelined", o->add_np, "adders busy for their whole latency");
  cmd->add_option("--algo", o->algo, "list | ilp | modulo")->check(cli::one_of({"list", "ilp", "modulo"}))->capture_default_str();
  cmd->add_option("--priority", o->priority, "list priority: height | mobility | provenance")->check(cli::one_of({"height", "mobility", "provenance"}))->capture_default_str();
  cmd->add_option("--restarts", o->restarts, "list: randomized restarts after backward-forward passes (0 = none: the deterministic passes only)")->check(cli::int_in(0, cli::kMaxRestarts))->capture_default_str();
  cmd->add_option("--seed", o->seed, "list: seed of the restarts")->capture_default_str();
  cmd->add_option("--ii", o->ii, "modulo: smallest initiation interval to try (0 = ResMII)")->check(cli::int_in(0, cli::kMaxIi))->capture_default_str();
  cmd->add_option_function<long>("--node-limit", [o](long v) { o->node_limit = v; o->node_limit_set = true; },
                                 "ilp and modulo: branch-and-bound node limit (deterministic; 0 = none; default 2000 "
                                 "for ilp, 300 for modulo)")
      ->check(cli::int_in(0, 1000000000000));
  cmd->add_option("--max-columns", o->max_columns, "ilp and modulo: largest model built (0 = default: 400000 ilp, 8000 modulo)")->check(cli::int_in(0, 1000000000));
  cmd->add_option("--simplex-limit", o->simplex_limit, "ilp and modulo: simplex iterations of the root LP (0 = none)")->check(cli::int_in(0, 1000000000000))->capture_default_str();
  cmd->add_option("--time-limit", o->time_limit, "ilp and modulo: wall-clock limit in seconds (0 = none); at the limit "
                  "the best schedule found is written, not proven optimal (a note on stderr says so); the default keeps "
                  "an interactive run near a minute; results differ from a run without it only where it is reached")
      ->check(cli::real_in(0, 1e6))->capture_default_str();
  cmd->add_flag("--no-exact", o->no_exact, "modulo: heuristics only (no exact modulo ILP)");
  cmd->add_flag("--no-deadline", o->no_deadline, "modulo: without the deadline scheduler (for comparisons)");
  cmd->add_option("--max-registers", o->max_registers, "register limit: list scheduling honours it, verify checks it (0 = none)")->check(cli::int_in(0, cli::kMaxRegisters));
  cmd->add_option("--read-ports", o->read_ports, "register-file read ports per cycle (distinct register operands read by the ops issued in a cycle, or congruence class): list, ILP and modulo scheduling honour them (0 = none)")->check(cli::int_in(0, cli::kMaxRegisters));
  cmd->add_option("--write-ports", o->write_ports, "register-file write ports per cycle (results written in a cycle, or congruence class): list, ILP and modulo scheduling honour them (0 = none)")->check(cli::int_in(0, cli::kMaxRegisters));
  cmd->add_option("--out", o->out, "output directory")->capture_default_str();
  cmd->add_flag("--json", o->json, "machine-readable summary on stdout");
  cmd->callback([o, cmd] {
    for (const CLI::Option* opt : cmd->get_options())
      if (opt->count() > 0) o->given.push_back(opt->get_name());
    run(*o);
  });
}

}  // namespace

NEACCEL_COMMAND(schedule, 40, setup)
