// Stage 4: exploration. Unit counts, latencies and pipelining for both graphs; latency (list schedule) and
// throughput (modulo schedule) objectives; Pareto fronts of cycles against area; Table 8.6 beside our schedules.
#include "context.hpp"
#include "neaccel/ref/error.hpp"

#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/table86.hpp"
#include "neaccel/study/area.hpp"
#include "neaccel/study/plot.hpp"

#include <fmt/format.h>

#include <thread>

namespace neaccel::study {

namespace {
using nlohmann::json;

std::vector<sched::Point> sweep_points(const Context& ctx) {
  const std::vector<int> counts = ctx.opt.quick ? std::vector<int>{1, 2, 4, 8} : std::vector<int>{1, 2, 3, 4, 6, 8, 12, 16};
  const std::vector<std::pair<int, int>> lats =
      ctx.opt.quick ? std::vector<std::pair<int, int>>{{1, 1}, {3, 2}} : std::vector<std::pair<int, int>>{{1, 1}, {3, 2}, {5, 3}};
  const std::vector<bool> pipelining = ctx.opt.quick ? std::vector<bool>{true} : std::vector<bool>{true, false};
  std::vector<sched::Point> points;
  for (const char* flavour : {"general", "custom"})
    for (bool pipe : pipelining)
      for (auto [lm, la] : lats)
        for (int m : counts)
          for (int a : counts) {
            if (ctx.opt.max_units > 0 && (m > ctx.opt.max_units || a > ctx.opt.max_units)) continue;
            points.push_back({ctx.opt.robot, flavour, m, a, lm, la, pipe});
          }
  return points;
}

// Indices of the rows on the Pareto front of (area, metric) among rows of one flavour (smaller is better in both).
std::vector<std::size_t> pareto(const json& rows, const std::string& flavour, const char* metric) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i]["flavour"] == flavour) idx.push_back(i);
  std::sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) {
    const double ax = rows[x]["area"], ay = rows[y]["area"];
    return ax != ay ? ax < ay : rows[x][metric].get<int>() < rows[y][metric].get<int>();
  });
  std::vector<std::size_t> front;
  int best = std::numeric_limits<int>::max();
  for (std::size_t i : idx)
    if (rows[i][metric].get<int>() < best) {
      best = rows[i][metric];
      front.push_back(i);
    }
  return front;
}

json table86_rows() {
  json rows = json::array();
  for (int n = 1; n <= 12; ++n) {
    const sched::Table86Row t = sched::table86_row(n);
    rows.push_back({{"n", n}, {"paper_mul_steps", t.paper_mul_steps}, {"paper_add_steps", t.paper_add_steps},
                    {"ours_mul_steps", t.ours.mul_steps}, {"ours_add_steps", t.ours.add_steps}, {"mul_ops", t.mul_ops},
                    {"add_ops", t.add_ops}, {"unit_cycles", t.unit_cycles}, {"unit_bound", t.unit_bound},
                    {"pipe_cycles", t.pipe_cycles}, {"pipe_bound", t.pipe_bound}, {"rahman_meyer", t.rahman_meyer},
                    {"hashimoto_kimura", t.hashimoto_kimura}});
  }
  return rows;
}

