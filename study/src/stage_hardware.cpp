// Stages 5-7: named design points, their RTL, co-simulation and synthesis.
#include "context.hpp"
#include "neaccel/study/choose.hpp"
#include "neaccel/cost/yosys_script.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"
#include "neaccel/cost/area.hpp"
#include "neaccel/cost/timing.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/source.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/dfg/depth.hpp"
#include "neaccel/cost/cost.hpp"

#include <fmt/format.h>

#include <iostream>
#include <limits>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <future>
#include <map>
#include <optional>
#include <utility>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace neaccel::study {

namespace fs = std::filesystem;

namespace {
using nlohmann::json;

// A candidate of the choice: a verified point of the customised graph that fits the device (routed_only: and lies
// within what has routed on it; stage_explore wrote within_budget and fits_budget: cost::timing_json), keeping
// --budget-lut / --budget-dsp and --budget.
bool candidate(const json& r, double max_area, bool routed_only) {
  const bool fits = !r.contains("target") || r["target"][routed_only ? "within_budget" : "fits_budget"].get<bool>();
  return r["flavour"] == "custom" && r["verified"].get<bool>() && fits &&
         (max_area <= 0 || r["area"].get<double>() <= max_area);
}
// What "smallest" counts: LUT4 on the device where the rows carry one, else generic cells.
double size_of(const json& r) {
  return r.contains("target") ? r["target"]["latency"]["lut"].get<double>() : r["area"].get<double>();
}
// A point's latency datapath delivers one set point per evaluation: set points per second per size_of.
double tpa_latency(const json& r) { return 1e9 / r["latency_ns"].get<double>() / size_of(r); }
// Throughput per area of a point's throughput design, in the device's own resource where the rows carry one (set
// points per second per LUT4 of the throughput design, as "smallest" counts LUT4), else per generic cell.
double tpa_throughput(const json& r) {
  return r.contains("target") ? r["target"]["throughput_per_s_per_lut"].get<double>()
                              : r["throughput_per_s_per_cell"].get<double>();
}

// routed_only false: the fallback of choose_designs (choose.hpp) when no point is within what has routed.
json choose(const json& rows, double max_area, bool budgets, bool routed_only = true) {
  auto ok = [&](const json& r) { return candidate(r, max_area, routed_only); };
  auto at = [&](std::ptrdiff_t i) -> const json& { return rows[static_cast<std::size_t>(i)]; };
  auto key = [&](const json& r) { return std::make_pair(r["latency_ns"].get<double>(), size_of(r)); };
  std::ptrdiff_t fastest = -1, smallest = -1, best_tpa = -1;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (ok(rows[i]) && (fastest < 0 || key(rows[i]) < key(at(fastest)))) fastest = static_cast<std::ptrdiff_t>(i);
  if (fastest < 0 && routed_only) {
    json out = choose(rows, max_area, budgets, false);
    for (auto& d : out) d["beyond_routed"] = true;
    return out;
  }
  if (fastest < 0)
    throw Error(max_area > 0 ? fmt::format("study: no verified design fits the budget of {} cells and the device", max_area)
                : budgets
                    ? std::string("study: no verified design fits the device within --budget-lut/--budget-dsp")
                    : std::string("study: no verified design fits the device (--target)"));
  const double fast_ns = at(fastest)["latency_ns"];
  // A point's latency datapath (tpa_latency) competes for best throughput per area beside the point's throughput
  // design (its streaming datapath when it streams), since streaming pays for its II with register copies and wider
  // multiplexers, and on a device that can cost more area than it gains in rate.
  bool best_is_latency = false;
  double best_value = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!ok(rows[i])) continue;
    const auto& r = rows[i];
    if (r["latency_ns"].get<double>() <= fast_ns * 1.1 &&
        (smallest < 0 || size_of(r) < size_of(at(smallest))))
      smallest = static_cast<std::ptrdiff_t>(i);
    // Its throughput design too (the streaming datapath is the larger) must fit, route and keep the budgets.
    const bool throughput_fits = !r.contains("target") || !routed_only ||
                                 r["target"]["throughput_within_budget"].get<bool>();
    if (throughput_fits && (best_tpa < 0 || tpa_throughput(r) > best_value)) {
      best_tpa = static_cast<std::ptrdiff_t>(i);
      best_value = tpa_throughput(r);
      best_is_latency = false;
    }
    if (tpa_latency(r) > best_value) {
      best_tpa = static_cast<std::ptrdiff_t>(i);
      best_value = tpa_latency(r);
      best_is_latency = true;
    }
  }
  // Every candidate's latency datapath competes, so a candidate is always chosen; a NaN figure would leave none.
  if (best_tpa < 0) throw Error("study: no verified design has a throughput per area to rank (a NaN figure?)");
  json out = json::array();
  out.push_back({{"name", "fastest"}, {"point", fastest}, {"objective", "latency"}});
  out.push_back({{"name", "smallest within 10%"}, {"point", smallest}, {"objective", "latency"}});
  out.push_back({{"name", "best throughput per area"}, {"point", best_tpa},
                 {"objective", best_is_latency ? "latency" : "throughput"}});
  return out;
}
}  // namespace

json choose_designs(const json& rows, double max_area, bool budgets) { return choose(rows, max_area, budgets); }

