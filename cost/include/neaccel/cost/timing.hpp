// Explored points in nanoseconds: the cost model (cost.hpp) attached to a scheduled point, giving its
// clock period, the time of one evaluation and the set points per second it sustains. The study (data/explore.json)
// and `neaccel explore` (explore.json/csv) both call this, so the two agree; sched/ stays free of the cost model.
//
//   eval_cycles      = schedule length + I/O overhead (inputs + outputs + 2: load, unload, two handshakes;
//                      hw::Datapath::cycles()), the cycles of one evaluation on the microcoded latency datapath
//   latency_ns       = eval_cycles x period_ns (period from estimate_cost of the latency datapath)
//   throughput:      streaming (a modulo schedule exists, pipelined points): a set point every stream_ii cycles,
//                      stream_ii = max(II, inputs, outputs) (one input and one output port: hw::build_stream's I/O
//                      bound), on the streaming datapath's own cost estimate (registers: the list schedule's
//                      times the modulo schedule's stages; kernel: stages x stream_ii words): 1 / (stream_ii x its
//                      period);
//                    latency datapath (no modulo schedule: non-pipelined points): 1 / (eval_cycles x period_ns).
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/cost/cost.hpp"
#include "neaccel/hw/datapath.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cost {

// What the cost model needs of a graph beyond the schedule.
struct GraphShape {
  int inputs = 0, outputs = 0, consts = 0;
};
GraphShape graph_shape(const dfg::Graph& g);

struct PointTiming {
  std::string arch = "microcoded";  // datapath architecture costed
  CostEstimate latency_cost;   // the latency datapath of the point's list schedule
  int io_cycles = 0;           // inputs + outputs + 2
  int eval_cycles = 0;         // length + io_cycles
  double latency_ns = 0;       // eval_cycles x latency_cost.period_ns
  bool streaming = false;      // throughput from a streaming datapath (modulo schedule), else the latency datapath
  int set_point_cycles = 0;    // cycles between set points: stream_ii, or eval_cycles
  CostEstimate throughput_cost;  // the design that sustains the throughput (streaming datapath, or latency_cost)
  double throughput_per_s = 0;   // set points per second
  // On a target with routability data: why the point's streaming datapath was left out (it is not routable by the
  // device model: routability.hpp), so that its throughput design is the latency datapath; empty otherwise.
  std::string streaming_left_out;
  // Whether the streaming datapath's figures are those of the design built (PointResult::stream, attach_stream), or
  // estimated from the list schedule.
  bool stream_built = false;
  double throughput_per_cell() const {
    return throughput_cost.area_cells > 0 ? throughput_per_s / throughput_cost.area_cells : 0;
  }
};

// Throws neaccel::Error (from the cost model) when the point's units have no area figure. `arch`: "microcoded" or
// "hardwired" (needs the point's multiplexer inputs: attach_interconnect). The streaming datapath is costed as built
// where the sweep built it (attach_stream: its registers, kernel and multiplexer inputs); otherwise estimated from
// the list schedule, with its registers and multiplexer inputs times the register copies (its registers are renamed
// over the copies, so each unit port sees about that many more register sources; up to twice the built design).
// `target`: the device whose models give the period and the resources (cost.hpp: estimate_cost). On a target with
// routability data a streaming datapath beyond what has routed there is no design: the point's throughput design is
// then its latency datapath (streaming false, streaming_left_out says why).
PointTiming point_timing(const sched::PointResult& r, const GraphShape& g, const std::string& format = "fp32",
                         const std::string& arch = "microcoded", const std::string& target = "ice40-hx8k");

