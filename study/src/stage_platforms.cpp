// The same graph on every platform, side by side: the study's accelerators (placed and routed on the study's device
// where they were; else estimated: cycles from verified schedules, clock and area from the cost model) beside the
// generated kernels measured on this machine (one CPU core for one state, the batched kernel on one core and on all
// cores, Pinocchio's RNEA or ABA) and the GPU, measured here where one is present or shown from data kept from a
// measurement elsewhere (dfg/platforms.hpp, docs/platforms.md). Measured figures vary between runs: they go to
// DIR/measured/ (platforms.json, comparison.json, cpu.json) and into the report's measured parts, which the
// determinism checks leave out (docs/study.md).
#include "context.hpp"
#include "neaccel/dfg/platforms.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cmath>

namespace neaccel::study {

using nlohmann::json;

void stage_platforms(Context& ctx) {
  if (!ctx.opt.platforms) {
    ctx.measured.put("platforms", {{"measured", false}, {"reason", "skipped (--no-platforms)"}});
    return;
  }
  ctx.progress.detail("platforms: the graph's kernels on this machine");
  dfg::PlatformOptions p;
  p.robot = ctx.opt.robot;
  p.function = ctx.opt.function;
  p.out = ctx.dir / "measured" / "platforms";
  if (ctx.opt.quick) {
    p.batches = {1, 100, 10000};
    p.repeats = 3;
    p.target_ms = 2;
  }
  p.pinocchio = ctx.opt.pinocchio == 1 || (ctx.opt.pinocchio < 0 && !ctx.opt.quick);
  p.progress = [&](const std::string& s) { ctx.progress.detail("platforms: " + s); };
  try {
    json r = dfg::measure_platforms(p);
    r["measured"] = true;
    if (!p.pinocchio && !r["pinocchio"]["measured"].get<bool>())
      r["pinocchio"]["reason"] = ctx.opt.pinocchio == 0 ? "skipped (--no-pinocchio)"
                                                        : "skipped (--quick: its first build takes minutes; --pinocchio)";
    ctx.measured.put("platforms", r);
  } catch (const dfg::WrongResult& e) {
    // A kernel that disagrees with the graph, a Pinocchio model whose results differ from ref's: a platform that
    // computed something else, which is a failure of the study, not a platform left unmeasured.
    ctx.measured.put("platforms", {{"measured", false}, {"reason", e.what()}});
    ctx.fail(e.what());
  } catch (const Error& e) {
    // No compiler, no Pinocchio: the accelerator rows are still shown, with the reason.
    ctx.measured.put("platforms", {{"measured", false}, {"reason", e.what()}});
  }
}

namespace {

// A rate as the table prints it: an integer below 1e7, else a float the report prints as x.yye+N.
json rate(double v) { return v < 1e7 ? json(std::llround(v)) : json(v); }

std::string binary(const std::string& scalar) { return scalar == "double" ? "binary64" : "binary32"; }

}  // namespace

// The table's rows as data (measured/comparison.json): one per platform, every figure the table prints, and the
// ratios the summary states. The accelerator rows repeat the study's figures (data/summary.json: its estimates and,
// on a device target, the fastest design as placed and routed) so that one file holds the comparison.
void platforms_summary(Context& ctx) {
  const json& summ = ctx.data.at("summary");
  const json& fast = summ["fastest"];
  const json& top = summ["best_throughput"];
  const json& plat = ctx.measured.at("platforms");
  json rows = json::array();
  // One row: every column the table prints (null prints "n/a").
  const auto row = [&](const std::string& platform, const json& one_state_ns, const json& states_per_s,
                       const json& batch, const json& error, const json& energy_nj, const std::string& where) {
    rows.push_back({{"platform", platform}, {"one_state_ns", one_state_ns}, {"states_per_s", states_per_s},
                    {"batch", batch}, {"error", error}, {"energy_nj", energy_nj}, {"where", where}});
  };
  const auto why_not = [&](const std::string& platform) {  // a platform not measured, and why
    row(platform, nullptr, nullptr, nullptr, nullptr, nullptr, "");
  };
  // The accelerator rows: the one placed and routed on the study's device where there is one (a measurement: its
  // time and rate one evaluation after another, at nextpnr's clock), then the two the exploration chose, at the
  // model's clock, with their area by the device model (a target with one) or their fit on the iCE40.
  const bool on_device = fast.contains("target");
  const auto area_text = [&](const json& area, const json& target, const json& device) {
    if (on_device)
      return fmt::format("{:.0f} cells; by the device model {:.0f} LUT4, {:.0f} DSP blocks: {} the {}", area.get<double>(),
                         target["lut"].get<double>(), target["dsp"].get<double>(),
                         target["fits"].get<bool>() ? "fits" : "does not fit", target["part"].get<std::string>());
    return fmt::format("{:.0f} cells; {} {}", area.get<double>(), device["device"].get<std::string>(),
                       device["fits"].get<bool>() ? "fits" : "does not fit");
  };
  const auto accel = [&](const std::string& what, const json& ex, const std::string& area, const json& err) {
    row(fmt::format("accelerator, {}: {} {}+{} units, binary32, estimated clock {:.1f} ns", what,
                    ex["arch"].get<std::string>(), ex["mul"].get<int>(), ex["add"].get<int>(), ex["period_ns"].get<double>()),
        ex["latency_ns"], rate(ex["throughput_per_s"].get<double>()), ex["throughput_mode"], err, "not known", area);
  };
  // A design's binary32 error against double, from its co-simulation (data/verify.json).
  const auto error_of = [&](const json& design, const std::string& format = "fp32") {
    const std::ptrdiff_t k = verify_run(ctx, design.get<std::string>(), format);
    return k < 0 ? json(nullptr) : ctx.data.at("verify")["runs"][static_cast<std::size_t>(k)]["max_rel_error"];
  };
  const bool placed = fast.contains("placed");
  if (placed) {
    const json& pl = fast["placed"];
    const std::string format = pl.value("format", std::string("fp32"));
    row(fmt::format("accelerator, lowest latency, placed and routed: {} {}+{} units{}, {}, {:.2f} MHz",
                    pl["arch"].get<std::string>(), pl["mul"].get<int>(), pl["add"].get<int>(),
                    pl.contains("lever") ? ", " + pl["lever"].get<std::string>() : std::string(),
                    format == "fp32" ? std::string("binary32") : format, pl["fmax_mhz"].get<double>()),
        pl["time_ns"], rate(1e9 / pl["time_ns"].get<double>()), 1, error_of(pl["design"], format), "not known",
        fmt::format("{} LUT4 ({:.1f} % of the {}), {} DSP blocks, placed", pl["lut"].get<long>(),
                    pl["lut_percent"].get<double>(), pl["part"].get<std::string>(), pl["dsp"].get<long>()));
  }
  // The chip (--target sky130-hd): its fastest design pre-layout, with the energy of its power report.
  if (summ.contains("asic")) {
    const json& a = summ["asic"];
    const std::string format = a["format"].get<std::string>();
    row(fmt::format("chip, lowest latency, {} ({}): {}, {}, {:.2f} MHz", a["target"].get<std::string>(),
                    a["estimate"].get<std::string>(), a["design"].get<std::string>(),
                    format == "fp32" ? std::string("binary32") : format, a["fmax_mhz"].get<double>()),
        a["time_ns"], rate(a["per_s"].get<double>()), 1, error_of(a["design"], format), a["energy_nj"],
        fmt::format("{:.3f} mm2 of standard cells, pre-layout; energy = OpenSTA power at the co-simulation's toggle "
                    "rates x time", a["area_mm2"].get<double>()));
  }
  accel(placed ? "lowest latency, estimated" : "lowest latency", fast["explore"],
        area_text(fast["area"], fast.value("target", json()), fast["device"]), error_of(fast["design"]));
  accel("highest throughput", top, area_text(top["throughput_area"], top.value("target_fit", json()), top["device"]),
        nullptr);
  // The comparisons quote the placed time where there is one.
  const double lat = placed ? fast["placed"]["time_ns"].get<double>() : fast["explore"]["latency_ns"].get<double>();
  json ratios = json::object();  // the ratios the summary states, each naming both sides
  ratios["accelerator_latency_from"] = placed ? "placed and routed" : "estimated";
  const std::string cpu = plat.value("machine", json::object()).value("cpu", dfg::cpu_model());
  if (plat["measured"].get<bool>()) {
    const json& sc = plat["scalars"];
    const unsigned threads = plat["machine"]["hardware_threads"].get<unsigned>();
    for (const auto& [scalar, v] : sc.items())
      row("CPU, one core, one state per call: generated code, " + binary(scalar), v["one_state_ns"],
          rate(v["one_state_states_per_s"].get<double>()), 1, v["max_rel_error_vs_double"], "not known", cpu);
    for (const auto& [scalar, v] : sc.items()) {
      row("CPU, batched kernel, one core, " + binary(scalar), nullptr, rate(v["best_one_core"]["states_per_s"].get<double>()),
          v["best_one_core"]["batch"], v["max_rel_error_vs_double"], "not known", cpu);
      row(fmt::format("CPU, batched kernel, all {} hardware threads, {}", threads, binary(scalar)), nullptr,
          rate(v["best_all_cores"]["states_per_s"].get<double>()), v["best_all_cores"]["batch"],
          v["max_rel_error_vs_double"], "not known", cpu);
    }
    const json& pin = plat["pinocchio"];
    if (pin["measured"].get<bool>())
      row("Pinocchio " + pin["algorithm"].get<std::string>() + ", one core, binary64", pin["ns"],
          rate(1e9 / pin["ns"].get<double>()), 1, pin["max_rel_diff_vs_ref"], "not known", cpu);
    else
      why_not("Pinocchio: " + pin["reason"].get<std::string>());
    const json& gpu = plat["gpu"];
    const auto gpu_rows = [&](const json& per_scalar, const std::string& how) {
      for (const auto& [scalar, g] : per_scalar.items()) {
        if (!g.is_object() || !g.contains("rows")) continue;
        const auto [best, at] = dfg::best_gpu_rate(g);
        const std::string platform = fmt::format("GPU {} ({}), one thread per state, {}",
                                                 g.value("device", gpu.value("device_list", std::string("here"))), how,
                                                 binary(scalar));
        const double one_ns = 1e3 * g.value("one_state_launch_sync_us", 0.0);
        const json sus = g.value("sustain", json::object());
        row(platform, one_ns, rate(best), at,
            g.value("max_rel_diff_vs_host", 0.0) + sc[scalar]["max_rel_error_vs_double"].get<double>(),
            sus.contains("nj_per_state_board") ? sus["nj_per_state_board"] : json("not known"),
            fmt::format("{}{}", g.value("data", std::string("this machine")),
                        g.contains("date_utc") ? ", " + g["date_utc"].get<std::string>() : ""));
        if (scalar == "float") {  // against the accelerator, in its format (binary32)
          ratios["gpu_rate_over_accelerator_rate"] = best / top["throughput_per_s"].get<double>();
          ratios["gpu_one_state_over_accelerator_latency"] = one_ns / lat;
          ratios["gpu_batch"] = at;
          ratios["gpu_platform"] = platform;
        }
      }
    };
    if (gpu["measured"].get<bool>()) gpu_rows(gpu, "measured here");
    else if (gpu.contains("elsewhere")) gpu_rows(gpu["elsewhere"], "kept data, not this machine");
    if (!gpu["measured"].get<bool>()) why_not("GPU on this machine: " + gpu["reason"].get<std::string>());
    if (sc.contains("double"))
      ratios["accelerator_latency_over_cpu_one_state_b64"] = lat / sc["double"]["one_state_ns"].get<double>();
    if (sc.contains("float"))
      ratios["accelerator_latency_over_cpu_one_state_b32"] = lat / sc["float"]["one_state_ns"].get<double>();
    if (pin.contains("ratio_generated_over_pinocchio"))
      ratios["generated_over_pinocchio"] = pin["ratio_generated_over_pinocchio"];
  }
  // States/s by batch size of the batched kernel, rounded as the table prints them.
  json by_batch = json::array();
  if (plat["measured"].get<bool>()) {
    const json& sc = plat["scalars"];
    const std::size_t n = sc.empty() ? 0 : sc.begin().value()["batched"].size();
    for (std::size_t i = 0; i < n; ++i) {
      json row = {{"batch", sc.begin().value()["batched"][i]["batch"]}};
      for (const auto& [scalar, v] : sc.items()) {
        row[scalar + "_one_core"] = rate(v["batched"][i]["one_core_states_per_s"].get<double>());
        row[scalar + "_all_cores"] = rate(v["batched"][i]["all_cores_states_per_s"].get<double>());
      }
      by_batch.push_back(row);
    }
  }
  ctx.measured.put("comparison", {{"rows", rows}, {"ratios", ratios}, {"cpu", cpu}, {"by_batch", by_batch},
                                  {"note", "measured in this run (CPU rows) or kept as data with its device and date "
                                           "(GPU rows measured elsewhere); the accelerator rows are the study's "
                                           "estimates (data/summary.json), but for the one placed and routed "
                                           "(data/device.json); varies between runs"}});

  Report& r = ctx.report;
  r.begin_measured();
  r.para(std::string("- Every platform, for the same graph (measured in this run on {}, except where a row says "
                     "otherwise; the accelerator rows are estimates") +
             (placed ? ", but for the one placed and routed):" : "):"),
         {r.num("measured/comparison", "/cpu")});
  std::vector<std::vector<Cell>> cells;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string at = "/rows/" + std::to_string(i);
    cells.push_back({r.num("measured/comparison", at + "/platform"), r.num("measured/comparison", at + "/one_state_ns", 0),
                     r.num("measured/comparison", at + "/states_per_s", 2), r.num("measured/comparison", at + "/batch"),
                     r.num("measured/comparison", at + "/error", 1), r.num("measured/comparison", at + "/energy_nj", 1),
                     r.num("measured/comparison", at + "/where")});
  }
  r.table({"platform", "one state (ns)", "states/s", "at batch", "error vs double (max rel.)", "energy per state (nJ)",
           "area, device / machine"},
          cells);
  if (ratios.contains("accelerator_latency_over_cpu_one_state_b64"))
    r.para("- The lowest-latency accelerator ({}) takes {}x the time of one CPU core running the generated "
           "code for one state in binary64, and {}x its time in binary32 (below 1: the accelerator is faster).",
           {r.num("measured/comparison", "/ratios/accelerator_latency_from"),
            r.num("measured/comparison", "/ratios/accelerator_latency_over_cpu_one_state_b64", 2),
            ratios.contains("accelerator_latency_over_cpu_one_state_b32")
                ? r.num("measured/comparison", "/ratios/accelerator_latency_over_cpu_one_state_b32", 2)
                : Report::label("n/a")});
  if (ratios.contains("gpu_rate_over_accelerator_rate"))
    r.para("- {} reaches {}x the highest-throughput accelerator's rate (at a batch of {} states), and one state "
           "takes it {}x the lowest-latency accelerator's time ({}; launch and synchronise, data already on the GPU).",
           {r.num("measured/comparison", "/ratios/gpu_platform"),
            r.num("measured/comparison", "/ratios/gpu_rate_over_accelerator_rate", 0),
            r.num("measured/comparison", "/ratios/gpu_batch"),
            r.num("measured/comparison", "/ratios/gpu_one_state_over_accelerator_latency", 2),
            r.num("measured/comparison", "/ratios/accelerator_latency_from")});
  if (ratios.contains("generated_over_pinocchio"))
    r.para("- The generated one-state code takes {}x Pinocchio's time per call on the same CPU core (binary64).",
           {r.num("measured/comparison", "/ratios/generated_over_pinocchio", 2)});
  r.end_measured();
}

