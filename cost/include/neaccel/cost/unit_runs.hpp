// The measurement of the arithmetic units of rtl/units (`neaccel area`, docs/units.md): Yosys synthesis of one unit
// configuration (generic `synth` cell count and longest combinational path `ltp -noff` as a per-stage logic-depth
// proxy; `synth_xilinx -family xc7` LUT / FF / DSP48E1 / CARRY4 / SRL / MUXF) and its place and route on an iCE40
// HX8K inside a timing harness (yosys synth_ice40 + nextpnr-ice40, fixed seed: measured Fmax and iCE40 resources),
// cached by content hash under <out>/area-cache/. The rows are the data/unit-area.json and data/unit-timing.json
// tables that the area and period models read.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neaccel::cost {

struct UnitRunOptions {
  std::string unit = "fp32-mul";  // fp32-mul | fp32-add | fp32-fma | fp32-div | fx-mul | fx-add | fx-fma | fx-div
  std::string out = "out";        // the cache is <out>/area-cache
  std::string rtl;                // directory of the unit RTL (rtl/units, with its timing/ harnesses)
  std::string keep;               // with all + cached_only: an earlier JSON output, rows for what is not cached
  int latency = 3, width = 32, frac = 16;  // one unit (not all); width and frac: fixed point only
  bool non_pipelined = false;     // one unit: the non-pipelined (busy Latency cycles) variant
  bool all = false;               // the sweep of every unit configuration the tables hold
  bool cached_only = false;       // report only what is cached (no tool runs)
  bool timing = false;            // place and route only (with all: the data/unit-timing.json table)
  bool no_timing = false;         // one unit: Yosys area only
};

struct UnitRunReport {
  bool area = true;    // rows are Yosys area rows (with the unit's iCE40 timing beside them when `timing`)
  bool timing = false; // rows carry the place-and-route measurement (alone when !area)
  nlohmann::json rows = nlohmann::json::array();  // sorted by unit, latency, pipelined before non-pipelined
  std::vector<std::string> missing;               // configurations not measured (cached_only, not cached)
  nlohmann::json json;  // what `neaccel area --json` prints: the table (all) or the one unit's row
};

// Measures the configurations `o` asks for (running Yosys and nextpnr where the cache has no result, unless
// cached_only). Throws neaccel::Error on bad options (naming the command-line option), a tool failure, or when
// cached_only finds nothing.
UnitRunReport run_units(const UnitRunOptions& o);

}  // namespace neaccel::cost
