#include "neaccel/sched/sweep_graphs.hpp"

#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/robot_graph.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

namespace neaccel::sched {

dfg::Graph function_graph(const std::string& function, const std::string& robot, const std::string& flavour) {
  const dfg::Function fn = dfg::function_from_name(function);
  if (fn == dfg::Function::Id) return dfg::robot_graph(robot, flavour);
  if (flavour != "general" && flavour != "custom" && flavour != "general-dh")
    throw Error(fmt::format("flavour: '{}' (general, general-dh, custom)", flavour));
  dfg::TraceOptions topt;
  topt.keep_zero_pattern = flavour == "general-dh";
  return dfg::customise(dfg::trace_function(ref::load_robot(robot), fn, dfg::Form::ModifiedNE,
                                            flavour == "custom" ? dfg::Flavour::Custom : dfg::Flavour::General, topt));
}

void add_sweep_graphs(std::map<std::string, dfg::Graph>& graphs, const Point& p, const TracedGraph& traced,
                      const SweepGraphOptions& options) {
  const std::string key = depth_graph_key(p);
  if (graphs.count(key + "/0")) return;
  const dfg::Graph g = traced(p.robot, p.flavour);
  dfg::DepthSetting d;
  d.on = options.depth;
  d.lat = {p.lat_mul, p.lat_add, p.fma > 0 ? p.lat_fma : 0};  // FMA units: the fusion after the re-association
  dfg::DepthSetting off = d;
  off.on = false;
  if (!options.depth) {
    graphs.emplace(key + "/0", dfg::apply_depth(g, off));  // the traced graph (fused where FMA units exist)
    return;
  }
  d.budget = 0;
  graphs.emplace(key + "/0", dfg::apply_depth(g, d));
  d.budget = dfg::DepthSetting{}.budget;
  graphs.emplace(key + "/1", dfg::apply_depth(g, d));
  graphs.emplace(key + "/2", dfg::apply_depth(g, off));  // as sched::apply_depth with units: the traced graph too
  dfg::DepthSetting la;
  la.lookahead = options.lookahead;
  for (const dfg::LookaheadShape& s : dfg::lookahead_shapes(la)) {
    const dfg::Graph shape = dfg::robot_lookahead_graph(p.robot, p.flavour, s);
    d.budget = 0;
    const std::string id = fmt::format("{}/la{}p{}{}", key, s.K, s.project, s.dense ? "d" : "");
    graphs.emplace(id + "-0", dfg::apply_depth(shape, d));
    d.budget = dfg::DepthSetting{}.budget;
    graphs.emplace(id + "-1", dfg::apply_depth(shape, d));
  }
}

std::map<std::string, dfg::Graph> sweep_graphs(const std::vector<Point>& points, const TracedGraph& traced,
                                               const SweepGraphOptions& options) {
  std::map<std::string, dfg::Graph> graphs;
  for (const Point& p : points) add_sweep_graphs(graphs, p, traced, options);
  return graphs;
}

}  // namespace neaccel::sched
