// `neaccel sim --engine cosim --fault-campaign N` (docs/datapath.md "Fault campaign"): N runs of the SystemC model's
// core, each with one single-bit flip drawn from a deterministic PRNG, against the fault-free RTL's cycle log and the
// golden graph; each run classified as detected, masked or silent.
#pragma once

#include "faults.hpp"
#include "neaccel/hw/datapath.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace neaccel::sim {

struct CampaignSetup {
  const hw::Datapath* dp = nullptr;
  const std::vector<std::vector<std::uint32_t>>* raw = nullptr;  // input words per state
  std::vector<std::vector<std::uint32_t>> golden;                // per state: the graph in the format, bit-exact
  std::vector<std::string> rtl_log;                              // the fault-free RTL's cycle log (Verilator harness)
  std::vector<std::vector<std::uint32_t>> rtl_out;               // its results
  // The result checks of `neaccel sim` (golden values up to NaN class, cycle counts) on the model's results: the
  // names of those that fire (empty: none).
  std::function<std::vector<std::string>(const sysc::CoreRun&)> sim_checks;
  // The checks that count (tests of the campaign itself: with fewer checks, faults go silent); empty: all of
  // cycle_log, outputs_vs_rtl, golden, cycle_count (a timeout or an error of the checks always counts).
  std::vector<std::string> checks;
  int flips = 0;
  unsigned long long seed = 1;
  int stall_every = 0, stall_len = 0;
  bool progress = false;  // a progress line on stderr (a terminal)
};

// The tallies of a campaign: `json` is the campaign's JSON document (totals, by site, by check, silent examples).
struct CampaignResult {
  nlohmann::json json;
  long detected = 0, masked = 0, silent = 0;
};

// Runs the fault-free core (it must pass every check) and then s.flips faulty runs, each classified.
CampaignResult run_fault_campaign(const CampaignSetup& s);

}  // namespace neaccel::sim
