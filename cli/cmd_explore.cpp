// `neaccel explore`: sweep units, latencies and pipelining over robots and graph flavours (parallel, resumable,
// shardable); CSV + JSON, Pareto front, gap distribution, gnuplot SVG. The final explore.csv/json and pareto.csv
// carry each point's estimated area, clock period, ns per evaluation and set points per second (cost/timing.hpp).
// The run is cost's (explore_run.hpp: run_explore, on sched's grid and resumed sweep); here the options are parsed,
// the progress bar drawn and the result printed.
#include "command.hpp"
#include "validate.hpp"
#include "value_lists.hpp"

#include "neaccel/cost/explore_run.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"

#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace neaccel;

struct Options {
  std::string robots = "puma560", ns, flavours = "general,custom", mul = "1-16", add = "1-16", lat_mul = "1-6",
              lat_add = "1-4", pipelined = "1,0", out = "out/explore", shard, depth = "on", function = "id",
              max_registers = "0", read_ports = "0", write_ports = "0", fma = "0", lat_fma, div, lat_div = "8";
  std::vector<std::string> merge;
  int jobs = 0, restarts = 4, ilp_worst = 0;
  long ilp_nodes = 20000;
  bool json = false, no_modulo = false, modulo_np = false, no_plot = false, table86 = false, div_pipelined = false;
  std::string target = "ecp5-85f";  // the device of the cost model
  std::string arch = "hardwired";   // the datapath architecture costed
  long budget_lut = 0, budget_dsp = 0;  // --budget-lut, --budget-dsp (0 = the whole device)
  std::string in_words;  // input port widths (words per cycle) for the streaming I/O bound, e.g. 1,2,4
};

// An integer list option (cli::parse_ints): its values; a text that does not parse is a usage error (exit 2), raised
// here, before any work, in the order of the options below.
cost::IntList ints(const std::string& text, const char* option, int lo) {
  cost::IntList l;
  l.given = !text.empty();
  if (l.given) l.parsed = cli::as_usage([&] { return cli::parse_ints(text, option, lo); });
  return l;
}