std::vector<std::size_t> choice_shortlist(const json& rows, double max_area, std::size_t k) {
  std::vector<std::size_t> hardwired;
  double fast_ns = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!candidate(rows[i], max_area, false)) continue;
    fast_ns = std::min(fast_ns, rows[i]["latency_ns"].get<double>());
    if (rows[i].value("arch", std::string()) == "hardwired") hardwired.push_back(i);
  }
  std::vector<std::size_t> out;
  // The first k by `better` (ties: row order) among the hardwired rows `keep` admits.
  auto first = [&](auto keep, auto better) {
    std::vector<std::size_t> v;
    for (std::size_t i : hardwired)
      if (keep(rows[i])) v.push_back(i);
    std::stable_sort(v.begin(), v.end(), [&](std::size_t a, std::size_t b) { return better(rows[a], rows[b]); });
    out.insert(out.end(), v.begin(), v.begin() + static_cast<std::ptrdiff_t>(std::min(k, v.size())));
  };
  auto any = [](const json&) { return true; };
  first(any, [](const json& a, const json& b) { return a["latency_ns"].get<double>() < b["latency_ns"].get<double>(); });
  first([&](const json& r) { return r["latency_ns"].get<double>() <= fast_ns * 1.1; },
        [](const json& a, const json& b) { return size_of(a) < size_of(b); });
  first(any, [](const json& a, const json& b) { return tpa_latency(a) > tpa_latency(b); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::size_t> choice_contenders(const json& rows, const json& picks, const std::map<std::size_t, json>& bounds,
                                           double max_area) {
  auto pick = [&](std::size_t k) -> const json& { return rows[picks.at(k).at("point").get<std::size_t>()]; };
  const bool routed_only = !picks.at(0).value("beyond_routed", false);
  const double fast_ns = pick(0)["latency_ns"].get<double>(), small = size_of(pick(1));
  const json& best = pick(2);
  const double best_value = picks.at(2)["objective"] == "latency" ? tpa_latency(best) : tpa_throughput(best);
  std::vector<std::size_t> out;
  for (const auto& [i, b] : bounds) {
    if (!candidate(b, max_area, routed_only)) continue;
    const double ns = b["latency_ns"].get<double>();
    if (ns < fast_ns || (ns <= fast_ns * 1.1 && size_of(b) < small) || tpa_latency(b) > best_value) out.push_back(i);
  }
  return out;
}

namespace {
// Cycles against registers on the fastest design's unit mix. The point is re-evaluated (sched's
// evaluate_point, the sweep's own) under register limits of 100 % down to 60 % of its unconstrained count: the list
// schedule's length and the register-aware modulo schedule's II and latency.
void register_tradeoff(Context& ctx, const json& pt) {
  sched::Point p{"custom", "custom", pt["mul"], pt["add"], pt["lat_mul"], pt["lat_add"], pt["pipelined"], 0};
  p.div = pt.value("div", 0);  // the function's dividers
  p.lat_div = pt.value("lat_div", 0);
  p.div_pipelined = pt.value("div_pipelined", false);
  const auto classes = sched::point_classes(p);
  dfg::DepthSetting depth;
  depth.on = ctx.opt.depth;
  depth.lat = {pt["lat_mul"].get<int>(), pt["lat_add"].get<int>(), 0};
  depth.lookahead = ctx.opt.function == "id" ? ctx.opt.lookahead : 0;
  const dfg::Graph g = depth.on && depth.lookahead != 0
                           ? sched::robot_depth_graph(ctx.opt.robot, "custom", depth, classes)
                           : sched::apply_depth(ctx.graphs.at("custom"), depth, classes);
  // The register-aware modulo scheduler tries every II up to twice the first: minutes per limit on the forward
  // functions' long IIs with a busy divider (measured: over 5 minutes on puma560 fd), so the other functions get
  // the list schedules only ("not computed" in the streaming columns).
  sched::SweepOptions so;
  so.modulo = ctx.opt.function == "id";
  const sched::PointResult free = sched::evaluate_point(g, p, so);
  json rows = json::array();
  // A limit no schedule met reads "none" (the schedulers' 0 is "no schedule", not a figure).
  auto figure = [&](int v) { return !so.modulo ? json("not computed") : v > 0 ? json(v) : json("none"); };
  for (int pct : {100, 90, 80, 70, 60}) {
    p.max_registers = std::max(1, free.registers * pct / 100);
    const sched::PointResult r = pct == 100 ? free : sched::evaluate_point(g, p, so);
    const bool listed = r.length > 0;
    rows.push_back({{"percent", pct}, {"max_registers", pct == 100 ? 0 : p.max_registers},
                    {"registers", listed ? json(r.registers) : json("none")},
                    {"length", listed ? json(r.length) : json("none")}, {"verified", r.verified},
                    {"ii", figure(r.ii)}, {"modulo_latency", figure(r.modulo_latency)}});
  }
  ctx.data.put("register_tradeoff", {{"mul", pt["mul"]}, {"add", pt["add"]}, {"rows", rows}});
  Report& r = ctx.report;
  r.para(fmt::format("Cycles against registers on the fastest design's units ({} mul + {} add, latencies {}/{}; issue "
                     "16): the list and modulo schedulers under a register limit of 100 % down to 60 % of the "
                     "unconstrained count. Length \"none\": the register-aware list scheduler (a heuristic) found no "
                     "schedule at that limit; II \"none\": no modulo schedule up to twice the II (registers counted as max live, what "
                     "modulo variable expansion needs at least).{}", pt["mul"].get<int>(), pt["add"].get<int>(),
                     pt["lat_mul"].get<int>(), pt["lat_add"].get<int>(),
                     so.modulo ? "" : " Streaming columns \"not computed\": the register-aware modulo scheduler "
                                      "takes minutes per limit on this function's long IIs (list schedules only)."));
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string q = "/rows/" + std::to_string(i);
    t.push_back({r.num("register_tradeoff", q + "/percent"), r.num("register_tradeoff", q + "/max_registers"),
                 r.num("register_tradeoff", q + "/registers"), r.num("register_tradeoff", q + "/length"),
                 r.num("register_tradeoff", q + "/ii"), r.num("register_tradeoff", q + "/modulo_latency")});
  }
  r.table({"limit (%)", "max registers (0 = none)", "registers (list)", "list length (cycles)", "streaming II",
           "streaming latency"}, t);
}
}  // namespace

void stage_designs(Context& ctx) {
  ctx.progress.stage("Design choice");
  const json& rows = ctx.data.at("explore")["points"];
  json designs = choose_designs(rows, ctx.opt.max_area, ctx.opt.budget_lut > 0 || ctx.opt.budget_dsp > 0);
  for (auto& d : designs) {
    d["explore"] = rows[d["point"].get<std::size_t>()];
    const bool tp = d["objective"] == "throughput";
    // The area of the design as named: the throughput pick is the design that sustains its throughput.
    d["area"] = d["explore"][tp ? "throughput_area" : "area"];
    d["device"] = cost::device_fit_cells(d["area"].get<double>()).to_json();
    // The throughput pick is generated as the datapath that sustains its throughput; the others (and a throughput
    // pick whose latency datapath has the better throughput per area) as the latency datapath.
    const bool streams = tp && d["explore"]["throughput_mode"] == "streaming";
    d["streaming"] = streams;
    d["throughput_per_s"] = tp ? d["explore"]["throughput_per_s"].get<double>()
                               : 1e9 / d["explore"]["latency_ns"].get<double>();
    d["throughput"] = streams ? fmt::format("streaming, a set point every {} cycles", d["explore"]["set_point_cycles"].get<int>())
                              : fmt::format("latency datapath, one set point per {} cycles",
                                            d["explore"][tp ? "set_point_cycles" : "eval_cycles"].get<int>());
  }
  ctx.data.put("designs", {{"designs", designs}});
  Report& r = ctx.report;
  r.heading(2, "5. Chosen designs" + function_suffix(ctx.opt.function));
  const bool device = cost::target(ctx.opt.target).has_device_model();
  if (designs[0].value("beyond_routed", false)) {
    const std::string part = cost::target(ctx.opt.target).part;
    const std::string why = "no explored design is within what has been measured to route on the " + part +
                            " (`neaccel area --routability --target " + ctx.opt.target +
                            "`): the designs below fit it by the device model but are larger, or have wider operand "
                            "multiplexers, than any design of their architecture that has routed there or that the model is "
                            "fitted on";
    std::cerr << "neaccel: note: study: " << why << "\n";
    r.para("**Beyond what has routed.** " + why + ". Their figures are the model's; `--pnr` places only those within what has routed.");
  }
  r.para("Three named points of the customised graph's exploration, chosen by time" +
         std::string(device ? " at the clock of the device model, among the points that fit the device (section 4)" : "") +
         ": fastest is the smallest latency in nanoseconds; smallest within 10% the smallest " +
         (device ? "design in LUT4 on the device" : "area") + " within 10% of that latency; best throughput per area "
         "the most set points per second per " + std::string(device ? "LUT4 on the device" : "cell") +
         " of the design that sustains them: a point's streaming datapath, or its latency datapath (one set point per "
         "evaluation), whichever gives more per " + std::string(device ? "LUT4" : "cell") + ". A point without a modulo "
         "schedule (not pipelined) delivers its throughput as a latency datapath.");
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < designs.size(); ++i) {
    const std::string p = "/designs/" + std::to_string(i);
    t.push_back({r.num("designs", p + "/name"), r.num("designs", p + "/explore/mul"), r.num("designs", p + "/explore/add"),
                 r.num("designs", p + "/explore/lat_mul"), r.num("designs", p + "/explore/lat_add"),
                 r.num("designs", p + "/explore/pipelined"), r.num("designs", p + "/explore/cycles"),
                 r.num("designs", p + "/explore/eval_cycles"), r.num("designs", p + "/explore/period_ns", 2),
                 r.num("designs", p + "/explore/latency_ns", 1), r.num("designs", p + "/throughput"),
                 r.num("designs", p + "/throughput_per_s", 0), r.num("designs", p + "/explore/registers"),
                 r.num("designs", p + "/area", 0)});
  }
  r.table({"design", "mul", "add", "lat mul", "lat add", "pipelined", "schedule (cycles)", "cycles incl. I/O",
           "period (ns)", "latency (ns)", "throughput from", "set points / s", "registers", "area (cells)"}, t);
  if (!designs.empty() && designs[0]["explore"].contains("div")) {  // a dividing function
    std::vector<Cell> cells;
    std::string text = "Dividers of the chosen designs (function `" + ctx.opt.function + "`; latency, and pipelined or not, "
                       "as in section 4):";
    for (std::size_t i = 0; i < designs.size(); ++i) {
      const std::string p = "/designs/" + std::to_string(i);
      text += std::string(i ? ";" : "") + " {}: {} divider(s), latency {}, pipelined {}";
      for (const char* k : {"/name", "/explore/div", "/explore/lat_div", "/explore/div_pipelined"})
        cells.push_back(r.num("designs", p + k));
    }
    r.para(text + ".", cells);
  }
  r.note("Area and \"throughput from\": of the design each name is generated as, the latency datapath except for a "
         "best throughput per area that streams, whose area is that of its streaming datapath. Sections 6 and 7 "
         "generate, verify and synthesise that datapath: the streaming one (at its smallest II) for a streaming pick, "
         "else the latency datapath.");
  register_tradeoff(ctx, designs[0]["explore"]);
  ctx.progress.done(fmt::format("fastest: {:.1f} ns", designs[0]["explore"]["latency_ns"].get<double>()));
}

