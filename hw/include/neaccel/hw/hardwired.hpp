// The hardwired datapath (docs/datapath.md "Hardwired architecture"): the datapath a high-level synthesis
// tool builds for one schedule, generated as Verilog from the same verified hw::Datapath program the microcoded
// datapath (rtl/datapath/nea_datapath.v) runs from its microcode ROM.
//
//   - per unit input port a multiplexer over only the operands the program routes to that port (hw::interconnect);
//     constants are wired in as literals (no constant ROM);
//   - per register an individual register whose write multiplexer covers only the units that write it (and the input
//     port where it is loaded);
//   - every select and enable decoded from the sequencer's cycle counter by sum-of-products over a predecoded
//     counter (no microcode word, no ROM);
//   - the arithmetic units are rtl/datapath/nea_unit.v instances, as in the microcoded datapath;
//   - the module is `nea_top` with exactly the ports, protocol and cycle timing of nea_datapath (latency) including
//     the dbg_* trace ports (register addresses = the program's register indices), so the SystemC model of the
//     program is its cycle-accurate model and the co-simulation compares the two unchanged.
#pragma once

#include "neaccel/hw/datapath.hpp"

#include <cstdint>
#include <string>

namespace neaccel::hw {

// How the sequencer drives the datapath's selects and enables (docs/datapath.md "Registered decode"):
//   - Combinational: decoded from the cycle counter in the cycle they are used, so the counter, its predecode and
//     the sum-of-products lie in front of every operand multiplexer and therefore of every unit's first stage;
//   - Registered: decoded one program word ahead into flip-flops (the word after the counter's, or word 0 in the
//     cycle that enters the compute phase), so each multiplexer is driven by a flip-flop. Same cycles, same ports
//     and trace; one flip-flop per select bit and per issue and write enable. Latency datapaths only.
//   - Local: registered decode from a sequencer of each unit's own (docs/datapath.md "Local sequencers"): a copy of
//     the program counter beside the unit, started by a go signal pipelined through two flip-flops, so that no
//     counter, predecode or state net crosses the device to reach a select. The unit's selects and issue enable and
//     the enables (and write selects) of the registers it writes are decoded from it. The copies start in the third
//     compute word, so the program's first kLocalLead words must be empty: hw::make_design delays the schedule by
//     that many cycles (the program, its SystemC model and the co-simulation follow it unchanged).
enum class Decode : std::uint8_t { Combinational, Registered, Local };
constexpr int kLocalLead = 3;  // empty program words a local-sequencer design starts with
std::string decode_name(Decode d);                                     // "combinational", "registered", "local"
Decode parse_decode(const std::string& name, const std::string& what);  // neaccel::Error naming `what` otherwise

struct HardwiredOptions {
  Decode decode = Decode::Combinational;
  // Operand registers: every unit's input ports (and its issue valid and adder op) registered after their
  // multiplexers, as the first of the unit's L cycles; the unit is built with L - 1 stages, so the program, its
  // cycles and the trace are unchanged and the multiplexers no longer lie in front of the units' first stage.
  // Needs every unit latency >= 2.
  bool operand_regs = false;
};

// Verilog of module `nea_top` for this datapath. Throws neaccel::Error (one line) for a datapath with back-pressure,
// a streaming one with registered decode, or operand registers with a unit of latency 1. Same datapath, same text.
std::string hardwired_verilog(const Datapath& dp, const HardwiredOptions& options = {});

}  // namespace neaccel::hw
