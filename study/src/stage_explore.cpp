// Stage 4: exploration. Unit counts, latencies and pipelining for both graphs; latency (list schedule) and
// throughput (modulo schedule) objectives; each point's time from the cost model (cost/timing.hpp: period, ns per
// evaluation, set points per second); Pareto fronts of cycles, II, ns and set points per second against area;
// Table 8.6 beside our schedules.
#include "context.hpp"

#include "neaccel/cost/target.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/study/choose.hpp"
#include "neaccel/ref/error.hpp"

#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/source.hpp"
#include "neaccel/sched/sweep_graphs.hpp"
#include "neaccel/sched/table86.hpp"
#include "neaccel/study/plot.hpp"
#include "neaccel/cost/timing.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
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
  // A function that divides gets a divider class: one or two dividers (quick: one), the count a
  // dimension like the others. They are pipelined at latency 6, the fastest fp32 divider measured
  // (data/unit-timing.json: 17.5 MHz): the tools time a busy (non-pipelined) divider as one cycle, 4.2 MHz, which
  // would set every design's clock (docs/cost.md).
  if (function_divides(ctx.opt.function)) {
    std::vector<sched::Point> with_div;
    for (const auto& p : points)
      for (int d : ctx.opt.quick ? std::vector<int>{1} : std::vector<int>{1, 2}) {
        sched::Point q = p;
        q.div = d;
        q.lat_div = 6;
        q.div_pipelined = true;
        with_div.push_back(q);
      }
    points = with_div;
  }
  return points;
}

// Indices of the rows on the Pareto front of (area_key, metric) among rows of one flavour: smaller area, and smaller
// metric (or larger, with maximise). Rows whose metric is 0 have none (II of a point without a modulo schedule).
std::vector<std::size_t> pareto(const json& rows, const std::string& flavour, const char* area_key, const char* metric,
                                bool maximise = false) {
  auto m = [&](std::size_t i) { return (maximise ? -1.0 : 1.0) * rows[i][metric].get<double>(); };
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i]["flavour"] == flavour && rows[i][metric].get<double>() != 0) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) {
    const double ax = rows[x][area_key], ay = rows[y][area_key];
    return ax != ay ? ax < ay : m(x) < m(y);
  });
  std::vector<std::size_t> front;
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i : idx)
    if (m(i) < best) {
      best = m(i);
      front.push_back(i);
    }
  return front;
}

json table86_rows(bool depth) {
  json rows = json::array();
  for (int n = 1; n <= 12; ++n) {
    const sched::Table86Row t = sched::table86_row(n, depth);
    rows.push_back({{"n", n}, {"paper_mul_steps", t.paper_mul_steps}, {"paper_add_steps", t.paper_add_steps},
                    {"ours_mul_steps", t.ours.mul_steps}, {"ours_add_steps", t.ours.add_steps}, {"mul_ops", t.mul_ops},
                    {"add_ops", t.add_ops}, {"unit_cycles", t.unit_cycles}, {"unit_bound", t.unit_bound},
                    {"pipe_cycles", t.pipe_cycles}, {"pipe_bound", t.pipe_bound}, {"rahman_meyer", t.rahman_meyer},
                    {"hashimoto_kimura", t.hashimoto_kimura}, {"depth", depth ? "on" : "off"},
                    {"unit_ops", t.unit_ops}, {"pipe_ops", t.pipe_ops}, {"pipe_cycles_traced", t.pipe_cycles_traced}});
  }
  return rows;
}

