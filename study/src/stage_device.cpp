// The chosen designs on a device that holds them (`--target`, default the ECP5 LFE5U-85F). The exploration and the
// choice rank by the same device model (stage_explore, choose); here every chosen design is costed by the target's own
// device model (cost::estimate_cost on the target: clock, LUT4 and DSP blocks, fitted on whole designs placed and
// routed on it) and, where it has been placed and routed (the committed data/pnr-cache, or with --pnr Yosys and
// nextpnr run here on every design the model says fits), by its placed clock and resources: the latency or
// throughput at the placed clock, and the model's error against it.
#include "context.hpp"

#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/design_pnr.hpp"
#include "neaccel/cost/pnr.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/cost/timing.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/sweep_graphs.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace neaccel::study {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The same bound with the fixed-point units (kFixedBound, the format the study also builds its fastest design in):
// the schedule's cycles are the format's too, only the units' clock differs. Multipliers and adders only (a point
// with dividers or FMA units has no fixed-point figure here).
// Seeds after the first whose cached placement a design is read at when seed 1's is not cached (stage_device).
constexpr int kOtherSeeds = cost::kCachedOtherSeeds;
// How the report names a placement at another seed than the figures of record's.
std::string seed_note(int seed) { return fmt::format("nextpnr seed {}", seed); }

// The slowest stage of the kFixedBound multiplier and adder at these latencies alone on the target, or 0 where the
// target's unit table has no such unit.
double fixed_unit_period(const std::string& target, int lat_mul, int lat_add) {
  cost::CostPoint p;
  p.target = target;
  p.arch = "hardwired";
  p.format = kFixedBound;
  p.lat_mul = lat_mul;
  p.lat_add = lat_add;
  p.mux2_equivalent = 0;
  p.max_port_sources = 2;
  try {
    return cost::estimate_cost(p).unit_period_ns;
  } catch (const Error&) {
    return 0;
  }
}

// Whether a graph holds only multiplications and additions (the operations the deep units and the I/O figures
// below are for; a divider or an FMA class has no deep form).
bool mul_add_only(const dfg::Graph& g) {
  const dfg::OpCounts c = dfg::count_ops(g);
  return c.of(dfg::Op::Div) + c.of(dfg::Op::Sqrt) + c.of(dfg::Op::Fma) + c.of(dfg::Op::Cmp) == 0;
}

// A graph at these unit latencies with no resource limit that matters (critical paths and the I/O figures read
// only the latencies).
sched::Problem at_latencies(const dfg::Graph& graph, int lat_mul, int lat_add) {
  sched::Problem p;
  p.graph = &graph;
  p.classes = sched::default_classes(1, 1, lat_mul, lat_add);
  return p;
}

// The port widths the I/O figures are given for: one word per cycle, and the four-word port the fastest design is
// built with (stage_device's levers).
constexpr int kIoPortWords[] = {1, 4};

// The graphs the figures below run, as the exploration's points do (the depth pass per latency pair where the study
// applies it, the lookahead forms where it asks for them): per latency pair, sched::point_graph with as many units
// as the graph has operations, i.e. the least critical path among the candidates.
class BoundGraphs {
 public:
  explicit BoundGraphs(const Context& ctx) : ctx_(ctx) {
    for (const auto& [flavour, g] : ctx.graphs) graphs_[ctx.opt.robot + "/" + flavour] = g;
  }
  const dfg::Graph& at(const std::string& flavour, int lat_mul, int lat_add) {
    sched::Point p;
    p.robot = ctx_.opt.robot;
    p.flavour = flavour;
    const int n = std::max(1, dfg::count_ops(ctx_.graphs.at(flavour)).operations());
    p.mul = p.add = n;
    p.lat_mul = lat_mul;
    p.lat_add = lat_add;
    if (ctx_.opt.depth) {
      sched::SweepGraphOptions go;
      go.lookahead = ctx_.opt.function == "id" ? ctx_.opt.lookahead : 0;
      sched::add_sweep_graphs(graphs_, p, [&](const std::string&, const std::string& f) { return ctx_.graphs.at(f); },
                              go);
    }
    return sched::point_graph(graphs_, p);
  }

 private:
  const Context& ctx_;
  std::map<std::string, dfg::Graph> graphs_;
};

// Inputs loaded while the recursion runs and outputs leaving as soon as they are computed (sched::io_overlap): on
// `graph` at these unit latencies, per port width, the least cycles from the first input word to the last output
// word that any schedule on any number of units can take, and of them the cycles of I/O no schedule hides (beyond the
// critical path). Null for a graph with other operations than multiplications and additions.
json io_rows(const dfg::Graph& graph, int lat_mul, int lat_add) {
  if (!mul_add_only(graph)) return nullptr;
  const sched::Problem p = at_latencies(graph, lat_mul, lat_add);
  json rows = json::array();
  for (int k : kIoPortWords) {
    const sched::IoOverlap o = sched::io_overlap(p, k);
    rows.push_back({{"in_words", k}, {"cycles", o.bound}, {"hidden_io", o.hidden_io_bound()},
                    {"critical_path", o.critical_path}, {"port_inputs", o.port_inputs}, {"outputs", o.outputs}});
  }
  return rows;
}

