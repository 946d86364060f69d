// Place and route for timing on the open iCE40 flow (Debian yosys + nextpnr-ice40, ../shared/TOOLCHAIN.md):
// `yosys synth_ice40` writes a netlist JSON, `nextpnr-ice40` places and routes it on a device with a fixed seed
// and writes a report JSON, from which the achieved Fmax of the clock and the resource use are read.
// Used by `neaccel area` (one arithmetic unit) and by the study's period model (whole datapaths).
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::cost {

struct PnrOptions {
  std::string device = "hx8k";     // nextpnr-ice40 device flag (--hx8k, --up5k, ...)
  std::string package = "ct256";
  int seed = 1;                    // fixed: figures do not change between runs
  double target_mhz = 100;         // --freq; the achieved Fmax is measured whatever the target
  std::filesystem::path yosys_dir; // Yosys's working directory (relative $readmemh paths); empty: the current one
};

struct PnrResult {
  std::string device, package;
  int seed = 1;
  bool fits = true;                // false: the design does not fit the device (nextpnr refused it)
  double fmax_mhz = 0;             // achieved Fmax of the (single) clock domain
  long logic_cells = 0, logic_cells_available = 0, ram = 0, io = 0;
  nlohmann::json utilization;      // nextpnr's utilization object as written
  nlohmann::json to_json() const;
};

// Reads a nextpnr report JSON (`--report`): Fmax of the clock domain (the slowest if several), utilization.
// Throws neaccel::Error naming the file when it has no Fmax.
PnrResult parse_nextpnr_report(const std::filesystem::path& report, const PnrOptions& o);

// Synthesises `sources` with top module `top` (parameters set with chparam) for iCE40 and places and routes it.
// Everything is written under `workdir` (netlist, logs, report). A design that does not fit returns fits = false;
// any other tool failure throws neaccel::Error naming the log.
PnrResult place_and_route_ice40(const std::vector<std::string>& sources, const std::string& top,
                                const std::vector<std::pair<std::string, long>>& params,
                                const std::filesystem::path& workdir, const PnrOptions& o = {});

}  // namespace neaccel::cost
