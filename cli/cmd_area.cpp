// `neaccel area`: the Yosys area and iCE40 place and route of one arithmetic unit configuration, or of the sweep of
// them that data/unit-area.json and data/unit-timing.json hold (neaccel/cost/unit_runs.hpp, docs/units.md); with
// --design DIR: of a whole design directory (neaccel/cost/design_area.hpp, docs/cost.md); with --design DIR --pnr
// --target T: placed and routed on the target T (neaccel/cost/design_pnr.hpp, cost/targets/T.json).
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/cost/asic.hpp"
#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/design_area.hpp"
#include "neaccel/cost/design_pnr.hpp"
#include "neaccel/cost/routability.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/cost/unit_runs.hpp"
#include "neaccel/sim/sim.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <unistd.h>
#include <iostream>
#include <memory>
#include <string>
#include <utility>

namespace {

using nlohmann::json;

struct AreaOptions {
  neaccel::cost::UnitRunOptions units;
  neaccel::cost::DesignAreaOptions design;
  std::string target;   // --target; empty: the iCE40 HX8K flow of design_area
  bool remeasure = false;
  int seed = 1;         // --seed: nextpnr's placer seed (with --design --pnr --target)
  bool seed_given = false;  // --seed on the command line (else other seeds' cached results are read, as the study does)
  double pnr_timeout_s = 0;  // --pnr-timeout: each tool's limit (nextpnr's router need not converge); 0: not given
  bool model = false;   // --model: the target's device model and its calibration designs
  bool routability = false;  // --routability: the designs placed on the target, routed or not, and their envelope
  double activity = -1;  // --activity: with a standard-cell target, the nets' transitions per cycle (<0: the target's)
  bool json = false;
};

void print_row(const json& j) {
  fmt::print("{:<9} {:>2} {:>4} {:>8} {:>6} {:>6} {:>6} {:>4} {:>7} {:>4} {:>5}\n", j["unit"].get<std::string>(),
             j["latency"].get<int>(), j["pipelined"].get<bool>() ? "yes" : "no", j["generic_cells"].get<long>(),
             j["logic_depth"].get<long>(), j["lut"].get<long>(), j["ff"].get<long>(), j["dsp48e1"].get<long>(),
             j["carry4"].get<long>(), j["srl"].get<long>(), j["muxf"].get<long>());
}

void run_units(const neaccel::cost::UnitRunOptions& o, bool json_out) {
  neaccel::cost::UnitRunReport r = neaccel::cost::run_units(o);
  json& rows = r.rows;
  if (o.timing && o.all) {
    if (json_out) {
      std::cout << r.json.dump(2) << "\n";
    } else {
      fmt::print("{:<9} {:>2} {:>4} {:>5} {:>4} {:>9} {:>6}\n", "unit", "L", "pipe", "width", "frac", "fmax_MHz", "LCs");
      for (const auto& u : r.json["units"]) {
        fmt::print("{:<9} {:>2} {:>4} {:>5} {:>4} {:>9.2f} {:>6}\n", u["unit"].get<std::string>(), u["latency"].get<int>(),
                   u["pipelined"].get<bool>() ? "yes" : "no", u["width"].get<int>(), u["frac"].get<int>(),
                   u["fmax_mhz"].get<double>(), u["logic_cells"].get<long>());
      }
    }
    for (const auto& m : r.missing) std::cerr << "not measured (not cached): " << m << "\n";
    return;
  }
  if (json_out) {
    std::cout << r.json.dump(2) << "\n";
    return;
  }
  if (!r.area) {
    const auto& u = rows[0];
    fmt::print("{} latency {} ({}pipelined): Fmax {:.2f} MHz on iCE40 {} {} (seed {}), {} logic cells, {} RAM, {} I/O\n",
               u["unit"].get<std::string>(), u["latency"].get<int>(), u["pipelined"].get<bool>() ? "" : "non-",
               u["fmax_mhz"].get<double>(), u["device"].get<std::string>(), u["package"].get<std::string>(),
               u["seed"].get<int>(), u["logic_cells"].get<long>(), u["ram"].get<long>(), u["io"].get<long>());
    return;
  }
  fmt::print("{:<9} {:>2} {:>4} {:>8} {:>6} {:>6} {:>6} {:>4} {:>7} {:>4} {:>5}\n", "unit", "L", "pipe", "cells",
             "depth", "LUT", "FF", "DSP", "CARRY4", "SRL", "MUXF");
  for (const auto& u : rows) print_row(u);
  if (r.timing && rows.size() == 1 && rows[0].contains("fmax_mhz")) {
    fmt::print("iCE40 {} {} (seed {}): Fmax {:.2f} MHz, {} logic cells, {} RAM, {} I/O\n",
               rows[0]["device"].get<std::string>(), rows[0]["package"].get<std::string>(), rows[0]["seed"].get<int>(),
               rows[0]["fmax_mhz"].get<double>(), rows[0]["ice40_logic_cells"].get<long>(),
               rows[0]["ice40_ram"].get<long>(), rows[0]["ice40_io"].get<long>());
  }
  for (const auto& m : r.missing) fmt::print("not measured (not cached): {}\n", m);
}

void run_design(const neaccel::cost::DesignAreaOptions& o, bool json_out) {
  json j = neaccel::cost::design_area(o);
  if (json_out) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (o.hierarchical)
    fmt::print("design {} (hierarchical): {} cells ({} in units from data/unit-area.json, {} outside), {} flip-flops outside "
               "the units\n", j["design"].get<std::string>(), j["cells"].get<long>(), j["unit_cells"].get<long>(),
               j["non_unit_cells"].get<long>(), j["non_unit_flip_flops"].get<long>());
  else
    fmt::print("design {}: {} cells ({} in units, {} outside), {} flip-flops\n", j["design"].get<std::string>(),
               j["cells"].get<long>(), j["unit_cells"].get<long>(), j["non_unit_cells"].get<long>(), j["flip_flops"].get<long>());
  if (j.contains("estimate") && j["estimate"].contains("none"))
    fmt::print("model estimate: none ({})\n", j["estimate"]["none"].get<std::string>());
  else if (j.contains("estimate"))
    fmt::print("model estimate: {:.0f} cells, period {:.1f} ns ({})\n", j["estimate"]["area_cells"].get<double>(),
               j["estimate"]["period_ns"].get<double>(), j["estimate"]["critical"].get<std::string>());
  if (o.fpga) {
    const json& x = j["fpga"]["xc7"];
    fmt::print("xc7: {} LUT + {} LUTRAM, {} FF, {} BRAM, {} DSP48E1\n", x["lut"].get<long>(), x["lutram"].get<long>(),
               x["ff"].get<long>(), x["bram"].get<long>(), x["dsp48e1"].get<long>());
    if (j["fpga"].contains("ice40")) {
      const json& i = j["fpga"]["ice40"];
      fmt::print("iCE40: {} LUT4, {} FF, {} RAM40_4K ({})\n", i["lut4"].get<long>(), i["ff"].get<long>(),
                 i["ram40_4k"].get<long>(), i["fits_hx8k"].get<bool>() ? "fits the HX8K" : "does not fit the HX8K");
    }
  }
  if (o.pnr) {
    const json& p = j["pnr"];
    if (p["fits"].get<bool>())
      fmt::print("iCE40 {}: {} of {} logic cells, {} block RAMs, Fmax {:.1f} MHz\n", p["device"].get<std::string>(),
                 p["logic_cells"].get<long>(), p["logic_cells_available"].get<long>(), p["ram"].get<long>(),
                 p["fmax_mhz"].get<double>());
    else
      fmt::print("iCE40 {}: does not fit; xc7: {} LUT, {} FF, {} DSP48E1, {} BRAM\n", p["device"].get<std::string>(),
                 p["xc7"]["lut"].get<long>(), p["xc7"]["ff"].get<long>(), p["xc7"]["dsp48e1"].get<long>(),
                 p["xc7"]["bram"].get<long>());
  }
}

// `--design DIR --pnr --target T` for a target other than the iCE40 HX8K (whose flow stays in design_area, with its
// generic synthesis beside): the target's place and route only.
void run_design_pnr(const AreaOptions& a) {
  neaccel::cost::DesignPnrOptions o;
  o.dir = a.design.dir;
  o.target = a.target;
  o.remeasure = a.remeasure;
  o.cached_only = a.units.cached_only;
  o.seed = a.seed;
  if (!a.seed_given) o.other_seeds = neaccel::cost::kCachedOtherSeeds;
  o.timeout_s = a.pnr_timeout_s > 0 ? a.pnr_timeout_s : neaccel::cost::kPnrTimeoutS;
  const json j = neaccel::cost::design_pnr(o);
  if (a.json) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  auto print_model = [&] {
    if (!j.contains("estimate")) return;
    const json& e = j["estimate"];
    if (e.contains("none")) {  // the manifest gives no cost point (not a datapath of `neaccel rtl`, or corrupted)
      fmt::print("device model: no estimate ({})\n", e["none"].get<std::string>());
      return;
    }
    fmt::print("device model: {:.2f} MHz ({:.2f} ns), {:.0f} LUT4, {:.0f} DSP (neaccel area --model --target {})\n",
               e["fmax_mhz"].get<double>(), e["period_ns"].get<double>(), e["lut"].get<double>(),
               e["dsp"].get<double>(), j["target"].get<std::string>());
  };
  if (j["cache"] == "none") {  // --cached-only and neither cache holds it
    fmt::print("{} ({}): not placed and routed yet (--cached-only)\n", j["part"].get<std::string>(),
               j["target"].get<std::string>());
    print_model();
    return;
  }
  // Not "--design ...": a message that begins with an option's name is a usage error (exit 2); this is a failed step.
  if (!j["fits"].get<bool>()) throw neaccel::Error("design " + a.design.dir + ": " + j["overflow"].get<std::string>());
  const json& p = j["percent"];
  fmt::print("{} ({}): Fmax {:.2f} MHz ({:.2f} ns), {} LUT4 ({:.1f} %), {} FF ({:.1f} %), {} DSP ({:.1f} %), "
             "{} block RAM ({:.1f} %), {} I/O; {}\n",
             j["part"].get<std::string>(), j["target"].get<std::string>(), j["fmax_mhz"].get<double>(),
             j["period_ns"].get<double>(), j["lut"].get<long>(), p["lut"].get<double>(), j["ff"].get<long>(),
             p["ff"].get<double>(), j["dsp"].get<long>(), p["dsp"].get<double>(), j["bram"].get<long>(),
             p["bram"].get<double>(), j["io"].get<long>(),
             j["cache"] == "measured" ? fmt::format("placed and routed in {:.0f} s", j["seconds"].get<double>())
             : j.value("seed", 1) != a.seed
                 ? fmt::format("cached ({}; nextpnr seed {}: seed {} has no cached result)", j["cache"].get<std::string>(),
                               j["seed"].get<int>(), a.seed)
                 : "cached (" + j["cache"].get<std::string>() + ")");
  print_model();
}

// `--model --target T`: the device model's coefficients and every placed design beside the model's estimate, as the
// markdown table of docs/cost.md (or JSON).
void run_model(const AreaOptions& a) {
  const json m = neaccel::cost::device_model(a.target);
  if (a.json) {
    std::cout << m.dump(2) << "\n";
    return;
  }
  const json& c = m["coefficients"];
  fmt::print("Device model of {} ({}), fitted on {}:\n", m["target"].get<std::string>(), m["part"].get<std::string>(),
             m["designs_file"].get<std::string>());
  for (const auto& [arch, k] : c.items())
    fmt::print("- {}: LUT4 = {:.3f} x units' LUT4 + {:.3f} x non-unit generic cells + {:.0f}; period = slowest unit "
               "stage + {:.2f} ns + {:.2f} ns x log2(operand mux inputs) + {:.2f} ns x units{}\n",
               arch, k["k_unit"].get<double>(), k["k_lut"].get<double>(), k["k_lut0"].get<double>(),
               k["t_op0"].get<double>(), k["t_op_per_level"].get<double>(), k["t_per_unit"].get<double>(),
               k.contains("k_stream")
                   ? fmt::format("; a streaming datapath: {:.3f} x non-unit generic cells more LUT4 (fitted on its "
                                 "streaming designs; the rest on its latency datapaths)",
                                 k["k_stream"].get<double>())
                   : std::string());
  fmt::print("\n| design | set | arch | LUT placed / model (error) | DSP placed / model | period placed / model, ns (error) | place and route, s |\n");
  fmt::print("|---|---|---|---|---|---|---|\n");
  for (const auto& r : m["designs"]) {
    const json& e = r["estimate"];
    const json& err = r["error_percent"];
    fmt::print("| {} | {} | {} | {} / {:.0f} ({:+.1f} %) | {} / {:.0f} | {:.2f} / {:.2f} ({:+.1f} %) | {:.0f} |\n",
               r["name"].get<std::string>(), r["set"].get<std::string>(), r["arch"].get<std::string>(),
               r["lut"].get<long>(), e["lut"].get<double>(), err["lut"].get<double>(), r["dsp"].get<long>(),
               e["dsp"].get<double>(), r["period_ns"].get<double>(), e["period_ns"].get<double>(),
               err["period"].get<double>(), r["seconds"].get<double>());
  }
  const json& w = m["worst_error_percent"];
  fmt::print("\nWorst error, of the classes the model holds for: fitted designs LUT {:.1f} %, DSP {:.1f} %, period {:.1f} %; designs kept out of the fit "
             "LUT {:.1f} %, DSP {:.1f} %, period {:.1f} %.\n",
             w["fit"]["lut"].get<double>(), w["fit"]["dsp"].get<double>(), w["fit"]["period"].get<double>(),
             w["check"]["lut"].get<double>(), w["check"]["dsp"].get<double>(), w["check"]["period"].get<double>());
  for (const auto& c : m["unmodelled_classes"])
    fmt::print("Not modelled: {} {} datapaths. Of the {} it is fitted or checked on, {} is {:+.1f} % in LUT4 and {} "
               "{:+.1f} % in period by the model, beyond its tolerance; the worst errors above leave them out, and the "
               "study and the exploration choose no such design on the model's figures.\n",
               c["arch"].get<std::string>(), c["datapaths"].get<std::string>(), c["designs"].get<int>(),
               c["lut_design"].get<std::string>(), c["lut_error_percent"].get<double>(),
               c["period_design"].get<std::string>(), c["period_error_percent"].get<double>());
}

// `--routability --target T`: every design placed on the target, routed or not, beside the model's estimate, and the
// envelope per architecture that the exploration and the study hold designs to (routability.hpp), as markdown.
void run_routability(const AreaOptions& a) {
  const json m = neaccel::cost::routability(a.target);
  if (a.json) {
    std::cout << m.dump(2) << "\n";
    return;
  }
  fmt::print("Routed on the {} ({}; {}, regenerated by {}):\n", m["part"].get<std::string>(),
             m["target"].get<std::string>(), m["routability_file"].get<std::string>(), m["command"].get<std::string>());
  auto bound = [](const json& v, const char* key) {
    return v[key].get<bool>() ? "a bound: a larger one did not route" : "no bound: nothing larger failed";
  };
  for (const auto& [arch, v] : m["envelope"].items())
    fmt::print("- {}: {} designs routed; the largest {} LUT4 ({:.1f} % of the device: {}; {}), the widest operand "
               "multiplexer {:.0f} inputs ({}; {})\n",
               arch, v["routed"].get<int>(), v["lut"].get<long>(), v["lut_percent"].get<double>(),
               v["lut_design"].get<std::string>(), bound(v, "bounds_lut"), v["port_sources"].get<double>(),
               v["port_design"].get<std::string>(), bound(v, "bounds_ports"));
  for (const auto& [arch, v] : m["envelope"].items()) {
    if (v["model_port_design"].get<std::string>().empty()) continue;
    fmt::print("- {}: the device model is fitted or checked on operand multiplexers of up to {:.0f} inputs ({}); ",
               arch, v["model_port_sources"].get<double>(), v["model_port_design"].get<std::string>());
    if (v["beyond_period_design"].get<std::string>().empty())
      fmt::print("no routed design is wider (no bound)\n");
    else
      fmt::print("routed designs wider were {:+.1f} % in period ({}) and {:+.1f} % in LUT4 ({}) by the model ({})\n",
                 v["beyond_period_error_percent"].get<double>(), v["beyond_period_design"].get<std::string>(),
                 v["beyond_lut_error_percent"].get<double>(), v["beyond_lut_design"].get<std::string>(),
                 v["bounds_model_ports"].get<bool>() ? "a bound: beyond the model's tolerance"
                                                     : "no bound: within the model's tolerance");
  }
  // The model's classes: latency and streaming datapaths of each architecture (routability.hpp).
  for (const auto& [arch, v] : m["envelope"].items())
    for (const char* kind : {"latency", "streaming"}) {
      const json& c = v[std::string(kind) + "_datapaths"];
      if (c["designs"].get<int>() == 0) continue;
      fmt::print("- {} {} datapaths: {} designs the model is fitted or checked on, worst {:+.1f} % in LUT4 ({}) and "
                 "{:+.1f} % in period ({}) ({})\n",
                 arch, kind, c["designs"].get<int>(), c["lut_error_percent"].get<double>(),
                 c["lut_design"].get<std::string>(), c["period_error_percent"].get<double>(),
                 c["period_design"].get<std::string>(),
                 c["bounds"].get<bool>() ? "not modelled: beyond the model's tolerance" : "modelled");
    }
  fmt::print("\n| design | arch | routed | LUT4 placed | LUT4 model | operand mux inputs | period placed / model, ns "
             "(error) | note |\n|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : m["designs"]) {
    const double period = r["period_ns"].get<double>(), model = r["model_period_ns"].get<double>();
    fmt::print("| {} | {} | {} | {} | {:.0f} | {:.0f} | {} | {} |\n", r["name"].get<std::string>(),
               r["arch"].get<std::string>(), r["routed"].get<bool>() ? "yes" : "**no**",
               r["lut"].get<long>() > 0 ? fmt::format("{}", r["lut"].get<long>()) : std::string("-"),
               r["model_lut"].get<double>(), r["port_sources"].get<double>(),
               period > 0 ? fmt::format("{:.2f} / {:.2f} ({:+.1f} %)", period, model, neaccel::cost::percent_error(model, period))
                          : fmt::format("- / {:.2f}", model),
               r.value("note", std::string()));
  }
}

// --target sky130-hd (a standard-cell target): a design directory or one unit in its timing harness, mapped onto the
// cells and timed (neaccel/cost/asic.hpp, docs/asic.md).
void run_asic(const AreaOptions& a) {
  json j;
  if (!a.design.dir.empty()) {
    neaccel::cost::DesignAsicOptions o;
    o.dir = a.design.dir;
    o.target = a.target;
    o.activity = a.activity;
    o.remeasure = a.remeasure;
    o.cached_only = a.units.cached_only;
    // Without --activity: the design's co-simulation (Verilator RTL against the SystemC model) on random states,
    // traced, gives every register's and port's toggle rate.
    o.write_trace = [&a](const std::string& vcd, int states, unsigned long long seed) {
      const bool tty = isatty(STDERR_FILENO);
      if (tty) fmt::print(stderr, "activity: co-simulating {} on {} random states (seed {}) with a VCD trace\n", a.design.dir, states, seed);
      neaccel::sim::Options s;
      s.out = a.design.dir;
      s.engine = "cosim";
      s.random = states;
      s.seed = seed;
      s.vcd = vcd;
      s.quiet = !tty;
      neaccel::sim::run(s);
    };
    j = neaccel::cost::design_asic(o);
  } else {
    neaccel::cost::UnitAsicOptions o;
    o.unit = a.units.unit;
    o.rtl = a.units.rtl;
    o.out = a.units.out;
    o.target = a.target;
    o.latency = a.units.latency;
    o.width = a.units.width;
    o.frac = a.units.frac;
    o.non_pipelined = a.units.non_pipelined;
    o.activity = a.activity;
    o.remeasure = a.remeasure;
    j = neaccel::cost::unit_asic(o);
  }
  if (a.json) {
    std::cout << j.dump(2) << "\n";
    return;
  }
  if (j.value("cache", "") == "none") {
    fmt::print("{} on {}: not cached (hash {})\n", a.design.dir, a.target, j["hash"].get<std::string>());
    return;
  }
  if (!a.design.dir.empty()) {
    const json& p = j["power"]["total"];
    fmt::print("design {} on {} ({}):\n", a.design.dir, a.target, j["estimate"].get<std::string>());
    fmt::print("  area {:.0f} um2 ({:.4f} mm2), {} cells, {} flip-flops ({:.1f} % of cells, {:.1f} % of area)\n",
               j["area_um2"].get<double>(), j["area_mm2"].get<double>(), j["cells"].get<long>(), j["flip_flops"].get<long>(),
               100 * j["ff_share_cells"].get<double>(), 100 * j["ff_share_area"].get<double>());
    fmt::print("  worst register-to-register path {:.3f} ns ({} stages): clock {:.2f} ns, {:.2f} MHz\n",
               j["worst_path"]["min_period_ns"].get<double>(), j["worst_path"]["stages"].get<int>(), j["clock_ns"].get<double>(),
               j["fmax_mhz"].get<double>());
    if (j["worst_path"].contains("start_register") && j["worst_path"].contains("end_register"))
      fmt::print("    from register {} to register {}\n", j["worst_path"]["start_register"].get<std::string>(),
                 j["worst_path"]["end_register"].get<std::string>());
    const json& act = j["activity"];
    if (act.value("source", "") == "co-simulation")
      fmt::print("  activity from the co-simulation ({} random states, seed {}, {} cycles): {} of {} flip-flops traced, mean "
                 "toggle rate {:.4f} per cycle (other nets at that rate), inputs {:.4f}\n",
                 act["states"].get<int>(), act["seed"].get<unsigned long long>(), act["cycles"].get<long>(),
                 act["flip_flops_traced"].get<long>(), act["flip_flops"].get<long>(), act["mean_flip_flop_rate"].get<double>(),
                 act["mean_input_rate"].get<double>());
    else
      fmt::print("  activity {} per net per cycle (--activity; not the design's own toggle rates)\n", act["global"].get<double>());
    fmt::print("  power at that clock: leakage {:.4f} uW, internal {:.3f} mW, switching {:.3f} mW, total {:.3f} mW\n",
               p["leakage_uw"].get<double>(), p["internal_mw"].get<double>(), p["switching_mw"].get<double>(), p["total_mw"].get<double>());
    fmt::print("  {} cycles per evaluation: {:.1f} ns, {:.3f} nJ per evaluation (latency {} cycles, {:.1f} ns)\n",
               j["cycles_per_evaluation"].get<long>(), j["time_per_evaluation_ns"].get<double>(),
               j["energy_per_evaluation_nj"].get<double>(), j["latency_cycles"].get<long>(), j["latency_ns"].get<double>());
    return;
  }
  fmt::print("{} latency {} ({}pipelined) on {}: {:.0f} um2, {} cells, {} flip-flops; worst path {:.3f} ns, {:.2f} MHz; "
             "leakage {:.4f} uW, internal {:.3f} mW, switching {:.3f} mW at activity {}: {:.2f} pJ per cycle\n",
             j["unit"].get<std::string>(), j["latency"].get<int>(), j["pipelined"].get<bool>() ? "" : "non-", a.target,
             j["area_um2"].get<double>(), j["cells"].get<long>(), j["flip_flops"].get<long>(), j["worst_path_ns"].get<double>(),
             j["fmax_mhz"].get<double>(), j["leakage_uw"].get<double>(), j["internal_mw"].get<double>(),
             j["switching_mw"].get<double>(), j["activity"].get<double>(), j["energy_per_cycle_pj"].get<double>());
}

void setup(CLI::App& app) {
  auto opts = std::make_shared<AreaOptions>();
  auto& o = opts->units;
  auto& d = opts->design;
  o.rtl = NEACCEL_UNITS_RTL_DIR;
  auto* cmd = app.add_subcommand("area", "Yosys area of an arithmetic unit (generic cells, xc7 LUT/FF/DSP/CARRY4)");
  cmd->add_option("--unit", o.unit, "fp32-mul | fp32-add | fp32-fma | fp32-div | fx-mul | fx-add | fx-fma | fx-div")->capture_default_str();
  cmd->add_option("--latency", o.latency, "pipeline latency")->capture_default_str();
  cmd->add_option("--width", o.width, "fixed point: total bits W")->capture_default_str();
  cmd->add_option("--frac", o.frac, "fixed point: fraction bits F (0 = none: an integer format)")->capture_default_str();
  cmd->add_flag("--non-pipelined", o.non_pipelined, "non-pipelined (busy Latency cycles) variant");
  cmd->add_flag("--all", o.all, "every unit at latencies 1..6 pipelined, and latency 3 non-pipelined (fixed:16.16)");
  cmd->add_flag("--cached-only", o.cached_only, "report only configurations already in the cache (no Yosys); with --design --pnr --target: the cached place "
                "and route result or, where there is none, the device model's estimate alone");
  cmd->add_flag("--timing", o.timing,
                "place and route only (iCE40 HX8K, nextpnr, seed 1): measured Fmax and iCE40 resources; with --all "
                "the data/unit-timing.json table");
  cmd->add_flag("--no-timing", o.no_timing, "one unit: Yosys area only, no place and route");
  cmd->add_option("--keep", o.keep,
                  "with --all --cached-only: take configurations missing from the cache from this earlier --json "
                  "output (units whose RTL did not change)");
  cmd->add_option("--out", o.out, "output directory (cache in <out>/area-cache)")->capture_default_str();
  cmd->add_option("--rtl", o.rtl, "directory of the unit RTL")->capture_default_str();
  cmd->add_flag("--json", opts->json, "JSON output");
  cmd->add_option("--design", d.dir, "design directory written by `neaccel rtl`: synthesise the whole datapath");
  cmd->add_flag("--fpga", d.fpga,
                "with --design: FPGA resources by synthesis, synth_xilinx xc7 (LUT, LUTRAM, FF, BRAM, DSP) and "
                "synth_ice40 (LUT4, FF, RAM40_4K)");
  cmd->add_flag("--no-ice40", d.no_ice40,
                "with --fpga: skip synth_ice40 (for designs far over the HX8K, where it takes long and says little)");
  cmd->add_flag("--pnr", d.pnr,
                "with --design: place and route on --target (default: the iCE40 HX8K where the cost model says the "
                "design fits it, else the LFE5U-85F; --target ice40-hx8k: the iCE40 flow, with xc7 resources when it "
                "does not fit)");
  cmd->add_option("--target", opts->target,
                  "with --design --pnr, or --model: the device, a cost/targets file: ice40-hx8k or ecp5-85f "
                  "(LFE5U-85F-6BG381C, YoWASP Yosys + nextpnr-ecp5 from ./run setup); sky130-hd (SkyWater 130 nm "
                  "standard cells, with --design DIR or --unit: mapped, timed and powered by Yosys and OpenSTA, "
                  "pre-layout; docs/asic.md)");
  cmd->add_option("--activity", opts->activity,
                  "with --target sky130-hd: transitions per clock cycle of every net for the power (default: with --design "
                  "the toggle rates of the design's co-simulation on 20 random states; with --unit the target's 0.1)")
      ->check(CLI::Range(0.0, 2.0));
  cmd->add_flag("--model", opts->model,
                "with --target (not ice40-hx8k): the device model's coefficients and the placed designs it is fitted "
                "on, each beside the model's estimate (docs/cost.md)");
  cmd->add_flag("--routability", opts->routability,
                "with --target (ecp5-85f): the designs placed on it, routed or not, and the envelope of what routed "
                "that explore and study hold designs to (docs/cost.md)");
  cmd->add_flag("--remeasure", opts->remeasure,
                "with --target: run the tools again even when the result is cached");
  cmd->add_option("--seed", opts->seed,
                  "with --design --pnr --target: nextpnr's placer seed (default 1, the figures of record; another "
                  "seed is cached apart: cost/calibration/ecp5/seeds.sh measures the spread)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--pnr-timeout", opts->pnr_timeout_s,
                  "with --design --pnr --target: seconds each place-and-route tool may run (default 7200; nextpnr's "
                  "router need not converge; over it, a one-line error naming the tool and the limit)")
      ->check(CLI::Range(1.0, 1e6));
  cmd->add_flag("--hierarchical", d.hierarchical,
                "with --design: synthesise the non-unit logic only (units as black boxes) and take the units from "
                "data/unit-area.json (for designs whose whole synthesis takes too long; docs/cost.md)");
  cmd->callback([opts, cmd] {
    opts->seed_given = cmd->count("--seed") > 0;
    if (!opts->target.empty()) {
      try {
        (void)neaccel::cost::target(opts->target);
      } catch (const neaccel::Error& e) {
        throw neaccel::cli::UsageError(e.what());
      }
      if (neaccel::cost::target(opts->target).is_asic()) {
        for (const auto& [on, name] : {std::pair{opts->design.pnr, "--pnr"}, std::pair{opts->design.fpga, "--fpga"},
                                       std::pair{opts->design.hierarchical, "--hierarchical"}, std::pair{opts->model, "--model"},
                                       std::pair{opts->routability, "--routability"}, std::pair{opts->units.all, "--all"},
                                       std::pair{opts->units.timing, "--timing"}, std::pair{opts->seed_given, "--seed"},
                                       std::pair{opts->pnr_timeout_s > 0, "--pnr-timeout"}})
          if (on) throw neaccel::cli::UsageError(std::string(name) + ": not with --target " + opts->target +
                                                 " (a standard-cell target: --design DIR, or --unit U --latency L)");
        return run_asic(*opts);
      }
      if (opts->activity >= 0) throw neaccel::cli::UsageError("--activity: only with a standard-cell target (--target sky130-hd)");
      if (opts->model && opts->routability) throw neaccel::cli::UsageError("--model: not with --routability");
      if (opts->model || opts->routability) {
        if (!opts->design.dir.empty() || opts->remeasure)
          throw neaccel::cli::UsageError(std::string(opts->model ? "--model" : "--routability") +
                                         ": not with --design or --remeasure");
        if (opts->routability && !neaccel::cost::has_routability(opts->target))
          throw neaccel::cli::UsageError("--routability: target " + opts->target +
                                         " keeps no routability data (ecp5-85f does)");
        return opts->model ? run_model(*opts) : run_routability(*opts);
      }
      if (opts->design.dir.empty() || !opts->design.pnr)
        throw neaccel::cli::UsageError("--target: only with --design DIR --pnr, or with --model");
    }
    if (opts->activity >= 0) throw neaccel::cli::UsageError("--activity: only with a standard-cell target (--target sky130-hd)");
    if (opts->model) throw neaccel::cli::UsageError("--model: only with --target T (ecp5-85f)");
    if (opts->routability) throw neaccel::cli::UsageError("--routability: only with --target T (ecp5-85f)");
    if (opts->remeasure && opts->target.empty()) throw neaccel::cli::UsageError("--remeasure: only with --target");
    if (opts->seed != 1 && (opts->target.empty() || opts->design.dir.empty() || !opts->design.pnr))
      throw neaccel::cli::UsageError("--seed: only with --design DIR --pnr --target T");
    if (opts->pnr_timeout_s > 0 && (opts->target.empty() || opts->design.dir.empty() || !opts->design.pnr))
      throw neaccel::cli::UsageError("--pnr-timeout: only with --design DIR --pnr --target T");
    // The whole-design options mean nothing for the unit syntheses: refused, not ignored.
    if (opts->design.dir.empty()) {
      for (const auto& [on, name] : {std::pair{opts->design.pnr, "--pnr"}, std::pair{opts->design.fpga, "--fpga"},
                                     std::pair{opts->design.hierarchical, "--hierarchical"},
                                     std::pair{opts->design.no_ice40, "--no-ice40"}})
        if (on) throw neaccel::cli::UsageError(std::string(name) + ": only with --design DIR (a design written by neaccel rtl)");
    }
    // --pnr without --target: the iCE40 HX8K where the design fits it by the cost model, else the LFE5U-85F (the
    // iCE40 flow's synthesis views, --fpga and --hierarchical, keep it on the iCE40 flow).
    if (opts->target.empty() && opts->design.pnr && !opts->design.fpga && !opts->design.hierarchical) {
      const auto d = neaccel::cost::default_pnr_target(opts->design.dir);
      if (d.target != "ice40-hx8k") {
        std::fprintf(stderr, "neaccel: note: %s does not fit the iCE40 HX8K by the cost model (%.0f of its %.0f logic "
                     "cells): placed on %s (--target ice40-hx8k keeps the iCE40 flow)\n",
                     opts->design.dir.c_str(), d.ice40.est_logic_cells, d.ice40.logic_cells, d.target.c_str());
        opts->target = d.target;
      }
    }
    if (!opts->target.empty() && neaccel::cost::target(opts->target).has_device_model()) return run_design_pnr(*opts);
    if (opts->seed != 1)  // the iCE40 flow's figures are seed 1's (its cache is not keyed by a seed)
      throw neaccel::cli::UsageError("--seed: only on a target with a device model (--target ecp5-85f)");
    if (opts->pnr_timeout_s > 0)
      throw neaccel::cli::UsageError("--pnr-timeout: only on a target with a device model (--target ecp5-85f)");
    opts->design.dir.empty() ? run_units(opts->units, opts->json) : run_design(opts->design, opts->json);
  });
}

}  // namespace

NEACCEL_COMMAND(area, 61, setup)
