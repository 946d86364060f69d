// An exploration run as `neaccel explore` makes it: the grid of points its value lists span, the sweep resumed from
// a checkpoint CSV and saved after every chunk, and the ILP on the points with the largest gaps (is the list
// schedule or the lower bound loose?), and Table 8.6 beside our schedules as `explore --table86` prints it.
#pragma once

#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/sweep_graphs.hpp"
#include "neaccel/sched/table86.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace neaccel::sched {

// The values of each dimension of a sweep. fma 0 means no FMA class (one point, whatever lat_fma; lat_fma {0} when
// no count is positive); div and lat_div are {0} when the function does not divide.
struct SweepGrid {
  std::vector<std::string> robots, flavours;
  std::vector<int> pipelined, lat_mul, lat_add, mul, add, max_registers;
  std::vector<int> fma{0}, lat_fma{0}, div{0}, lat_div{0};
  bool div_pipelined = false;  // dividers accept an op every cycle (points with dividers only)
  std::vector<int> read_ports{0}, write_ports{0};
};
// Every point of the grid, the loops nested (outermost first) robot, flavour, pipelined (1 = true), lat_mul,
// lat_add, mul, add, max_registers, lat_fma, fma, lat_div, div, read_ports, write_ports.
std::vector<Point> grid_points(const SweepGrid& grid);

// The CSV of results without the cost model's columns (the checkpoint written while sweeping).
std::string checkpoint_csv(const std::vector<PointResult>& rows);

struct ResumedSweep {
  std::vector<PointResult> rows;  // the checkpoint's rows and the new ones, sort_results order
  std::size_t new_points = 0;     // points evaluated by this run
};
// Evaluates the points that `checkpoint` (a CSV of earlier results, read when the file exists) does not hold, on
// the graphs sweep_graphs builds for them, in chunks of 256 points on `threads` threads; after each chunk, save(rows)
// with every row so far (an interrupted run resumes). progress(done, total) counts the new points. With
// options.on_list_schedule, a checkpoint row it has not annotated (mux_inputs unknown on a verified row) is evaluated
// again.
ResumedSweep resume_sweep(const std::vector<Point>& points, const std::string& checkpoint, const TracedGraph& traced,
                          const SweepGraphOptions& graph_options, const SweepOptions& options, int threads,
                          const std::function<void(std::size_t, std::size_t)>& progress,
                          const std::function<void(const std::vector<PointResult>&)>& save);

// One point of ilp_check_worst: the list schedule's length and bound beside the ILP's, and what they say.
struct IlpCheckRow {
  Point point;
  int list_length = 0, list_bound = 0, ilp_length = 0, ilp_bound = 0;
  bool proven_optimal = false;
  std::string verdict;  // "list at the bound", "ilp too large", "schedule was loose (ilp optimal)", ...
};
// The ILP (max_nodes branch-and-bound nodes, verified) on the `count` rows with the largest gap (stable order), each
// on the graph point_graph picks among sweep_graphs'; on_row is called after each. Returns ilp_worst.csv's text.
std::string ilp_check_worst(std::vector<PointResult> rows, int count, long max_nodes, const TracedGraph& traced,
                            const SweepGraphOptions& graph_options,
                            const std::function<void(const IlpCheckRow&)>& on_row);

// `explore --table86 --json`: one object per row (n, the paper's and our steps, operations, cycles and bounds of
// the unit and the pipelined schedules, traced and lookahead figures).
nlohmann::json table86_json(const std::vector<Table86Row>& rows);

}  // namespace neaccel::sched
