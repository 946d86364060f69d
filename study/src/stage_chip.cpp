// The study's designs as a chip (`--target sky130-hd`, docs/asic.md): every latency datapath of section 7 that was
// built (the chosen ones and the fastest with its pipelining options) mapped onto the SkyWater 130 nm standard cells,
// timed and powered pre-layout (cost::design_asic; the power at the toggle rates of the design's own co-simulation),
// and the fastest by the chip's clock chosen. The results come from the committed cache (data/asic-cache/<target>,
// keyed by the design's sources, the tools and the activity), else the design's own cache; the tools run only with
// --chip-flow (about a minute of Yosys and OpenSTA and half a minute of traced co-simulation per PUMA 560 design).
#include "context.hpp"

#include "neaccel/cost/asic.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

namespace neaccel::study {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kEstimate = "pre-layout estimate, SkyWater 130 nm typical corner";

cost::DesignAsicOptions asic_options(const Context& ctx, const fs::path& dir, bool run_tools) {
  cost::DesignAsicOptions o;
  o.dir = dir.string();
  o.target = ctx.opt.chip;
  o.cached_only = !run_tools;
  o.committed_dir = cost::asic_cache_dir(ctx.opt.chip).string();
  // The traced co-simulation: this executable's `sim` (the study runs its commands so), as `neaccel area` does it.
  o.write_trace = [dir](const std::string& vcd, int states, unsigned long long seed) {
    proc::Spawn run;
    run.argv = {fs::read_symlink("/proc/self/exe").string(), "sim", "--out", dir.string(), "--engine", "cosim",
                "--random", std::to_string(states), "--seed", std::to_string(seed), "--vcd", vcd, "--quiet"};
    run.stdout_path = dir / "sim_trace.log";
    run.stderr_path = dir / "sim_trace.log";
    const proc::Result r = proc::run(run);
    if (!r.ok()) throw Error(fmt::format("study: the traced co-simulation of {} failed (see {})", dir.string(), (dir / "sim_trace.log").string()));
  };
  return o;
}

// One design on the chip: its figures, or the status that says why there are none.
json chip_row(Context& ctx, const std::string& name, const std::string& format, const fs::path& dir) {
  json row{{"name", name}, {"format", format}, {"dir", dir.filename().string()}};
  if (ctx.opt.chip_flow) ctx.progress.detail(name + " (standard cells, " + ctx.opt.chip + ")");
  json j;
  try {
    j = cost::design_asic(asic_options(ctx, dir, ctx.opt.chip_flow));
  } catch (const Error& e) {
    row["status"] = std::string("not mapped: ") + e.what();
    return row;
  }
  const std::string from = j.value("cache", "none");
  if (from == "none") {
    row["status"] = "not mapped yet: --chip-flow maps it (committed results: cost/calibration/sky130/asic_cache.sh)";
    row["hash"] = j["hash"];
    return row;
  }
  const json& p = j["power"]["total"];
  const json& a = j["activity"];
  row["status"] = from == "committed" ? "mapped (committed result, data/asic-cache)" : "mapped";
  row["hash"] = j["hash"];
  row["cycles"] = j["cycles_per_evaluation"];
  row["clock_ns"] = j["clock_ns"];
  row["fmax_mhz"] = j["fmax_mhz"];
  row["time_ns"] = j["time_per_evaluation_ns"];
  row["per_s"] = 1e9 / j["time_per_evaluation_ns"].get<double>();
  row["area_mm2"] = j["area_mm2"];
  row["cells"] = j["cells"];
  row["flip_flops"] = j["flip_flops"];
  row["leakage_uw"] = p["leakage_uw"];
  row["internal_mw"] = p["internal_mw"];
  row["switching_mw"] = p["switching_mw"];
  row["total_mw"] = p["total_mw"];
  row["energy_nj"] = j["energy_per_evaluation_nj"];
  row["activity"] = a.value("source", std::string("global")) == "co-simulation"
                        ? json{{"source", "co-simulation"}, {"states", a["states"]}, {"cycles", a["cycles"]},
                               {"mean_flip_flop_rate", a["mean_flip_flop_rate"]},
                               {"flip_flops_traced", a["flip_flops_traced"]},
                               {"method", a.value("method", std::string("per net"))}}
                        : json{{"source", "global"}, {"global", a["global"]}};
  row["worst_path"] = {{"stages", j["worst_path"]["stages"]}, {"ns", j["worst_path"]["min_period_ns"]},
                       {"from", j["worst_path"].value("start_register", j["worst_path"]["startpoint"].get<std::string>())},
                       {"to", j["worst_path"].value("end_register", j["worst_path"]["endpoint"].get<std::string>())}};
  return row;
}

}  // namespace

bool chip_has(const Context& ctx, const fs::path& dir) {
  if (ctx.opt.chip.empty()) return false;
  if (ctx.opt.chip_flow) return true;
  try {
    return cost::design_asic(asic_options(ctx, dir, false)).value("cache", "none") != "none";
  } catch (const Error&) {
    return false;
  }
}

