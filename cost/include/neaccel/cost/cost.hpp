// The cost of a design point in real units: area (Yosys generic cells, and an FPGA-resource view) and clock period
// (ns), from models calibrated on measured syntheses and place-and-route runs (data/*.json, docs/cost.md).
// The exploration, the design choice, the report and `neaccel control` all read time and area from here.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cost {

// What the exploration knows of a design without generating it.
struct CostPoint {
  std::string target = "ice40-hx8k";  // the device whose models give period and resources (cost/targets/<name>.json)
  std::string arch = "microcoded";  // datapath architecture: "microcoded" (today) or "hardwired"
  std::string format = "fp32";      // number format name: fp32 or fixed:I.F
  int mul = 1, add = 1, lat_mul = 3, lat_add = 2;
  bool pipelined = true;
  int registers = 1;                // registers of the schedule (left-edge / modulo variable expansion)
  int consts = 0;                   // distinct constants of the graph
  int params = 0;                   // parameter memory words (robot parameters loaded once; general flavour)
  int program_words = 1;            // microcode words (schedule length + 1; streaming: kernel words)
  int inputs = 0, outputs = 0;      // graph inputs and outputs
  bool streaming = false;
  int ii = 0;                       // streaming: initiation interval
  int mux_inputs = -1;              // hardwired: multiplexer inputs of the binding (hw::Interconnect), -1 unknown
  int stages = 2;                   // streaming: pipeline stages of the modulo schedule (microcode stage fields)
  int mux2_equivalent = -1;         // hardwired: the same as two-input multiplexers (sum of fan-in - 1), -1 unknown
  int max_port_sources = -1;        // hardwired: largest fan-in of a unit input port, -1 unknown
  // Dividers and fused multiply-add units (0 = none). An FMA unit has three operand ports (a, b, c),
  // the other classes two; FMA units are pipelined as the multipliers and adders (`pipelined`), a divider as it says.
  int div = 0, lat_div = 8;
  bool div_pipelined = false;
  int fma = 0, lat_fma = 3;
};

struct CostEstimate {
  double area_cells = 0;            // total, Yosys generic cells (flat synth)
  double unit_cells = 0;            // of which the arithmetic units
  double register_cells = 0, routing_cells = 0, control_cells = 0;
  double period_ns = 0;             // estimated clock period (iCE40 HX8K place and route, calibrated)
  std::string critical;             // which path sets the period ("mul stage", "operand mux", ...)
  double constant_cells = 0;        // of routing_cells: the constant inputs of the operand multiplexers
  double unit_period_ns = 0;        // slowest unit stage alone (the target's unit timing table)
  // On the target's device: the target's name, and its LUTs (iCE40: logic cells) and 18x18 multipliers (DSP
  // blocks) as the target's model estimates them.
  std::string target = "ice40-hx8k";
  double lut = 0, dsp = 0;
  // The point's architecture and the inputs of its widest operand multiplexer (S above: hardwired, the largest
  // port's sources; microcoded, every unit, register and constant), which with the LUT4 decide whether the design
  // is within what has been measured to route (routability.hpp).
  std::string arch = "microcoded";
  double port_sources = 0;
  bool streaming = false;  // a streaming datapath's (the model's classes: routability.hpp)
  double fmax_mhz() const { return period_ns > 0 ? 1000.0 / period_ns : 0; }
  nlohmann::json to_json() const;
};