// What no explored design can beat on the device: one evaluation's critical path through the graph (the schedule
// with unlimited units, in cycles at the point's unit latencies) at the period of the units' slowest stage alone
// (each unit placed and routed with registered inputs: data/<target>/unit-timing.json), with no cycle of I/O and
// no delay of multiplexers, control or routing between units. Per explored pipelined latency pair (its least over
// the flavours) and the least of them; null when there is none (an exploration without pipelined points, or rows
// from before these fields).
json units_bound(const Context& ctx, const json& points, const std::string& target) {
  std::map<std::pair<int, int>, json> by;  // (lat_mul, lat_add) -> its least bound
  std::set<std::pair<int, int>> other_units;  // latency pairs with a point that has dividers or FMA units
  for (const auto& p : points) {
    if (!p.value("pipelined", false) || !p.contains("critical_path") || !p.contains("unit_period_ns")) continue;
    const std::pair<int, int> lat{p["lat_mul"].get<int>(), p["lat_add"].get<int>()};
    if (p.value("div", 0) > 0 || p.value("fma", 0) > 0) other_units.insert(lat);
    const double ns = p["critical_path"].get<int>() * p["unit_period_ns"].get<double>();
    json& b = by[lat];
    if (!b.is_null() && ns >= b["ns"].get<double>()) continue;
    b = {{"ns", ns}, {"critical_path", p["critical_path"]}, {"unit_period_ns", p["unit_period_ns"]},
         {"unit_fmax_mhz", 1000.0 / p["unit_period_ns"].get<double>()}, {"lat_mul", p["lat_mul"]},
         {"lat_add", p["lat_add"]}, {"flavour", p["flavour"]}};
  }
  if (by.empty()) return nullptr;
  BoundGraphs graphs(ctx);
  for (auto& [lat, b] : by) {
    const std::string flavour = b["flavour"].get<std::string>();
    if (!ctx.graphs.count(flavour) || other_units.count(lat)) continue;
    const json io = io_rows(graphs.at(flavour, lat.first, lat.second), lat.first, lat.second);
    if (!io.is_null()) b["io"] = io;
  }
  // The least of each format's bounds; the fixed-point one only where every latency pair has it.
  json best, fixed, rows = json::array();
  bool every_fixed = true;
  for (auto& [lat, b] : by) {
    const double t = other_units.count(lat) ? 0 : fixed_unit_period(target, lat.first, lat.second);
    if (t > 0) {
      b["fixed"] = {{"format", kFixedBound}, {"unit_period_ns", t}, {"unit_fmax_mhz", 1000.0 / t},
                    {"ns", b["critical_path"].get<int>() * t}};
      if (fixed.is_null() || b["fixed"]["ns"].get<double>() < fixed["ns"].get<double>())
        fixed = {{"format", kFixedBound}, {"ns", b["fixed"]["ns"]}, {"unit_fmax_mhz", b["fixed"]["unit_fmax_mhz"]},
                 {"critical_path", b["critical_path"]}, {"lat_mul", b["lat_mul"]}, {"lat_add", b["lat_add"]}};
    } else {
      every_fixed = false;
    }
    rows.push_back(b);
    if (best.is_null() || b["ns"].get<double>() < best["ns"].get<double>()) best = b;
  }
  best.erase("fixed");  // the row's own; the least fixed-point bound replaces it
  if (every_fixed) best["fixed"] = fixed;
  best["by_latency"] = rows;
  return best;
}

// The deepest latency of a unit the target's table measured, up to 8 (the deep units' range, docs/units.md "Deep
// units"); 0 when it has none.
int deepest_measured(const std::string& target, const std::string& unit) {
  const json row = cost::unit_timing_row(target, unit, 8);
  return row.is_null() ? 0 : row["latency"].get<int>();
}

// What no streaming design of the deep units can exceed in set points per second on the device: at initiation
// interval II each unit instance takes II operations of a set point, so the graph's M multiplications need
// ceil(M / II) multipliers (each its DSP blocks, of the device's) and its A additions ceil(A / II) adders, their LUT4
// alone (each unit's own place and route; no register, multiplexer or control counted) within the device's; and the
// ports take the inputs in ceil(n_in / 4) beats of the four-word port and the outputs one word per cycle. The least
// such II over the graphs (general, customised), at the clock of the slower of the two deep units, each at its
// fastest measured latency.
json deep_throughput_bound(const Context& ctx, const std::string& target, const std::string& mul_unit,
                           const std::string& add_unit) {
  const cost::Target& t = cost::target(target);
  // Each unit at its fastest measured latency (a streaming design's throughput does not depend on the latency).
  auto fastest_row = [&](const std::string& unit) {
    json best;
    const int deepest = deepest_measured(target, unit);
    for (int l = 1; l <= deepest; ++l) {
      const json row = cost::unit_timing_row(target, unit, l);
      if (!row.is_null() && (best.is_null() || row["fmax_mhz"].get<double>() > best["fmax_mhz"].get<double>()))
        best = row;
    }
    return best;
  };
  const json mrow = fastest_row(mul_unit), arow = fastest_row(add_unit);
  if (mrow.is_null() || arow.is_null() || t.dsp <= 0 || t.lut <= 0) return nullptr;
  const long mul_dsp = mrow.value("dsp", 0L), mul_lut = mrow.value("comb", 0L), add_lut = arow.value("comb", 0L);
  const double fmax = std::min(mrow["fmax_mhz"].get<double>(), arow["fmax_mhz"].get<double>());
  json best;
  for (const auto& [flavour, g] : ctx.graphs) {
    const dfg::OpCounts c = dfg::count_ops(g);
    const long muls = c.mul(), adds = c.add() + c.neg();
    const long in = static_cast<long>(g.inputs.size());
    const long outs = static_cast<long>(g.outputs.size());
    const long ii_io = std::max((in + 3) / 4, outs);
    auto units = [](long ops, long ii) { return (ops + ii - 1) / ii; };
    long ii_dsp = 1, ii_lut = 1;
    while (units(muls, ii_dsp) * mul_dsp > t.dsp) ++ii_dsp;
    while (units(muls, ii_lut) * mul_lut + units(adds, ii_lut) * add_lut > t.lut) ++ii_lut;
    const long ii = std::max({ii_dsp, ii_lut, ii_io, 1L});
    if (!best.is_null() && ii >= best["ii"].get<long>()) continue;
    best = {{"ii", ii}, {"ii_dsp", ii_dsp}, {"ii_lut", ii_lut}, {"ii_io", ii_io}, {"flavour", flavour},
            {"multiplications", muls}, {"additions", adds}, {"inputs", in}, {"outputs", outs},
            {"dsp_per_multiplier", mul_dsp}, {"device_dsp", t.dsp}, {"device_lut", t.lut},
            {"fmax_mhz", fmax}, {"lat_mul", mrow["latency"]}, {"lat_add", arow["latency"]},
            {"evaluations_per_s", fmax * 1e6 / static_cast<double>(ii)},
            {"multipliers", units(muls, ii)}, {"adders", units(adds, ii)}};
  }
  return best;
}

