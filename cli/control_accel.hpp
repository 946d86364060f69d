// Accelerator in the loop for `neaccel control`: the feedforward torques computed by the robot's customised
// dataflow graph (dfg::trace + dfg::customise) evaluated in the accelerator's number format.
#pragma once

#include "neaccel/ref/control/controller.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cli {

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
// (study::estimate_cost via study::point_timing), one evaluation takes the schedule plus the I/O overhead (inputs +
// outputs + 2 cycles). Returns the design, cycles, clock, time, the update rate it allows and whether it fits in the
// control period T. Empty for "double".
nlohmann::json accelerator_timing(const ref::Robot& model, const std::string& format, double period_s);

}  // namespace neaccel::cli
