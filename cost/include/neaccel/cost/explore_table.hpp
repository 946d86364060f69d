// The tables of an exploration with the cost model's time and area attached to each point (timing.hpp:
// point_timing): `neaccel explore`'s explore.csv, pareto.csv and explore.json, its gnuplot script of the Pareto
// fronts, and the summary it prints. sched/ makes the points and stays free of the cost model.
#pragma once

#include "neaccel/cost/timing.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/sweep_graphs.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::cost {

// The cost model's time and area of explored points, the graph shape of each (robot, flavour) taken once from
// `traced`. A point the model cannot cost (a unit latency without an area figure) has none; `failed` counts them.
struct ExploreCosts {
  explicit ExploreCosts(sched::TracedGraph graph) : traced(std::move(graph)) {}
  sched::TracedGraph traced;
  std::map<std::string, GraphShape> shapes;
  std::string target = "ecp5-85f";  // the device the time and resources are estimated on (--target)
  std::string arch = "hardwired";   // the datapath architecture costed (--arch; hardwired needs mux_inputs)
  long budget_lut = 0, budget_dsp = 0;  // explore_run.hpp ExploreRequest (0 = the whole device)
  std::size_t failed = 0;
  std::string first_failure;  // the cost model's message for the first of them
  // point_timing of a row; none for a row without a schedule (a register limit no schedule met) or without an area
  // figure (counted in `failed`).
  std::optional<PointTiming> timing(const sched::PointResult& r);
  // Whether the row's latency datapath fits the target and the budget by the device model (always true on a target
  // without one, the iCE40, and for a row the model cannot cost: nothing is pruned on a guess).
  bool within_budget(const sched::PointResult& r);
};

// sched's CSV columns (explore.hpp: csv_header) followed by the time and area columns (timing_csv_header); a row
// without a cost estimate has those fields empty.
std::string explore_csv(const std::vector<sched::PointResult>& rows, ExploreCosts& costs);

// explore.json's "summary": the sweep's counts and gap histogram.
nlohmann::json sweep_summary_json(const sched::SweepSummary& s);

// explore.json's "points", and for each input port width k (in_words, words per cycle) the points whose streaming
// II the I/O bound sets beside the points with a modulo II. With widths, each point with a modulo II carries
// "port_inputs" (its graph's joint inputs, hw::is_joint_input) and "stream_by_in_words" {k: {ii_io, ii}}: the
// streaming II with the robot parameters loaded once is max(II, ceil(port inputs / k), outputs).
struct ExplorePoints {
  nlohmann::json points = nlohmann::json::array();
  std::map<int, std::pair<std::size_t, std::size_t>> io_bound;  // k -> (points I/O bound, points with a modulo II)
  std::string budget;  // "budget N LUT4, M DSP blocks" when the exploration has one (the summary's fit line)
};
ExplorePoints explore_points(const std::vector<sched::PointResult>& rows, ExploreCosts& costs,
                             const std::vector<int>& in_words);

// The gnuplot script of explore.svg (written in the script's directory): cycles against units, one step line per
// (robot, flavour, pipelining, FMA and divider latencies) at the smallest and largest latencies of the front, at
// most 16.
std::string explore_plot_script(const std::vector<sched::PointResult>& front);

// The summary `neaccel explore` prints: points verified and within 5% of the bound, the gap distribution, modulo
// II = ResMII, the I/O bound per input port width, and the fastest point and the most set points per second at the
// cost model's clocks (from the points of explore_points).
std::string explore_summary_text(const sched::SweepSummary& s, const ExplorePoints& points);

}  // namespace neaccel::cost