// The same bound on the deep units (rtl/units/deep: the pipeline cut at the device's DSP and carry-chain
// registers, docs/units.md): the unit latencies are not the exploration's, so over every pair of measured latencies
// (mul, add) the least-cycle critical path of each graph (general and customised) at that pair times the slower of
// the two deep units' stages there, and per format the least. Null where the target's table has no deep units or
// the graph has operations other than multiplications and additions (a divider or an FMA class has no deep form).
json deep_units_bound(const Context& ctx, const std::string& target) {
  json out;
  BoundGraphs graphs(ctx);
  for (const auto& [format, mul_unit, add_unit] :
       {std::tuple<std::string, std::string, std::string>{"fp32", "fp32-mul-deep", "fp32-add-deep"},
        {"fixed", "fx-mul-deep", "fx-add-deep"}}) {
    // A latency past a unit's deepest measured one has that one's stage and only adds cycles: not a candidate.
    const int max_m = deepest_measured(target, mul_unit), max_a = deepest_measured(target, add_unit);
    if (max_m == 0 || max_a == 0) return nullptr;
    json best;
    for (const auto& [flavour, traced] : ctx.graphs) {
      if (!mul_add_only(traced)) return nullptr;
      for (int m = 1; m <= max_m; ++m)
        for (int a = 1; a <= max_a; ++a) {
          const double tm = cost::unit_stage_period_ns(target, mul_unit, m);
          const double ta = cost::unit_stage_period_ns(target, add_unit, a);
          if (tm <= 0 || ta <= 0) continue;
          const int cp = sched::critical_path(at_latencies(graphs.at(flavour, m, a), m, a));
          const double t = std::max(tm, ta), ns = cp * t;
          if (!best.is_null() && ns >= best["ns"].get<double>()) continue;
          best = {{"ns", ns}, {"critical_path", cp}, {"unit_period_ns", t}, {"unit_fmax_mhz", 1000.0 / t},
                  {"lat_mul", m}, {"lat_add", a}, {"flavour", flavour}, {"units", mul_unit + ", " + add_unit},
                  {"format", format == "fixed" ? std::string(kFixedBound) : format}};
        }
    }
    if (best.is_null()) return nullptr;
    best["io"] = io_rows(graphs.at(best["flavour"].get<std::string>(), best["lat_mul"].get<int>(),
                                   best["lat_add"].get<int>()),
                         best["lat_mul"].get<int>(), best["lat_add"].get<int>());
    best["throughput"] = deep_throughput_bound(ctx, target, mul_unit, add_unit);
    // With the four-word port: the I/O no schedule hides added, the least time from first input to last output.
    const json& io4 = best["io"].back();
    best["with_io"] = {{"in_words", io4["in_words"]}, {"cycles", io4["cycles"]},
                       {"ns", io4["cycles"].get<int>() * best["unit_period_ns"].get<double>()}};
    out[format] = best;
  }
  return out;
}

// How the study places a design on its target: the cached results at seed 1 or the other seeds it reads, and the
// tools (at seed 1, under --pnr-timeout) only with run_tools.
cost::DesignPnrOptions pnr_options(const Context& ctx, const cost::Target& t, const fs::path& dir, bool run_tools) {
  cost::DesignPnrOptions o;
  o.dir = dir.string();
  o.target = t.name;
  o.other_seeds = kOtherSeeds;
  o.cached_only = !run_tools;
  o.timeout_s = ctx.opt.pnr_timeout_s;
  return o;
}

// The status of a design in neither cache, the tools not run.
constexpr const char* kNotPlacedYet = "not placed and routed yet: --pnr places it";

// One design placed and routed as the chosen ones are (committed or cached results; with --pnr the tools, under
// their limit): the result's status, seed and figures, its time at `cycles`.
json placed_figures(const Context& ctx, const cost::Target& t, const fs::path& dir, int cycles, bool run_tools) {
  const cost::DesignPnrOptions o = pnr_options(ctx, t, dir, run_tools);
  json placed;
  try {
    placed = cost::design_pnr(o);
  } catch (const cost::PnrTimeout& err) {
    return {{"status", fmt::format("not placed: {} (--pnr-timeout {:g}: a longer limit, or `neaccel area --design {} --pnr "
                                   "--target {} --seed 2` for another placement)",
                                   err.what(), ctx.opt.pnr_timeout_s, dir.string(), t.name)}};
  }
  const std::string from = placed.value("cache", "none");
  if (from == "none") return {{"status", kNotPlacedYet}};
  if (!placed.value("fits", false)) return {{"status", "does not fit: " + placed.value("overflow", std::string())}};
  const int seed = placed.value("seed", 1);
  std::vector<std::string> how;
  if (from == "committed") how.push_back("committed result, data/pnr-cache");
  if (seed != 1) how.push_back(seed_note(seed));
  const double period = placed.at("period_ns").get<double>();
  return {{"status", "placed and routed" + (how.empty() ? "" : " (" + fmt::format("{}", fmt::join(how, "; ")) + ")")},
          {"seed", seed}, {"fmax_mhz", placed.at("fmax_mhz")}, {"period_ns", period}, {"lut", placed.at("lut")},
          {"lut_percent", placed.at("percent").at("lut")}, {"dsp", placed.at("dsp")}, {"ff", placed.at("ff")},
          {"time_ns", cycles * period}};
}

}  // namespace

