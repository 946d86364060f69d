// The area (and optionally the FPGA resources and the iCE40 timing) of a whole design directory written by
// `neaccel rtl` (`neaccel area --design DIR`, docs/cost.md): its Yosys synthesis, flat or hierarchical, split into
// the arithmetic units' cells and the rest, beside the area and period models' estimate of the same datapath.
// Results are cached under DIR/area-cache/<content hash>/ (same inputs: no re-run, and byte-identical output).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cost {

struct DesignAreaOptions {
  std::string dir;            // design directory (manifest.json, rtl/nea_top.v); empty: not the design mode
  bool pnr = false;           // also place and route on iCE40 HX8K (xc7 resources when it does not fit)
  bool fpga = false;          // also synth_xilinx xc7 and synth_ice40 resources (JSON key "fpga")
  bool no_ice40 = false;      // with fpga: xc7 only
  bool hierarchical = false;  // units as black boxes + data/unit-area.json (design_area.cpp)
};

// Synthesises the design directory o.dir (running Yosys and nextpnr where its cache has no result) and returns what
// `neaccel area --design DIR --json` prints: cells, unit_cells, non_unit_cells, flip-flops, memory banks, the
// design's name and spec, the model's point and estimate when the model knows the datapath, and the "fpga" and
// "pnr" objects when asked for. Throws neaccel::Error on bad input (naming --design or the manifest) or a tool
// failure.
nlohmann::json design_area(const DesignAreaOptions& o);

}  // namespace neaccel::cost