namespace {
// Runs this executable (the neaccel CLI) with arguments; returns its standard output. Throws on failure with the
// command's last error line.
std::string run_self(const std::vector<std::string>& args, const fs::path& log) {
  proc::Spawn run;
  run.argv = {fs::read_symlink("/proc/self/exe").string()};
  run.argv.insert(run.argv.end(), args.begin(), args.end());
  run.capture_stdout = true;
  run.stderr_path = log;
  const proc::Result r = proc::run(run);
  if (!r.ok()) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    throw Error("study: `neaccel " + args.front() + "` failed: " + last);
  }
  return r.out;
}

std::string slug(const std::string& name) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

// The --depth value the study passes on: on | off | lookahead[:K].
std::string depth_option(const Options& o) {
  if (!o.depth) return "off";
  if (o.lookahead == 0) return "on";
  return o.lookahead < 0 ? "lookahead" : fmt::format("lookahead:{}", o.lookahead);
}

std::vector<std::string> rtl_args(const Context& ctx, const json& p, const std::string& format, const fs::path& dir,
                                  bool streaming) {
  std::vector<std::string> a = {"rtl", "--robot", ctx.opt.robot, "--flavour", p["flavour"].get<std::string>(),
                                "--mul", std::to_string(p["mul"].get<int>()), "--add", std::to_string(p["add"].get<int>()),
                                "--lat-mul", std::to_string(p["lat_mul"].get<int>()),
                                "--lat-add", std::to_string(p["lat_add"].get<int>()), "--format", format,
                                "--out", dir.string(), "--json", "--depth", depth_option(ctx.opt)};
  if (!p["pipelined"].get<bool>()) a.push_back("--not-pipelined");
  if (ctx.opt.function != "id") a.insert(a.end(), {"--function", ctx.opt.function});
  if (p.value("div", 0) > 0) {
    a.insert(a.end(), {"--div", std::to_string(p["div"].get<int>()), "--lat-div", std::to_string(p["lat_div"].get<int>())});
    if (p["div_pipelined"].get<bool>()) a.push_back("--div-pipelined");
  }
  const std::string arch = p.value("arch", std::string("microcoded"));
  a.insert(a.end(), {"--arch", arch});
  // The hardwired datapath of a latency design is built with the binding made for it (docs/binding.md); streaming
  // designs keep left-edge (the interconnect-aware binding covers latency datapaths only).
  if (arch == "hardwired" && !streaming) a.insert(a.end(), {"--binding", "interconnect"});
  if (streaming) {  // the streaming datapath at its smallest II (modulo schedule, raised to the I/O bound)
    a.push_back("--ii");
    a.push_back("min");
  }
  return a;
}

}  // namespace

hw::DesignSpec generated_spec(const Context& ctx, const json& p) {
  hw::DesignSpec s;
  s.robot = ctx.opt.robot;
  s.custom = p["flavour"] == "custom";
  s.format = hw::NumberFormat::parse("fp32");
  s.mul = p["mul"];
  s.add = p["add"];
  s.lat_mul = p["lat_mul"];
  s.lat_add = p["lat_add"];
  s.pipelined = p["pipelined"];
  s.function = ctx.opt.function;
  if (p.value("div", 0) > 0) {
    s.div = p["div"];
    s.lat_div = p["lat_div"];
    s.div_pipelined = p["div_pipelined"];
  }
  const dfg::DepthMode mode = dfg::parse_depth_mode(depth_option(ctx.opt));
  s.depth = mode.on;
  s.lookahead = mode.lookahead;
  s.arch = hw::Arch::Hardwired;
  s.binding = "interconnect";
  return s;
}

namespace {
// What one Yosys `stat` report says about the whole hierarchy: its last "Number of cells" (the design total), the
// flip-flops (cell types naming a DFF) and the black-box instances (cell types naming `blackbox`) of that section.
struct Stat {
  long cells = -1, flip_flops = 0, blackboxes = 0;
};

Stat read_stat(const fs::path& path, const std::string& blackbox) {
  std::ifstream in(path);
  if (!in) throw Error("study: yosys wrote no " + path.string());
  Stat s;
  long ffs = 0, boxes = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string a, b, c;
    ls >> a;
    if (a == "Number" && (ls >> b >> c) && b == "of" && c == "cells:") {
      ls >> s.cells;
      ffs = boxes = 0;
    } else if (a.find("DFF") != std::string::npos || (!blackbox.empty() && a.find(blackbox) != std::string::npos)) {
      long k = 0;
      if (ls >> k) (a.find("DFF") != std::string::npos ? ffs : boxes) += k;
    }
    s.flip_flops = ffs;
    s.blackboxes = boxes;
  }
  if (s.cells < 0) throw Error("study: no cell count in " + path.string());
  return s;
}

void run_yosys(const fs::path& dir, const std::string& stem) {
  proc::Spawn yosys;
  yosys.argv = {"yosys", "-q", "-l", "synth/" + stem + ".log", "-s", "synth/" + stem + ".ys"};
  yosys.cwd = dir;
  const proc::Result r = proc::run(yosys);
  if (r.not_found) throw Error("study: " + proc::missing_tool("yosys"));
  if (!r.ok()) throw Error("study: yosys failed on " + (dir / "synth" / (stem + ".ys")).string());
}

const char* const kFlat = "flat: whole datapath";
const char* const kHier = "hierarchical: units from the unit-area table";

