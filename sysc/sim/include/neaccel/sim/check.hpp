// The checks of `neaccel sim` on an engine's results (also what the fault campaign counts as "checks"): every output
// bit for bit against the graph evaluated in the number format, the error against the double reference, the cycle
// counts, and for streaming designs the measured throughput (cycles between successive results) and latency (first
// input word to last result word) against the claimed ones.
#pragma once

#include "neaccel/hw/design.hpp"
#include "neaccel/sim/engine.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neaccel::sim {

// The golden values of every state: the graph evaluated in the format (bit-exact) and in double.
struct Golden {
  Words want;
  std::vector<std::vector<double>> ref;
};

// The golden values of `states` (graph inputs, as hw::bind_state orders them).
Golden golden_of(const hw::Design& d, const std::vector<std::vector<double>>& states);

// What the checks found.
struct Checked {
  long mismatches = 0, cycle_errors = 0;
  long first_mismatch = -1, first_cycle_error = -1;  // the first state (set point) of each, -1: none
  double max_err = 0;
  nlohmann::json torques = nlohmann::json::array();
  long ii_min = 0, ii_max = 0, lat_min = 0, lat_max = 0;  // streaming: measured
};

// 1 where a set point starts a run after a configuration phase (parameter memory: hw::segments); the II is measured
// within a run between configurations.
std::vector<char> segment_starts(const hw::Design& d, const Words& raw);

// Checks an engine's results (out, cycles, stream) against the golden values. stall_every > 0 (a stalling sink):
// streaming results are checked for order and values only, the throughput and latency are measured, not checked.
Checked check_results(const hw::Design& d, const Golden& g, const EngineRun& r, int stall_every,
                      const std::vector<char>& segment_start);

}  // namespace neaccel::sim
