// `neaccel explore` as one run (explore_run.hpp): directory, grid, resumed or merged sweep, final tables with the
// cost model's columns, plot and ILP check; or Table 8.6.
#include "neaccel/cost/explore_run.hpp"

#include "neaccel/cost/explore_table.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/process.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/sweep_graphs.hpp"
#include "neaccel/sched/table86.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace neaccel::cost {

const std::vector<int>& IntList::values() const {
  if (!error.empty()) throw Error(error);
  return parsed;
}

namespace {

using namespace neaccel::sched;
namespace fs = std::filesystem;

// The customised graph of the explored function (--function, docs/functions.md) for one robot and flavour.
TracedGraph traced(const ExploreRequest& r) {
  return [function = r.function](const std::string& robot, const std::string& flavour) {
    return function_graph(function, robot, flavour);
  };
}

// The depth pass per latency pair (--depth); the lookahead shapes only for the inverse dynamics.
SweepGraphOptions graph_options(const ExploreRequest& r) { return {r.depth, r.function == "id" ? r.lookahead : 0}; }

// The grid's points, each option checked in turn: the robots and flavours, then the dimensions; an FMA class needs
// its latencies and a divider class exists exactly for the functions that divide.
std::vector<Point> enumerate(const ExploreRequest& r) {
  SweepGrid g;
  g.robots = r.robots;
  for (int n : r.n.values()) g.robots.push_back(fmt::format("random:{}:1", n));
  g.flavours = r.flavours;
  for (const auto& f : g.flavours)
    if (f != "general" && f != "general-dh" && f != "custom")
      throw Error(fmt::format("--flavour: '{}' (general, general-dh, custom)", f));
  if (g.robots.empty() || g.flavours.empty()) throw Error("--robot/--n and --flavour: nothing to sweep");
  g.mul = r.mul.values(), g.add = r.add.values();
  g.lat_mul = r.lat_mul.values(), g.lat_add = r.lat_add.values();
  g.pipelined = r.pipelined.values();
  g.max_registers = r.max_registers.values();
  // FMA units and dividers: count 0 means no such class (one point, whatever the latencies).
  g.fma = r.fma.values();
  const bool any_fma = std::any_of(g.fma.begin(), g.fma.end(), [](int n) { return n > 0; });
  if (any_fma && !r.lat_fma.given) throw Error("--fma: needs --lat-fma (e.g. --lat-fma 3)");
  if (!any_fma && r.lat_fma.given) throw Error("--lat-fma: only with --fma N (N >= 1)");
  g.lat_fma = any_fma ? r.lat_fma.values() : std::vector<int>{0};
  const dfg::Function fn = dfg::function_from_name(r.function);
  const bool divides = fn == dfg::Function::Fd || fn == dfg::Function::FdKhalil || fn == dfg::Function::FdStrobe;
  if (divides && !r.div.given)
    throw Error(fmt::format("--function {}: divides; the sweep needs a divider class (--div N[,M...] --lat-div L)",
                            r.function));
  if (!divides && r.div_pipelined)
    throw Error(fmt::format("--div-pipelined: --function {} does not divide (dividers: fd, fd-khalil, fd-strobe)",
                            r.function));
  if (!divides && r.div.given)
    throw Error(fmt::format("--div: --function {} does not divide (dividers: fd, fd-khalil, fd-strobe)", r.function));
  g.div = divides ? r.div.values() : std::vector<int>{0};
  g.lat_div = divides ? r.lat_div.values() : std::vector<int>{0};
  g.div_pipelined = r.div_pipelined;
  g.read_ports = r.read_ports.values(), g.write_ports = r.write_ports.values();
  for (int pp : g.pipelined)
    if (pp > 1) throw Error("--pipelined: values 0 and 1");
  return grid_points(g);
}

// Writes `text` to path.tmp, then renames it to path (a reader never sees half a file).
void write_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw Error(fmt::format("{}: cannot write", tmp.string()));
  }
  fs::rename(tmp, path);
}

void note(const ExploreHooks& hooks, const std::string& text) {
  if (hooks.note) hooks.note(text);
}

