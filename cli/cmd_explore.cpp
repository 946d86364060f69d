// `neaccel explore`: sweep units, latencies and pipelining over robots and graph flavours (parallel, resumable,
// shardable); CSV + JSON, Pareto front, gap distribution, gnuplot SVG. The final explore.csv/json and pareto.csv
// carry each point's estimated area, clock period, ns per evaluation and set points per second (cost/timing.hpp).
// The grid, the graphs and the resumed sweep are sched's (sweep_run.hpp, sweep_graphs.hpp); the tables with the
// cost model's columns, the plot script and the summary are cost's (explore_table.hpp).
#include "command.hpp"
#include "value_lists.hpp"

#include "neaccel/cost/explore_table.hpp"
#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/sweep_graphs.hpp"
#include "neaccel/sched/sweep_run.hpp"
#include "neaccel/sched/table86.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>

namespace {

using namespace neaccel;
using namespace neaccel::sched;
namespace fs = std::filesystem;

struct Options {
  std::string robots = "puma560", ns, flavours = "general,custom", mul = "1-16", add = "1-16", lat_mul = "1-6",
              lat_add = "1-4", pipelined = "1,0", out = "out/explore", shard, depth = "on", function = "id",
              max_registers = "0", read_ports = "0", write_ports = "0", fma = "0", lat_fma, div, lat_div = "8";
  std::vector<std::string> merge;
  int jobs = 0, restarts = 4, ilp_worst = 0;
  long ilp_nodes = 20000;
  bool json = false, no_modulo = false, modulo_np = false, no_plot = false, table86 = false, depth_on = true,
       div_pipelined = false;
  int lookahead = 0;  // dfg::DepthMode::lookahead (--depth lookahead[:K])
  std::string in_words;  // input port widths (words per cycle) for the streaming I/O bound, e.g. 1,2,4
};

// The customised graph of the explored function (--function, docs/functions.md) for one robot and flavour.
TracedGraph traced(const Options& o) {
  return [function = o.function](const std::string& robot, const std::string& flavour) {
    return function_graph(function, robot, flavour);
  };
}

// The depth pass per latency pair (--depth); the lookahead shapes only for the inverse dynamics.
SweepGraphOptions graph_options(const Options& o) { return {o.depth_on, o.function == "id" ? o.lookahead : 0}; }

using cli::parse_ints;
using cli::split;

std::vector<Point> enumerate(const Options& o) {
  SweepGrid g;
  g.robots = split(o.robots);
  for (int n : o.ns.empty() ? std::vector<int>{} : parse_ints(o.ns, "--n", 1)) g.robots.push_back(fmt::format("random:{}:1", n));
  g.flavours = split(o.flavours);
  for (const auto& f : g.flavours)
    if (f != "general" && f != "general-dh" && f != "custom")
      throw Error(fmt::format("--flavour: '{}' (general, general-dh, custom)", f));
  if (g.robots.empty() || g.flavours.empty()) throw Error("--robot/--n and --flavour: nothing to sweep");
  g.mul = parse_ints(o.mul, "--mul", 1), g.add = parse_ints(o.add, "--add", 1);
  g.lat_mul = parse_ints(o.lat_mul, "--lat-mul", 1), g.lat_add = parse_ints(o.lat_add, "--lat-add", 1);
  g.pipelined = parse_ints(o.pipelined, "--pipelined", 0);
  g.max_registers = parse_ints(o.max_registers, "--max-registers", 0);
  // FMA units and dividers: count 0 means no such class (one point, whatever the latencies).
  g.fma = parse_ints(o.fma, "--fma", 0);
  const bool any_fma = std::any_of(g.fma.begin(), g.fma.end(), [](int n) { return n > 0; });
  if (any_fma && o.lat_fma.empty()) throw Error("--fma: needs --lat-fma (e.g. --lat-fma 3)");
  if (!any_fma && !o.lat_fma.empty()) throw Error("--lat-fma: only with --fma N (N >= 1)");
  g.lat_fma = any_fma ? parse_ints(o.lat_fma, "--lat-fma", 1) : std::vector<int>{0};
  const dfg::Function fn = dfg::function_from_name(o.function);
  const bool divides = fn == dfg::Function::Fd || fn == dfg::Function::FdKhalil || fn == dfg::Function::FdStrobe;
  if (divides && o.div.empty())
    throw Error(fmt::format("--function {}: divides; the sweep needs a divider class (--div N[,M...] --lat-div L)",
                            o.function));
  if (!divides && o.div_pipelined)
    throw Error(fmt::format("--div-pipelined: --function {} does not divide (dividers: fd, fd-khalil, fd-strobe)",
                            o.function));
  if (!divides && !o.div.empty())
    throw Error(fmt::format("--div: --function {} does not divide (dividers: fd, fd-khalil, fd-strobe)", o.function));
  g.div = divides ? parse_ints(o.div, "--div", 1) : std::vector<int>{0};
  g.lat_div = divides ? parse_ints(o.lat_div, "--lat-div", 1) : std::vector<int>{0};
  g.div_pipelined = o.div_pipelined;
  g.read_ports = parse_ints(o.read_ports, "--read-ports", 0), g.write_ports = parse_ints(o.write_ports, "--write-ports", 0);
  for (int pp : g.pipelined)
    if (pp > 1) throw Error("--pipelined: values 0 and 1");
  return grid_points(g);
}

void write_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw Error(fmt::format("{}: cannot write", tmp.string()));
  }
  fs::rename(tmp, path);
}

