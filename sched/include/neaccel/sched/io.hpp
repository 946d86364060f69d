// Textual form of a scheduling problem and its solution (JSON, round-trips), Gantt chart (SVG), utilisation,
// and building the problems the CLI and the exploration use (robot -> traced graph, built-in graphs, files).
//
// Schedule JSON (format "neaccel-schedule", version 1):
//   { "format": "neaccel-schedule", "version": 1,
//     "graph":   { "inputs": ["s1", ...], "outputs": [{"name": "tau1", "node": 812}, ...],
//                  "provenance": [{"link": 0, "quantity": "", "equation": ""}, ...],
//                  "nodes": [{"op": "input", "input": 0}, {"op": "const", "value": 0.5},
//                            {"op": "mul", "args": [0, 1], "prov": 3}, ...] },
//     "problem": { "classes": [{"name": "mul", "ops": ["mul"], "count": 7, "latency": 1, "occupancy": 1}, ...],
//                  "ii": 0, "max_registers": 0, "read_ports": 0, "write_ports": 0 },
//     "schedule": { "algorithm": "list/height", "length": 82, "ii": 0, "stages": 0, "lower_bound": 82,
//                   "proven_optimal": true, "num_registers": 40,
//                   "slots": [[start, cls, instance], ...] (one per node), "reg": [r, ...] (or []) } }
// Values are written with full double precision ("%.17g" semantics of nlohmann::json), so a load gives the
// same graph, problem and schedule.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/sched/schedule.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace neaccel::sched {

nlohmann::json graph_to_json(const dfg::Graph& g);
// Throws neaccel::Error naming `what` (a file name) and the field on malformed input.
dfg::Graph graph_from_json(const nlohmann::json& j, const std::string& what);

nlohmann::json to_json(const Problem& problem, const Schedule& schedule);

// A loaded problem owns its graph (problem.graph points into it; not copyable).
struct Loaded {
  dfg::Graph graph;
  Problem problem;
  Schedule schedule;
  Loaded() = default;
  Loaded(const Loaded&) = delete;
  Loaded& operator=(const Loaded&) = delete;
};
std::unique_ptr<Loaded> from_json(const nlohmann::json& j, const std::string& what);

// Gantt chart: one row per unit instance, one column per cycle; each op a box over its occupancy (issue slot for
// pipelined units, with a thin bar for the rest of its latency), coloured by provenance quantity, labelled with
// the link number; legend of quantities. With ii > 0 the chart shows cycles [0, length) of one evaluation and
// marks the II boundaries.
std::string gantt_svg(const Problem& problem, const Schedule& schedule, const std::string& title);

struct ClassUse {
  std::string name;
  int count = 0;
  int ops = 0;
  long busy = 0;       // ops * occupancy
  long capacity = 0;   // count * length (ii == 0) or count * ii
  double utilisation = 0.0;
};
std::vector<ClassUse> utilisation(const Problem& problem, const Schedule& schedule);
std::string utilisation_table(const std::vector<ClassUse>& use);

}  // namespace neaccel::sched