// The calibrated models (docs/cost.md): area = units (data/unit-area.json) + register file + operand multiplexers
// (one per unit port: 3 for an FMA unit, 2 for the other classes) and write-back multiplexers + constants +
// microcode ROM and sequencer, coefficients fitted on flat syntheses (data/datapath-area.json); period = max(unit
// stage (data/unit-timing.json) + operand path growing with the operand multiplexer's fan-in, control path),
// coefficients fitted on nextpnr runs (data/datapath-timing.json).
// Throws neaccel::Error for a unit/latency without area or timing figures.
//
// On a target other than the iCE40 HX8K (p.target, cost/targets/<name>.json naming its unit table and its placed
// designs): the same generic area, and the device's own models, fitted by least squares on the whole designs placed
// and routed on it (data/<target>/designs.json), so that the model is always the fit of the data beside it; each
// architecture has its own coefficients (fitted on the relative errors):
//   LUT4   = k_unit * the units' LUT4 (their own place and route, data/<target>/unit-timing.json: in a design Yosys
//            and nextpnr pack them tighter, about 0.8 of it) + k_lut * the non-unit generic cells above + k_lut0,
//            and for a streaming datapath k_stream * the same non-unit cells more, where its architecture has at
//            least three streaming designs in the fit set: fitted on them after the other coefficients are fitted on
//            the latency datapaths (which it leaves as they were). Placed, every hardwired streaming datapath was
//            larger than the latency datapaths' coefficients said (4 to 28 %): its register copies and modulo
//            control map to more LUT4 per generic cell.
//   DSP    = the units' DSP blocks (the only multipliers the designs have)
//   period = the slowest unit stage on the device + t_op0 + t_op_per_level * log2(S) + t_per_unit * U: the operand
//            multiplexer of S inputs as above, and the control nets (the schedule's selects and enables) that fan out
//            to every unit, whose routing grows with the U units (in the 8 + 8 puma560 design one such net took
//            9.5 ns of a 41 ns path).
CostEstimate estimate_cost(const CostPoint& p);

// The device model of a target (estimate_cost above): its coefficients, and every placed design of
// data/<target>/designs.json with the model's estimate and its error (LUT, DSP and period, in percent), marked
// "fit" (used for the coefficients), "check" (kept out of the fit) or "outside" (neither, and not counted in the
// worst errors: cost/calibration/ecp5/designs.txt gives the reason). The iCE40 HX8K's models are documented in
// docs/cost.md from data/datapath-*.json. Throws neaccel::Error for a target without placed designs.
nlohmann::json device_model(const std::string& target);

// The hardwired area model's coefficients, fitted on data/hardwired-area.json (k_reg, k_mux, k_dec, k_0), with the
// number of designs and the worst relative error on them.
nlohmann::json hardwired_area_model();

// iCE40 logic cells per Yosys generic cell: the largest ratio over every placed design (data/datapath-timing.json
// and the hardwired runs of data/hardwired-area.json; 0.42..0.48 measured), so an estimate from it is conservative.
double ice40_logic_cells_per_cell();

// The model's inputs read from a `neaccel rtl` manifest (spec and datapath parameters: MaxRegs, MaxConsts,
// MaxProg, ...). Throws neaccel::Error naming the missing field.
CostPoint cost_point_from_manifest(const nlohmann::json& manifest);
nlohmann::json to_json(const CostPoint& p);
CostPoint cost_point_from_json(const nlohmann::json& j);  // inverse of to_json (the data files' "point")

// The period (ns) of one unit's slowest stage alone on a target (its unit timing table, e.g.
// data/ecp5-85f/unit-timing.json; unit as the table names it: "fx-mul", "fp32-add-deep", ...), at the deepest
// pipelined latency measured not above `latency` (more output registers do not slow a stage); 0 when the table has
// no such row.
double unit_stage_period_ns(const std::string& target, const std::string& unit, int latency);
// The row itself (latency, fmax_mhz, lut4, comb, ff, dsp, ...), null when there is none.
nlohmann::json unit_timing_row(const std::string& target, const std::string& unit, int latency);

// The model's error against a measurement, in percent of the measurement (0 when the measurement is 0).
double percent_error(double model, double measured);

// Bits of one microcode word of the datapath (as hw::Config::word_bits; streaming: with its stage fields).
int microcode_word_bits(const CostPoint& p);

}  // namespace neaccel::cost