// The FPGA column on a target with a device model: the model's LUT4 and DSP blocks for the design as generated (its
// manifest), against the device; the designs placed and routed on it are in the device table (stage_device).
std::string device_model_text(const json& manifest, const std::string& target) {
  const cost::Target& t = cost::target(target);
  try {
    cost::CostPoint p = cost::cost_point_from_manifest(manifest);
    p.target = t.name;
    const cost::TargetFit f = cost::target_fit(cost::estimate_cost(p));
    return fmt::format("{} by its model: {:.0f} LUT4 ({:.1f} %), {:.0f} DSP blocks{}", t.part, f.lut,
                       100.0 * f.lut / static_cast<double>(f.device_lut), f.dsp,
                       f.fits ? "" : "; does not fit: " + f.overflow);
  } catch (const Error& e) {
    return fmt::format("{} by its model: no estimate ({})", t.part, e.what());
  }
}

// Flat: Yosys generic synthesis of the whole datapath written by `neaccel rtl` (its synth/generic.ys), arithmetic
// units included. On a target with a device model the FPGA column is that model's (device_model_text); on the iCE40
// it is the iCE40 estimate, or with pnr its place and route.
json synthesize_flat(const fs::path& dir, const std::string& name, const json& manifest, const std::string& target,
                     bool pnr) {
  // `neaccel area --design` (docs/cost.md): the design's own synth/generic.ys, cells split into units and the rest
  // from the per-module counts; with --pnr the FPGA view: iCE40 HX8K place and route where the design fits,
  // synth_xilinx -family xc7 resources where it does not.
  const bool on_device = cost::target(target).has_device_model();
  std::vector<std::string> args = {"area", "--design", dir.string(), "--json"};
  if (pnr && !on_device) args.insert(args.end(), {"--pnr", "--target", "ice40-hx8k"});  // the iCE40 and xc7 views
  const json a = json::parse(run_self(args, dir / "area.log"));
  json row = {{"name", name}, {"method", kFlat}, {"cells", a.at("cells")}, {"units", a.at("unit_cells")},
              {"rest", a.at("non_unit_cells")}, {"flip_flops", a.at("flip_flops")}, {"dir", dir.filename().string()},
              {"fpga", on_device ? device_model_text(manifest, target)
                                 : fmt::format("estimated {:.0f} iCE40 logic cells: not placed (neaccel area --design "
                                               "DIR --pnr)",
                                               cost::device_fit_cells(a.at("cells").get<double>()).est_logic_cells)}};
  if (a.contains("pnr") && a["pnr"].is_object()) {
    const json& p = a["pnr"];
    if (p.value("fits", false))
      row["fpga"] = fmt::format("iCE40 HX8K: {} logic cells, {:.1f} MHz (nextpnr)", p.at("logic_cells").get<long>(),
                                p.at("fmax_mhz").get<double>());
    else if (p.contains("xc7"))
      row["fpga"] = fmt::format("does not fit the HX8K; xc7: {} LUT, {} FF, {} DSP48E1, {} BRAM",
                                p["xc7"].value("lut", 0L), p["xc7"].value("ff", 0L), p["xc7"].value("dsp48e1", 0L),
                                p["xc7"].value("bram", 0L));
    row["pnr"] = p;
  }
  return row;
}

// Hierarchical: the same Yosys flow with `nea_unit` read as a black box (`read_verilog -lib`), so only the register
// file, routing multiplexers, sequencer and ROMs are synthesised (per design: they depend on the schedule); each
// arithmetic unit then counts its measured area from data/unit-area.json, synthesised once per unit and latency
// (`neaccel area`).
json synthesize_hier(const fs::path& dir, const std::string& name, const json& manifest) {
  std::string datapath_v, exec_v, unit_v;
  for (const auto& f : manifest.at("files").at("rtl_sources")) {
    const std::string path = f.get<std::string>();
    const std::string file = fs::path(path).filename().string();
    if (file == "nea_datapath.v") datapath_v = path;
    if (file == "nea_exec.v") exec_v = path;
    if (file == "nea_unit.v") unit_v = path;
  }
  if (datapath_v.empty() || unit_v.empty()) throw Error("study: " + (dir / "manifest.json").string() + " lists no nea_datapath.v / nea_unit.v");
  if (exec_v.empty()) throw Error("study: " + (dir / "manifest.json").string() + " lists no nea_exec.v (write the design again with `neaccel rtl`)");
  {
    std::ofstream ys(dir / "synth" / "hier.ys");
    ys << "# Written by `neaccel study`: generic synthesis of the datapath with its arithmetic units (nea_unit) as black\n"
          "# boxes; the study adds each unit's area from data/unit-area.json.\n"
       // Yosys runs in the design directory: the design's files relative to it (HexDir "hex" too), the repository's
       // sources absolute (as the manifest lists them).
       << "read_verilog -defer " << cost::yosys_path(datapath_v) << "\nread_verilog -defer " << cost::yosys_path(exec_v)
       << "\nread_verilog -lib " << cost::yosys_path(unit_v)
       << "\nread_verilog -defer "
       << "rtl/nea_top.v\nhierarchy -check -top nea_top\nsynth -top nea_top\n"
       << "tee -o synth/hier.stat stat\n";
    if (!ys) throw Error("study: cannot write " + (dir / "synth" / "hier.ys").string());
  }
  run_yosys(dir, "hier");
  const Stat s = read_stat(dir / "synth" / "hier.stat", "nea_unit");
  const json& spec = manifest.at("spec");
  const int mul = spec.at("mul"), add = spec.at("add");
  // Dividers are nea_unit instances too, counted at their measured area.
  const int div = spec.contains("div") ? spec["div"].at("units").get<int>() : 0;
  if (s.blackboxes != mul + add + div)
    throw Error(fmt::format("study: {} has {} nea_unit black boxes, the design has {} units",
                            (dir / "synth" / "hier.stat").string(), s.blackboxes, mul + add + div));
  const bool pipelined = spec.at("pipelined");
  const cost::UnitArea m = cost::unit_area("fp32-mul", spec.at("lat_mul"), pipelined), a = cost::unit_area("fp32-add", spec.at("lat_add"), pipelined);
  double units = mul * m.cells + add * a.cells;
  bool measured = m.measured && a.measured;
  if (div > 0) {
    const cost::UnitArea d = cost::unit_area("fp32-div", spec["div"].at("latency").get<int>(), spec["div"].at("pipelined").get<bool>());
    units += div * d.cells;
    measured = measured && d.measured;
  }
  const double rest = static_cast<double>(s.cells - s.blackboxes);
  return {{"name", name}, {"method", kHier}, {"cells", rest + units}, {"units", units}, {"rest", rest},
          {"units_measured", measured}, {"flip_flops", s.flip_flops}, {"dir", dir.filename().string()},
          {"stat", (fs::path(dir.filename()) / "synth/hier.stat").string()}, {"fpga", "-"}};
}

json simulate(Context& ctx, const fs::path& dir, const std::string& engine) {
  const std::string out = run_self({"sim", "--out", dir.string(), "--engine", engine, "--random",
                                    std::to_string(ctx.states()), "--seed", "20261121", "--json", "--quiet"},
                                   dir / ("sim_" + engine + ".log"));
  json j = json::parse(out);
  return j;
}

