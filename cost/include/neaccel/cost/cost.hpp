// The cost of a design point in real units: area (Yosys generic cells, and an FPGA-resource view) and clock period
// (ns), from models calibrated on measured syntheses and place-and-route runs (data/*.json, docs/cost.md).
// The exploration, the design choice, the report and `neaccel control` all read time and area from here.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cost {

// What the exploration knows of a design without generating it.
struct CostPoint {
  std::string arch = "microcoded";  // datapath architecture: "microcoded" (today) or "hardwired"
  std::string format = "fp32";      // number format name: fp32 or fixed:I.F
  int mul = 1, add = 1, lat_mul = 3, lat_add = 2;
  bool pipelined = true;
  int registers = 1;                // registers of the schedule (left-edge / modulo variable expansion)
  int consts = 0;                   // distinct constants of the graph
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
  double unit_period_ns = 0;        // slowest unit stage alone (data/unit-timing.json)
  double fmax_mhz() const { return period_ns > 0 ? 1000.0 / period_ns : 0; }
  nlohmann::json to_json() const;
};

// The calibrated models (docs/cost.md): area = units (data/unit-area.json) + register file + operand multiplexers
// (one per unit port: 3 for an FMA unit, 2 for the other classes) and write-back multiplexers + constants +
// microcode ROM and sequencer, coefficients fitted on flat syntheses (data/datapath-area.json); period = max(unit
// stage (data/unit-timing.json) + operand path growing with the operand multiplexer's fan-in, control path),
// coefficients fitted on nextpnr runs (data/datapath-timing.json).
// Throws neaccel::Error for a unit/latency without area or timing figures.
CostEstimate estimate_cost(const CostPoint& p);

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

// Bits of one microcode word of the datapath (as hw::Config::word_bits; streaming: with its stage fields).
int microcode_word_bits(const CostPoint& p);

}  // namespace neaccel::cost
