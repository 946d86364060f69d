#include "neaccel/study/study.hpp"

#include "context.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/timing.hpp"
#include "neaccel/cost/target.hpp"

#include <fmt/format.h>

#include <chrono>
#include <fstream>

namespace neaccel::study {

namespace fs = std::filesystem;
using nlohmann::json;

bool function_divides(const std::string& function) {
  return function == "fd" || function == "fd-khalil" || function == "fd-strobe";
}

ref::Robot prepare(const Options& o) {
  if (o.states < 0) throw Error("study: --states must be >= 0");
  (void)dfg::function_from_name(o.function);  // one line naming the choices
  if (o.max_units < 0) throw Error("study: --max-units must be >= 0");
  if (o.max_area < 0) throw Error("study: --budget must be >= 0");
  if (o.jobs < 0) throw Error("study: --jobs must be >= 0");
  if (o.out.empty()) throw Error("study: --out must name a directory");
  ref::Robot robot = ref::load_robot(o.robot);  // validates; throws with the file and field
  // A budget below the smallest datapath (one multiplier, one adder, one register) fits nothing: say so now.
  if (o.max_area > 0) {
    cost::CostPoint one;  // one multiplier, one adder, one register: the cost model's smallest datapath
    one.lat_mul = one.lat_add = 1;
    const double smallest = cost::estimate_cost(one).area_cells;
    if (o.max_area < smallest)
      throw Error(fmt::format("study: --budget {} cells: nothing fits (the smallest datapath takes {} cells)", o.max_area, smallest));
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw Error("study: cannot create output directory " + o.out.string() + ": " + ec.message());
  return robot;
}

namespace {
void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
  if (!out) throw Error("study: cannot write " + p.string());
}

void introduction(Context& ctx) {
  Report& r = ctx.report;
  r.heading(1, "neaccel study: " + ctx.robot.name + function_suffix(ctx.opt.function));
  if (ctx.opt.function != "id")
    r.para("Function: `" + ctx.opt.function + "` (docs/functions.md). Every stage from the graphs on uses its graph: "
           "counts, exploration, chosen designs (`neaccel rtl --function " + ctx.opt.function + "`), co-simulation "
           "and area. Stages 1 and 2 (the reference check and the formulations' counts) are of the inverse dynamics, "
           "which the functions are built from.");
  r.para("From the robot's model to verified Newton-Euler accelerators: reference dynamics, operation counts, dataflow "
         "graphs, a design-space exploration of pipelined multipliers and adders, chosen designs generated as Verilog, "
         "co-simulated against a SystemC model and checked bit for bit, and their synthesis area. Every number below "
         "is read from a JSON file in `data/` (listed in `numbers.json`); plots have their gnuplot scripts beside them.");
  if (ctx.opt.quick)
    r.note("Quick study (--quick): smaller sweep and fewer random states than the default study.");
  // Which depth pass shaped the swept and built graphs.
  const std::string depth = !ctx.opt.depth          ? "off (the traced shape)"
                            : ctx.opt.lookahead == 0 ? "on (re-association per latency pair)"
                            : ctx.opt.lookahead < 0  ? "lookahead (re-association, and the lookahead forms of the "
                                                       "recursion over K = 1..3 links as candidates)"
                                                     : fmt::format("lookahead:{} (re-association, and the lookahead "
                                                                   "forms of the recursion over {} links as candidates)",
                                                                   ctx.opt.lookahead, ctx.opt.lookahead);
  r.note("Depth pass (`--depth`): " + depth +
         (ctx.opt.lookahead != 0 && ctx.opt.function != "id" ? "; lookahead applies to the inverse dynamics only, not "
                                                               "to this function" : "") + ".");
}

// The three lines at the top: the lowest-latency and highest-throughput accelerators of the customised
// graph with their area and device fit, beside this machine's CPU measured in this run.
void summary(Context& ctx) {
  const json& rows = ctx.data.at("explore")["points"];
  const json& designs = ctx.data.at("designs")["designs"];
  std::ptrdiff_t best = -1;
  // On a target with a device model the rows carry its fit (stage_explore): only a throughput design that fits and
  // is within what has been measured to route and the model's range; where the choice fell back to what fits
  // (designs "beyond_routed"), so does this.
  const bool on_device = cost::target(ctx.opt.target).has_device_model();
  const bool beyond = !designs.empty() && designs[0].value("beyond_routed", false);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& r = rows[i];
    if (r["flavour"] != "custom" || !r["verified"].get<bool>()) continue;
    if (ctx.opt.max_area > 0 && r["throughput_area"].get<double>() > ctx.opt.max_area) continue;
    if (on_device && r.contains("target") &&
        !r["target"][beyond ? "throughput_fits_budget" : "throughput_within_budget"].get<bool>())
      continue;
    auto key = [](const json& x) { return std::make_pair(-x["throughput_per_s"].get<double>(), x["throughput_area"].get<double>()); };
    if (best < 0 || key(r) < key(rows[static_cast<std::size_t>(best)])) best = static_cast<std::ptrdiff_t>(i);
  }
  if (best < 0) throw Error("study: no verified design for the summary");
  const json& fast = designs[0];
  json top = rows[static_cast<std::size_t>(best)];
  top["point"] = best;
  top["device"] = cost::device_fit_cells(top["throughput_area"].get<double>()).to_json();
  json fastest = {{"design", fast["name"]}, {"point", fast["point"]}, {"explore", fast["explore"]},
                  {"area", fast["area"]}, {"device", fast["device"]}};
  if (on_device) {  // the device model's figures on the explored point (section 4), which the choice ranked by
    fastest["target"] = fast["explore"]["target"]["latency"];
    top["target_fit"] = top["target"]["throughput"];
    // A measurement beats an estimate: the fastest chosen latency datapath as placed and routed (section 7), which
    // the comparisons with the CPU and the other platforms then quote.
    if (json placed = fastest_placed(ctx); !placed.is_null()) fastest["placed"] = std::move(placed);
  }
  json summ{{"fastest", fastest}, {"best_throughput", top}};
  // The chip beside the FPGA (--target sky130-hd): its fastest design by the chip's time per evaluation (stage_chip).
  if (ctx.data.has("chip") && ctx.data.at("chip").contains("fastest")) {
    const json& chip = ctx.data.at("chip");
    const json& c = chip["designs"][chip["fastest"].get<std::size_t>()];
    summ["asic"] = {{"target", chip["target"]}, {"estimate", chip["estimate"]}, {"design", c["name"]},
                    {"format", c["format"]}, {"cycles", c["cycles"]}, {"clock_ns", c["clock_ns"]},
                    {"fmax_mhz", c["fmax_mhz"]}, {"time_ns", c["time_ns"]}, {"per_s", c["per_s"]},
                    {"area_mm2", c["area_mm2"]}, {"power_mw", c["total_mw"]}, {"energy_nj", c["energy_nj"]},
                    {"activity", c["activity"]}, {"worst_path", c["worst_path"]}};
    // Rahman and Meyer's systolic Newton-Euler chip (1992): 69 + 12n cycles for n links at 25 MHz (the figures
    // quoted in /work/shared/data/paper-tables.md, "Later hardware"); its process is not in the sources here.
    const int n = ctx.robot.dof();
    summ["rahman_meyer"] = {{"cycles", 69 + 12 * n}, {"links", n}, {"clock_mhz", 25}, {"time_ns", (69 + 12 * n) * 40.0},
                            {"per_s", 25e6 / (69 + 12 * n)},
                            {"source", "Rahman and Meyer 1992, systolic Newton-Euler chip: 69 + 12n clock cycles, 25 MHz "
                                       "(n = 6: 5.64 us), as quoted in the project's paper tables"},
                            {"process", "not stated in the sources in this repository (1 um CMOS by the project's brief)"}};
  }
  ctx.data.put("summary", summ);
  // The CPU comparison divides a measured figure: it stays with the measurements (timings.json; data/cpu.json too
  // with --report-timings).
  json& measured = ctx.timings["cpu"];
  const bool placed = fastest.contains("placed");
  const double lat = placed ? fastest["placed"]["time_ns"].get<double>() : fast["explore"]["latency_ns"].get<double>();
  measured["fastest_latency_ns"] = lat;
  measured["fastest_latency_from"] = placed ? "placed and routed" : "estimated";
  measured["speedup_over_generated"] =
      measured["generated_ns"].is_number() ? json(measured["generated_ns"].get<double>() / lat) : json(nullptr);
  measured["speedup_over_reference"] = measured["reference_ns"].get<double>() / lat;
  if (ctx.opt.report_timings) {
    json cpu = ctx.data.at("cpu");
    cpu.update(measured);
    ctx.data.put("cpu", cpu);
  }

  Report& r = ctx.report;
  r.heading(2, "Summary");
  const std::size_t head_at = r.position();
  const std::vector<Cell> fastest_cells{
      r.num("summary", "/fastest/explore/latency_ns", 1), r.num("summary", "/fastest/explore/eval_cycles"),
      r.num("summary", "/fastest/explore/period_ns", 2), r.num("summary", "/fastest/explore/arch"),
      r.num("summary", "/fastest/explore/mul"), r.num("summary", "/fastest/explore/add"),
      r.num("summary", "/fastest/explore/lat_mul"), r.num("summary", "/fastest/explore/lat_add"),
      r.num("summary", "/fastest/area", 0)};
  std::vector<Cell> top_cells{
      r.num("summary", "/best_throughput/throughput_per_s", 0), r.num("summary", "/best_throughput/throughput_mode"),
      r.num("summary", "/best_throughput/set_point_cycles"), r.num("summary", "/best_throughput/throughput_period_ns", 2),
      r.num("summary", "/best_throughput/arch"), r.num("summary", "/best_throughput/mul"),
      r.num("summary", "/best_throughput/add"), r.num("summary", "/best_throughput/lat_mul"),
      r.num("summary", "/best_throughput/lat_add"), r.num("summary", "/best_throughput/throughput_area", 0)};
  const char* latency_line = "- Lowest latency: {} ns per evaluation ({} cycles including I/O at an estimated {} ns "
                             "clock) on a {} datapath of {} multiplier(s) + {} adder(s), latencies {}/{}; {} cells";
  const char* throughput_line = "- Highest throughput: {} set points per second ({}, a set point every {} cycles at an "
                                "estimated {} ns clock) on a {} datapath of {} multiplier(s) + {} adder(s), latencies "
                                "{}/{}; {} cells";
  if (on_device) {  // clock, LUT4 and DSP blocks by the target's device model; placed figures in the next line
    std::vector<Cell> c = fastest_cells;
    c.push_back(r.num("summary", "/fastest/target/part"));
    for (const char* k : {"/fastest/target/lut", "/fastest/target/dsp"}) c.push_back(r.num("summary", k, 0));
    r.para(std::string(latency_line) + "; by the device model of the {}: {} LUT4, {} DSP blocks.", c);
    device_summary(ctx);
    if (ctx.data.at("summary").contains("asic")) {
      r.para("- As a chip (" + ctx.data.at("summary")["asic"]["estimate"].get<std::string>() + ", {}): \"{}\" in {} "
             "takes {} ns per evaluation ({} cycles at {} ns, {} MHz), {} evaluations per second one after another, "
             "{} mm2 of cells, {} mW, {} nJ per evaluation (power from the registers' toggle rates in its "
             "co-simulation, mean {} per cycle, applied {}); the FPGA's energy is not known (no power model or measurement of "
             "the ECP5 here). Beside it, Rahman and Meyer's systolic Newton-Euler chip (1992; process {}): {} cycles "
             "for {} links at {} MHz, {} ns per evaluation ({}).",
             {r.num("summary", "/asic/target"), r.num("summary", "/asic/design"), r.num("summary", "/asic/format"),
              r.num("summary", "/asic/time_ns", 1), r.num("summary", "/asic/cycles"), r.num("summary", "/asic/clock_ns", 2),
              r.num("summary", "/asic/fmax_mhz", 2), r.num("summary", "/asic/per_s", 0),
              r.num("summary", "/asic/area_mm2", 3), r.num("summary", "/asic/power_mw", 2),
              r.num("summary", "/asic/energy_nj", 2), r.num("summary", "/asic/activity/mean_flip_flop_rate", 3),
              r.num("summary", "/asic/activity/method"), r.num("summary", "/rahman_meyer/process"), r.num("summary", "/rahman_meyer/cycles"),
              r.num("summary", "/rahman_meyer/links"), r.num("summary", "/rahman_meyer/clock_mhz"),
              r.num("summary", "/rahman_meyer/time_ns", 0), r.num("summary", "/rahman_meyer/source")});
    }
    top_cells.push_back(r.num("summary", "/best_throughput/target_fit/part"));
    for (const char* k : {"/best_throughput/target_fit/lut", "/best_throughput/target_fit/dsp"})
      top_cells.push_back(r.num("summary", k, 0));
    r.para(std::string(throughput_line) + "; by the device model of the {}: {} LUT4, {} DSP blocks.", top_cells);
  } else {
    std::vector<Cell> c = fastest_cells;
    c.push_back(r.num("summary", "/fastest/device/device"));
    for (const char* k : {"/fastest/device/device_logic_cells", "/fastest/device/est_logic_cells"})
      c.push_back(r.num("summary", k, 0));
    c.push_back(r.num("summary", "/fastest/device/fits"));
    r.para(std::string(latency_line) + "; fits the {} ({} logic cells, estimated {}): {}.", c);
    device_summary(ctx);
    top_cells.push_back(r.num("summary", "/best_throughput/device/device"));
    top_cells.push_back(r.num("summary", "/best_throughput/device/fits"));
    r.para(std::string(throughput_line) + "; fits the {}: {}.", top_cells);
  }
  if (ctx.opt.report_timings)
    r.para("- This machine's CPU ({}), measured in this run: generated C++ {} ns, templated reference {} ns per "
           "evaluation with sines and cosines (fastest batch; medians {} and {} ns); the lowest-latency accelerator ({}) is {}x as fast as the generated C++ and "
           "{}x as fast as the reference (below 1: slower).",
           {r.num("cpu", "/cpu"), r.num("cpu", "/generated_ns", 1), r.num("cpu", "/reference_ns", 1),
            r.num("cpu", "/generated_median_ns", 1), r.num("cpu", "/reference_median_ns", 1),
            r.num("cpu", "/fastest_latency_from"), r.num("cpu", "/speedup_over_generated", 2), r.num("cpu", "/speedup_over_reference", 2)});
  else {  // measured times vary between runs: a measured part of the report, its figures in measured/cpu.json
    ctx.measured.put("cpu", measured);
    r.begin_measured();
    r.para("- This machine's CPU ({}), measured in this run: generated C++ {} ns, templated reference {} ns per "
           "evaluation with sines and cosines (fastest batch; medians {} and {} ns); the lowest-latency accelerator "
           "({}) is {}x as fast as the generated C++ and {}x as fast as the reference (below 1: slower). Also in "
           "`timings.json`; the framed parts of this report are measured and vary between runs, the rest is the same "
           "bytes for the same inputs.",
           {r.num("cpu", "/cpu"), r.num("measured/cpu", "/generated_ns", 1), r.num("measured/cpu", "/reference_ns", 1),
            r.num("measured/cpu", "/generated_median_ns", 1), r.num("measured/cpu", "/reference_median_ns", 1),
            r.num("measured/cpu", "/fastest_latency_from"), r.num("measured/cpu", "/speedup_over_generated", 2), r.num("measured/cpu", "/speedup_over_reference", 2)});
    r.end_measured();
  }
  platforms_summary(ctx);
  // The placed, verified designs lead the summary; the estimates and bounds follow them.
  const std::size_t head_from = r.position();
  headline(ctx);
  r.move_to(head_from, head_at);
  r.note("Accelerator times are estimates unless placed and routed: cycles from verified schedules, clock periods from "
         "the cost model of the study's device (" + ctx.opt.target + ", docs/cost.md), areas in Yosys generic cells" +
         std::string(on_device ? " and in the device's LUT4 and DSP blocks by its model"
                               : "; iCE40 logic cells estimated from them by the largest logic-cells-per-cell ratio "
                                 "of the placed designs") +
         "; the placed and routed figures are nextpnr's (section 7) and are the ones the comparisons with the CPU and "
         "the other platforms quote where they exist. CPU times are measured (timings.json: the fastest of a few "
         "batches of calls, one thread, on a shared machine) and vary between runs.");
}

void conclusion(Context& ctx) {
  ctx.data.put("status", {{"failures", ctx.failures}, {"pass", ctx.failures.empty()}});
  Report& r = ctx.report;
  r.heading(2, "Status");
  if (ctx.failures.empty()) {
    r.para("Every check of this study passed.");
  } else {
    r.para("Checks that FAILED:");
    for (const auto& f : ctx.failures) r.para("- " + f);
  }
}
}  // namespace