void report_explore(Context& ctx) {
  Report& r = ctx.report;
  r.heading(2, "4. Design-space exploration");
  r.para("Every combination of multiplier and adder counts, latencies and pipelining was scheduled on both graphs: a "
         "resource-constrained list schedule (latency objective) and an iterative modulo schedule (throughput "
         "objective), each checked by the independent verifier. {} points, {} verified; {} list schedules within 5% "
         "of the best proven lower bound ({} provably optimal, worst gap {}%); {} of {} pipelined points reach "
         "II = ResMII.",
         {r.num("explore", "/summary/points"), r.num("explore", "/summary/verified"),
          r.num("explore", "/summary/within_5_percent"), r.num("explore", "/summary/optimal"),
          r.num("explore", "/summary/worst_gap_percent", 1), r.num("explore", "/summary/ii_at_res_mii"),
          r.num("explore", "/summary/pipelined")});
  r.figure("plots/pareto_cycles.svg", "Cycles per evaluation against area; steps: the Pareto fronts. Data: data/explore.json.");
  r.figure("plots/pareto_ii.svg", "Initiation interval against area (a new set point every II cycles).");
  const json& rows = ctx.data.at("explore")["points"];
  const json& fronts = ctx.data.at("explore")["fronts"];
  for (const char* key : {"custom_cycles", "general_cycles"}) {
    std::vector<std::vector<Cell>> t;
    for (std::size_t i : fronts[key].get<std::vector<std::size_t>>()) {
      const std::string p = "/points/" + std::to_string(i);
      t.push_back({r.num("explore", p + "/mul"), r.num("explore", p + "/add"), r.num("explore", p + "/lat_mul"),
                   r.num("explore", p + "/lat_add"), r.num("explore", p + "/pipelined"), r.num("explore", p + "/cycles"),
                   r.num("explore", p + "/lower_bound"), r.num("explore", p + "/ii"), r.num("explore", p + "/registers"),
                   r.num("explore", p + "/area", 0)});
    }
    (void)rows;
    r.para(std::string("Pareto front (cycles against area) of the ") +
           (std::string(key) == "custom_cycles" ? "customised" : "general") + " graph:");
    r.table({"mul", "add", "lat mul", "lat add", "pipelined", "cycles", "lower bound", "II", "registers", "area (cells)"}, t);
  }
  r.heading(3, "Seed 000 Table 8.6 against operation-level schedules");
  r.para("The paper estimates 27n+42 multiplication steps for the modified Newton-Euler recursion when the terms of "
         "Table 8.6 run concurrently. The same accounting applied to our general graph's operations, and our "
         "schedules of that graph on 7 multipliers + 7 adders (latency 1, and pipelined with latencies 3/2), with "
         "their lower bounds, beside later hardware (Rahman-Meyer systolic chip 69+12n cycles, Hashimoto-Kimura "
         "60n+193 flop times):");
  std::vector<std::vector<Cell>> t;
  const json& t86 = ctx.data.at("table86")["rows"];
  for (std::size_t i = 0; i < t86.size(); ++i) {
    const std::string p = "/rows/" + std::to_string(i);
    t.push_back({r.num("table86", p + "/n"), r.num("table86", p + "/paper_mul_steps"), r.num("table86", p + "/ours_mul_steps"),
                 r.num("table86", p + "/unit_cycles"), r.num("table86", p + "/unit_bound"), r.num("table86", p + "/pipe_cycles"),
                 r.num("table86", p + "/pipe_bound"), r.num("table86", p + "/rahman_meyer"), r.num("table86", p + "/hashimoto_kimura")});
  }
  r.table({"n", "paper 27n+42", "paper's accounting, our graph", "ours 7+7 lat 1", "bound", "ours 7+7 lat 3/2",
           "bound", "Rahman-Meyer", "Hashimoto-Kimura"}, t);
  r.figure("plots/table86.svg", "Table 8.6 against our schedules, n = 1..12. Data: data/table86.json.");
}
}  // namespace

