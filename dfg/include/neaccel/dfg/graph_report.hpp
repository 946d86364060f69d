// The report of `neaccel dfg`: a robot's function traced (or a graph imported), the pass pipeline run, the depth
// pass (and the lookahead shapes of the recursion) for given latencies, operation counts before and after,
// per quantity, the float and fixed-point accuracy, and the graph emitted as JSON, DOT or C++.
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::dfg {

// What is asked: exactly one of robot (ref::load_robot spec) and graph_file (read_graph_file).
struct GraphRequest {
  std::string robot, graph_file, function = "id", form = "modified-ne", passes = "fold,cse,factor,dce", out = "out",
      depth = "on";
  int lat_mul = 3, lat_add = 2;  // the latencies the depth pass shapes for
  bool general = false, custom = false, base = false;  // flavour: general, customised (default), base parameters
  std::vector<std::string> emit;   // formats to write into `out`: json, dot, cpp
  std::vector<std::string> fixed;  // fixed-point formats for the accuracy report (e.g. fixed:12.20)
  int samples = 0, near = 0;       // random states of the accuracy report; forward functions: near-singular states
  double target = 0;               // forward functions: the smallest fixed format with max rel error <= target
};

struct GraphReport {
  nlohmann::json json;  // `neaccel dfg --json`
  std::string title;    // the robot, function, form and flavour, or the graph file
  std::string passes;   // the pipeline run ("" for none)
  std::size_t nodes = 0, inputs = 0, outputs = 0;  // of the graph after the passes
  OpCounts untouched, counts, reduced;  // as traced, after the passes, after the depth pass (the emitted graph)
  std::vector<std::pair<std::string, OpCounts>> by_quantity;  // after the passes
  bool depth = false;   // the depth pass ran
  int lat_mul = 0, lat_add = 0, critical_path_before = 0;
  int lookahead_k = 1, lookahead_p = 0;  // the lookahead shape kept (1, 0: the traced recursion)
  bool lookahead_dense = false;
  std::vector<std::string> relations;  // base parameters: how they combine the standard ones
};

// Traces (or reads) the graph, runs the passes and the depth pass, the accuracy runs asked for, and writes the
// emitted files (their paths in json["files"]). Throws neaccel::Error ("dfg: ...") on a request it cannot meet.
GraphReport graph_report(const GraphRequest& request);
// The text `neaccel dfg` prints without --json (one line per figure, "wrote PATH" per emitted file).
std::string graph_report_text(const GraphReport& report);

}  // namespace neaccel::dfg