bool will_be_placed(const Context& ctx, const fs::path& dir) {
  const cost::Target& t = cost::target(ctx.opt.target);
  if (!t.has_device_model()) return false;
  if (ctx.opt.pnr) return true;
  return cost::design_pnr(pnr_options(ctx, t, dir, false)).value("cache", "none") != "none";
}

namespace {

// The fastest design with the hardwired pipelining options (levers_of; built and verified in section 6), placed:
// per lever and format its cycles (the program's; fewer load cycles with a wider port), its placed figures, and the same design's placed time
// without the option (the device table's row) for comparison. The device model has no figure for them.
json place_levers(Context& ctx, const cost::Target& t, const json& designs, const json& rows) {
  json out = json::array();
  if (designs.empty()) return out;
  const std::string base = designs[0]["name"].get<std::string>();
  for (const Lever& l : levers_of(ctx, designs[0]))
    for (const std::string& format : lever_formats()) {
      if (!l.builds(format)) continue;
      const std::string name = base + ", " + l.name;
      const fs::path dir = chosen_design_dir(ctx, name, format);
      if (!fs::exists(dir / "manifest.json")) continue;
      const json manifest = json::parse(read_whole_file(dir / "manifest.json"));
      const int cycles = manifest.at("datapath").at("cycles").get<int>();
      if (ctx.opt.pnr) ctx.progress.detail(name + ", " + format + " (place and route on " + t.part + ")");
      json row{{"name", name}, {"lever", l.name}, {"format", format}, {"cycles", cycles}, {"dir", dir.filename().string()},
               {"lat_mul", manifest.at("spec").at("lat_mul")}, {"lat_add", manifest.at("spec").at("lat_add")},
               {"placed", placed_figures(ctx, t, dir, cycles, ctx.opt.pnr)}};
      const std::string without = format == "fp32" ? base : base + ", " + format;
      for (const auto& r : rows)
        if (r["name"] == without && r["placed"].contains("time_ns")) {
          row["without"] = {{"cycles", r["cycles"]}, {"time_ns", r["placed"]["time_ns"]}, {"fmax_mhz", r["placed"]["fmax_mhz"]}};
          if (row["placed"].contains("time_ns"))
            row["speedup"] = r["placed"]["time_ns"].get<double>() / row["placed"]["time_ns"].get<double>();
        }
      out.push_back(row);
    }
  return out;
}

}  // namespace