// The RTL of one design in one number format, written by `neaccel rtl` under designs/; returns its manifest.
json generate_rtl(Context& ctx, const json& point, const std::string& name, const std::string& format,
                  bool streaming = false, const std::vector<std::string>& extra = {}) {
  const fs::path dir = ctx.dir / "designs" / slug(name + "_" + format);
  fs::create_directories(dir);
  std::vector<std::string> args = rtl_args(ctx, point, format, dir, streaming);
  args.insert(args.end(), extra.begin(), extra.end());
  return json::parse(run_self(args, dir / "rtl.log"));
}

fs::path design_dir(const Context& ctx, const std::string& name, const std::string& format) {
  return ctx.dir / "designs" / slug(name + "_" + format);
}

// One design in one number format, its RTL generated: the SystemC model alone, and the Verilog under Verilator
// co-simulated with the SystemC model (`neaccel sim --engine cosim`: compared every cycle, in lockstep or by cycle
// logs) on the same random states; every output must match the graph evaluated in the format bit for bit.
// With with_rtl = false (quick study) only the SystemC model runs.
json verify_design(Context& ctx, const json& manifest, const std::string& name, const std::string& format, bool with_rtl) {
  const fs::path dir = design_dir(ctx, name, format);
  const json sc = simulate(ctx, dir, "systemc");
  const json rtl = with_rtl ? simulate(ctx, dir, "cosim") : sc;
  const bool same_outputs = rtl["torques"] == sc["torques"];
  const bool streaming = rtl["mode"] == "streaming";
  const long cosim_cycles = with_rtl ? rtl["cosim_compared_cycles"].get<long>() : 0;
  const bool same_cycles = !with_rtl || (rtl["cosim_cycle_mismatches"] == 0 && cosim_cycles > 0);
  // Streaming: the results must leave exactly II cycles apart, every one (the simulator measures the spacing).
  const bool steady = !streaming || (rtl["measured"]["ii_min"] == rtl["cycles_per_set_point"] &&
                                     rtl["measured"]["ii_max"] == rtl["cycles_per_set_point"] &&
                                     sc["measured"]["ii_min"] == sc["cycles_per_set_point"] &&
                                     sc["measured"]["ii_max"] == sc["cycles_per_set_point"]);
  const bool ok = rtl["mismatches"] == 0 && sc["mismatches"] == 0 && rtl["cycle_count_errors"] == 0 &&
                  sc["cycle_count_errors"] == 0 && same_outputs && same_cycles && steady;
  if (!ok) ctx.fail("verification: design '" + name + "' (" + format + ") failed its checks (see " + dir.string() + ")");
  return {{"name", name}, {"format", format}, {"dir", fs::relative(dir, ctx.dir).string()},
          {"engines", with_rtl ? "Verilator co-simulated with SystemC" : "SystemC only"},
          {"cosim_cycles", with_rtl ? json(cosim_cycles) : json("-")},
          {"states", rtl["states"]}, {"mode", streaming ? "streaming" : "latency"},
          {"cycles_per_evaluation", rtl["cycles_per_evaluation"]}, {"cycles_per_set_point", rtl["cycles_per_set_point"]},
          {"steady_ii", streaming ? json(steady) : json("-")},
          {"schedule_length", rtl["schedule_length"]}, {"io_overhead", rtl["io_overhead"]},
          {"rtl_mismatches", rtl["mismatches"]}, {"systemc_mismatches", sc["mismatches"]},
          {"rtl_equals_systemc", same_outputs}, {"cycle_count_errors", rtl["cycle_count_errors"].get<long>() + sc["cycle_count_errors"].get<long>()},
          {"max_rel_error", rtl["max_rel_error"]}, {"pass", ok}, {"manifest", manifest}};
}

// The Yosys runs, in background threads (Yosys is single-threaded) so that they overlap the simulations.
// Yosys's time goes to the register file and the operand multiplexers (2 per unit, each selecting among
// units + registers + constants sources), not to the arithmetic units: a chosen design of 8 + 8 units takes minutes
// flat or hierarchical alike, a design of 1 + 1 units seconds. So every study synthesises the smallest explored
// design (custom graph, smallest estimated area) hierarchically; the default study also synthesises it flat, which
// measures the hierarchical figure against the real one, and every distinct chosen design flat, in both
// architectures (the report shows them side by side).
// Place and route only what the cost model expects to fit the HX8K: for a design several times its size, Yosys's
// synth_ice40 alone takes tens of minutes before nextpnr can say no (puma560 8+8: over 15 minutes under load). The
// others get the model's logic-cell estimate in the FPGA column; `neaccel area --design DIR --pnr` measures them
// (xc7 resources).
bool likely_fits(const json& manifest) {
  return device_fit(cost::estimate_cost(cost::cost_point_from_manifest(manifest))).fits;
}

struct SynthJob {
  std::string name;
  fs::path dir;
  json manifest;
  bool flat;
  std::string counterpart_of;  // the same design in the other architecture: the chosen design's directory name
};

const char* const kSmallest = "smallest explored";

void start_synthesis(Context& ctx, const json& designs, const std::vector<std::size_t>& distinct,
                     const std::vector<json>& manifests) {
  const json& rows = ctx.data.at("explore")["points"];
  std::ptrdiff_t smallest = -1;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i]["flavour"] == "custom" && rows[i]["verified"].get<bool>() &&
        (smallest < 0 || rows[i]["area"].get<double>() < rows[static_cast<std::size_t>(smallest)]["area"].get<double>()))
      smallest = static_cast<std::ptrdiff_t>(i);
  if (smallest < 0) throw Error("study: no verified custom design to synthesise");
  json small = rows[static_cast<std::size_t>(smallest)];
  small["point"] = smallest;
  ctx.data.put("smallest", small);
  ctx.progress.detail(std::string(kSmallest) + " (RTL)");
  const json small_manifest = generate_rtl(ctx, small, kSmallest, "fp32");
  // Longest first: the flat runs of the chosen designs (largest estimated register file and routing first), then
  // the smallest explored design.
  std::vector<SynthJob> jobs;
  // A hardwired design has no nea_datapath to black-box its units in: it is synthesised flat (seconds to minutes).
  const bool small_hardwired = small.value("arch", std::string("microcoded")) == "hardwired";
  if (!ctx.opt.quick) {
    std::vector<std::size_t> order = distinct;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      auto rest = [&](std::size_t i) {
        return designs[i]["explore"]["area_registers"].get<double>() + designs[i]["explore"]["area_routing"].get<double>();
      };
      return rest(x) > rest(y);
    });
    for (std::size_t i : order)
      jobs.push_back({designs[i]["name"], design_dir(ctx, designs[i]["name"], "fp32"), manifests[i], true, ""});
    jobs.push_back({kSmallest, design_dir(ctx, kSmallest, "fp32"), small_manifest, true, ""});
    // Every chosen design in the other architecture too (same point, same schedule; hardwired latency designs with
    // the interconnect-aware binding), synthesised flat, for the side-by-side table of the report.
    for (std::size_t i : order) {
      json other = designs[i]["explore"];
      other["arch"] = other.value("arch", std::string("microcoded")) == "hardwired" ? "microcoded" : "hardwired";
      const std::string name = designs[i]["name"].get<std::string>() + " [" + other["arch"].get<std::string>() + "]";
      ctx.progress.detail(name + " (RTL)");
      const json m = generate_rtl(ctx, other, name, "fp32", designs[i]["streaming"].get<bool>());
      jobs.push_back({name, design_dir(ctx, name, "fp32"), m, true,
                      design_dir(ctx, designs[i]["name"], "fp32").filename().string()});
    }
  }
  if (small_hardwired && ctx.opt.quick)
    jobs.push_back({kSmallest, design_dir(ctx, kSmallest, "fp32"), small_manifest, true, ""});
  else if (!small_hardwired)
    jobs.push_back({kSmallest, design_dir(ctx, kSmallest, "fp32"), small_manifest, false, ""});
  // Two Yosys processes at a time in the default study (each is single-threaded; they share the machine with the
  // simulations), one in the quick study. Rows keep the job order.
  const std::size_t workers = ctx.opt.quick ? 1 : 2;
  ctx.synthesis = std::async(std::launch::async, [jobs, workers, quick = ctx.opt.quick, target = ctx.opt.target] {
    std::vector<json> out(jobs.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (std::size_t k; (k = next++) < jobs.size();) {
        const SynthJob& j = jobs[k];
        out[k] = j.flat ? synthesize_flat(j.dir, j.name, j.manifest, target, !quick && likely_fits(j.manifest))
                         : synthesize_hier(j.dir, j.name, j.manifest);
        if (!j.counterpart_of.empty()) out[k]["counterpart_of"] = j.counterpart_of;
      }
    };
    std::vector<std::future<void>> pool;
    for (std::size_t w = 0; w < workers; ++w) pool.push_back(std::async(std::launch::async, work));
    for (auto& f : pool) f.get();
    return json(out);
  });
}
}  // namespace

