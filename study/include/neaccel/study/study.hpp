// `neaccel study`: from a robot to verified accelerators and a report.
//
// Stages, each a function of (context) that writes JSON data files and report sections:
//   1 reference check   2 operation counts   3 graphs   4 exploration   5 design choice (RTL)
//   6 verification (co-simulation)   7 synthesis   8 report (report.md, report.html, numbers.json, plots/)
#pragma once

#include "neaccel/cost/design_pnr.hpp"
#include "neaccel/ref/robot.hpp"

#include <filesystem>
#include <string>

namespace neaccel::study {

struct Options {
  std::string robot = "puma560";          // built-in name, random:N:SEED, YAML or URDF file
  std::filesystem::path out = "out/study";
  bool quick = false;                      // smaller sweeps and state sets (CI)
  int states = 0;                          // random states for checks; 0 = 100 (quick: 20)
  int max_units = 0;                       // largest unit count per class in the sweep; 0 = default
  double max_area = 0;                     // --budget: largest area (LUT-equivalents) a chosen design may take; 0 = none
  long budget_lut = 0, budget_dsp = 0;     // --budget-lut, --budget-dsp: the most LUT4 and DSP blocks of the target
                                           // (by its device model) a chosen latency design may take; 0 = the device
  int jobs = 0;                            // worker threads for the sweep; 0 = hardware concurrency
  bool progress = true;                    // stage lines on a terminal
  bool depth = true;                       // the depth pass on the swept and built graphs; --depth off
  int lookahead = 0;                       // --depth lookahead[:K] (dfg::DepthMode): 0 none, K, -1 = K 1..3
  std::string function = "id";             // the dynamics function every stage uses (dfg/functions.hpp)
  bool platforms = true;                   // measure the graph's CPU kernels (and Pinocchio) for the platform table
  int pinocchio = -1;                      // the Pinocchio row: 1 on, 0 off, -1 on unless --quick (its first build
                                           // takes minutes)
  std::string target = "ecp5-85f";          // --target: the device the chosen designs are costed and placed on
  // --target sky130-hd: the standard-cell chip beside the device (`target` is then ecp5-85f): the built latency
  // datapaths on it, pre-layout (stage_chip); empty: none.
  std::string chip;
  bool chip_flow = false;  // --chip-flow: run Yosys, OpenSTA and the traced co-simulation where no chip result is cached
  bool pnr = false;                        // --pnr: place and route the chosen designs that the model says fit
                                           // (else only results already cached: data/pnr-cache)
  double pnr_timeout_s = cost::kPnrTimeoutS;  // --pnr-timeout: each tool's limit per design; nextpnr's router need not
                                           // converge, and a design over it is reported as not placed
  bool report_timings = false;             // --report-timings: measured CPU times in the report and data/cpu.json
                                           // (the output is then not byte-identical run to run)
};

// Whether the study's function divides (fd, fd-khalil, fd-strobe): its sweep has a divider class.
bool function_divides(const std::string& function);

// Validates options and the robot before any long work; throws neaccel::Error with a one-line message.
ref::Robot prepare(const Options& options);

// Runs every stage and writes the report. Returns the report directory.
std::filesystem::path run(const Options& options);

}  // namespace neaccel::study