void stage_device(Context& ctx) {
  const cost::Target& t = cost::target(ctx.opt.target);
  if (!t.has_device_model()) return;  // the exploration's own figures are the iCE40's
  const json& designs = ctx.data.at("designs")["designs"];
  json rows = json::array();
  std::set<std::string> seen;
  // Each chosen design in binary32, then the fastest in the fixed-point format section 6 verifies beside it (the same
  // schedule and unit mix on the fixed-point units): what the other format gains on the device, placed and routed.
  std::string not_costed;  // the fixed-point design, when the device model cannot cost it: why
  std::vector<std::pair<const json*, std::string>> todo;
  for (const auto& d : designs) todo.emplace_back(&d, "fp32");
  if (!designs.empty()) todo.emplace_back(&designs[0], kFixedBound);
  for (const auto& [dp, format] : todo) {
    const json& d = *dp;
    const bool fixed = format != "fp32";
    const std::string name = d["name"].get<std::string>() + (fixed ? ", " + format : "");
    const fs::path dir = chosen_design_dir(ctx, d["name"].get<std::string>(), format);
    if (!fs::exists(dir / "manifest.json")) {  // a name that refers to another's point (same design): named beside it
      for (auto& row : rows)
        if (row["point"] == d["point"] && row["latency_datapath"] == !d.value("streaming", false) &&
            row["format"] == format)
          row["also"].push_back(name);
      continue;
    }
    if (!seen.insert(dir.string()).second) continue;
    const json manifest = json::parse(read_whole_file(dir / "manifest.json"));
    cost::CostPoint p = cost::cost_point_from_manifest(manifest);
    p.target = t.name;
    cost::CostEstimate e;
    try {
      e = cost::estimate_cost(p);
    } catch (const Error& err) {
      // The chosen designs were costed by the same model in the exploration; the fixed-point one may use a unit the
      // device's tables lack (a divider at a latency not measured): it is left out, and the section says why.
      if (!fixed) throw;
      not_costed = name + ": " + err.what();
      continue;
    }
    const cost::TargetFit fit = cost::target_fit(e);
    const bool throughput = d["objective"] == "throughput";
    const int cycles = d["explore"][throughput ? "set_point_cycles" : "eval_cycles"].get<int>();
    // A latency datapath (every latency pick, and a throughput pick without a routable streaming datapath): its
    // cycles are one evaluation's, so its time is a latency.
    json row{{"name", name}, {"format", format}, {"objective", throughput ? "throughput" : "latency"}, {"cycles", cycles},
             {"io_cycles", d["explore"].value("io_cycles", 0)},
             {"latency_datapath", !d.value("streaming", false)},
             {"dir", dir.filename().string()}, {"point", d["point"]}, {"also", json::array()},
             {"model", {{"period_ns", e.period_ns}, {"fmax_mhz", e.fmax_mhz()}, {"lut", std::round(e.lut)},
                        {"dsp", e.dsp}, {"fits", fit.fits}, {"routable", fit.routable}, {"time_ns", cycles * e.period_ns},
                        {"critical", e.critical}}}};
    if (!fit.fits) row["model"]["overflow"] = fit.overflow;
    if (!fit.unroutable.empty()) row["model"]["unroutable"] = fit.unroutable;
    // Only what the model says fits and is within the routed envelope is placed here: a design over the device would
    // take Yosys its whole run to refuse, and one beyond the envelope can keep nextpnr's router going for hours.
    // Seed 1's placement is the figure of record. Where it is not cached, another seed's is read (a design whose
    // seed-1 placement did not route is committed at the seed that did: data/README.md), and the row names the seed;
    // only then is seed 1 run, with --pnr, under its time limit.
    const bool run_tools = ctx.opt.pnr && fit.routable;
    if (run_tools) ctx.progress.detail(name + " (place and route on " + t.part + ")");
    json placed = placed_figures(ctx, t, dir, cycles, run_tools);
    if (placed.contains("time_ns")) {
      placed["model_error_percent"] = {{"period", cost::percent_error(e.period_ns, placed["period_ns"].get<double>())},
                                       {"lut", cost::percent_error(e.lut, placed["lut"].get<double>())},
                                       {"dsp", cost::percent_error(e.dsp, placed["dsp"].get<double>())}};
    } else if (!fit.routable && placed["status"] == kNotPlacedYet) {
      placed["status"] = !fit.fits ? "not placed: the model says it does not fit (" + fit.overflow + ")"
                                   : "not placed: beyond what has been measured to route (" + fit.unroutable + ")";
    }
    row["placed"] = placed;
    rows.push_back(row);
  }
  const json lever_rows = place_levers(ctx, t, designs, rows);
  json device{{"target", t.name}, {"part", t.part},
              {"model", "cost::estimate_cost on " + t.name + " (docs/cost.md: neaccel area --model --target " + t.name + ")"},
              {"designs", rows}};
  if (!lever_rows.empty()) device["levers"] = lever_rows;
  if (!not_costed.empty()) device["not_costed"] = not_costed;
  const json bound = units_bound(ctx, ctx.data.at("explore")["points"], t.name);
  if (!bound.is_null()) device["bound"] = bound;
  const json deep_bound = bound.is_null() ? json() : deep_units_bound(ctx, t.name);
  if (!deep_bound.is_null()) device["bound"]["deep"] = deep_bound;
  ctx.data.put("device", device);

  Report& r = ctx.report;
  r.heading(3, "On a device that holds them: " + t.part);
  r.para("The exploration and the choice above rank by the " + t.name + " device model (fitted on whole designs "
         "placed and routed on the " + t.part + ": `neaccel area --model --target " + t.name + "`, docs/cost.md), on "
         "the explored point. Here each chosen design is costed by it again on the design as generated (its own "
         "binding and multiplexers) and, where it has been placed and routed (the committed results in "
         "data/pnr-cache, or `--pnr`), by the placed clock and resources; so is the fastest design in " +
         std::string(kFixedBound) + " (section 6: the same schedule on the fixed-point units). Times are the "
         "design's cycles (one evaluation; the throughput design: between set points) at that clock.");
  std::vector<std::vector<Cell>> table;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string at = fmt::format("/designs/{}", i);
    const json& row = rows[i];
    std::string label = row["name"].get<std::string>();
    for (const auto& also : row["also"]) label += ", " + also.get<std::string>();
    if (row["placed"].value("seed", 1) != 1) label += " (" + seed_note(row["placed"]["seed"].get<int>()) + ")";
    std::vector<Cell> cells{Report::label(label), r.num("device", at + "/cycles"),
                            r.num("device", at + "/model/fmax_mhz", 1), r.num("device", at + "/model/lut", 0),
                            r.num("device", at + "/model/dsp", 0), r.num("device", at + "/model/time_ns", 0)};
    if (row["placed"].contains("fmax_mhz")) {
      // Each placed figure with its digits after the point (-1: as stored, the integer counts).
      const std::pair<const char*, int> placed[] = {
          {"/placed/fmax_mhz", 1}, {"/placed/lut", -1}, {"/placed/lut_percent", 1}, {"/placed/dsp", -1},
          {"/placed/time_ns", 0}, {"/placed/model_error_percent/period", 1}, {"/placed/model_error_percent/lut", 1}};
      for (const auto& [field, digits] : placed) cells.push_back(r.num("device", at + field, digits));
    } else {
      cells.push_back(Report::label(row["placed"]["status"].get<std::string>()));
      for (int k = 0; k < 6; ++k) cells.push_back(Report::label(""));
    }
    table.push_back(cells);
  }
  r.table({"design", "cycles", "model: MHz", "model: LUT4", "model: DSP", "model: ns", "placed: Fmax (MHz)",
           "placed: LUT4", "LUT4 (% of device)", "placed: DSP", "placed: ns", "model error, period (%)",
           "model error, LUT4 (%)"},
          table);
  if (!not_costed.empty()) r.para("Not in the table, the device model having no figure for it: {}.", {r.num("device", "/not_costed")});
  if (!lever_rows.empty()) {
    r.para("The fastest design again, with the hardwired datapath's pipelining options (`neaccel rtl --decode "
           "registered`: every select and enable of the compute phase from a flip-flop, decoded a program word "
           "ahead; `--operand-regs`: a register after each unit port's multiplexer, the first of the unit's cycles, "
           "the unit one stage shorter; docs/datapath.md), and with an input port of four words per cycle "
           "(`--in-words 4`: the inputs load in a quarter of the cycles). The program is the same, the Verilog is "
           "not: section 6 co-simulates each. The device model does not cover them, so they are not explored or "
           "chosen; here they are placed and routed like the chosen designs.");
    std::vector<std::vector<Cell>> lt;
    for (std::size_t i = 0; i < lever_rows.size(); ++i) {
      const std::string at = fmt::format("/levers/{}", i);
      const json& row = lever_rows[i];
      std::string label = row["lever"].get<std::string>();
      if (row["placed"].value("seed", 1) != 1) label += " (" + seed_note(row["placed"]["seed"].get<int>()) + ")";
      std::vector<Cell> cells{Report::label(label), r.num("device", at + "/format"), r.num("device", at + "/cycles")};
      if (row["placed"].contains("time_ns")) {
        for (const auto& [field, digits] : std::initializer_list<std::pair<const char*, int>>{
                 {"/placed/fmax_mhz", 2}, {"/placed/lut", -1}, {"/placed/dsp", -1}, {"/placed/time_ns", 1}})
          cells.push_back(r.num("device", at + field, digits));
      } else {
        cells.push_back(Report::label(row["placed"]["status"].get<std::string>()));
        for (int k = 0; k < 3; ++k) cells.push_back(Report::label(""));
      }
      if (row.contains("without")) {
        cells.push_back(r.num("device", at + "/without/time_ns", 1));
        cells.push_back(row.contains("speedup") ? r.num("device", at + "/speedup", 2) : Report::label("-"));
      } else {
        cells.push_back(Report::label("not placed"));
        cells.push_back(Report::label("-"));
      }
      lt.push_back(cells);
    }
    r.table({"options", "format", "cycles", "placed: Fmax (MHz)", "placed: LUT4", "placed: DSP", "placed: ns",
             "without them: ns", "speed-up"},
            lt);
  }
  if (!bound.is_null()) {
    r.para("What no explored design can beat on the " + t.part + ": one evaluation's critical path through the "
           "graph (the schedule with unlimited units, in cycles at the unit latencies) at the period of the units' "
           "slowest stage alone (each unit placed and routed on the device with registered inputs), with no cycle of "
           "I/O and no delay of multiplexers, control or routing between units. The least is {} ns, at latencies "
           "{}/{}; a design's own clock and I/O cycles only add to it." +
               std::string(bound.contains("fixed")
                               ? std::string(" Beside it, the same schedules on the ") + kFixedBound +
                                     " units (the format section 6 also builds): the cycles are the same, the "
                                     "units' clock is theirs."
                               : std::string()),
           {r.num("device", "/bound/ns", 0), r.num("device", "/bound/lat_mul"), r.num("device", "/bound/lat_add")});
    std::vector<std::vector<Cell>> bt;
    const json& by = bound["by_latency"];
    for (std::size_t i = 0; i < by.size(); ++i) {
      const std::string at = fmt::format("/bound/by_latency/{}", i);
      std::vector<Cell> row{r.num("device", at + "/lat_mul"), r.num("device", at + "/lat_add"),
                            r.num("device", at + "/critical_path"), r.num("device", at + "/unit_fmax_mhz", 1),
                            r.num("device", at + "/ns", 0)};
      if (by[i].contains("fixed")) {
        row.push_back(r.num("device", at + "/fixed/unit_fmax_mhz", 1));
        row.push_back(r.num("device", at + "/fixed/ns", 0));
      } else {
        row.push_back(Report::label("-"));
        row.push_back(Report::label("-"));
      }
      for (std::size_t k = 0; k < std::size(kIoPortWords); ++k)
        row.push_back(by[i].contains("io") ? r.num("device", at + fmt::format("/io/{}/hidden_io", k))
                                           : Report::label("-"));
      bt.push_back(row);
    }
    r.table({"lat mul", "lat add", "critical path (cycles)", "fp32 units alone: MHz", "fp32 bound (ns)",
             std::string(kFixedBound) + " units alone: MHz", std::string(kFixedBound) + " bound (ns)",
             "I/O no schedule hides, 1-word port (cycles)", "the same, 4-word port (cycles)"},
            bt);
    r.para("The last two columns: with the inputs loaded while the recursion runs (each used from the cycle after "
           "its word arrives, the words ordered by how long a path follows them) and each output leaving, one word "
           "per cycle, as soon as it is computed, the cycles from the first input word to the last output word that "
           "no schedule on any number of units undercuts, less the critical path (sched::io_overlap, "
           "docs/scheduling.md). The designs above load every input before the recursion starts and unload after it.");
    if (!deep_bound.is_null())
      r.para("On the deep units (the same arithmetic bit for bit, the pipeline cut at the device's DSP and "
             "carry-chain registers: docs/units.md, \"Deep units\"; not yet in a datapath of the generator), over "
             "every pair of their measured latencies, the same bound is {} ns in binary32 (latencies {}/{}: {} cycles "
             "at {} MHz) and {} ns in " + std::string(kFixedBound) + " (latencies {}/{}: {} cycles at {} MHz). With "
             "the inputs loaded while the recursion runs through a four-word port and the outputs leaving as they are "
             "computed, first input word to last output word: at least {} cycles, {} ns, in binary32 and {} cycles, "
             "{} ns, in " + std::string(kFixedBound) + ".",
             {r.num("device", "/bound/deep/fp32/ns", 0), r.num("device", "/bound/deep/fp32/lat_mul"),
              r.num("device", "/bound/deep/fp32/lat_add"), r.num("device", "/bound/deep/fp32/critical_path"),
              r.num("device", "/bound/deep/fp32/unit_fmax_mhz", 1),
              r.num("device", "/bound/deep/fixed/ns", 0),
              r.num("device", "/bound/deep/fixed/lat_mul"),
              r.num("device", "/bound/deep/fixed/lat_add"),
              r.num("device", "/bound/deep/fixed/critical_path"),
              r.num("device", "/bound/deep/fixed/unit_fmax_mhz", 1), r.num("device", "/bound/deep/fp32/with_io/cycles"),
              r.num("device", "/bound/deep/fp32/with_io/ns", 0), r.num("device", "/bound/deep/fixed/with_io/cycles"),
              r.num("device", "/bound/deep/fixed/with_io/ns", 0)});
  if (!deep_bound.is_null() && deep_bound["fixed"].contains("throughput") && !deep_bound["fixed"]["throughput"].is_null())
    r.para("And in set points per second: a streaming design of the deep " + std::string(kFixedBound) +
               " units needs ceil(M / II) multipliers of {} DSP blocks each for the graph's {} multiplications, of the "
               "device's {}: II >= {}; its units' LUT4 alone within the device's: II >= {}; the four-word input port "
               "and the one-word output port ({} inputs, {} outputs): II >= {}. At II = {} and the units' {} MHz, at "
               "most {} set points per second, on {} multipliers and {} adders.",
           {r.num("device", "/bound/deep/fixed/throughput/dsp_per_multiplier"),
            r.num("device", "/bound/deep/fixed/throughput/multiplications"),
            r.num("device", "/bound/deep/fixed/throughput/device_dsp"), r.num("device", "/bound/deep/fixed/throughput/ii_dsp"),
            r.num("device", "/bound/deep/fixed/throughput/ii_lut"), r.num("device", "/bound/deep/fixed/throughput/inputs"),
            r.num("device", "/bound/deep/fixed/throughput/outputs"), r.num("device", "/bound/deep/fixed/throughput/ii_io"),
            r.num("device", "/bound/deep/fixed/throughput/ii"), r.num("device", "/bound/deep/fixed/throughput/fmax_mhz", 1),
            r.num("device", "/bound/deep/fixed/throughput/evaluations_per_s", 2),
            r.num("device", "/bound/deep/fixed/throughput/multipliers"),
            r.num("device", "/bound/deep/fixed/throughput/adders")});
  }
}

