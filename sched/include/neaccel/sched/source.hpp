// Where scheduling graphs come from: a robot's graph in the shape that schedules best on the units
// (dfg/robot_graph.hpp builds the candidates), a built-in HLS benchmark, or a JSON file.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/dfg/robot_graph.hpp"
#include "neaccel/sched/schedule.hpp"

#include <string>
#include <vector>

namespace neaccel::sched {

// The depth pass knowing the units (dfg::apply_depth is the pass alone): it spends operations only where that pays
// on them. Candidates: the pass without added operations (budget 0), with the setting's budget and with
// `more_budgets`, and the graph without the pass (on few units a re-associated graph can need a few more
// multiplications); the one with the smaller max(critical path, resource bound) on `classes` is returned (ties:
// fewer operations). On few units the budget would only lengthen the resource bound.
dfg::Graph apply_depth(const dfg::Graph& g, const dfg::DepthSetting& depth, const std::vector<UnitClass>& classes);
// max(critical path, resource bound) of `g` on `classes`: the score apply_depth chooses by.
int depth_score(const dfg::Graph& g, const std::vector<UnitClass>& classes);

// The graph `schedule` runs for a robot's inverse dynamics: apply_depth(traced, depth, classes) on the traced
// recursion and, when depth.lookahead asks, on its lookahead forms; the one with the smallest
// max(critical path, resource bound) on `classes` (ties: fewer operations; then the traced recursion).
dfg::Graph robot_depth_graph(const std::string& robot_spec, const std::string& flavour, const dfg::DepthSetting& depth,
                             const std::vector<UnitClass>& classes);

// "bench:NAME" (hls_graphs.hpp builtin_graph), a schedule file (its "graph" section), or a graph file read by
// dfg::read_graph_file (.json lossless or generic, .dot/.gv). Throws neaccel::Error naming the file.
dfg::Graph load_graph(const std::string& spec);

}  // namespace neaccel::sched