fs::path run(const Options& options) {
  const auto start = std::chrono::steady_clock::now();
  Context ctx(options, prepare(options));
  fs::create_directories(ctx.dir / "plots");
  introduction(ctx);
  const std::size_t summary_at = ctx.report.position();
  stage_reference(ctx);
  stage_counts(ctx);
  stage_graphs(ctx);
  stage_cpu(ctx);
  stage_platforms(ctx);
  stage_explore(ctx);
  stage_designs(ctx);
  stage_verify(ctx);
  stage_synthesis(ctx);
  stage_device(ctx);
  stage_chip(ctx);
  ctx.progress.stage("Report");
  const std::size_t summary_from = ctx.report.position();
  summary(ctx);
  ctx.report.move_to(summary_from, summary_at);
  platforms_section(ctx);
  conclusion(ctx);
  ctx.data.flush();
  ctx.measured.flush();
  write_text(ctx.dir / "measured" / "numbers.json", ctx.report.measured_numbers().dump(2) + "\n");
  write_text(ctx.dir / "report.md", ctx.report.markdown());
  write_text(ctx.dir / "report.html", ctx.report.html("neaccel study: " + ctx.robot.name + function_suffix(ctx.opt.function)));
  write_text(ctx.dir / "numbers.json", ctx.report.numbers().dump(2) + "\n");
  const auto problems = check_report(ctx.dir);
  if (!problems.empty()) throw Error("study: report inconsistent with its data: " + problems.front());
  ctx.progress.done((ctx.dir / "report.html").string());
  // Measured times: kept apart from the report and its data, which are the same bytes for the same inputs.
  json stages = json::array();
  for (const auto& [name, s] : ctx.progress.times()) stages.push_back({{"stage", name}, {"seconds", s}});
  ctx.timings["stages"] = stages;
  ctx.timings["total_seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  json timings = {{"note", "measured in this run on this machine (wall and CPU times): varies between runs, unlike "
                           "the report and its data, which are the same bytes for the same inputs (docs/study.md)"}};
  timings.update(ctx.timings);
  write_text(ctx.dir / "timings.json", timings.dump(2) + "\n");
  if (!ctx.failures.empty()) throw Error("study: " + std::to_string(ctx.failures.size()) + " check(s) failed, first: " + ctx.failures.front() + " (report written to " + ctx.dir.string() + ")");
  return ctx.dir;
}

}  // namespace neaccel::study