void stage_explore(Context& ctx) {
  ctx.progress.stage("Exploration");
  const auto points = sweep_points(ctx);
  const int threads = ctx.opt.jobs > 0 ? ctx.opt.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::map<std::string, dfg::Graph> graphs;
  for (const auto& [flavour, g] : ctx.graphs) graphs[ctx.opt.robot + "/" + flavour] = g;
  sched::SweepOptions so;
  so.restarts = ctx.opt.quick ? 1 : 4;
  const auto results = sched::run_sweep(points, graphs, so, threads, [&](std::size_t done, std::size_t total) {
    ctx.progress.detail(fmt::format("{}/{} points", done, total));
  });
  json rows = json::array();
  std::size_t unverified = 0;
  for (const auto& p : results) {
    const DatapathArea a = datapath_area(p.point.mul, p.point.lat_mul, p.point.add, p.point.lat_add, p.point.pipelined, p.registers);
    rows.push_back({{"flavour", p.point.flavour}, {"mul", p.point.mul}, {"add", p.point.add}, {"lat_mul", p.point.lat_mul},
                    {"lat_add", p.point.lat_add}, {"pipelined", p.point.pipelined}, {"ops", p.ops},
                    {"cycles", p.length}, {"lower_bound", p.lower_bound}, {"gap_percent", p.gap_percent},
                    {"ii", p.ii}, {"res_mii", p.res_mii}, {"modulo_latency", p.modulo_latency},
                    {"registers", p.registers}, {"area", a.total()}, {"area_units", a.units},
                    {"area_registers", a.registers}, {"area_routing", a.routing}, {"verified", p.verified}});
    if (!p.verified) ++unverified;
  }
  if (unverified) ctx.fail(fmt::format("exploration: {} schedules failed verification", unverified));
  std::vector<sched::PointResult> copy = results;
  const sched::SweepSummary sum = sched::summarise(copy);
  json fronts = json::object();
  for (const char* flavour : {"general", "custom"})
    for (const char* metric : {"cycles", "ii"}) fronts[std::string(flavour) + "_" + metric] = pareto(rows, flavour, metric);
  ctx.data.put("explore", {{"points", rows}, {"fronts", fronts},
                           {"summary", {{"points", sum.points}, {"verified", sum.verified},
                                        {"within_5_percent", sum.within_5_percent}, {"optimal", sum.optimal},
                                        {"pipelined", sum.pipelined}, {"ii_at_res_mii", sum.ii_at_res_mii},
                                        {"worst_gap_percent", sum.worst_gap}, {"gap_histogram", sum.gap_histogram}}}});
  ctx.progress.detail("Table 8.6, n = 1..12");
  ctx.data.put("table86", {{"rows", table86_rows()}});

  // Plots: Pareto fronts (area vs cycles, area vs II), every point faint behind them.
  for (const char* metric : {"cycles", "ii"}) {
    PlotSpec spec{std::string(metric) == "cycles" ? "Latency of one evaluation against area" : "Initiation interval (throughput) against area",
                  "area (Yosys generic cells)", std::string(metric) == "cycles" ? "cycles per evaluation" : "II (cycles between evaluations)",
                  true, true, {}, 900, 520, "set key inside right top font ',10'"};
    for (const char* flavour : {"general", "custom"}) {
      Series all{std::string(flavour) + " (all points)", {}, "points pointtype 7 pointsize 0.4"};
      for (const auto& r : rows)
        if (r["flavour"] == flavour) all.points.emplace_back(r["area"].get<double>(), r[metric].get<double>());
      Series front{std::string(flavour) + " Pareto front", {}, "steps linewidth 2"};
      for (std::size_t i : fronts[std::string(flavour) + "_" + metric].get<std::vector<std::size_t>>())
        front.points.emplace_back(rows[i]["area"].get<double>(), rows[i][metric].get<double>());
      spec.series.push_back(all);
      spec.series.push_back(front);
    }
    plot_svg(ctx.plot(std::string("pareto_") + metric), spec);
  }
  {
    const json& t = ctx.data.at("table86")["rows"];
    PlotSpec spec{"Seed 000 Table 8.6 against our schedules", "n (links)", "cycles / steps", false, false, {}, 900, 520,
                  "set key inside left top font ',10'"};
    auto series = [&](const char* key, const std::string& title, const std::string& style) {
      Series s{title, {}, style};
      for (const auto& r : t) s.points.emplace_back(r["n"].get<double>(), r[key].get<double>());
      spec.series.push_back(s);
    };
    series("paper_mul_steps", "paper: 27n+42 mul steps", "linespoints dashtype 2");
    series("ours_mul_steps", "paper's accounting on our graph", "linespoints dashtype 3");
    series("unit_cycles", "ours: 7+7 units, latency 1", "linespoints linewidth 2");
    series("pipe_cycles", "ours: 7+7 pipelined, latency 3/2", "linespoints linewidth 2");
    series("rahman_meyer", "Rahman-Meyer 69+12n", "lines dashtype 4");
    series("hashimoto_kimura", "Hashimoto-Kimura 60n+193", "lines dashtype 5");
    plot_svg(ctx.plot("table86"), spec);
  }
  report_explore(ctx);
  ctx.progress.done(fmt::format("{} points, {} verified, {} within 5% of the lower bound", sum.points, sum.verified,
                                sum.within_5_percent));
}

}  // namespace neaccel::study