// explore.gp, and explore.svg from it where gnuplot is installed.
void plot(const fs::path& dir, const std::vector<PointResult>& front, const ExploreHooks& hooks) {
  write_atomic(dir / "explore.gp", explore_plot_script(front));
  if (!proc::find_program("gnuplot")) {
    note(hooks, fmt::format("{}; wrote {} only", proc::missing_tool("gnuplot"), (dir / "explore.gp").string()));
    return;
  }
  proc::Spawn gp;  // in the directory: the script names its files without one
  gp.argv = {"gnuplot", "explore.gp"};
  gp.cwd = dir;
  gp.inherit_stdout = gp.inherit_stderr = true;
  if (!proc::run(gp).ok()) note(hooks, fmt::format("gnuplot failed on {}", (dir / "explore.gp").string()));
}

// The ILP on the --ilp-worst points with the largest gap: is the schedule or the bound loose?
void ilp_worst(const fs::path& dir, const std::vector<PointResult>& rows, const ExploreRequest& r,
               const ExploreHooks& hooks) {
  auto on_row = [&](const IlpCheckRow& c) {
    if (hooks.ilp_row) hooks.ilp_row(c);
  };
  const std::string csv = ilp_check_worst(rows, r.ilp_worst, r.ilp_nodes, traced(r), graph_options(r), on_row);
  write_atomic(dir / "ilp_worst.csv", csv);
}

// The final tables of all the rows (sorted): explore.csv, pareto.csv, explore.json, the plot, ilp_worst.csv.
ExploreResult finish(const fs::path& dir, std::vector<PointResult> rows, const ExploreRequest& r,
                     const ExploreHooks& hooks) {
  sort_results(rows);
  ExploreCosts costs(traced(r));
  costs.target = r.target;
  costs.arch = r.arch;
  costs.budget_lut = r.budget_lut;
  costs.budget_dsp = r.budget_dsp;
  write_atomic(dir / "explore.csv", explore_csv(rows, costs));
  // On a target with a device model the front holds only the points whose latency datapath fits it, lies within
  // what has been measured to route there (routability.hpp) and keeps the budget: a design the device cannot hold,
  // or that its router may never finish, is no design choice.
  std::vector<PointResult> candidates;
  for (const auto& row : rows)
    if (costs.within_budget(row)) candidates.push_back(row);
  if (candidates.size() < rows.size())
    note(hooks, fmt::format("{} of {} points do not fit {} (by its device model, what has routed there{}): left "
                            "out of the Pareto front",
                            rows.size() - candidates.size(), rows.size(), target(r.target).part,
                            r.budget_lut || r.budget_dsp ? " and the budget" : ""));
  const auto front = pareto_front(candidates);
  write_atomic(dir / "pareto.csv", explore_csv(front, costs));
  const auto s = summarise(rows);
  costs.failed = 0;
  const std::vector<int>& widths = r.in_words.values();
  const ExplorePoints points = explore_points(rows, costs, widths);
  if (costs.failed)
    note(hooks, fmt::format("{} point(s) have no cost estimate; their time fields are empty (the first: {})",
                            costs.failed, costs.first_failure));
  write_atomic(dir / "explore.json",
               nlohmann::json({{"summary", sweep_summary_json(s)}, {"points", points.points}}).dump(1) + "\n");
  if (r.plot) plot(dir, front, hooks);
  if (r.ilp_worst > 0) ilp_worst(dir, rows, r, hooks);
  if (r.json) return {sweep_summary_json(s).dump(1) + "\n", ""};
  return {explore_summary_text(s, points),
          fmt::format("wrote {} (+ explore.json, pareto.csv{})\n", (dir / "explore.csv").string(),
                      r.plot ? ", explore.svg" : "")};
}

