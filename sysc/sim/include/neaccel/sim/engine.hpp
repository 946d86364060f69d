// The engines of `neaccel sim`, each running a design directory (neaccel rtl --out DIR) on the input words of every
// state:
//   systemc   the SystemC model (sysc/datapath)
//   verilator the generated RTL, built with `verilator --cc --exe --build` into DIR/obj_vlt (standalone harness;
//             DIR/obj_vlt_trace, with VCD tracing compiled in, only when a VCD trace is asked for)
//   cosim     the RTL and the SystemC model compared every cycle: in lockstep (Verilated RTL in SystemC mode beside
//             the model) for the unit mixes verilated at build time (sysc/datapath/prebuilt.hpp); for any other mix
//             by cycle logs (rtl/datapath/harness/cycle_log.hpp) that the SystemC model and the Verilator harness
//             write at the same point of every cycle, then compared line by line
#pragma once

#include "faults.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/sim/options.hpp"
#include "stream_book.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace neaccel::sim {

using Words = std::vector<std::vector<std::uint32_t>>;  // per state: input (or output) words

// What an engine returns: the results of every state and, co-simulating, how RTL and model compare.
struct EngineRun {
  Words out;
  std::vector<long> cycles;
  long cycle_mismatches = -1;  // cosim: cycles in which RTL and model differ
  long compared_cycles = 0;    // cosim: cycles compared
  std::string cosim_kind;      // cosim: "lockstep" or "cycle logs"
  std::vector<std::string> messages;
  rtlsim::StreamResult stream;  // streaming designs
};

// The hand-written RTL (units, datapath, Verilator harness): $NEACCEL_RTL_DIR, else the source tree's rtl/.
std::string rtl_dir();

// The fault the model runs with: o.fault_cycle >= 0 corrupts unit 0's result bus at that cycle; else none.
sysc::Fault model_fault(const Options& o);

// The SystemC model alone (o.fault_cycle, sink stalls).
EngineRun run_systemc(const hw::Design& d, const Words& raw, const Options& o);

// The Verilator harness, built in `dir` when missing or older than the design's nea_top.v. cycle_log: also write the
// harness's cycle log there (cycle_log.hpp). fault_dir: run the corrupted design of write_rtl_fault instead (its hex
// images; hardwired, its nea_top.v, built into DIR/obj_vlt_fault).
EngineRun run_verilator(const hw::Design& d, const std::string& dir, const Words& raw, const Options& o,
                        const std::string& cycle_log = "", const std::string& fault_dir = "");

// A fault on the RTL side (tests of the co-simulation checks, o.rtl_fault_word = W): the first register write-back
// at microcode word W or later writes the register below its own (register 1 for register 0) in the RTL only; the
// SystemC model runs the design as built. The corrupted design's hex images (and, hardwired, its generated
// nea_top.v) go to DIR/rtl_fault; returns that directory.
std::string write_rtl_fault(const hw::Design& d, const std::string& dir, const Options& o);

// RTL and SystemC model side by side: in lockstep on a prebuilt configuration, else by cycle logs.
EngineRun run_cosim(const hw::Design& d, const std::string& dir, const Words& raw, const Options& o);

}  // namespace neaccel::sim