// The designs the study stands behind, at a glance: the fastest placed design (summary.json fastest.placed) and every
// chosen latency datapath placed on the device, each verified by co-simulation, with its placed time and rate, its
// LUT4 and DSP blocks, and how it compares with one CPU core (generated code, one state per call, binary64) and with
// the GPU's best binary32 rate: a measured part (the CPU times are this run's). study.cpp moves it to the head of
// the summary. Nothing where no design was placed.
void headline(Context& ctx) {
  if (!ctx.data.has("device") || !ctx.data.at("summary")["fastest"].contains("placed")) return;
  const json& plat = ctx.measured.at("platforms");
  double cpu_ns = 0, gpu_rate = 0;
  if (plat["measured"].get<bool>()) {
    if (plat["scalars"].contains("double")) cpu_ns = plat["scalars"]["double"]["one_state_ns"].get<double>();
    const json& gpu = plat["gpu"];
    const json& per_scalar = gpu["measured"].get<bool>() ? gpu : gpu.value("elsewhere", json::object());
    if (per_scalar.contains("float") && per_scalar["float"].is_object() && per_scalar["float"].contains("rows"))
      gpu_rate = dfg::best_gpu_rate(per_scalar["float"]).first;
  }
  json rows = json::array();
  const auto add = [&](const std::string& role, const std::string& name, const std::string& format, const json& cycles,
                       const json& placed) {
    const double ns = placed["time_ns"].get<double>(), per_s = 1e9 / ns;
    // The device table names a design's other format "NAME, FORMAT"; section 6 verified it as NAME in FORMAT.
    const std::string suffix = ", " + format;
    const bool named_with_format = name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    const std::ptrdiff_t k = verify_run(ctx, named_with_format ? name.substr(0, name.size() - suffix.size()) : name, format);
    const json* run = k >= 0 ? &ctx.data.at("verify")["runs"][static_cast<std::size_t>(k)] : nullptr;
    const std::string verified = run == nullptr || !(*run)["pass"].get<bool>() ? "no"
                                 : (*run)["engines"] == "SystemC only"       ? "bit-exact (SystemC model)"
                                                                             : "bit-exact (RTL = SystemC)";
    rows.push_back({{"role", role}, {"design", name}, {"format", format == "fp32" ? "binary32" : format},
                    {"cycles", cycles}, {"time_ns", ns}, {"per_s", per_s}, {"fmax_mhz", placed["fmax_mhz"]},
                    {"lut", placed["lut"]}, {"dsp", placed["dsp"]},
                    {"verified", verified},
                    {"vs_cpu", cpu_ns > 0 ? json(cpu_ns / ns) : json(nullptr)},
                    {"vs_gpu", gpu_rate > 0 ? json(per_s / gpu_rate) : json(nullptr)}});
  };
  const json& f = ctx.data.at("summary")["fastest"]["placed"];
  add("fastest", f["design"], f.value("format", std::string("fp32")), f["cycles"], f);
  for (const auto& d : ctx.data.at("device")["designs"]) {
    if (!d["latency_datapath"].get<bool>() || !d["placed"].contains("time_ns") || d["name"] == f["design"]) continue;
    std::string role = d["objective"] == "throughput" ? "highest throughput per area (chosen)" : "lowest latency (chosen)";
    for (const auto& also : d.value("also", json::array())) role += "; also " + also.get<std::string>();
    add(role, d["name"], d["format"], d["cycles"], d["placed"]);
  }
  ctx.measured.put("headline", {{"rows", rows}, {"cpu_one_state_ns", cpu_ns > 0 ? json(cpu_ns) : json(nullptr)},
                                {"gpu_states_per_s", gpu_rate > 0 ? json(gpu_rate) : json(nullptr)},
                                {"note", "the designs placed and routed on the study's device, verified; the ratios "
                                         "divide by this run's CPU time (varies between runs)"}});
  Report& r = ctx.report;
  r.begin_measured();
  r.para("The designs this study stands behind, placed and routed on the {} and verified (section 6; one "
         "evaluation after another; against one CPU core running the generated code for one state in binary64, "
         "measured in this run, and the GPU's best binary32 rate; above 1: the accelerator is faster):",
         {r.num("device", "/part")});
  std::vector<std::vector<Cell>> cells;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string at = "/rows/" + std::to_string(i);
    std::vector<Cell> c;
    for (const auto& [field, digits] : std::initializer_list<std::pair<const char*, int>>{
             {"/role", -1}, {"/design", -1}, {"/format", -1}, {"/time_ns", 1}, {"/per_s", 0}, {"/fmax_mhz", 2},
             {"/lut", -1}, {"/dsp", -1}, {"/verified", -1}, {"/vs_cpu", 2}, {"/vs_gpu", 2}})
      c.push_back(r.num("measured/headline", at + field, digits));
    cells.push_back(c);
  }
  r.table({"role", "design", "format", "ns per evaluation", "evaluations/s", "Fmax (MHz)", "LUT4", "DSP blocks",
           "verified", "vs one CPU core", "vs GPU rate"},
          cells);
  r.end_measured();
}

