// The graphs an exploration's points run (`neaccel explore` and the study's exploration stage): the traced graph of
// each robot and flavour, its depth-reduced variants for each latency pair, and the lookahead shapes of the
// recursion, keyed as sched::point_graph looks them up (explore.hpp: depth_graph_key).
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/sched/explore.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace neaccel::sched {

// The customised graph of a function (dfg/functions.hpp names: id, fd, ...) for one robot spec and flavour
// (general, general-dh, custom): dfg::robot_graph for the inverse dynamics, else the function traced in the
// modified Newton-Euler form and customised. Throws neaccel::Error on an unknown function or flavour.
dfg::Graph function_graph(const std::string& function, const std::string& robot, const std::string& flavour);

// The traced graph of a robot and flavour, as the caller has it (traced anew, or one it keeps).
using TracedGraph = std::function<dfg::Graph(const std::string& robot, const std::string& flavour)>;

struct SweepGraphOptions {
  bool depth = true;  // the depth pass per latency pair; off: the traced graph only (fused where FMA units exist)
  int lookahead = 0;  // dfg::DepthMode::lookahead: the lookahead shapes as candidates too (inverse dynamics only)
};

// Adds the graphs point `p` may run, unless its latency pair's graphs are there already: with the depth pass, the
// traced graph after the pass for the point's latencies without added operations (depth_graph_key(p) + "/0"), with
// the default budget ("/1"), and the traced graph ("/2"; all three fused where the point has FMA units); with
// options.lookahead, the lookahead forms of the recursion over K links and projected torques
// (dfg::lookahead_shapes) through the same pass ("/laKpP-0", "/laKpP-1", "d" after P for the dense single steps).
// Without the depth pass, "/0" alone: the traced graph. traced(p.robot, p.flavour) is called once per new pair.
void add_sweep_graphs(std::map<std::string, dfg::Graph>& graphs, const Point& p, const TracedGraph& traced,
                      const SweepGraphOptions& options);
// add_sweep_graphs for every point, into a new map.
std::map<std::string, dfg::Graph> sweep_graphs(const std::vector<Point>& points, const TracedGraph& traced,
                                               const SweepGraphOptions& options);

}  // namespace neaccel::sched