void plot(const fs::path& dir, const std::vector<PointResult>& front) {
  write_atomic(dir / "explore.gp", cost::explore_plot_script(front));
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::fprintf(stderr, "neaccel: note: gnuplot not found; wrote %s only\n", (dir / "explore.gp").c_str());
    return;
  }
  const std::string cmd = "cd '" + dir.string() + "' && gnuplot explore.gp";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "neaccel: note: gnuplot failed on %s\n", (dir / "explore.gp").c_str());
}

// The ILP on the --ilp-worst points with the largest gap: is the schedule or the bound loose?
void ilp_worst(const fs::path& dir, const std::vector<PointResult>& rows, const Options& o) {
  auto print = [&](const IlpCheckRow& c) {
    const Point& pt = c.point;
    if (!o.json)
      std::printf("%s %s %d/%d lat %d/%d%s: list %d (bound %d) -> ilp %d (bound %d): %s\n", pt.robot.c_str(),
                  pt.flavour.c_str(), pt.mul, pt.add, pt.lat_mul, pt.lat_add, pt.pipelined ? "" : " np", c.list_length,
                  c.list_bound, c.ilp_length, c.ilp_bound, c.verdict.c_str());
  };
  const std::string csv = ilp_check_worst(rows, o.ilp_worst, o.ilp_nodes, traced(o), graph_options(o), print);
  write_atomic(dir / "ilp_worst.csv", csv);
}

void finish(const fs::path& dir, std::vector<PointResult> rows, const Options& o) {
  sort_results(rows);
  cost::ExploreCosts costs(traced(o));
  write_atomic(dir / "explore.csv", cost::explore_csv(rows, costs));
  const auto front = pareto_front(rows);
  write_atomic(dir / "pareto.csv", cost::explore_csv(front, costs));
  const auto s = summarise(rows);
  costs.failed = 0;
  const std::vector<int> widths = o.in_words.empty() ? std::vector<int>{} : parse_ints(o.in_words, "--in-words", 1);
  const cost::ExplorePoints points = cost::explore_points(rows, costs, widths);
  if (costs.failed)
    std::fprintf(stderr, "neaccel: note: %zu point(s) have no cost estimate (unit latencies without an area figure in "
                 "data/unit-area.json); their time fields are empty\n", costs.failed);
  write_atomic(dir / "explore.json",
               nlohmann::json({{"summary", cost::sweep_summary_json(s)}, {"points", points.points}}).dump(1) + "\n");
  if (!o.no_plot) plot(dir, front);
  if (o.ilp_worst > 0) ilp_worst(dir, rows, o);
  if (o.json) {
    std::printf("%s\n", cost::sweep_summary_json(s).dump(1).c_str());
    return;
  }
  std::printf("%s", cost::explore_summary_text(s, points).c_str());
  std::printf("wrote %s (+ explore.json, pareto.csv%s)\n", (dir / "explore.csv").c_str(), o.no_plot ? "" : ", explore.svg");
}

// Seed 000 Table 8.6 beside our schedules for the general n-link arm (n from --n, default 1-12).
void table86(const fs::path& dir, const Options& o) {
  std::vector<Table86Row> rows;
  for (int n : parse_ints(o.ns.empty() ? "1-12" : o.ns, "--n", 1)) rows.push_back(table86_row(n, o.depth_on));
  const std::string md = table86_markdown(rows);
  write_atomic(dir / "table86.md", md);
  if (o.json) {
    std::printf("%s\n", table86_json(rows).dump(1).c_str());
    return;
  }
  std::printf("%swrote %s\n", md.c_str(), (dir / "table86.md").c_str());
}