namespace {
// The chosen binary32 latency datapath placed and routed in the least time (device.json's row index), or -1 when
// none was.
std::ptrdiff_t fastest_placed_row(const json& rows) {
  std::ptrdiff_t best = -1;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i]["format"] == "fp32" && rows[i]["latency_datapath"].get<bool>() && rows[i]["placed"].contains("time_ns") &&
        (best < 0 || rows[i]["placed"]["time_ns"].get<double>() <
                         rows[static_cast<std::size_t>(best)]["placed"]["time_ns"].get<double>()))
      best = static_cast<std::ptrdiff_t>(i);
  return best;
}
}  // namespace

json fastest_placed(const Context& ctx) {
  if (!ctx.data.has("device")) return nullptr;
  const json& dev = ctx.data.at("device");
  const std::ptrdiff_t best = fastest_placed_row(dev["designs"]);
  if (best < 0) return nullptr;
  const json* row = &dev["designs"][static_cast<std::size_t>(best)];
  const json& ex = ctx.data.at("explore")["points"][(*row)["point"].get<std::size_t>()];
  int lat_mul = ex["lat_mul"], lat_add = ex["lat_add"];
  // The fastest design's levers (registered decode, operand registers, the wider port, the deep units), built,
  // co-simulated and placed like it, in either format: where one is faster placed, it is the study's fastest design.
  static const json kNone = json::array();
  for (const auto& l : dev.contains("levers") ? dev["levers"] : kNone)
    if (l["placed"].contains("time_ns") && l["placed"]["time_ns"].get<double>() < (*row)["placed"]["time_ns"].get<double>()) {
      row = &l;
      lat_mul = l["lat_mul"];
      lat_add = l["lat_add"];
    }
  const json& pl = (*row)["placed"];
  json out{{"design", (*row)["name"]}, {"format", (*row)["format"]}, {"point", dev["designs"][static_cast<std::size_t>(best)]["point"]},
           {"part", dev["part"]}, {"arch", ex["arch"]}, {"mul", ex["mul"]}, {"add", ex["add"]}, {"lat_mul", lat_mul},
           {"lat_add", lat_add}, {"cycles", (*row)["cycles"]}, {"time_ns", pl["time_ns"]}, {"fmax_mhz", pl["fmax_mhz"]},
           {"lut", pl["lut"]}, {"lut_percent", pl["lut_percent"]}, {"dsp", pl["dsp"]}};
  if (row->contains("lever")) out["lever"] = (*row)["lever"];
  return out;
}