void report_explore(Context& ctx) {
  Report& r = ctx.report;
  r.heading(2, "4. Design-space exploration" + function_suffix(ctx.opt.function));
  if (ctx.opt.function != "id")
    r.para(std::string("The graphs explored are those of function `") + ctx.opt.function + "` (section 3)" +
           (function_divides(ctx.opt.function)
                ? "; every point also has a divider class (pipelined, latency 6: the fastest fp32 divider measured; a busy "
                  "divider is timed as one cycle and would set the clock), its count a dimension of the sweep (quick "
                  "study: one divider). The area model counts the dividers' cells and operand ports."
                : "."));
  r.para("Every combination of multiplier and adder counts, latencies and pipelining was scheduled on both graphs: a "
         "resource-constrained list schedule (latency objective) and an iterative modulo schedule (throughput "
         "objective), each checked by the independent verifier. {} points, {} verified; {} list schedules within 5% "
         "of the best proven lower bound ({} provably optimal, worst gap {}%); {} of {} pipelined points reach "
         "II = ResMII.",
         {r.num("explore", "/summary/points"), r.num("explore", "/summary/verified"),
          r.num("explore", "/summary/within_5_percent"), r.num("explore", "/summary/optimal"),
          r.num("explore", "/summary/worst_gap_percent", 1), r.num("explore", "/summary/ii_at_res_mii"),
          r.num("explore", "/summary/pipelined")});
  const std::string device =
      !cost::target(ctx.opt.target).has_device_model()
          ? std::string("the cost model calibrated on the iCE40 HX8K (`estimate_cost`, docs/cost.md)")
          : "the device model of the " + cost::target(ctx.opt.target).part + " (`estimate_cost` on " + ctx.opt.target +
                ", fitted on whole designs placed and routed on it: docs/cost.md), the device the designs are placed on "
                "in section 7; a point whose latency datapath does not fit it (LUT4 or DSP blocks), or is larger, or has wider "
                "operand multiplexers, than any design of its architecture that has routed on it (`neaccel area "
                "--routability --target " + ctx.opt.target + "`), or has wider operand multiplexers than the model is "
                "fitted on where designs that wide were measured beyond its tolerance, or is of a class of design the "
                "model does not hold for (one of whose placed designs it misses beyond its tolerance: `neaccel area "
                "--model --target " + ctx.opt.target + "`), is not chosen (a streaming datapath beyond any of these is "
                "left out, and the point's throughput design is its latency datapath)";
  r.para("Time comes from " + device + ": each point's clock period is estimated for its "
         "datapath, and one evaluation takes its cycles including the I/O overhead ({} cycles on the customised graph: "
         "inputs, outputs and two handshakes) times that period. Throughput is set points per second: a pipelined point "
         "streams a set point every II cycles (the modulo II raised to the I/O bound of one input and one output port), "
         "costed on its streaming datapath as built (its registers, kernel and multiplexers: the design this study "
         "would generate for it); a point without a modulo schedule (non-pipelined) is a latency "
         "datapath, one set point per evaluation. Clock periods of this study: {} to {} ns (customised graph, verified "
         "points).",
         {r.num("explore", "/summary/custom_io_cycles"), r.num("explore", "/summary/period_ns_min", 2),
          r.num("explore", "/summary/period_ns_max", 2)});
  r.para("Each schedule is costed in both architectures. A hardwired latency datapath is costed on the left-edge "
         "binding of its schedule (the scheduler's units and registers), but the study generates it with the "
         "interconnect-aware binding (docs/binding.md), whose multiplexers are fewer and which takes about 2 s a puma560 "
         "point; so the hardwired points the choice (section 5) is likely to take, the first {} by each of its three "
         "objectives and every hardwired latency point it then picks, are costed again as generated before it chooses. "
         "Then every other hardwired point is bounded: costed with its left-edge multiplexer figures scaled to the "
         "smallest share of them any re-costed point kept (inputs {}, two-input equivalents {}, widest port {}) times "
         "{}, and the points whose bound could still displace a pick are costed as generated too, until none could: {} "
         "points in all (`binding` in data/explore.json, the list in data/recost.json).",
         {r.num("recost", "/shortlist_per_objective"), r.num("recost", "/share/mux_inputs", 2),
          r.num("recost", "/share/mux2_equivalent", 2), r.num("recost", "/share/max_port_sources", 2),
          r.num("recost", "/margin", 1), r.num("recost", "/recosted")});
  if (!ctx.data.at("recost").value("settled", true))
    r.para("The bound did not settle within the study's rounds of re-costing: a point not costed as generated may "
           "still displace a pick (data/recost.json: settled false).");
  r.figure("plots/pareto_cycles.svg", "Cycles per evaluation (schedule length) against area; steps: the Pareto fronts. Data: data/explore.json.");
  r.figure("plots/pareto_latency_ns.svg", "Nanoseconds per evaluation (cycles including I/O, times the estimated clock period) against area.");
  r.figure("plots/pareto_ii.svg", "Initiation interval against area (a new set point every II cycles; points with a modulo schedule).");
  r.figure("plots/pareto_throughput.svg", "Set points per second against the area of the design that sustains them (streaming datapath, or latency datapath without a modulo schedule).");
  const json& fronts = ctx.data.at("explore")["fronts"];
  for (const char* key : {"custom_latency_ns", "general_latency_ns"}) {
    std::vector<std::vector<Cell>> t;
    for (std::size_t i : fronts[key].get<std::vector<std::size_t>>()) {
      const std::string p = "/points/" + std::to_string(i);
      t.push_back({r.num("explore", p + "/mul"), r.num("explore", p + "/add"), r.num("explore", p + "/lat_mul"),
                   r.num("explore", p + "/lat_add"), r.num("explore", p + "/pipelined"), r.num("explore", p + "/cycles"),
                   r.num("explore", p + "/lower_bound"), r.num("explore", p + "/eval_cycles"),
                   r.num("explore", p + "/period_ns", 2), r.num("explore", p + "/latency_ns", 1),
                   r.num("explore", p + "/registers"), r.num("explore", p + "/area", 0)});
    }
    r.para(std::string("Pareto front (nanoseconds per evaluation against area) of the ") +
           (std::string(key) == "custom_latency_ns" ? "customised" : "general") + " graph:");
    r.table({"mul", "add", "lat mul", "lat add", "pipelined", "schedule (cycles)", "lower bound", "cycles incl. I/O",
             "period (ns)", "latency (ns)", "registers", "area (cells)"}, t);
  }
  {
    std::vector<std::vector<Cell>> t;
    for (std::size_t i : fronts["custom_throughput"].get<std::vector<std::size_t>>()) {
      const std::string p = "/points/" + std::to_string(i);
      t.push_back({r.num("explore", p + "/mul"), r.num("explore", p + "/add"), r.num("explore", p + "/lat_mul"),
                   r.num("explore", p + "/lat_add"), r.num("explore", p + "/pipelined"),
                   r.num("explore", p + "/throughput_mode"), r.num("explore", p + "/set_point_cycles"),
                   r.num("explore", p + "/throughput_period_ns", 2), r.num("explore", p + "/throughput_per_s", 0),
                   r.num("explore", p + "/throughput_area", 0)});
    }
    r.para("Pareto front (set points per second against area) of the customised graph:");
    r.table({"mul", "add", "lat mul", "lat add", "pipelined", "throughput from", "cycles per set point", "period (ns)",
             "set points / s", "area (cells)"}, t);
  }
  r.heading(3, std::string("Seed 000 Table 8.6 against operation-level schedules") +
                  (ctx.opt.function == "id" ? "" : " (inverse dynamics)"));
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

namespace {
// How many hardwired rows per objective the choice's shortlist takes (choose.hpp: choice_shortlist), and how many
// rounds of choosing and re-costing at most.
constexpr std::size_t kShortlist = 6;
constexpr int kRecostRounds = 12;
// The bound's margin: a point's interconnect-aware binding is taken to leave as little as this fraction of the
// smallest share of its left-edge multiplexer figures that any point re-costed in the study kept.
constexpr double kBindingMargin = 0.8;

// The multiplexer figures of a hardwired latency datapath: inputs, two-input equivalents, widest port.
std::array<int, 3> mux_of(const sched::PointResult& r) { return {r.mux_inputs, r.mux2_equivalent, r.max_port_sources}; }

// The hardwired latency datapaths the choice may take, costed as the study generates them. The sweep costs every
// hardwired point on the left-edge binding of its list schedule (cost::attach_interconnect, about 0.02 s a point),
// but a chosen latency design is built with the interconnect-aware binding (docs/binding.md), whose simulated
// annealing takes about 2 s a puma560 point and leaves about half the multiplexer inputs. Costing every point so
// would add minutes to each study; instead:
//  1. the rows of choice_shortlist are re-costed as generated, and the choice is made on them;
//  2. a chosen hardwired latency datapath not yet re-costed is re-costed, and the choice made again;
//  3. once the choice stands on re-costed rows, every hardwired point not re-costed is bounded: its latency datapath
//     costed with its left-edge multiplexer figures times the smallest share of them any re-costed point kept, times
//     kBindingMargin (its registers as they are: the left-edge count is the fewest its lifetimes need, and every
//     re-costed point kept it); the points whose bound could displace a pick (choice_contenders) are re-costed, and
//     the study goes back to 2.
// At most kRecostRounds rounds; data/recost.json says whether the choice settled (no bound could displace it), the
// shares and how many points were bounded. Each re-costed row says "binding": "interconnect".
template <class RowOf>
void recost_as_generated(Context& ctx, const std::vector<sched::PointResult>& results, json& rows, RowOf row_of,
                         int threads) {
  const std::size_t n = results.size();
  std::set<std::size_t> done;
  const bool budgets = ctx.opt.budget_lut > 0 || ctx.opt.budget_dsp > 0;
  std::array<double, 3> share{1.0, 1.0, 1.0};  // smallest as-generated / left-edge figure among the re-costed rows
  bool settled = false;
  std::size_t bounded = 0;
  for (int round = 0; round < kRecostRounds && !settled; ++round) {
    std::set<std::size_t> want;
    if (round == 0)
      for (std::size_t i : choice_shortlist(rows, ctx.opt.max_area, kShortlist)) want.insert(i);
    json picks;
    try {
      picks = choose_designs(rows, ctx.opt.max_area, budgets);
      for (const auto& d : picks) {
        const std::size_t i = d["point"].get<std::size_t>();
        // A hardwired latency datapath (a streaming pick is built with the left-edge binding, and costed as built).
        if (i >= n && (d["objective"] == "latency" || rows[i]["throughput_mode"] != "streaming")) want.insert(i);
      }
    } catch (const Error&) {
      break;  // nothing to choose from: stage_designs says so
    }
    std::vector<std::size_t> todo;
    for (std::size_t i : want)
      if (i >= n && !done.count(i)) todo.push_back(i);
    if (todo.empty()) {
      // The choice stands on re-costed rows: could a point not re-costed displace a pick, generated?
      std::map<std::size_t, json> bounds;
      for (std::size_t i = n; i < 2 * n; ++i) {
        const sched::PointResult& r = results[i - n];
        if (done.count(i) || !r.verified || r.point.flavour != "custom" || r.mux_inputs < 0) continue;
        sched::PointResult b = r;
        b.mux_inputs = std::max(1, static_cast<int>(std::floor(r.mux_inputs * share[0] * kBindingMargin)));
        b.mux2_equivalent = std::max(0, static_cast<int>(std::floor(r.mux2_equivalent * share[1] * kBindingMargin)));
        b.max_port_sources = std::max(1, static_cast<int>(std::floor(r.max_port_sources * share[2] * kBindingMargin)));
        bounds[i] = row_of(b, "hardwired");
      }
      todo = choice_contenders(rows, picks, bounds, ctx.opt.max_area);
      if (todo.empty()) {
        settled = true;
        bounded = bounds.size();
        break;
      }
    }
    std::vector<sched::PointResult> rebound(todo.size());
    std::atomic<std::size_t> next{0};
    std::mutex error_mutex;
    std::string error;
    auto work = [&] {
      for (std::size_t k; (k = next++) < todo.size();) {
        try {
          rebound[k] = results[todo[k] - n];
          const hw::Design d = hw::make_design(generated_spec(ctx, rows[todo[k]]));
          cost::attach_generated_binding(d.dp, rebound[k]);
        } catch (const std::exception& e) {
          const std::lock_guard<std::mutex> lock(error_mutex);
          if (error.empty()) error = e.what();
        }
      }
    };
    ctx.progress.detail(fmt::format("costing {} hardwired designs as generated", done.size() + todo.size()));
    std::vector<std::thread> pool;
    for (int t = 1; t < std::min<int>(threads, static_cast<int>(todo.size())); ++t) pool.emplace_back(work);
    work();
    for (auto& t : pool) t.join();
    if (!error.empty()) throw Error("study: costing a hardwired design as generated: " + error);
    for (std::size_t k = 0; k < todo.size(); ++k) {
      const sched::PointResult& left_edge = results[todo[k] - n];
      const auto le = mux_of(left_edge), gen = mux_of(rebound[k]);
      for (std::size_t f = 0; f < 3; ++f)
        if (le[f] > 0) share[f] = std::min(share[f], static_cast<double>(gen[f]) / le[f]);
      rows[todo[k]] = row_of(rebound[k], "hardwired");
      rows[todo[k]]["binding"] = "interconnect";
      rows[todo[k]]["left_edge_registers"] = left_edge.registers;
      done.insert(todo[k]);
    }
  }
  ctx.data.put("recost", {{"shortlist_per_objective", kShortlist}, {"recosted", done.size()},
                          {"rows", std::vector<std::size_t>(done.begin(), done.end())},
                          {"settled", settled}, {"bounded", bounded}, {"margin", kBindingMargin},
                          {"share", {{"mux_inputs", share[0]}, {"mux2_equivalent", share[1]},
                                     {"max_port_sources", share[2]}}}});
}
}  // namespace

void stage_explore(Context& ctx) {
  ctx.progress.stage("Exploration");
  const auto points = sweep_points(ctx);
  const int threads = ctx.opt.jobs > 0 ? ctx.opt.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::map<std::string, dfg::Graph> graphs;
  for (const auto& [flavour, g] : ctx.graphs) graphs[ctx.opt.robot + "/" + flavour] = g;
  // Each latency pair runs its own depth-reduced graph, chosen per point as `neaccel rtl` chooses it
  // (sched::point_graph picks per point, by its units, among the lean, the budgeted and the traced graph); with
  // --depth lookahead[:K] (inverse dynamics) the lookahead forms of the recursion are candidates too, as in
  // `neaccel explore --depth lookahead`. Without the depth pass the points run the graphs above.
  if (ctx.opt.depth) {
    sched::SweepGraphOptions go;
    go.lookahead = ctx.opt.function == "id" ? ctx.opt.lookahead : 0;
    const sched::TracedGraph traced = [&](const std::string&, const std::string& flavour) {
      return ctx.graphs.at(flavour);
    };
    for (const auto& p : points)
      if (ctx.graphs.count(p.flavour)) sched::add_sweep_graphs(graphs, p, traced, go);
  }
  sched::SweepOptions so;
  so.restarts = ctx.opt.quick ? 1 : 4;
  so.on_list_schedule = cost::attach_interconnect;  // the hardwired architecture's multiplexer inputs
  so.on_modulo_schedule = cost::attach_stream;       // the streaming datapath as the study would build it
  const auto results = sched::run_sweep(points, graphs, so, threads, [&](std::size_t done, std::size_t total) {
    ctx.progress.detail(fmt::format("{}/{} points", done, total));
  });
  std::map<std::string, cost::GraphShape> shapes;
  for (const auto& [flavour, g] : ctx.graphs) shapes[flavour] = cost::graph_shape(g);
  // The architecture is a dimension of the exploration: every schedule costed as the microcoded datapath
  // and as the hardwired one (rows [0, n) and [n, 2n)). A hardwired latency datapath is costed on the left-edge
  // binding of its schedule, except those recost_as_generated below costs as the study generates them.
  auto row_of = [&](const sched::PointResult& p, const char* arch) {
    json row = {{"flavour", p.point.flavour}, {"mul", p.point.mul}, {"add", p.point.add}, {"lat_mul", p.point.lat_mul},
                {"lat_add", p.point.lat_add}, {"pipelined", p.point.pipelined}, {"ops", p.ops},
                {"critical_path", p.critical_path}, {"cycles", p.length}, {"lower_bound", p.lower_bound}, {"gap_percent", p.gap_percent},
                {"ii", p.ii}, {"res_mii", p.res_mii}, {"modulo_latency", p.modulo_latency}, {"stages", p.stages},
                {"registers", p.registers}, {"mux_inputs", p.mux_inputs}, {"verified", p.verified}};
    if (sched::has_unit_dimensions(p.point))  // dividers: only in sweeps that have them
      row.update({{"div", p.point.div}, {"lat_div", p.point.lat_div}, {"div_pipelined", p.point.div_pipelined}});
    if (std::string(arch) == "hardwired") row["binding"] = "left-edge";
    // On the study's device (--target): its device model's clock and resources, which the choice ranks by.
    row.update(cost::timing_json(cost::point_timing(p, shapes.at(p.point.flavour), "fp32", arch, ctx.opt.target),
                                 ctx.opt.budget_lut, ctx.opt.budget_dsp));
    return row;
  };
  json rows = json::array();
  std::size_t unverified = 0;
  for (const char* arch : {"microcoded", "hardwired"})
    for (const auto& p : results) {
      rows.push_back(row_of(p, arch));
      if (!p.verified && std::string(arch) == "microcoded") ++unverified;
    }
  recost_as_generated(ctx, results, rows, row_of, threads);
  if (unverified) ctx.fail(fmt::format("exploration: {} schedules failed verification", unverified));
  std::vector<sched::PointResult> copy = results;
  const sched::SweepSummary sum = sched::summarise(copy);
  double period_lo = std::numeric_limits<double>::infinity(), period_hi = 0;
  for (const auto& row : rows)
    if (row["flavour"] == "custom" && row["verified"].get<bool>()) {
      period_lo = std::min({period_lo, row["period_ns"].get<double>(), row["throughput_period_ns"].get<double>()});
      period_hi = std::max({period_hi, row["period_ns"].get<double>(), row["throughput_period_ns"].get<double>()});
    }
  if (period_hi == 0) period_lo = 0;
  json fronts = json::object();
  for (const char* flavour : {"general", "custom"}) {
    const std::string f = flavour;
    fronts[f + "_cycles"] = pareto(rows, f, "area", "cycles");
    fronts[f + "_ii"] = pareto(rows, f, "area", "ii");
    fronts[f + "_latency_ns"] = pareto(rows, f, "area", "latency_ns");
    fronts[f + "_throughput"] = pareto(rows, f, "throughput_area", "throughput_per_s", true);
  }
  ctx.data.put("explore", {{"points", rows}, {"fronts", fronts},
                           {"summary", {{"points", sum.points}, {"verified", sum.verified},
                                        {"within_5_percent", sum.within_5_percent}, {"optimal", sum.optimal},
                                        {"pipelined", sum.pipelined}, {"ii_at_res_mii", sum.ii_at_res_mii},
                                        {"worst_gap_percent", sum.worst_gap}, {"gap_histogram", sum.gap_histogram},
                                        {"custom_io_cycles", shapes.at("custom").inputs + shapes.at("custom").outputs + 2},
                                        {"period_ns_min", period_lo}, {"period_ns_max", period_hi}}}});
  ctx.progress.detail("Table 8.6, n = 1..12");
  ctx.data.put("table86", {{"rows", table86_rows(ctx.opt.depth)}});

  // Plots: Pareto fronts (area vs cycles, II, ns per evaluation, set points per second), every point faint behind.
  struct Axis {
    const char* name;   // plot name and front key suffix
    const char* area;   // x: which area
    const char* metric; // y
    const char* title;
    const char* xlabel;
    const char* ylabel;
    const char* key;
  };
  const Axis axes[] = {
      {"cycles", "area", "cycles", "Latency of one evaluation against area", "area (Yosys generic cells)",
       "cycles (schedule length)", "inside right top"},
      {"ii", "area", "ii", "Initiation interval (throughput) against area", "area (Yosys generic cells)",
       "II (cycles between evaluations)", "inside right top"},
      {"latency_ns", "area", "latency_ns", "Time of one evaluation against area (estimated clock)",
       "area (Yosys generic cells)", "ns per evaluation (cycles incl. I/O x period)", "inside right top"},
      {"throughput", "throughput_area", "throughput_per_s", "Set points per second against area (estimated clock)",
       "area of the design that sustains it (Yosys generic cells)", "set points per second", "inside left top"}};
  for (const Axis& ax : axes) {
    PlotSpec spec{ax.title, ax.xlabel, ax.ylabel, true, true, {}, 900, 520, std::string("set key ") + ax.key + " font ',10'"};
    for (const char* flavour : {"general", "custom"}) {
      Series all{std::string(flavour) + " (all points)", {}, "points pointtype 7 pointsize 0.4"};
      for (const auto& r : rows)
        if (r["flavour"] == flavour && r[ax.metric].get<double>() > 0)
          all.points.emplace_back(r[ax.area].get<double>(), r[ax.metric].get<double>());
      Series front{std::string(flavour) + " Pareto front", {}, "steps linewidth 2"};
      for (std::size_t i : fronts[std::string(flavour) + "_" + ax.name].get<std::vector<std::size_t>>())
        front.points.emplace_back(rows[i][ax.area].get<double>(), rows[i][ax.metric].get<double>());
      spec.series.push_back(all);
      spec.series.push_back(front);
    }
    plot_svg(ctx.plot(std::string("pareto_") + ax.name), spec);
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
