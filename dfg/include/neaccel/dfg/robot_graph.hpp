// The graphs of a robot as the later stages take them: the traced modified Newton-Euler recursion, general or
// customised, its lookahead forms, and the depth passes the commands apply. Everything here is a function of the
// robot and the graph; choosing among these shapes by how they schedule on given units is sched/'s job
// (neaccel/sched/source.hpp: robot_depth_graph).
#pragma once

#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/graph.hpp"

#include <string>
#include <vector>

namespace neaccel::dfg {

// The modified Newton-Euler graph (seed 000 section 7) of a robot spec (ref::load_robot: built-in name, file,
// random:N:SEED). general = robot parameters are run-time inputs (seed 000's general hardware); else they are
// folded in (customised, seed 003 sec 9.6). Both are cleaned by dfg::customise (constant folding, CSE, dead
// code), which never turns an input into a constant.
Graph robot_graph(const std::string& robot_spec, bool general);
// By flavour name: "general", "general-dh" (general, but the robot's DH zero pattern -- geometric parameters that
// are exactly 0 or +-1 -- stays constant: TraceOptions::keep_zero_pattern), "custom". Throws on others.
Graph robot_graph(const std::string& robot_spec, const std::string& flavour);

// The depth-reducing pass of the pipeline (depth.hpp) as the commands set it: on by default, with the latencies of
// the units the graph is scheduled on; `--depth off` keeps the traced shape. lat.fma > 0 (FMA units requested,
// schedule/explore only) adds the multiply-add fusion after the re-association.
struct DepthSetting {
  bool on = true;
  Latencies lat{3, 2, 0};
  double budget = 0.10;
  // Budgets the unit-aware sched::apply_depth tries besides 0 and `budget` (Table 8.6 lets it spend more, and
  // reports the operations: tests/sched/test_table86.cpp, docs/scheduling.md).
  std::vector<double> more_budgets;
  // DepthMode::lookahead: the lookahead forms of the recursion (lookahead.hpp) as candidate shapes (robot graphs
  // of the inverse dynamics only; see sched::robot_depth_graph).
  int lookahead = 0;
};
// The graph after the depth passes the setting asks for (the graph itself when off and no FMA).
Graph apply_depth(const Graph& g, const DepthSetting& depth);
// robot_graph(robot_spec, flavour) followed by apply_depth.
Graph robot_graph(const std::string& robot_spec, const std::string& flavour, const DepthSetting& depth);

// A lookahead shape of the recursion (lookahead_ne): chains by lookahead over K links, the torques of the first
// `project` links projected, single steps by the dense rotation matrix (`dense`).
struct LookaheadShape {
  int K = 1, project = 0;
  bool dense = false;
};
// The lookahead form of a robot's graph by flavour name (as robot_graph(robot_spec, flavour)).
Graph robot_lookahead_graph(const std::string& robot_spec, const std::string& flavour, LookaheadShape shape);
// The shapes a setting asks for: none (lookahead 0); K given: K with project 0, 2, 3; automatic (-1): K = 1, 2, 3
// with project 0, 2, 3 (not K = 1 with 0: the traced recursion); with K = 1 also the dense single steps with
// project 0, 2, 3.
std::vector<LookaheadShape> lookahead_shapes(const DepthSetting& depth);

}  // namespace neaccel::dfg