void stage_chip(Context& ctx) {
  if (ctx.opt.chip.empty() || !ctx.data.has("device")) return;
  const cost::Target& t = cost::target(ctx.opt.chip);
  const json& dev = ctx.data.at("device");
  json rows = json::array();
  std::ptrdiff_t best = -1;
  const auto add = [&](const std::string& name, const std::string& format, const std::string& dir_name, bool lever) {
    const fs::path dir = ctx.dir / "designs" / dir_name;
    if (!fs::exists(dir / "manifest.json")) return;
    json row = chip_row(ctx, name, format, dir);
    row["lever"] = lever;  // the fastest design with a pipelining option (section 7), not a chosen design
    if (row.contains("time_ns") &&
        (best < 0 || row["time_ns"].get<double>() < rows[static_cast<std::size_t>(best)]["time_ns"].get<double>()))
      best = static_cast<std::ptrdiff_t>(rows.size());
    rows.push_back(row);
  };
  for (const auto& d : dev["designs"])
    if (d["latency_datapath"].get<bool>()) add(d["name"], d["format"], d["dir"], false);
  if (dev.contains("levers"))
    for (const auto& l : dev["levers"]) add(l["name"], l["format"], l["dir"], true);
  json chip{{"target", t.name}, {"part", t.part}, {"estimate", kEstimate},
            {"corner", t.data.at("corner")}, {"designs", rows},
            {"note", "each design mapped onto the standard cells (Yosys), timed and powered by OpenSTA at the clock of "
                     "its worst register-to-register path, the power at the toggle rates of its own co-simulation; no "
                     "placement, clock tree or wires (docs/asic.md)"}};
  if (best >= 0) chip["fastest"] = best;
  ctx.data.put("chip", chip);

  Report& r = ctx.report;
  r.heading(3, "The designs as a chip: " + t.part + " (" + kEstimate + ")");
  r.para("Every latency datapath above that was built, mapped onto the SkyWater SKY130 high-density standard cells by "
         "Yosys and timed and powered by OpenSTA (`neaccel area --design DIR --target " + t.name + "`, docs/asic.md): "
         "a " + std::string(kEstimate) + " (25 C, 1.80 V), ideal clock, no placement, clock tree or wires. The clock is "
         "the worst register-to-register path's; the power is at that clock, every register's and port's toggle rate "
         "taken from the design's own co-simulation on random states (other nets at the registers' mean rate) where "
         "OpenSTA's pin-by-pin route agrees with its global one on the netlist, else the registers' mean rate on "
         "every net (the last column says which; docs/asic.md, Activity); "
         "energy per evaluation = power x cycles x clock. The designs are ranked by the chip's time per evaluation.");
  std::vector<std::vector<Cell>> cells;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string at = fmt::format("/designs/{}", i);
    if (!rows[i].contains("time_ns")) {
      cells.push_back({r.num("chip", at + "/name"), r.num("chip", at + "/format"), r.num("chip", at + "/status"),
                       Report::label("-"), Report::label("-"), Report::label("-"), Report::label("-"),
                       Report::label("-"), Report::label("-"), Report::label("-"), Report::label("-")});
      continue;
    }
    cells.push_back({r.num("chip", at + "/name"), r.num("chip", at + "/format"), r.num("chip", at + "/status"),
                     r.num("chip", at + "/cycles"), r.num("chip", at + "/clock_ns", 2), r.num("chip", at + "/time_ns", 1),
                     r.num("chip", at + "/area_mm2", 3), r.num("chip", at + "/total_mw", 2),
                     r.num("chip", at + "/energy_nj", 2), r.num("chip", at + "/activity/mean_flip_flop_rate", 3),
                     r.num("chip", at + "/activity/method")});
  }
  r.table({"design", "format", "status", "cycles", "clock (ns)", "ns per evaluation", "mm2", "power (mW)",
           "nJ per evaluation", "mean register toggle rate", "activity applied"},
          cells);
  if (best >= 0) {
    const std::string at = fmt::format("/designs/{}", best);
    r.para("- Fastest on the chip (" + std::string(kEstimate) + "): \"" +
               rows[static_cast<std::size_t>(best)]["name"].get<std::string>() +
               "\", {} ns per evaluation ({} cycles at {} ns), {} mm2, {} nJ per evaluation. Its clock is set by a "
               "path of {} cell stages from register {} to register {}.",
           {r.num("chip", at + "/time_ns", 1), r.num("chip", at + "/cycles"), r.num("chip", at + "/clock_ns", 2),
            r.num("chip", at + "/area_mm2", 3), r.num("chip", at + "/energy_nj", 2),
            r.num("chip", at + "/worst_path/stages"), r.num("chip", at + "/worst_path/from"),
            r.num("chip", at + "/worst_path/to")});
  } else {
    r.para("- No design has a chip result (the committed cache has none for these designs; `--chip-flow` maps them).");
  }
}

}  // namespace neaccel::study
