// A design or an arithmetic unit as a chip: its Verilog mapped onto a standard-cell library (a target of kind "asic",
// cost/targets/sky130-hd.json: SkyWater SKY130 HD, typical corner) and timed, pre-layout. Yosys maps it (synth,
// dfflibmap and abc against the liberty file, stat -liberty for the area) and writes a flat netlist; OpenSTA reads
// it with the liberty file, finds the worst register-to-register path under an ideal clock (the clock it allows),
// and reports leakage, internal and switching power at that clock with a stated activity. Results are cached by
// content hash (docs/asic.md).
//
// The parsers below read the tools' reports; each throws neaccel::Error naming what it did not find.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace neaccel::cost {

struct Target;

// ---- The liberty file ----
struct LibertyCell {
  double area = 0;          // um2
  bool sequential = false;  // has an ff or latch group
};
// Every cell of a liberty file by name (its `area` and whether it holds a flip-flop or latch). Reads the layout the
// SKY130 files have: `cell ("NAME") {` groups with `area : X;` and `ff (` / `latch (` groups inside.
std::map<std::string, LibertyCell> liberty_cells(const std::string& liberty);
// The liberty text without the cell groups whose name starts with one of `prefixes` (the target's dont_use list:
// the synthesis copy of the library, from which Yosys 0.23's abc and dfflibmap pick).
std::string liberty_without(const std::string& liberty, const std::vector<std::string>& prefixes);
// The target's liberty file decompressed (`xz -dc`): its text. Throws naming the file or the missing xz.
std::string read_liberty(const Target& t);

// ---- Yosys `stat -liberty` ----
struct AsicStat {
  double area_um2 = 0;                 // "Chip area for module" (the top's, the netlist being flat)
  long cells = 0;                      // "Number of cells"
  std::map<std::string, long> counts;  // cell type -> count
};
AsicStat parse_yosys_stat(const std::string& report);

// The cell instances of a flat structural Verilog netlist (write_verilog -noattr -noexpr): type -> count.
std::map<std::string, long> netlist_cells(const std::string& netlist);

// ---- OpenSTA `report_checks -path_delay max` (format full) ----
struct StaPath {
  std::string startpoint, endpoint;
  double clock_ns = 0;     // the clock period the check was made against
  double arrival_ns = 0;   // data arrival time
  double required_ns = 0;  // data required time
  double setup_ns = 0;     // library setup time (positive)
  double slack_ns = 0;
  int stages = 0;          // cell output pins on the path after the startpoint's clock pin
  double min_period_ns() const { return clock_ns - slack_ns; }
};
// The first path of the report. Throws when the report holds none ("No paths.").
StaPath parse_sta_path(const std::string& report);

// The net on `pin` of instance `inst` in a netlist written by Yosys (write_verilog -noattr -noexpr: one
// connection per line), as OpenSTA names it (no backslash or trailing space); empty where there is none.
std::string instance_pin_net(const std::string& netlist, const std::string& inst, const std::string& pin);

// ---- OpenSTA `report_power` ----
struct StaPowerRow {
  double internal_w = 0, switching_w = 0, leakage_w = 0, total_w = 0;
};
struct StaPower {
  StaPowerRow sequential, combinational, total;
};
StaPower parse_sta_power(const std::string& report);

// ---- The flow ----
struct AsicJob {
  std::vector<std::string> sources;      // Verilog files, read in this order
  std::string top;                       // top module
  std::vector<std::pair<std::string, std::string>> params;  // top-level parameters (hierarchy -chparam)
  std::filesystem::path yosys_cwd;       // Yosys's working directory ($readmemh paths are relative to it)
  std::filesystem::path work;            // where the scripts, logs, netlist and reports go
  std::filesystem::path liberty_dir;     // where the decompressed and the synthesis copies of the library are kept
  std::string clock_port = "clk_i";
  double activity = 0.1;                 // set_power_activity -global (when net_activity is null)
  // Per-net toggle rates (netlist net names, transitions per clock cycle) from the design's own simulation; nets not
  // in it get the mean rate of the flip-flops' outputs found in it. activity_source says where they come from.
  const std::map<std::string, double>* net_activity = nullptr;
  nlohmann::json activity_source;
  double timeout_s = 0;                  // each tool's limit; 0: none
};
// Maps, times and powers `job` on target `t` (kind asic). The result: area (um2, mm2, cells, flip-flops and their
// share of cells and area, checked against the liberty areas of the netlist's cells), the worst register-to-register
// path and the clock it allows, power at that clock (W) and energy per clock cycle (pJ). Throws neaccel::Error: a
// missing tool (one line naming ./run setup), a tool that fails (naming its log), an unmapped cell, no
// register-to-register path, internal power of 0 with activity above 0.
nlohmann::json asic_run(const Target& t, const AsicJob& job);

// `neaccel area --design DIR --target sky130-hd`: the design directory's Verilog (manifest files.rtl_sources and
// rtl/nea_top.v, with its dbg_* trace ports left open as for place and route) through asic_run, cached under
// DIR/area-cache/<hash>/; with the design's cycles per evaluation (manifest datapath.cycles_per_set_point) and
// latency: time and energy per evaluation.
struct DesignAsicOptions {
  std::string dir;
  std::string target = "sky130-hd";
  // >= 0: every net this many transitions per cycle (--activity). < 0: the toggle rates of the design's own
  // co-simulation on `activity_states` random states (seed `activity_seed`), traced into a VCD by `write_trace`
  // (the CLI runs `neaccel sim --engine cosim --vcd`; the cost library does not link the simulator).
  double activity = -1;
  int activity_states = 20;
  unsigned long long activity_seed = 1;
  std::function<void(const std::string& vcd, int states, unsigned long long seed)> write_trace;
  // Where committed results are read from before the tools run (the study: data/asic-cache/<target>, files
  // <hash>.<activity>.json as the design's own cache writes them); empty: none.
  std::string committed_dir;
  bool remeasure = false;  // run the tools even when cached
  bool cached_only = false;
  double timeout_s = 0;
};
nlohmann::json design_asic(const DesignAsicOptions& o);

// The committed design results of a standard-cell target: data/asic-cache/<target> in the source tree
// (cost/calibration/sky130/asic_cache.sh fills it from a study's design directories).
std::filesystem::path asic_cache_dir(const std::string& target);

// `neaccel area --unit U --latency L [--non-pipelined] --target sky130-hd`: one arithmetic unit in its timing harness
// (rtl/units/timing: registered inputs and outputs, every stage a register-to-register path), cached under
// <out>/sky130-units/<config>/. unit: fp32-mul ... fx-div (rtl/units) or fx-mul-deep, fx-add-deep, fp32-mul-deep,
// fp32-add-deep (rtl/units/deep, always pipelined).
struct UnitAsicOptions {
  std::string unit, rtl, out = "out", target = "sky130-hd";
  int latency = 3, width = 32, frac = 16;
  bool non_pipelined = false;
  double activity = -1;
  bool remeasure = false;
};
nlohmann::json unit_asic(const UnitAsicOptions& o);

}  // namespace neaccel::cost
