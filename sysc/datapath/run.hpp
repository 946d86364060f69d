// Runs the SystemC model alone on a list of input vectors (one elaboration: call once per process). Streaming
// datapaths: all states in one run; cycles[k] = cycles between the first result words of set points k and k + 1.
#pragma once

#include "core.hpp"
#include "neaccel/hw/datapath.hpp"
#include "stream_book.hpp"

#include <cstdint>
#include <ostream>
#include <vector>

namespace neaccel::sysc {

struct ModelRun {
  std::vector<std::vector<std::uint32_t>> out;  // per state, tau1..taun (raw words)
  std::vector<long> cycles;                     // per state, start to DONE
  long total_cycles = 0;                        // simulated clock cycles including reset
  rtlsim::StreamResult stream;                  // streaming datapaths: the one run over all states
};

struct ModelRunOptions {
  std::ostream* cycle_log = nullptr;  // one line per cycle (rtlsim/cycle_log.hpp), as the Verilator harness writes
  Fault fault;                        // injected into the model (tests of the checkers)
  int stall_every = 0, stall_len = 0; // streaming with back-pressure: a sink holding out_ready low (StreamBook)
};

ModelRun run_model(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states,
                   const ModelRunOptions& opt = {});

}  // namespace neaccel::sysc
