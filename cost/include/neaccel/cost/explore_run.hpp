// `neaccel explore` as one run: the output directory (one function's results per directory, function.txt), the grid
// of points from the option values, the sweep resumed from its checkpoint CSV (all of it, or one shard), shard CSVs
// merged, and the final tables with the cost model's time and area of each point (explore_table.hpp): explore.csv,
// pareto.csv, explore.json, the plot of the Pareto fronts and the ILP on the points with the largest gaps; or Seed
// 000 Table 8.6 beside our schedules (--table86). The grid, the graphs and the sweep are sched's (sweep_run.hpp,
// sweep_graphs.hpp); the command line parses the options and prints what the run returns.
#pragma once

#include "neaccel/sched/sweep_run.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace neaccel::cost {

// An integer list option as the caller parsed it (the CLI: "1-4,8"): its values, or the one-line message of its
// parse error. The error is raised only where the run uses the list, so that the checks keep their order (the
// sweep's options before anything is written, the input port widths after explore.csv and pareto.csv).
struct IntList {
  bool given = false;        // the option's text was not empty
  std::vector<int> parsed;   // the values, when error is empty
  std::string error;         // the parse error's message; empty when the text parsed
  // The values; throws neaccel::Error(error) when the text did not parse.
  const std::vector<int>& values() const;
};

// The options of `neaccel explore`, as its command line gives them (defaults there).
struct ExploreRequest {
  std::string out;                             // --out: the output directory (created)
  std::string function = "id";                 // --function (dfg/functions.hpp names)
  std::vector<std::string> robots, flavours;   // --robot, --flavour (items, unchecked)
  IntList n;                                   // --n: general arms random:N:1 swept, or the rows of --table86
  IntList mul, add, lat_mul, lat_add, pipelined, max_registers;  // the sweep's dimensions
  IntList fma, lat_fma, div, lat_div, read_ports, write_ports;   // lat_fma: with fma >= 1; div: as the function needs
  bool div_pipelined = false;                  // --div-pipelined
  int restarts = 4;                            // list scheduler restarts per point
  bool modulo = true, modulo_nonpipelined = false;  // --no-modulo, --modulo-nonpipelined
  int jobs = 0;                                // threads; 0: the hardware's
  std::string shard;                           // "k/N": every N-th point from the k-th, into explore-k-of-N.csv
  std::vector<std::string> merge;              // shard CSVs joined (duplicates once) instead of sweeping
  IntList in_words;                            // input port widths for the streaming I/O bound (explore.json)
  int ilp_worst = 0;                           // the ILP on this many points with the largest gap (ilp_worst.csv)
  long ilp_nodes = 20000;                      // its branch-and-bound node limit per point
  bool plot = true;                            // explore.gp and gnuplot's explore.svg
  bool table86 = false;                        // Table 8.6 for the arms of `n` instead of a sweep
  bool depth = true;                           // the depth pass per latency pair (dfg::DepthMode::on)
  int lookahead = 0;                           // dfg::DepthMode::lookahead (inverse dynamics only)
  // --target: the device of the cost model (cost/targets). The LFE5U-85F, which holds the puma560 designs; the
  // iCE40 HX8K holds none of them, so its figures for them are extrapolations.
  std::string target = "ecp5-85f";
  // --arch: the datapath architecture each point is costed as, "hardwired" (its multiplexer inputs from the left-edge
  // binding of its list schedule, cost::attach_interconnect, about 0.02 s a puma560 point) or "microcoded". Hardwired
  // by default: no microcoded puma560 design routes on the LFE5U-85F (data/ecp5-85f/routability.json).
  std::string arch = "hardwired";
  // --budget-lut, --budget-dsp: the most LUT4 and DSP blocks a point's latency datapath may take on a target with a
  // device model (0 = the whole device). Points over the device or the budget stay in explore.csv and explore.json
  // (marked) but are pruned from the Pareto front, the plot and the summary's fastest point.
  long budget_lut = 0, budget_dsp = 0;
  bool json = false;                           // the summary as JSON (no "wrote" line)
};

// What the run reports while it runs; each may be empty.
struct ExploreHooks {
  std::function<void(std::size_t done, std::size_t total)> progress;  // new points of the sweep evaluated so far
  std::function<void(std::size_t new_points)> sweep_done;             // after the sweep, before anything else
  std::function<void(const sched::IlpCheckRow&)> ilp_row;             // each point of --ilp-worst, when done
  std::function<void(const std::string&)> note;  // a note for the user (no cost estimate, gnuplot missing or failed)
};

// What the command prints on stdout: `text` (the summary, as text or JSON; the Table 8.6 markdown or JSON; empty
// for a shard) then `wrote` (the "wrote ..." line, empty with json; a shard's "shard k/N: ..." line).
struct ExploreResult {
  std::string text, wrote;
};

// Runs `neaccel explore` (docs/user-guide.md, docs/scheduling.md): creates the output directory, checks the sweep's
// options, refuses a directory holding another function's results (function.txt), then writes Table 8.6, or merges
// the shards, or sweeps (resuming from the directory's CSV) and writes the final tables, the plot (gnuplot when
// installed) and ilp_worst.csv. Throws neaccel::Error with a one-line message on a bad option or file.
ExploreResult run_explore(const ExploreRequest& request, const ExploreHooks& hooks);

}  // namespace neaccel::cost
