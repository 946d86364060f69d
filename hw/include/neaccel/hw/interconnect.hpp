// The interconnect a datapath program needs: for every unit input port, every register and the output port, the
// distinct sources the program routes there. This is what a hardwired datapath builds (one multiplexer per port
// over exactly these sources) and what interconnect-aware binding minimises (docs/datapath.md).
//
// Sources are Operands as in the program: a unit's result bus (bypass in its arrival cycle), a register, a
// constant. A register's writers are unit indices, or kInputLoad for the input port.
#pragma once

#include "neaccel/hw/datapath.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <vector>

namespace neaccel::hw {

inline constexpr int kInputLoad = -1;

bool operator==(const Operand& x, const Operand& y);
bool operator<(const Operand& x, const Operand& y);

struct Interconnect {
  // unit_sources[u][0] / [1] / [2]: distinct operands issued to port a / b / c of unit u, sorted (a negation reads b
  // only; port c is an FMA unit's addend, empty for the other kinds).
  std::vector<std::array<std::vector<Operand>, 3>> unit_sources;
  // reg_writers[r]: distinct writers of register r (unit index, or kInputLoad), sorted.
  std::vector<std::vector<int>> reg_writers;
  // Distinct operands driven to the output port.
  std::vector<Operand> output_sources;

  // Sum of the fan-ins of every multiplexer with two or more inputs (unit ports, register writes, output):
  // the "multiplexer inputs" of the HLS binding literature (Chen and Cong 2004).
  int mux_inputs() const;
  // The same interconnect as two-input multiplexers: sum over ports of (fan-in - 1).
  int mux2_equivalent() const;
};

// The interconnect of a latency or streaming datapath's program (every valid issue, write-back, load and output).
Interconnect interconnect(const Datapath& dp);

nlohmann::json to_json(const Interconnect& ic);

}  // namespace neaccel::hw
