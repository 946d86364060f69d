// Where scheduling graphs come from: a robot (traced modified Newton-Euler, general or customised), a built-in
// HLS benchmark, or a JSON file.
#pragma once

#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/graph.hpp"
#include "neaccel/sched/schedule.hpp"

#include <string>
#include <vector>

namespace neaccel::sched {

// The modified Newton-Euler graph (seed 000 section 7) of a robot spec (ref::load_robot: built-in name, file,
// random:N:SEED). general = robot parameters are run-time inputs (seed 000's general hardware); else they are
// folded in (customised, seed 003 sec 9.6). Both are cleaned by dfg::customise (constant folding, CSE, dead
// code), which never turns an input into a constant.
dfg::Graph robot_graph(const std::string& robot_spec, bool general);
// By flavour name: "general", "general-dh" (general, but the robot's DH zero pattern -- geometric parameters that
// are exactly 0 or +-1 -- stays constant: dfg::TraceOptions::keep_zero_pattern), "custom". Throws on others.
dfg::Graph robot_graph(const std::string& robot_spec, const std::string& flavour);

// The depth-reducing pass of the pipeline (issue 15, dfg/depth.hpp) as the commands set it: on by default, with
// the latencies of the units the graph is scheduled on; `--depth off` keeps the traced shape. fma > 0 (FMA units
// requested, schedule/explore only) adds the multiply-add fusion after the re-association.
struct DepthSetting {
  bool on = true;
  dfg::Latencies lat{3, 2, 0};
  double budget = 0.10;
  // Budgets the unit-aware apply_depth tries besides 0 and `budget` (Table 8.6 lets it spend more, and reports
  // the operations: tests/sched/test_table86.cpp, docs/scheduling.md).
  std::vector<double> more_budgets;
  // dfg::DepthMode::lookahead: the lookahead forms of the recursion (dfg/lookahead.hpp) as candidate shapes
  // (robot graphs of the inverse dynamics only; see robot_depth_graph).
  int lookahead = 0;
};
// The graph after the depth passes the setting asks for (the graph itself when off and no FMA).
dfg::Graph apply_depth(const dfg::Graph& g, const DepthSetting& depth);
// The same, knowing the units: the pass spends operations only where that pays on them. Candidates: the pass
// without added operations (budget 0), with the setting's budget and with `more_budgets`, and the graph without
// the pass (on few units a re-associated graph can need a few more multiplications); the one with the smaller
// max(critical path, resource bound) on `classes` is returned (ties: fewer operations). On few units the budget
// would only lengthen the resource bound.
dfg::Graph apply_depth(const dfg::Graph& g, const DepthSetting& depth, const std::vector<UnitClass>& classes);
// max(critical path, resource bound) of `g` on `classes`: the score apply_depth chooses by.
int depth_score(const dfg::Graph& g, const std::vector<UnitClass>& classes);
// robot_graph(robot_spec, flavour) followed by apply_depth: the graph `schedule`, `explore`, `rtl`, `study` run.
dfg::Graph robot_graph(const std::string& robot_spec, const std::string& flavour, const DepthSetting& depth);

// A lookahead shape of the recursion (dfg::lookahead_ne): chains by lookahead over K links, the torques of the
// first `project` links projected, single steps by the dense rotation matrix (`dense`).
struct LookaheadShape {
  int K = 1, project = 0;
  bool dense = false;
};
// The lookahead form of a robot's graph by flavour name (as robot_graph(robot_spec, flavour)).
dfg::Graph robot_lookahead_graph(const std::string& robot_spec, const std::string& flavour, LookaheadShape shape);
// The shapes a setting asks for: none (lookahead 0); K given: K with project 0, 2, 3; automatic (-1): K = 1, 2, 3
// with project 0, 2, 3 (not K = 1 with 0: the traced recursion); with K = 1 also the dense single steps with
// project 0, 2, 3.
std::vector<LookaheadShape> lookahead_shapes(const DepthSetting& depth);
// The graph `schedule` runs for a robot's inverse dynamics: apply_depth(traced, depth, classes) on the traced
// recursion and, when depth.lookahead asks, on its lookahead forms; the one with the smallest
// max(critical path, resource bound) on `classes` (ties: fewer operations; then the traced recursion).
dfg::Graph robot_depth_graph(const std::string& robot_spec, const std::string& flavour, const DepthSetting& depth,
                             const std::vector<UnitClass>& classes);

// "bench:NAME" (hls_graphs.hpp builtin_graph), a schedule file (its "graph" section), or a graph file read by
// dfg::read_graph_file (.json lossless or generic, .dot/.gv). Throws neaccel::Error naming the file.
dfg::Graph load_graph(const std::string& spec);

}  // namespace neaccel::sched