// Seed 000 Table 8.6 beside our schedules for the general n-link arm (n from --n).
ExploreResult table86(const fs::path& dir, const ExploreRequest& r) {
  std::vector<Table86Row> rows;
  for (int n : r.n.values()) rows.push_back(table86_row(n, r.depth));
  const std::string md = table86_markdown(rows);
  write_atomic(dir / "table86.md", md);
  if (r.json) return {table86_json(rows).dump(1) + "\n", ""};
  return {md, fmt::format("wrote {}\n", (dir / "table86.md").string())};
}

// Results of one function per directory: resuming or merging another function's points would mix them. A
// directory without function.txt holds id results if it holds anything (explorations before --function).
void claim_directory(const fs::path& dir, const ExploreRequest& r) {
  (void)dfg::function_from_name(r.function);  // an unknown name: one line before anything is written
  std::ifstream in(dir / "function.txt");
  std::string before = fs::is_empty(dir) ? r.function : "id";
  if (in) std::getline(in, before);
  if (before != r.function)
    throw Error(fmt::format("--out {}: holds the exploration of --function {} (function.txt); use another "
                            "directory for {}", r.out, before, r.function));
  if (r.function != "id") std::ofstream(dir / "function.txt") << r.function << "\n";
}

}  // namespace

ExploreResult run_explore(const ExploreRequest& r, const ExploreHooks& hooks) {
  const fs::path dir(r.out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("--out {}: cannot create ({})", r.out, ec.message()));
  // The sweep's options are checked before anything is written (function.txt included).
  (void)hw::parse_arch(r.arch, "--arch");
  auto points = r.table86 || !r.merge.empty() ? std::vector<Point>{} : enumerate(r);
  claim_directory(dir, r);
  if (r.table86) return table86(dir, r);
  if (!r.merge.empty()) {
    std::vector<PointResult> rows;
    std::set<std::string> seen;
    for (const auto& f : r.merge)
      for (auto& row : read_csv(f)) {
        // A shard swept as microcoded has no multiplexer inputs: its rows cannot be costed as hardwired datapaths.
        if (r.arch == "hardwired" && row.verified && row.mux_inputs < 0)
          throw Error(fmt::format("{}: point {} has no multiplexer inputs (a shard swept with --arch microcoded): "
                                  "merge it with --arch microcoded, or sweep the shards as hardwired",
                                  f, point_key(row.point)));
        if (seen.insert(point_key(row.point)).second) rows.push_back(row);
      }
    return finish(dir, rows, r, hooks);
  }
  fs::path csv = dir / "explore.csv";
  if (!r.shard.empty()) {
    int k = 0, n = 0;
    char slash = 0;
    std::istringstream in(r.shard);
    if (!(in >> k >> slash >> n) || slash != '/' || n < 1 || k < 1 || k > n)
      throw Error(fmt::format("--shard: '{}' (need k/N with 1 <= k <= N)", r.shard));
    std::vector<Point> mine;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (static_cast<int>(i % n) == k - 1) mine.push_back(points[i]);
    points = mine;
    csv = dir / fmt::format("explore-{}-of-{}.csv", k, n);
  }
  const int threads = r.jobs > 0 ? r.jobs : std::max(1u, std::thread::hardware_concurrency());
  SweepOptions so;
  so.restarts = r.restarts;
  so.modulo = r.modulo;
  so.modulo_nonpipelined = r.modulo_nonpipelined;
  if (r.arch == "hardwired") so.on_list_schedule = attach_interconnect;  // its multiplexer inputs, in the CSV
  auto progress = [&](std::size_t done, std::size_t total) {
    if (hooks.progress) hooks.progress(done, total);
  };
  auto save = [&](const std::vector<PointResult>& rows) { write_atomic(csv, checkpoint_csv(rows)); };
  const ResumedSweep sweep =
      resume_sweep(points, csv.string(), traced(r), graph_options(r), so, threads, progress, save);
  if (hooks.sweep_done) hooks.sweep_done(sweep.new_points);
  if (!r.shard.empty())
    return {"", fmt::format("shard {}: {} points ({} new) in {}; join the shards with --merge\n", r.shard,
                            sweep.rows.size(), sweep.new_points, csv.string())};
  return finish(dir, sweep.rows, r, hooks);
}

}  // namespace neaccel::cost
