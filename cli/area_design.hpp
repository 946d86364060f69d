// `neaccel area --design DIR [--pnr] [--json]`: synthesis (and optionally iCE40 place and route) of a whole design
// directory written by `neaccel rtl` (docs/cost.md). Kept apart from cmd_area.cpp (the per-unit mode).
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace neaccel::cli {

struct AreaDesignOptions {
  std::string dir;   // design directory (manifest.json, rtl/nea_top.v); empty: not the design mode
  bool pnr = false;  // also place and route on iCE40 HX8K (xc7 resources when it does not fit)
  bool fpga = false;      // also synth_xilinx xc7 and synth_ice40 resources (JSON key "fpga")
  bool no_ice40 = false;  // with fpga: xc7 only
  bool hierarchical = false;  // units as black boxes + data/unit-area.json (area_design.cpp)
};

// Adds --design and --pnr to `neaccel area`; the returned options are filled when the command line is parsed.
std::shared_ptr<AreaDesignOptions> add_area_design_options(CLI::App* cmd);

// Runs the design mode (prints JSON with `json`, else a short table). Throws neaccel::Error on bad input.
void run_area_design(const AreaDesignOptions& o, bool json);

}  // namespace neaccel::cli
