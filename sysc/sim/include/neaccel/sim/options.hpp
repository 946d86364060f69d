// What `neaccel sim` runs: the design directory, the engine, the states and the checks' knobs (the command's options).
#pragma once

#include <string>
#include <vector>

namespace neaccel::sim {

struct Options {
  std::string out = "out";        // the design directory written by `neaccel rtl --out DIR`
  std::string engine = "systemc"; // systemc, verilator or cosim
  std::string states_file;        // states, one per line (read_states); or `random` random states
  std::string vcd;                // verilator: write a VCD trace to this file
  std::string sink_stalls;        // EVERY,LEN: the sink holds out_ready low LEN of every EVERY cycles
  std::string function;           // the function the design must compute (a check, not a choice)
  std::string robot_change;       // the second half of the set points use this robot's parameters (parameter memory)
  int stall_every = 0, stall_len = 0;  // parsed from sink_stalls
  int random = 0;
  int fault_campaign = 0;                    // > 0: that many single-bit flips (fault_campaign.hpp)
  std::vector<std::string> campaign_checks;  // the checks the campaign counts (tests of the campaign)
  long fault_cycle = -1;     // corrupt unit 0's result bus in the model at this cycle (tests of the checker)
  long rtl_fault_word = -1;  // cycle-log co-simulation runs the RTL of a corrupted design (engine.hpp)
  unsigned long long seed = 1;
  bool quiet = false;  // no progress messages on stderr
};

}  // namespace neaccel::sim
