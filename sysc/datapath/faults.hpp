// Fault campaign support (docs/datapath.md "Fault campaign"): runs the model's DatapathCore directly, without
// the SystemC kernel (which elaborates once per process), so that one process can run thousands of faulty runs; the
// stimulus and the cycle-log lines are those of run_model (run.cpp) cycle for cycle (tests/datapath/test_faults.cpp
// checks this). Also the fault sites a fault-free run offers and the single-bit flips drawn from them.
#pragma once

#include "core.hpp"
#include "neaccel/hw/datapath.hpp"
#include "stream_book.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace neaccel::sysc {

// What a fault-free run offers as fault sites, per model cycle (cycles since reset).
struct FaultSites {
  std::vector<std::pair<long, int>> unit_valid;  // (cycle, unit): a valid result on the unit's bus
  std::vector<std::pair<long, int>> reg_write;   // (cycle, unit): the unit writes a register
  std::vector<std::pair<long, int>> word;        // (cycle, program counter): a microcode word executes
  std::vector<std::pair<long, int>> fifo;        // (cycle, words): the output FIFO holds words
  long cycles = 0;                               // model cycles of the run
};

struct CoreRun {
  std::vector<std::vector<std::uint32_t>> out;  // per state, tau1..taun (raw words), as run_model
  std::vector<long> cycles;                     // as run_model
  long total_cycles = 0;
  rtlsim::StreamResult stream;                  // streaming datapaths
  std::vector<std::string> log;                 // the cycle-log lines (rtlsim::cycle_line), as run_model writes
  bool timeout = false;                         // no done after max_cycles stimulus cycles (the run was cut)
};

// Runs `dp` on `states` with `fault` injected, with run_model's stimulus (sink stalls as StreamBook). `sites`: filled
// from this run. max_cycles bounds each state's (streaming: the whole run's) stimulus loop.
CoreRun run_core(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states, const Fault& fault,
                 long max_cycles, int stall_every = 0, int stall_len = 0, FaultSites* sites = nullptr);

// The kinds of fault site of the campaign.
enum class SiteKind { UnitResult, RegWrite, Control, FifoWord, Const };
const char* site_name(SiteKind k);  // unit_result, reg_write, control, fifo_word, const

// The site kinds `dp` has (fifo_word: back-pressure designs; const: a constant ROM that is not empty).
std::vector<SiteKind> site_kinds(const hw::Datapath& dp);

// One single-bit flip of kind `k` drawn from `sites` with `rng` (deterministic: mt19937_64 and modulo, no
// distribution of the standard library): a data bit of the format's width, a control bit of one field of the word
// (a flip that would address past a register file, constant ROM or stage count is drawn again). `what` describes it.
Fault draw_fault(SiteKind k, const hw::Datapath& dp, const FaultSites& sites, std::mt19937_64& rng, std::string* what);

}  // namespace neaccel::sysc