// sched::SweepOptions::on_list_schedule for the hardwired architecture: builds the point's datapath (hw::build,
// left-edge binding) and records hw::interconnect's multiplexer inputs in the result (mux_inputs, mux2_equivalent).
void attach_interconnect(const sched::Problem& p, const sched::Schedule& s, sched::PointResult& r);
// The point's latency datapath as generated (`neaccel rtl --arch hardwired --binding interconnect`, hw::make_design):
// r's multiplexer inputs and registers replaced by those of the built datapath `dp`, so that point_timing costs the
// design the study generates rather than the left-edge binding of attach_interconnect (whose multiplexers are up to
// half again as many). Throws neaccel::Error when dp is a streaming datapath or its schedule length is not r's: the
// figures would be of another design.
void attach_generated_binding(const hw::Datapath& dp, sched::PointResult& r);
// sched::SweepOptions::on_modulo_schedule: builds the point's streaming datapath as `neaccel rtl --ii min` does
// (hw::stream_datapath at the smallest II, fp32, left-edge binding) and records its II, registers, kernel words,
// stages and multiplexer inputs in r.stream. Throws neaccel::Error when the design fails its own checks; a point
// with a register limit (max_registers) no streaming datapath meets keeps r.stream unknown (costed as an estimate).
void attach_stream(const sched::Problem& p, const sched::Schedule& s, sched::PointResult& r);

// The fields the explore outputs carry (flat, for one row of explore.json): area (cells, latency datapath),
// period_ns, fmax_mhz, critical, eval_cycles, latency_ns, throughput_mode ("streaming" | "latency datapath"),
// set_point_cycles, throughput_area, throughput_period_ns, throughput_per_s, throughput_per_s_per_cell; on a target
// other than the iCE40 HX8K also "target": target_fit of the latency datapath and of the throughput design, and
// "within_budget": whether the latency datapath fits, is routable and takes at most budget_lut LUT4 and budget_dsp
// DSP blocks (TargetFit::within; 0 = the whole device), and "throughput_within_budget" the same of the throughput
// design (streaming; else the latency datapath again), and "fits_budget" the latency datapath's test without
// routability (TargetFit::fits_budget).
nlohmann::json timing_json(const PointTiming& t, long budget_lut = 0, long budget_dsp = 0);
// Column names and one CSV row of the same fields, in this order (appended to sched's explore CSV columns).
std::string timing_csv_header();
std::string timing_csv_row(const PointTiming& t);

// Whether a design fits the target FPGA: iCE40 logic cells estimated from the model's generic cells by the largest
// logic-cells-per-cell ratio of the placed designs (ice40_logic_cells_per_cell, conservative).
struct DeviceFit {
  std::string device = "iCE40 HX8K";
  double logic_cells = 7680;       // the device's logic cells
  double est_logic_cells = 0;      // estimated logic cells of the design (see above)
  bool fits = false;
  nlohmann::json to_json() const;
};
DeviceFit device_fit(const CostEstimate& e);

// Whether a design fits its target's device (e.target) by the target's model: its LUTs and DSP blocks against the
// device's. iCE40 HX8K: logic cells as device_fit, no DSP blocks. And whether it is within what has been measured
// to route there (routability.hpp): a design that fits but is larger, or has wider operand multiplexers, than every
// design of its architecture that routed is not routable by measurement.
struct TargetFit {
  std::string target, part;
  double lut = 0, dsp = 0;             // the model's estimate
  long device_lut = 0, device_dsp = 0; // what the device holds
  bool fits = false;
  std::string overflow;                // when it does not fit: the resource, "91200 LUT4 of 83640, 7560 over (109 %)"
  bool routable = false;               // fits, and within the routed envelope of its architecture
  std::string unroutable;              // when it fits but is not routable: why, naming the envelope's design
  // Within the device model's range (routability.hpp: a design with operand multiplexers wider than every design the
  // model is fitted or checked on, where routed designs that wide were measured beyond its tolerance, is not): its
  // figures are the model's, not an extrapolation of it.
  bool modelled = true;
  std::string unmodelled;              // when not: why, naming the designs that bound the model's range
  nlohmann::json to_json() const;
  // Fits the device, is routable and modelled, and takes at most budget_lut LUT4 and budget_dsp DSP blocks (0 = no budget beyond
  // the device): the --budget-lut and --budget-dsp of explore and study.
  bool within(long budget_lut, long budget_dsp) const;
  // The same without the routability and model-range tests: what the study falls back to when no design is within
  // them.
  bool fits_budget(long budget_lut, long budget_dsp) const;
};
TargetFit target_fit(const CostEstimate& e);
DeviceFit device_fit_cells(double area_cells);  // the same from an area in generic cells (a data file's figure)

}  // namespace neaccel::cost