// --shard k/N with 1 <= k <= N, in plain decimal.
void check_shard(const std::string& shard) {
  const std::size_t slash = shard.find('/');
  const auto number = [](const std::string& t) {
    return !t.empty() && t.size() <= 9 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string k = shard.substr(0, slash), n = slash == std::string::npos ? "" : shard.substr(slash + 1);
  if (!number(k) || !number(n) || std::stol(k) < 1 || std::stol(k) > std::stol(n))
    throw cli::UsageError(fmt::format("--shard: '{}' (need k/N with 1 <= k <= N)", shard));
}

cost::ExploreRequest request(const Options& o) {
  const dfg::DepthMode mode = cli::as_usage([&] { return dfg::parse_depth_mode(o.depth); });
  cli::as_usage([&] { return dfg::function_from_name(o.function); });
  if (!o.shard.empty()) check_shard(o.shard);
  cost::ExploreRequest r;
  r.out = o.out;
  r.function = o.function;
  cli::check_items(o.robots, "--robot");
  cli::check_items(o.flavours, "--flavour");
  r.robots = cli::split(o.robots);
  r.flavours = cli::split(o.flavours);
  // --n: none by default for a sweep, arms 1-12 for --table86.
  if (!o.ns.empty() || o.table86) r.n = ints(o.ns.empty() ? "1-12" : o.ns, "--n", 1);
  r.mul = ints(o.mul, "--mul", 1), r.add = ints(o.add, "--add", 1);
  r.lat_mul = ints(o.lat_mul, "--lat-mul", 1), r.lat_add = ints(o.lat_add, "--lat-add", 1);
  r.pipelined = ints(o.pipelined, "--pipelined", 0);
  r.max_registers = ints(o.max_registers, "--max-registers", 0);
  r.fma = ints(o.fma, "--fma", 0), r.lat_fma = ints(o.lat_fma, "--lat-fma", 1);
  r.div = ints(o.div, "--div", 1), r.lat_div = ints(o.lat_div, "--lat-div", 1);
  r.div_pipelined = o.div_pipelined;
  r.read_ports = ints(o.read_ports, "--read-ports", 0), r.write_ports = ints(o.write_ports, "--write-ports", 0);
  r.restarts = o.restarts;
  r.modulo = !o.no_modulo;
  r.modulo_nonpipelined = o.modulo_np;
  r.jobs = o.jobs;
  r.shard = o.shard;
  r.merge = o.merge;
  if (!o.in_words.empty()) r.in_words = ints(o.in_words, "--in-words", 1);
  r.ilp_worst = o.ilp_worst;
  r.ilp_nodes = o.ilp_nodes;
  r.plot = !o.no_plot;
  r.table86 = o.table86;
  r.depth = mode.on;
  r.lookahead = mode.lookahead;
  cli::as_usage([&] { return cost::target(o.target).name; });  // an unknown name: one line listing the targets
  if (cost::target(o.target).is_asic())  // a standard-cell target: `neaccel area --target` only, so far
    throw cli::UsageError("--target " + o.target + ": a standard-cell target; the exploration does not take it yet "
                          "(neaccel area --design DIR --target " + o.target + ", docs/asic.md)");
  r.target = o.target;
  cli::as_usage([&] { return hw::parse_arch(o.arch, "--arch"); });  // as `neaccel rtl --arch`
  r.arch = o.arch;
  cli::check_device_budget(o.target, o.budget_lut, o.budget_dsp);
  r.budget_lut = o.budget_lut;
  r.budget_dsp = o.budget_dsp;
  r.json = o.json;
  return r;
}

void run(const Options& o) {
  const cost::ExploreRequest r = request(o);
  // The progress bar only on a terminal.
  const bool tty = isatty(STDERR_FILENO);
  cost::ExploreHooks hooks;
  hooks.progress = [tty](std::size_t d, std::size_t total) {
    if (!tty) return;
    const std::size_t w = 40, filled = total ? d * w / total : w;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu", std::string(filled, '#').c_str(), std::string(w - filled, ' ').c_str(), d, total);
  };
  hooks.sweep_done = [tty](std::size_t new_points) {
    if (tty && new_points) std::fprintf(stderr, "\n");
  };
  hooks.ilp_row = [json = o.json](const sched::IlpCheckRow& c) {
    const sched::Point& pt = c.point;
    if (!json)
      std::printf("%s %s %d/%d lat %d/%d%s: list %d (bound %d) -> ilp %d (bound %d): %s\n", pt.robot.c_str(),
                  pt.flavour.c_str(), pt.mul, pt.add, pt.lat_mul, pt.lat_add, pt.pipelined ? "" : " np", c.list_length,
                  c.list_bound, c.ilp_length, c.ilp_bound, c.verdict.c_str());
  };
  hooks.note = [](const std::string& text) { std::fprintf(stderr, "neaccel: note: %s\n", text.c_str()); };
  const cost::ExploreResult result = cost::run_explore(r, hooks);
  std::fputs(result.text.c_str(), stdout);
  std::fputs(result.wrote.c_str(), stdout);
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("explore", "sweep unit counts, latencies and pipelining; Pareto front, gaps to bounds");
  cmd->add_option("--robot", o->robots, "robots, comma-separated (built-in, file, random:N:SEED)")->capture_default_str();
  cmd->add_option("--n", o->ns, "also general n-link robots random:N:1 for these n (e.g. 1-12)");
  cmd->add_option("--function", o->function, "id | fd | fd-khalil | fd-strobe | mass | dtau (docs/functions.md; the "
                  "forward functions divide: give --div)")->capture_default_str();
  cmd->add_option("--flavour", o->flavours, "general,general-dh,custom")->capture_default_str();
  cmd->add_option("--mul", o->mul, "multiplier counts (e.g. 1-16 or 1,2,4)")->capture_default_str();
  cmd->add_option("--add", o->add, "adder counts")->capture_default_str();
  cmd->add_option("--lat-mul", o->lat_mul, "multiplier latencies")->capture_default_str();
  cmd->add_option("--lat-add", o->lat_add, "adder latencies")->capture_default_str();
  cmd->add_option("--pipelined", o->pipelined, "pipelining of the units, e.g. 0,1 (1 = pipelined, 0 = not; both classes)")->capture_default_str();
  cmd->add_option("--max-registers", o->max_registers, "register limits, e.g. 0,40,30 (0 = none): the list and modulo "
                  "schedulers honour each")->capture_default_str();
  cmd->add_option("--fma", o->fma, "FMA unit counts, e.g. 0,2,4 (0 = no FMA class; mul + add pairs are fused only "
                  "where FMA units exist, as in schedule)")->capture_default_str();
  cmd->add_option("--lat-fma", o->lat_fma, "FMA latencies (with --fma N, N >= 1); pipelined as --pipelined says");
  cmd->add_option("--div", o->div, "divider counts (needed by and only by the forward functions fd, fd-khalil, "
                  "fd-strobe)");
  cmd->add_option("--lat-div", o->lat_div, "divider latencies (cycles), with --div")->capture_default_str();
  cmd->add_flag("--div-pipelined", o->div_pipelined, "dividers accept an op every cycle (default: busy for their "
                "latency)");
  cmd->add_option("--read-ports", o->read_ports, "register-file read ports per cycle, e.g. 0,6,4 (0 = none): every "
                  "schedule keeps them")->capture_default_str();
  cmd->add_option("--write-ports", o->write_ports, "register-file write ports per cycle, e.g. 0,3,2 (0 = none)")
      ->capture_default_str();
  cmd->add_option("--restarts", o->restarts, "list scheduler restarts per point (0 = none: its one deterministic pass)")
      ->check(cli::int_in(0, cli::kMaxRestarts))->capture_default_str();
  cmd->add_flag("--no-modulo", o->no_modulo, "skip the modulo (throughput) schedule");
  cmd->add_flag("--modulo-nonpipelined", o->modulo_np, "modulo schedules of non-pipelined points too (slow)");
  cmd->add_flag("--no-plot", o->no_plot, "do not run gnuplot");
  cmd->add_option("--jobs", o->jobs, "threads (default: cores)")->check(cli::int_in(1, 4096));
  cmd->add_option("--shard", o->shard, "k/N: evaluate every N-th point starting at the k-th (1-based)");
  cmd->add_option("--merge", o->merge, "join shard CSVs into explore.csv/json, pareto.csv, plot")->expected(1, -1);
  cmd->add_option("--in-words", o->in_words,
                  "input port widths in words per cycle (e.g. 1,2,4): streaming II = max(modulo II, ceil(port inputs / "
                  "k), outputs) per point in explore.json, parameters loaded once");
  cmd->add_option("--out", o->out, "output directory")->capture_default_str();
  cmd->add_option("--ilp-worst", o->ilp_worst, "run the ILP on this many points with the largest gap (ilp_worst.csv; 0 = none, the default)")
      ->check(cli::int_in(0, 1000000));
  cmd->add_option("--ilp-nodes", o->ilp_nodes, "branch-and-bound node limit per ILP of --ilp-worst (deterministic)")
      ->check(cli::int_in(1, 1000000))->capture_default_str();  // about 1.2 s per node on robot graphs
  cmd->add_flag("--table86", o->table86, "seed 000 Table 8.6 vs our schedules for general n-link arms (--n, default 1-12)");
  cmd->add_option("--depth", o->depth, "depth-reducing re-association per latency pair: on | off | lookahead[:K] (lookahead forms of the recursion over K links as candidates, K = 2, 3 when not given; --table86 tries them whenever the pass is on)")->capture_default_str();
  cmd->add_flag("--json", o->json, "machine-readable summary on stdout");
  cli::add_device_budget(*cmd, o->budget_lut, o->budget_dsp,
                         "a point's latency datapath (points over it stay in explore.json but leave the Pareto front "
                         "and the summary)");
  cmd->add_option("--target", o->target,
                  "the device the time and resources are estimated on: ecp5-85f (LFE5U-85F, its model fitted on placed "
                  "designs; explore.json gives each point's LUT4 and DSP blocks and whether it fits, the summary's "
                  "fastest point is the fastest that fits) or ice40-hx8k (the models of docs/cost.md; no robot arm "
                  "beyond two links fits it, so its figures for them are extrapolations)")
      ->capture_default_str();
  cmd->add_option("--arch", o->arch,
                  "the datapath each point is costed as: hardwired (multiplexers over the routed sources of its list "
                  "schedule's left-edge binding; the study re-costs the designs it may choose as generated) or "
                  "microcoded (no puma560 design of it routes on the LFE5U-85F)")
      ->capture_default_str();
  cmd->callback([o] { run(*o); });
}

}  // namespace

NEACCEL_COMMAND(explore, 41, setup)
