// Area model of a datapath for the exploration's area axis, in Yosys generic cells (`synth`, the technology-
// independent gate count): arithmetic units from their measured synthesis (data/unit-area.json, produced by
// `neaccel area`, see docs/units.md), plus an estimate of the register file and control:
//   register file: registers * 32 flip-flops + per read port a registers:1 multiplexer of 32 bits
//                  ((registers - 1) * 32 two-input multiplexer cells), two read ports per unit;
//   write-back:    per register a (units + 1):1 input multiplexer of 32 bits (units * 32 cells);
//   control:       microcode ROM and sequencer, estimated as 2 cells per microcode bit is NOT counted here
//                  (the ROM is a block RAM on an FPGA); the sequencer counter is counted as 64 cells.
#pragma once

#include <string>

namespace neaccel::cost {

struct UnitArea {
  double cells = 0;      // Yosys generic cells
  bool measured = true;  // false: estimated (non-pipelined latencies not synthesised, see unit_area)
};

// The measured area of one arithmetic unit ("fp32-mul", "fp32-add") at a latency, pipelined or not.
// Non-pipelined units missing from the table are estimated (UnitArea::measured = false). Throws neaccel::Error
// when neither a figure nor an estimate exists (naming the unit and latency).
UnitArea unit_area(const std::string& unit, int latency, bool pipelined);

struct DatapathArea {
  double units = 0, registers = 0, routing = 0, control = 0;
  double total() const { return units + registers + routing + control; }
};

DatapathArea datapath_area(int mul, int lat_mul, int add, int lat_add, bool pipelined, int registers);

}  // namespace neaccel::cost
