// Design-space exploration: sweep unit counts, latencies and pipelining over robots and graph flavours; every
// point scheduled (list + modulo), verified, compared with its lower bound; CSV/JSON, Pareto front, summary.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/sched/schedule.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace neaccel::sched {

struct Point {
  std::string robot;     // robot spec (ref::load_robot)
  std::string flavour;   // "general" | "custom"
  int mul = 1, add = 1, lat_mul = 1, lat_add = 1;
  bool pipelined = true;  // both classes pipelined (occupancy 1) or both not (occupancy = latency)
  int max_registers = 0;  // register limit the list and modulo schedulers honour (0 = none)
  // FMA units (0 = no FMA class; the multiply-add fusion applies only where they exist, as in
  // `schedule`; pipelined as the multipliers) and dividers (0 = no divider class: the graph must not divide;
  // occupancy 1 when div_pipelined, else the divider's latency).
  int fma = 0, lat_fma = 0;
  int div = 0, lat_div = 0;
  bool div_pipelined = false;
  int read_ports = 0, write_ports = 0;  // register-file ports per cycle the schedulers honour (0 = none)
};
// The unit classes of a point: sched::default_classes, then "fma" and "div" where the point has them.
std::vector<UnitClass> point_classes(const Point& p);
// Whether a point has FMA units or dividers (the CSV and JSON carry their columns when any point of a sweep has).
bool has_unit_dimensions(const Point& p);
// Unique key of a point (used for resuming and merging).
std::string point_key(const Point& p);

// The streaming datapath of a point as built (SweepOptions::on_modulo_schedule: the study builds it as `neaccel rtl
// --ii min` does), so that its cost is that of the design rather than an estimate from the list schedule; -1 where
// it was not built. In memory only: the CSV does not carry it.
struct BuiltStream {
  int ii = -1;                 // II built (the modulo scheduler's minimum, raised to the I/O bound)
  int registers = -1;          // registers after modulo variable expansion
  int program_words = -1;      // kernel words (copies x II)
  int stages = -1;             // pipeline stages of the schedule built
  int mux_inputs = -1, mux2_equivalent = -1, max_port_sources = -1;  // hw::interconnect of the streaming datapath
  bool known() const { return ii > 0 && registers >= 0 && program_words > 0 && stages > 0; }
};

struct PointResult {
  Point point;
  int ops = 0, critical_path = 0, lower_bound = 0, length = 0;
  double gap_percent = 0.0;      // 100 (length - lower_bound) / lower_bound
  std::string algorithm;
  int ii = 0, res_mii = 0, modulo_latency = 0, stages = 0;
  int registers = 0;             // left-edge registers of the list schedule
  bool verified = false;         // list and modulo schedules both passed verify()
  // Set by SweepOptions::on_list_schedule (the study: hw::interconnect of the list schedule's datapath); -1 unknown.
  int mux_inputs = -1, mux2_equivalent = -1, max_port_sources = -1;
  BuiltStream stream;  // set by SweepOptions::on_modulo_schedule
};

bool has_unit_dimensions(const std::vector<PointResult>& rows);

struct SweepOptions {
  int restarts = 4;  // list scheduler restarts per point
  bool modulo = true;                // modulo schedule of pipelined points
  bool modulo_nonpipelined = false;  // also of non-pipelined points (slow: MRT fragmentation costs II attempts)
  // Called on the worker thread with each point's verified list schedule (registers allocated), so that callers can
  // attach figures sched does not know about (the hardwired datapath's multiplexer inputs) without sched depending
  // on them. Must be thread-safe and deterministic.
  std::function<void(const Problem&, const Schedule&, PointResult&)> on_list_schedule;
  // Called likewise with each point's verified modulo schedule (the problem's ii set to its II), so that callers
  // can build the streaming datapath and record what it is (PointResult::stream). Thread-safe and deterministic.
  std::function<void(const Problem&, const Schedule&, PointResult&)> on_modulo_schedule;
};

// Schedules one point on `graph` (the point's robot/flavour graph).
PointResult evaluate_point(const dfg::Graph& graph, const Point& point, const SweepOptions& options);

// The key of a point's latency-specific graph (the depth pass reshapes the graph for the unit latencies):
// robot/flavour/lat_mul/lat_add, and +f<lat_fma> with FMA units (the fusion depends on the FMA latency).
std::string depth_graph_key(const Point& p);
// The graph a point runs: among the graphs keyed depth_graph_key(p) or depth_graph_key(p) + "/" + variant (the
// depth pass with and without added operations), the one with the smallest max(critical path, resource bound) on
// the point's units (ties: the first key); failing those, robot + "/" + flavour. Throws if there is none.
const dfg::Graph& point_graph(const std::map<std::string, dfg::Graph>& graphs, const Point& p);
// Evaluates the points on `threads` threads (results in the order of `points`); each runs point_graph(graphs, p). progress(done, total) is called from the calling thread.
std::vector<PointResult> run_sweep(const std::vector<Point>& points, const std::map<std::string, dfg::Graph>& graphs,
                                   const SweepOptions& options, int threads,
                                   const std::function<void(std::size_t, std::size_t)>& progress = {});

// CSV with a header line; read_csv throws neaccel::Error naming the file and line on malformed rows, and reads the
// optional columns by their names in the header. After max_registers come, only in sweeps that have those
// dimensions (so the files of earlier sweeps stay byte-identical): ports, the register-file port limits
// (read_ports, write_ports), then units, the FMA and divider columns (fma, lat_fma, div, lat_div, div_pipelined).
struct CsvColumns {
  bool ports = false, units = false;
};
CsvColumns csv_columns(const std::vector<PointResult>& rows);
std::string csv_header(CsvColumns columns = {});
std::string to_csv_row(const PointResult& r, CsvColumns columns = {});
std::vector<PointResult> read_csv(const std::string& path);
// Rows sorted by (robot, flavour, pipelined, lat_mul, lat_add, mul, add, max_registers, read_ports, write_ports,
// lat_fma, fma, lat_div, div, div_pipelined) -- deterministic file order.
void sort_results(std::vector<PointResult>& rows);

// Pareto front of (mul + add + fma + div, length) within each group of equal (robot, flavour, lat_mul, lat_add,
// pipelined, max_registers, read_ports, write_ports, lat_fma, lat_div, div_pipelined):
// the points no other point of the group beats in both (ties: fewer multipliers first).
std::vector<PointResult> pareto_front(const std::vector<PointResult>& rows);

struct SweepSummary {
  std::size_t points = 0, verified = 0, within_5_percent = 0, optimal = 0, pipelined = 0, ii_at_res_mii = 0;
  std::map<std::string, std::size_t> gap_histogram;  // "0", "(0,1]", "(1,2]", "(2,5]", "(5,10]", ">10" percent
  double worst_gap = 0.0;
};
SweepSummary summarise(const std::vector<PointResult>& rows);

}  // namespace neaccel::sched