namespace {
// The unit latencies of the deep-units lever on a target (the design's latencies, operand register included), or
// none where the target's unit table lacks either unit: each deep unit at the least latency at which it alone runs
// at 95 % or more of the slower unit's best clock (more stages would add cycles and no clock the pair can use), and
// one more cycle for the operand register in front of it.
std::optional<std::pair<int, int>> deep_lever_latencies(const std::string& target, const std::string& mul_unit,
                                                        const std::string& add_unit) {
  constexpr int kDeepest = 8;  // the deep units' measured range (docs/units.md, "Deep units")
  const auto best_mhz = [&](const std::string& unit) {
    double best = 0;
    for (int l = 1; l <= kDeepest; ++l)
      if (const json row = cost::unit_timing_row(target, unit, l); !row.is_null() && row["latency"] == l)
        best = std::max(best, row["fmax_mhz"].get<double>());
    return best;
  };
  const double goal = 0.95 * std::min(best_mhz(mul_unit), best_mhz(add_unit));
  if (goal <= 0) return std::nullopt;
  const auto least = [&](const std::string& unit) {
    for (int l = 1; l <= kDeepest; ++l)
      if (const json row = cost::unit_timing_row(target, unit, l);
          !row.is_null() && row["latency"] == l && row["fmax_mhz"].get<double>() >= goal)
        return l;
    return kDeepest;
  };
  return std::make_pair(least(mul_unit) + 1, least(add_unit) + 1);
}
}  // namespace

std::vector<Lever> levers_of(const Context& ctx, const json& design) {
  const json& p = design.at("explore");
  if (design.value("streaming", false) || p.value("arch", std::string("microcoded")) != "hardwired") return {};
  // The input port: four words per beat, or as many as the design has port inputs (its binary32 manifest, written
  // by section 6 before the levers).
  int words = 1;
  const fs::path m = design_dir(ctx, design.at("name").get<std::string>(), "fp32") / "manifest.json";
  if (fs::exists(m)) {
    const std::size_t inputs = json::parse(read_whole_file(m)).at("datapath").at("inputs").size();
    words = static_cast<int>(std::min<std::size_t>(4, inputs));
  }
  // Its name lists the options ("a, b and c"), its arguments give them.
  const auto lever = [&](bool operand_regs) {
    std::vector<std::string> what{"registered decode"}, args{"--decode", "registered"};
    if (operand_regs) what.push_back("operand registers");
    if (words > 1) {
      what.push_back(fmt::format("a {}-word input port", words));
      args.insert(args.end(), {"--in-words", std::to_string(words)});
    }
    if (operand_regs) args.push_back("--operand-regs");
    std::string name = what[0];
    for (std::size_t i = 1; i < what.size(); ++i) name += (i + 1 == what.size() ? " and " : ", ") + what[i];
    return Lever{name, args, 0, 0, ""};
  };
  std::vector<Lever> l{lever(false)};
  const hw::DesignSpec spec = generated_spec(ctx, p);
  if (hw::least_unit_latency(spec) >= 2) {
    l.push_back(lever(true));
    // The same with the inputs loaded while the recursion runs and each result sent as computed (--io overlap,
    // docs/datapath.md "Overlapped I/O"): a new schedule with input release times, fewer cycles, in fixed:16.16.
    Lever overlap = lever(true);
    overlap.name += " with overlapped I/O";
    overlap.args.insert(overlap.args.end(), {"--io", "overlap"});
    overlap.format = kFixedBound;
    l.push_back(overlap);
  }
  if (spec.div == 0 && spec.fma == 0)
    if (const auto lat = deep_lever_latencies(ctx.opt.target, "fx-mul-deep", "fx-add-deep")) {
      Lever deep = lever(true);
      deep.name += fmt::format(" with the deep units at {}/{}", lat->first, lat->second);
      deep.args.insert(deep.args.end(), {"--units", "deep"});
      deep.lat_mul = lat->first;
      deep.lat_add = lat->second;
      deep.format = kFixedBound;
      l.push_back(deep);
      // Local sequencers (hw/hardwired.hpp Decode::Local) on the same design: no control net crosses the device, so
      // the clock rises until the routes between the units and the registers set it; 3 cycles more.
      Lever local = deep;
      local.name = "local sequencers" + deep.name.substr(deep.name.find(','));  // "registered decode" replaced
      for (std::size_t i = 0; i + 1 < local.args.size(); ++i)
        if (local.args[i] == "--decode") local.args[i + 1] = "local";
      l.push_back(local);
    }
  return l;
}

std::ptrdiff_t verify_run(const Context& ctx, const std::string& name, const std::string& format) {
  const json& runs = ctx.data.at("verify")["runs"];
  for (std::size_t k = 0; k < runs.size(); ++k)
    if (runs[k]["name"] == name && runs[k]["format"] == format) return static_cast<std::ptrdiff_t>(k);
  return -1;
}

fs::path chosen_design_dir(const Context& ctx, const std::string& name, const std::string& format) {
  return design_dir(ctx, name, format);
}