void run(const Options& o) {
  const fs::path dir(o.out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("--out {}: cannot create ({})", o.out, ec.message()));
  // The sweep's options are checked before anything is written (function.txt included).
  auto points = o.table86 || !o.merge.empty() ? std::vector<Point>{} : enumerate(o);
  {
    (void)dfg::function_from_name(o.function);  // an unknown name: one line before anything is written
    // Results of one function per directory: resuming or merging another function's points would mix them.
    // A directory without function.txt holds id results if it holds anything (explorations before --function).
    std::ifstream in(dir / "function.txt");
    std::string before = fs::is_empty(dir) ? o.function : "id";
    if (in) std::getline(in, before);
    if (before != o.function)
      throw Error(fmt::format("--out {}: holds the exploration of --function {} (function.txt); use another "
                              "directory for {}", o.out, before, o.function));
    if (o.function != "id") std::ofstream(dir / "function.txt") << o.function << "\n";
  }
  if (o.table86) {
    table86(dir, o);
    return;
  }
  if (!o.merge.empty()) {
    std::vector<PointResult> rows;
    std::set<std::string> seen;
    for (const auto& f : o.merge)
      for (auto& r : read_csv(f))
        if (seen.insert(point_key(r.point)).second) rows.push_back(r);
    finish(dir, rows, o);
    return;
  }
  fs::path csv = dir / "explore.csv";
  if (!o.shard.empty()) {
    int k = 0, n = 0;
    char slash = 0;
    std::istringstream in(o.shard);
    if (!(in >> k >> slash >> n) || slash != '/' || n < 1 || k < 1 || k > n)
      throw Error(fmt::format("--shard: '{}' (need k/N with 1 <= k <= N)", o.shard));
    std::vector<Point> mine;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (static_cast<int>(i % n) == k - 1) mine.push_back(points[i]);
    points = mine;
    csv = dir / fmt::format("explore-{}-of-{}.csv", k, n);
  }
  const int threads = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  SweepOptions so;
  so.restarts = o.restarts;
  so.modulo = !o.no_modulo;
  so.modulo_nonpipelined = o.modulo_np;
  const bool tty = isatty(STDERR_FILENO);
  auto progress = [&](std::size_t d, std::size_t total) {
    if (!tty) return;
    const std::size_t w = 40, filled = total ? d * w / total : w;
    std::fprintf(stderr, "\r[%s%s] %zu/%zu", std::string(filled, '#').c_str(), std::string(w - filled, ' ').c_str(), d, total);
  };
  auto save = [&](const std::vector<PointResult>& rows) { write_atomic(csv, checkpoint_csv(rows)); };
  const ResumedSweep sweep = resume_sweep(points, csv.string(), traced(o), graph_options(o), so, threads, progress, save);
  if (tty && sweep.new_points) std::fprintf(stderr, "\n");
  if (!o.shard.empty()) {
    std::printf("shard %s: %zu points (%zu new) in %s; join the shards with --merge\n", o.shard.c_str(),
                sweep.rows.size(), sweep.new_points, csv.c_str());
    return;
  }
  finish(dir, sweep.rows, o);
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
  cmd->add_option("--pipelined", o->pipelined, "1 pipelined, 0 not (both classes)")->capture_default_str();
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
  cmd->add_option("--restarts", o->restarts, "list scheduler restarts per point")->capture_default_str();
  cmd->add_flag("--no-modulo", o->no_modulo, "skip the modulo (throughput) schedule");
  cmd->add_flag("--modulo-nonpipelined", o->modulo_np, "modulo schedules of non-pipelined points too (slow)");
  cmd->add_flag("--no-plot", o->no_plot, "do not run gnuplot");
  cmd->add_option("--jobs", o->jobs, "threads (default: cores)");
  cmd->add_option("--shard", o->shard, "k/N: evaluate every N-th point starting at the k-th (1-based)");
  cmd->add_option("--merge", o->merge, "join shard CSVs into explore.csv/json, pareto.csv, plot")->expected(1, -1);
  cmd->add_option("--in-words", o->in_words,
                  "input port widths in words per cycle (e.g. 1,2,4): streaming II = max(modulo II, ceil(port inputs / "
                  "k), outputs) per point in explore.json, parameters loaded once");
  cmd->add_option("--out", o->out, "output directory")->capture_default_str();
  cmd->add_option("--ilp-worst", o->ilp_worst, "run the ILP on this many points with the largest gap (ilp_worst.csv)");
  cmd->add_option("--ilp-nodes", o->ilp_nodes, "branch-and-bound node limit per ILP of --ilp-worst (deterministic)")->capture_default_str();
  cmd->add_flag("--table86", o->table86, "seed 000 Table 8.6 vs our schedules for general n-link arms (--n, default 1-12)");
  cmd->add_option("--depth", o->depth, "depth-reducing re-association per latency pair: on | off | lookahead[:K] (lookahead forms of the recursion over K links as candidates, K = 2, 3 when not given; --table86 tries them whenever the pass is on)")->capture_default_str();
  cmd->add_flag("--json", o->json, "machine-readable summary on stdout");
  cmd->callback([o] {
    const dfg::DepthMode mode = dfg::parse_depth_mode(o->depth);
    o->depth_on = mode.on;
    o->lookahead = mode.lookahead;
    run(*o);
  });
}

}  // namespace

NEACCEL_COMMAND(explore, 41, setup)