void device_summary(Context& ctx) {
  if (!ctx.data.has("device")) return;
  const json& dev = ctx.data.at("device");
  const json& rows = dev["designs"];
  if (rows.empty() || rows[0]["objective"] != "latency") return;
  Report& r = ctx.report;
  const std::string part = dev["part"].get<std::string>();
  if (rows[0]["placed"].contains("fmax_mhz"))
    r.para("- On the " + part + ", placed and routed (nextpnr): the lowest-latency design takes {} ns ({} cycles at "
           "{} MHz; {} LUT4, {} % of the device; {} DSP blocks). Its device model estimated {} MHz and {} LUT4 "
           "(errors {} % and {} %).",
           {r.num("device", "/designs/0/placed/time_ns", 1), r.num("device", "/designs/0/cycles"),
            r.num("device", "/designs/0/placed/fmax_mhz", 2), r.num("device", "/designs/0/placed/lut"),
            r.num("device", "/designs/0/placed/lut_percent", 1), r.num("device", "/designs/0/placed/dsp"),
            r.num("device", "/designs/0/model/fmax_mhz", 2), r.num("device", "/designs/0/model/lut", 0),
            r.num("device", "/designs/0/placed/model_error_percent/period", 1),
            r.num("device", "/designs/0/placed/model_error_percent/lut", 1)});
  else
    r.para("- On the " + part + ", by its device model ({}): the lowest-latency design takes {} ns ({} cycles at an estimated {} MHz; {} LUT4, {} DSP blocks; fits: {}).",
           {r.num("device", "/designs/0/placed/status"), r.num("device", "/designs/0/model/time_ns", 1),
            r.num("device", "/designs/0/cycles"), r.num("device", "/designs/0/model/fmax_mhz", 2),
            r.num("device", "/designs/0/model/lut", 0), r.num("device", "/designs/0/model/dsp", 0),
            r.num("device", "/designs/0/model/fits")});
  if (dev.contains("bound"))
    r.para("- No explored design can take less than {} ns on it: the graph's critical path ({} cycles at latencies "
           "{}/{}) at the clock of its units alone ({} MHz), without I/O, multiplexers or control (section 7). "
           "{} of the lowest-latency design's {} cycles are I/O, one word per cycle.",
           {r.num("device", "/bound/ns", 0), r.num("device", "/bound/critical_path"), r.num("device", "/bound/lat_mul"),
            r.num("device", "/bound/lat_add"), r.num("device", "/bound/unit_fmax_mhz", 1),
            r.num("device", "/designs/0/io_cycles"), r.num("device", "/designs/0/cycles")});
  if (dev.contains("bound") && dev["bound"].contains("fixed"))
    r.para("- The same bound on the " + dev["bound"]["fixed"]["format"].get<std::string>() + " units: {} ns ({} cycles "
           "at latencies {}/{}, units alone at {} MHz).",
           {r.num("device", "/bound/fixed/ns", 0), r.num("device", "/bound/fixed/critical_path"),
            r.num("device", "/bound/fixed/lat_mul"), r.num("device", "/bound/fixed/lat_add"),
            r.num("device", "/bound/fixed/unit_fmax_mhz", 1)});
  // The fastest design in fixed point, where it was costed: placed and routed, or by the model; with its error
  // against double from its simulation (data/verify.json), which is what the format costs.
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]["format"] == "fp32") continue;
    const std::string at = fmt::format("/designs/{}", i);
    std::vector<Cell> c;
    std::string text = "- The same design in " + rows[i]["format"].get<std::string>() + " (section 6";
    const std::ptrdiff_t k = verify_run(ctx, rows[0]["name"], rows[i]["format"]);
    if (k >= 0 && ctx.data.at("verify")["runs"][static_cast<std::size_t>(k)]["max_rel_error"].is_number()) {
      text += ": torques within {} of double, relative";
      c.push_back(r.num("verify", fmt::format("/runs/{}/max_rel_error", k), 2));
    }
    if (rows[i]["placed"].contains("time_ns")) {
      const int seed = rows[i]["placed"].value("seed", 1);
      text += "), placed and routed" + (seed == 1 ? std::string() : " (" + seed_note(seed) + ")") +
              ": {} ns ({} cycles at {} MHz; {} LUT4, {} % of the device; {} DSP blocks).";
      for (const auto& [field, digits] : std::initializer_list<std::pair<const char*, int>>{
               {"/placed/time_ns", 1}, {"/cycles", -1}, {"/placed/fmax_mhz", 2}, {"/placed/lut", -1},
               {"/placed/lut_percent", 1}, {"/placed/dsp", -1}})
        c.push_back(r.num("device", at + field, digits));
    } else {
      text += "), by the device model ({}): {} ns ({} cycles at an estimated {} MHz; {} LUT4, {} DSP blocks).";
      for (const auto& [field, digits] : std::initializer_list<std::pair<const char*, int>>{
               {"/placed/status", -1}, {"/model/time_ns", 1}, {"/cycles", -1}, {"/model/fmax_mhz", 2},
               {"/model/lut", 0}, {"/model/dsp", 0}})
        c.push_back(r.num("device", at + field, digits));
    }
    r.para(text, c);
  }
  // The pipelining options, per format the fastest placed (section 7): measured only, the model has no figure.
  if (dev.contains("levers"))
    for (const std::string& format : lever_formats()) {
      std::ptrdiff_t best = -1;
      const json& lv = dev["levers"];
      for (std::size_t i = 0; i < lv.size(); ++i)
        if (lv[i]["format"] == format && lv[i].contains("speedup") &&
            (best < 0 || lv[i]["placed"]["time_ns"].get<double>() <
                             lv[static_cast<std::size_t>(best)]["placed"]["time_ns"].get<double>()))
          best = static_cast<std::ptrdiff_t>(i);
      if (best < 0) continue;
      const std::string at = fmt::format("/levers/{}", best);
      r.para("- With " + lv[static_cast<std::size_t>(best)]["lever"].get<std::string>() + " (section 7: placed and "
             "routed, not in the device model), the lowest-latency design in " + format + " takes {} ns ({} cycles at "
             "{} MHz; {} LUT4), {} times as fast as the same design without ({} ns).",
             {r.num("device", at + "/placed/time_ns", 1), r.num("device", at + "/cycles"),
              r.num("device", at + "/placed/fmax_mhz", 2), r.num("device", at + "/placed/lut"),
              r.num("device", at + "/speedup", 2), r.num("device", at + "/without/time_ns", 1)});
    }
  // The device model ranks within its own period error: where place and route finds another chosen latency datapath
  // faster than the model's lowest-latency one, the summary says which, at its placed clock.
  if (const std::ptrdiff_t best = fastest_placed_row(rows); best > 0) {
    const std::string at = fmt::format("/designs/{}", best);
    r.para("- Placed and routed, the fastest of the chosen latency datapaths is \"" +
               rows[static_cast<std::size_t>(best)]["name"].get<std::string>() +
               "\": {} ns ({} cycles at {} MHz; {} LUT4, {} % of the device; {} DSP blocks), where the device model "
               "had estimated {} ns.",
           {r.num("device", at + "/placed/time_ns", 1), r.num("device", at + "/cycles"),
            r.num("device", at + "/placed/fmax_mhz", 2), r.num("device", at + "/placed/lut"),
            r.num("device", at + "/placed/lut_percent", 1), r.num("device", at + "/placed/dsp"),
            r.num("device", at + "/model/time_ns", 1)});
  }
}

}  // namespace neaccel::study
