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

#include <string>

namespace neaccel::hw {

// Verilog of module `nea_top` for this datapath. Latency datapaths only: throws neaccel::Error (one line) for a
// streaming one. Same datapath, same text.
std::string hardwired_verilog(const Datapath& dp);

}  // namespace neaccel::hw
