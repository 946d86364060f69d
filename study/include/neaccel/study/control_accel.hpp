// Accelerator in the loop for `neaccel control` (docs/control.md): the feedforward torques (and optionally the gain
// updates' linearisation) computed by the robot's customised dataflow graphs (dfg::trace + dfg::customise) evaluated
// in the accelerator's number format, the accelerator's timing, and the whole control run of the command: seed 004's
// feedforward + adaptive least-squares feedback on a simulated arm (ref/control) with its CSV files, plots and
// summary.
#pragma once

#include "neaccel/ref/control/controller.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace neaccel::study {

// "double": ref::inverse_dynamics of the model (the reference). "fp32": the graph in binary32 (contract 5).
// "fixed:I.F": the graph in fixed point (contract 4). Throws neaccel::Error naming --format otherwise.
ref::control::FeedforwardFn format_feedforward(const ref::Robot& model, const std::string& format);

// The gain updates' linearisation from the accelerator: dtau/dq, dtau/dqd from the model's customised `dtau` graph
// and M from its `mass` graph (docs/functions.md), both evaluated in `format`; A and B formed from them in double
// as ref::control::linearize does (seed 004 eqs 5-6). "double": empty (ref's Dual linearisation). Throws
// neaccel::Error naming --lin-format on a bad format or an M that is not positive definite.
ref::control::LinearizeFn format_linearize(const ref::Robot& model, const std::string& format);

// Differences between a run with the accelerator's feedforward and the double reference run:
// max |tau_ff - tau_ff_ref|, max |q - q_ref| over the common samples, and both tracking errors.
nlohmann::json format_effect(const ref::control::ControlRun& run, const ref::control::ControlRun& reference);

// The accelerator that would compute the feedforward torques: the model's customised graph list-scheduled
// (sched::list_schedule, verified) on 2 multipliers + 2 adders, pipelined, latencies 3/3 cycles for fp32
// (contract 6 defaults) and 1/1 for fixed point. Its clock period and area come from the cost model
// (cost::estimate_cost via cost::point_timing), one evaluation takes the schedule plus the I/O overhead (inputs +
// outputs + 2 cycles). Returns the design, cycles, clock, time, the update rate it allows and whether it fits in the
// control period T. Empty for "double".
nlohmann::json accelerator_timing(const ref::Robot& model, const std::string& format, double period_s);

// The options of `neaccel control`.
struct ControlOptions {
  std::string robot = "planar2";      // built-in name, robot spec or file
  std::string scenario = "nominal";   // nominal, disturbance or model-error (ref::control::parse_scenario)
  std::string feedback = "on";        // on or off (feedforward only)
  std::string format = "double";      // the feedforward's arithmetic: double, fp32 or fixed:I.F
  std::string lin_format = "double";  // the gain updates' linearisation: double, fp32 or fixed:I.F
  std::string out = "out/control";    // output directory
  std::uint64_t seed = 1;             // seed of the disturbance signs
};

// The control run of `neaccel control`: the scenario's closed loop with the feedforward in `format` and the
// linearisation in `lin_format`; with feedback on also the feedforward-only run, with a format other than double
// also the double run (format_effect) and accelerator_timing, with a lin_format other than double and feedback on
// also the run with the double linearisation. Writes under `out`: control.csv, control_ff.csv (with feedback),
// plots.gp and the plots it draws, path.svg, joints.svg, xy.svg (none when gnuplot is missing or fails), and
// summary.json. Returns the summary (summary.json's object). Throws neaccel::Error (one line, naming the option) on a bad option or an
// unwritable `out`.
nlohmann::json run_control_scenario(const ControlOptions& options);

}  // namespace neaccel::study