void platforms_section(Context& ctx) {
  const json& plat = ctx.measured.at("platforms");
  Report& r = ctx.report;
  r.heading(2, "Platforms: the same graph on CPU, GPU and the accelerator");
  r.para("The customised graph of the function, generated as straight-line code for each platform and checked "
         "against the graph's own evaluation before anything is timed (`neaccel platforms`, docs/platforms.md). "
         "The summary's table compares them with the accelerators. Everything in the framed part below is measured "
         "in this run, or kept as data from a measurement elsewhere with its device and date, and differs from run "
         "to run: it is kept in `measured/` beside this report, not in `data/`.");
  r.begin_measured();
  if (!plat["measured"].get<bool>()) {
    r.para("Not measured: {}.", {r.num("measured/platforms", "/reason")});
  } else {
    r.para("Graph: {} operations; CPU: {}, {} hardware threads; method: {}.",
           {r.num("measured/platforms", "/graph/operations"), r.num("measured/platforms", "/machine/cpu"),
            r.num("measured/platforms", "/machine/hardware_threads"), r.num("measured/platforms", "/method")});
    std::vector<std::string> header = {"batch"};
    std::vector<std::string> scalars;
    for (const auto& [scalar, v] : plat["scalars"].items()) {
      scalars.push_back(scalar);
      header.push_back(binary(scalar) + ", one core (states/s)");
      header.push_back(binary(scalar) + ", all threads (states/s)");
    }
    std::vector<std::vector<Cell>> rows;
    const std::size_t n = ctx.measured.at("comparison")["by_batch"].size();
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Cell> row = {r.num("measured/comparison", fmt::format("/by_batch/{}/batch", i))};
      for (const auto& s : scalars) {
        row.push_back(r.num("measured/comparison", fmt::format("/by_batch/{}/{}_one_core", i, s), 2));
        row.push_back(r.num("measured/comparison", fmt::format("/by_batch/{}/{}_all_cores", i, s), 2));
      }
      rows.push_back(row);
    }
    r.table(header, rows);
    r.figure("measured/platforms/platforms.svg", "States per second against batch size, one line per platform "
                                                 "(measured/platforms/platforms.json).");
  }
  r.end_measured();
  r.note("Error against double: the largest difference from the graph evaluated in double over 1000 random "
         "states, relative to the largest output of each state; for the GPU, the host build's error plus the GPU's "
         "largest difference from the host build of the same kernel (a bound: nvcc contracts into FMA, the host "
         "build does not). Energy: the GPU's is board power (nvidia-smi, sampled while the largest batch ran) divided by the rate, "
         "idle draw included; the chip's (with --target sky130-hd) is its pre-layout power report (OpenSTA, SkyWater 130 nm "
         "typical corner, at the toggle rates of the design's co-simulation) times its time per evaluation; the CPU's and "
         "the FPGA's are not known (no power counter is read here, and no power model or measurement of the ECP5 exists "
         "in the project).");
}

}  // namespace neaccel::study