void stage_verify(Context& ctx) {
  ctx.progress.stage("Verification");
  const json& designs = ctx.data.at("designs")["designs"];
  // Two names may pick the same point (fastest and smallest within 10% often coincide): each point is generated,
  // verified and synthesised once, and the other names refer to it.
  std::vector<std::size_t> same_as(designs.size()), distinct;
  for (std::size_t i = 0; i < designs.size(); ++i) {
    same_as[i] = i;
    for (std::size_t j = 0; j < i; ++j)
      if (designs[j]["point"] == designs[i]["point"] && designs[j]["streaming"] == designs[i]["streaming"]) {
        same_as[i] = same_as[j];
        break;
      }
    if (same_as[i] == i) distinct.push_back(i);
  }
  std::vector<json> manifests(designs.size());
  for (std::size_t i : distinct) {
    ctx.progress.detail(designs[i]["name"].get<std::string>() + " (RTL)");
    manifests[i] = generate_rtl(ctx, designs[i]["explore"], designs[i]["name"], "fp32", designs[i]["streaming"].get<bool>());
    // A row the exploration costed as generated (stage_explore: recost_as_generated) must be this design: the same
    // schedule, registers and multiplexers, or the choice ranked another design than the one built.
    const json& e = designs[i]["explore"];
    if (e.value("binding", std::string()) == "interconnect" && !designs[i]["streaming"].get<bool>()) {
      const json& m = manifests[i];
      const int regs = m["datapath"]["config"]["parameters"]["MaxRegs"];
      if (regs != e["registers"].get<int>() || m["interconnect"]["mux_inputs"] != e["mux_inputs"])
        ctx.fail(fmt::format("design choice: '{}' was costed as generated with {} registers and {} multiplexer inputs, "
                             "but `neaccel rtl` built {} and {}", designs[i]["name"].get<std::string>(),
                             e["registers"].get<int>(), e["mux_inputs"].get<int>(), regs,
                             m["interconnect"]["mux_inputs"].get<int>()));
    }
  }
  start_synthesis(ctx, designs, distinct, manifests);
  json runs = json::array();
  // The quick study builds one Verilator model (each unit mix and format is its own Verilog configuration, a
  // build of about half a minute); the full study simulates the RTL of every run.
  for (std::size_t i = 0; i < designs.size(); ++i) {
    const auto& d = designs[i];
    if (same_as[i] != i) {
      json copy = runs[same_as[i]];
      copy["name"] = d["name"];
      copy["engines"] = "same design as '" + designs[same_as[i]]["name"].get<std::string>() + "'";
      runs.push_back(copy);
      continue;
    }
    ctx.progress.detail(d["name"].get<std::string>() + " (fp32)");
    runs.push_back(verify_design(ctx, manifests[i], d["name"], "fp32", !ctx.opt.quick || i == 0));
  }
  // Accuracy of fixed point against binary32 on the fastest design's schedule (same unit mix).
  for (const char* fx : {"fixed:16.16", "fixed:12.20"}) {
    ctx.progress.detail(std::string("fastest (") + fx + ")");
    const json manifest = generate_rtl(ctx, designs[0]["explore"], designs[0]["name"], fx);
    runs.push_back(verify_design(ctx, manifest, designs[0]["name"], fx, !ctx.opt.quick));
  }
  // The fastest design with the hardwired datapath's pipelining options: the same program, other Verilog (and with
  // a wider input port fewer load cycles), so the Verilog itself is co-simulated (quick study too). The device model
  // has no figure for them, so only a placement says what they gain: each is kept where section 7 will place it
  // (--pnr, or a cached result on a target with a device model) and its directory removed otherwise.
  for (const Lever& l : levers_of(ctx, designs[0]))
    for (const std::string& format : lever_formats()) {
      if (!l.builds(format)) continue;
      const std::string name = designs[0]["name"].get<std::string>() + ", " + l.name;
      ctx.progress.detail(name + " (" + format + ")");
      json point = designs[0]["explore"];
      if (l.lat_mul > 0) point["lat_mul"] = l.lat_mul;
      if (l.lat_add > 0) point["lat_add"] = l.lat_add;
      const json manifest = generate_rtl(ctx, point, name, format, false, l.args);
      if (const fs::path dir = design_dir(ctx, name, format); !will_be_placed(ctx, dir) && !chip_has(ctx, dir)) {
        fs::remove_all(dir);
        continue;
      }
      runs.push_back(verify_design(ctx, manifest, name, format, true));
    }
  ctx.data.put("verify", {{"runs", runs}});
  Report& r = ctx.report;
  r.heading(2, "6. Verification" + function_suffix(ctx.opt.function));
  r.para("Each design's Verilog was generated from its verified schedule (under `designs/`). Its SystemC model and, "
         "where the engines column says so, the Verilog itself under Verilator, co-simulated with the SystemC model, "
         "ran on the same {} random joint states. Every output must equal the dataflow graph evaluated in the number "
         "format bit for bit (any NaN equals any NaN); the RTL must equal the SystemC model in every cycle (unit "
         "result buses, register writes, input load, handshakes and status: in lockstep for the unit mixes verilated "
         "at build time, else by cycle logs both write); each evaluation of a latency datapath must take exactly the "
         "schedule length plus the I/O overhead (input load, output unload and two handshake cycles), and a streaming "
         "datapath must deliver every result exactly II cycles after the previous one.",
         {r.num("verify", "/runs/0/states")});
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string p = "/runs/" + std::to_string(i);
    t.push_back({r.num("verify", p + "/name"), r.num("verify", p + "/format"), r.num("verify", p + "/engines"),
                 r.num("verify", p + "/schedule_length"),
                 r.num("verify", p + "/mode"), r.num("verify", p + "/io_overhead"),
                 r.num("verify", p + "/cycles_per_evaluation"), r.num("verify", p + "/cycles_per_set_point"),
                 r.num("verify", p + "/rtl_mismatches"), r.num("verify", p + "/systemc_mismatches"),
                 r.num("verify", p + "/rtl_equals_systemc"), r.num("verify", p + "/cosim_cycles"),
                 r.num("verify", p + "/max_rel_error", 2)});
  }
  r.table({"design", "format", "engines", "schedule", "datapath", "I/O", "cycles", "cycles per set point", "RTL mismatches", "SystemC mismatches", "RTL = SystemC",
           "cycles compared", "max rel. error vs double"}, t);
  r.note("Relative error: |tau - tau_double| / max(|tau_double|, 1) per joint, the largest over all states "
         "(docs/datapath.md). Fixed point saturates; its error is dominated by the fraction bits.");
  std::size_t passed = 0;
  for (const auto& x : runs) passed += x["pass"].get<bool>();
  ctx.progress.done(fmt::format("{}/{} design runs bit-exact", passed, runs.size()));
}

