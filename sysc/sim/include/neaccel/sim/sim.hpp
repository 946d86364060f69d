// `neaccel sim` as a library: runs the datapath written by `neaccel rtl --out DIR` on joint states with one engine
// (engine.hpp: systemc, verilator, cosim) and checks every output against the graph evaluated in the number format
// (bit for bit) and against the double reference (max relative error) (check.hpp). Streaming designs (neaccel rtl
// --ii) stream all states in one run; the measured throughput and latency are reported beside the claimed ones. Or,
// with Options::fault_campaign, a fault campaign (fault_campaign.hpp) on the design.
#pragma once

#include "neaccel/hw/design.hpp"
#include "neaccel/sim/check.hpp"
#include "neaccel/sim/fault_campaign.hpp"
#include "neaccel/sim/options.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace neaccel::sim {

// What a run of `neaccel sim` found: the checks of an ordinary run, or (campaign) a fault campaign's tallies.
struct Result {
  bool campaign = false;  // a fault campaign ran (Options::fault_campaign > 0)
  bool passed = true;     // run: no mismatch, cycle-count error or co-simulation difference; campaign: nothing silent
  nlohmann::json json;    // the machine-readable result (`neaccel sim --json`): the run's or the campaign's
  std::string robot, format;  // the design's robot and number format
  // An ordinary run.
  std::string engine;
  std::size_t states = 0;
  bool streaming = false;
  int cycles = 0, length = 0, io_overhead = 0;  // latency designs: per evaluation, schedule length, I/O cycles
  int cycles_per_set_point = 0, latency = 0;    // streaming designs: claimed II and latency
  Checked checked;  // mismatches, cycle-count errors, max relative error, torques, measured II and latency
  long cycle_mismatches = -1, compared_cycles = 0;  // cosim (-1: no co-simulation)
  std::string cosim_kind;
  std::vector<std::string> messages;  // cosim: the first differences
  bool has_params = false;            // a parameter memory: written once per configuration phase
  std::size_t param_words = 0;
  long configurations = 0;
  int config_cycles = 0;
  // A fault campaign.
  int flips = 0;
  std::string mode;  // latency, streaming, streaming with back-pressure
  CampaignResult faults;
  double seconds = 0;  // the campaign's run time
};

// States file: one state per line, q1..qn qd1..qdn u1..un (3n numbers; u = qdd, or tau for the forward dynamics
// functions); '#' starts a comment. Returns each state bound to the design's graph inputs (hw::bind_state).
std::vector<std::vector<double>> read_states(const hw::Design& d, const std::string& path);

// Runs `neaccel sim`: reads the design in o.out, makes the states, runs the engine (or the fault campaign) and checks
// the results. Progress messages go to stderr unless o.quiet; errors are thrown (neaccel::Error).
Result run(Options o);

}  // namespace neaccel::sim