void stage_synthesis(Context& ctx) {
  ctx.progress.stage("Synthesis");
  ctx.progress.detail("waiting for Yosys");
  json rows = ctx.synthesis.get();
  const json& designs = ctx.data.at("designs")["designs"];
  for (auto& row : rows) {
    // Every name that chose this design, and the exploration's estimate of its area.
    if (row["name"] == kSmallest) {
      row["estimate"] = ctx.data.at("smallest")["area"];
      continue;
    }
    if (row.contains("counterpart_of")) {  // a chosen design in the other architecture: not explored as such
      row["estimate"] = "-";
      continue;
    }
    json point, streaming;
    for (const auto& d : designs)
      if (d["name"] == row["name"]) {
        point = d["point"];
        streaming = d["streaming"];
      }
    std::string names;
    for (const auto& d : designs)
      if (d["point"] == point && d["streaming"] == streaming) {
        names += (names.empty() ? "" : ", ") + d["name"].get<std::string>();
        row["estimate"] = d["area"];
      }
    row["name"] = names;
  }
  // The area model against flat synthesis of the same design (within 15 %, else the study fails): the
  // estimate of the design as built (its manifest: registers, program, the binding's multiplexers), architecture
  // included. The exploration's estimate above is of the design as generated where stage_explore costed it so
  // (recost_as_generated), else of the schedule's left-edge binding.
  for (auto& row : rows) {
    if (row["method"] != kFlat) continue;
    const fs::path manifest = ctx.dir / "designs" / row["dir"].get<std::string>() / "manifest.json";
    std::ifstream in(manifest);
    if (!in) throw Error("study: cannot read " + manifest.string());
    const json m = json::parse(in);
    // The manifest carries the dividers and FMA units (spec.div, spec.fma): the model counts their cells and ports.
    const cost::CostEstimate e = cost::estimate_cost(cost::cost_point_from_manifest(m));
    row["arch"] = m.at("spec").value("arch", std::string("microcoded"));
    row["model_cells"] = e.area_cells;
    row["model_error_percent"] = 100.0 * (e.area_cells - row["cells"].get<double>()) / row["cells"].get<double>();
    if (std::abs(row["model_error_percent"].get<double>()) > 15.0)
      ctx.fail(fmt::format("area model: design '{}' ({}) estimated {:.0f} cells, flat synthesis {} ({:+.1f}%, more "
                           "than 15%)", row["name"].get<std::string>(), row["arch"].get<std::string>(), e.area_cells,
                           row["cells"].get<long>(), row["model_error_percent"].get<double>()));
  }
  // Side by side: each chosen design and its counterpart in the other architecture (both flat).
  std::vector<std::pair<std::size_t, std::size_t>> pairs;  // (microcoded row, hardwired row)
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].contains("counterpart_of")) continue;
    for (std::size_t k = 0; k < rows.size(); ++k)
      if (k != i && rows[k]["method"] == kFlat && !rows[k].contains("counterpart_of") &&
          rows[k]["dir"] == rows[i]["counterpart_of"]) {
        const bool k_micro = rows[k]["arch"] == "microcoded";
        const std::size_t mi = k_micro ? k : i, hi = k_micro ? i : k;
        rows[hi]["rest_vs_microcoded_percent"] =
            100.0 * (rows[hi]["rest"].get<double>() - rows[mi]["rest"].get<double>()) / rows[mi]["rest"].get<double>();
        rows[hi]["chosen"] = rows[k]["name"];
        rows[mi]["chosen"] = rows[k]["name"];
        pairs.emplace_back(mi, hi);
      }
  }
  for (auto& hier : rows)
    for (const auto& flat : rows)
      if (hier["method"] == kHier && flat["method"] == kFlat && hier["dir"] == flat["dir"])
        hier["flat_difference_percent"] = 100.0 * (hier["cells"].get<double>() - flat["cells"].get<double>()) / flat["cells"].get<double>();
  ctx.data.put("synthesis", {{"designs", rows}});
  Report& r = ctx.report;
  r.heading(2, "7. Synthesis" + function_suffix(ctx.opt.function));
  r.para("Yosys 0.23 `synth` (technology-independent cells). Flat: a design's whole datapath (arithmetic units, "
         "register file, routing, sequencer and ROMs) synthesised together. Hierarchical: the datapath synthesised "
         "with its arithmetic units as black boxes, each unit then counted at its area measured once per unit and "
         "latency (`data/unit-area.json`, `neaccel area`); the register file, routing, sequencer and ROMs are still "
         "synthesised per design.");
  r.para("Yosys's time goes to the register file and the operand multiplexers (two per unit, each selecting among all "
         "units, registers and constants), not to the units: a design of many units takes minutes either way. So "
         "every study synthesises the smallest explored design ({} multiplier(s) and {} adder(s), latencies {} and "
         "{}: the custom graph's point of smallest estimated area) hierarchically; " +
             std::string(ctx.opt.quick ? "the quick study synthesises nothing else."
                                       : "the default study also synthesises it flat, which measures the hierarchical "
                                         "figure against the real one, and every distinct chosen design flat, in its "
                                         "architecture and in the other one (side by side below)."),
         {r.num("smallest", "/mul"), r.num("smallest", "/add"), r.num("smallest", "/lat_mul"), r.num("smallest", "/lat_add")});
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string p = "/designs/" + std::to_string(i);
    t.push_back({r.num("synthesis", p + "/name"), r.num("synthesis", p + "/method"), r.num("synthesis", p + "/cells", 0),
                 r.num("synthesis", p + "/units", 0), r.num("synthesis", p + "/rest", 0),
                 r.num("synthesis", p + "/flip_flops"), r.num("synthesis", p + "/estimate", 0),
                 r.num("synthesis", p + "/fpga")});
  }
  r.table({"design", "synthesis", "cells", "of which units", "of which the rest", "flip-flops",
           "exploration estimate (cells)", "FPGA"}, t);
  r.note("Flip-flops: of the whole datapath (flat) or outside the arithmetic units (hierarchical). Exploration "
         "estimate: the cost model on the explored point (section 4: a hardwired latency datapath as generated where the "
         "exploration costed it so, else on its left-edge binding)." +
         std::string(cost::target(ctx.opt.target).has_device_model()
                         ? " FPGA: the study's device model on the design as generated (its manifest); the designs "
                           "placed and routed are in the device's table below."
                         : ""));
  if (!pairs.empty()) {
    std::vector<std::vector<Cell>> side;
    for (const auto& [mi, hi] : pairs) {
      const std::string m = "/designs/" + std::to_string(mi), h = "/designs/" + std::to_string(hi);
      side.push_back({r.num("synthesis", m + "/chosen"), r.num("synthesis", m + "/cells", 0),
                      r.num("synthesis", m + "/rest", 0), r.num("synthesis", m + "/flip_flops"),
                      r.num("synthesis", h + "/cells", 0), r.num("synthesis", h + "/rest", 0),
                      r.num("synthesis", h + "/flip_flops"), r.num("synthesis", h + "/rest_vs_microcoded_percent", 1)});
    }
    r.para("The chosen designs in both architectures (docs/datapath.md: the microcoded datapath with its register file "
           "and operand multiplexers over every source and microcode ROM; the hardwired datapath generated for the "
           "schedule, latency designs with the interconnect-aware binding), same point and schedule, flat synthesis of "
           "each; the rows marked [microcoded] or [hardwired] above are the counterparts:");
    r.table({"chosen design", "microcoded cells", "microcoded non-unit", "microcoded flip-flops", "hardwired cells",
             "hardwired non-unit", "hardwired flip-flops", "hardwired non-unit vs microcoded %"}, side);
  }
  std::vector<std::vector<Cell>> mt;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].contains("model_cells")) continue;
    const std::string p = "/designs/" + std::to_string(i);
    mt.push_back({r.num("synthesis", p + "/name"), r.num("synthesis", p + "/arch"), r.num("synthesis", p + "/cells", 0),
                  r.num("synthesis", p + "/model_cells", 0), r.num("synthesis", p + "/model_error_percent", 1)});
  }
  if (!mt.empty()) {
    r.para("The area model (docs/cost.md) against flat synthesis of each design as built (its manifest: registers, "
           "program and, for the hardwired architecture, the binding's multiplexers); the study fails beyond 15%:");
    r.table({"design", "architecture", "flat synthesis (cells)", "model (cells)", "model error %"}, mt);
  }
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].contains("flat_difference_percent"))
      r.para("Design '{}': the hierarchical figure differs from the flat synthesis by {}% (hierarchical minus flat, "
             "relative to flat).",
             {r.num("synthesis", "/designs/" + std::to_string(i) + "/name"),
              r.num("synthesis", "/designs/" + std::to_string(i) + "/flat_difference_percent", 1)});
  ctx.progress.done(fmt::format("{} syntheses", rows.size()));
}

}  // namespace neaccel::study
