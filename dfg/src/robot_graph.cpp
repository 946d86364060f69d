#include "neaccel/dfg/robot_graph.hpp"

#include "neaccel/dfg/lookahead.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

namespace neaccel::dfg {

Graph robot_graph(const std::string& robot_spec, bool general) {
  const ref::Robot robot = ref::load_robot(robot_spec);
  const auto flavour = general ? Flavour::General : Flavour::Custom;
  return customise(trace(robot, Form::ModifiedNE, flavour));
}

Graph robot_graph(const std::string& robot_spec, const std::string& flavour) {
  if (flavour == "general") return robot_graph(robot_spec, true);
  if (flavour == "custom") return robot_graph(robot_spec, false);
  if (flavour != "general-dh") throw Error(fmt::format("flavour: '{}' (general, general-dh, custom)", flavour));
  TraceOptions opt;
  opt.keep_zero_pattern = true;
  return customise(trace(ref::load_robot(robot_spec), Form::ModifiedNE, Flavour::General, opt));
}

Graph apply_depth(const Graph& g, const DepthSetting& depth) {
  Graph out = g;
  if (depth.on) {
    DepthOptions opt;
    opt.lat = depth.lat;
    opt.budget = depth.budget;
    out = reduce_depth(out, opt);
  }
  if (depth.lat.fma > 0) out = fuse_multiply_add(out, depth.lat);
  return out;
}

Graph robot_graph(const std::string& robot_spec, const std::string& flavour, const DepthSetting& depth) {
  return apply_depth(robot_graph(robot_spec, flavour), depth);
}

Graph robot_lookahead_graph(const std::string& robot_spec, const std::string& flavour, LookaheadShape shape) {
  if (flavour != "general" && flavour != "custom" && flavour != "general-dh")
    throw Error(fmt::format("flavour: '{}' (general, general-dh, custom)", flavour));
  TraceOptions opt;
  opt.keep_zero_pattern = flavour == "general-dh";
  const auto fl = flavour == "custom" ? Flavour::Custom : Flavour::General;
  return customise(trace_lookahead(ref::load_robot(robot_spec), fl, shape.K, opt, 31, shape.project, shape.dense));
}

std::vector<LookaheadShape> lookahead_shapes(const DepthSetting& depth) {
  if (!depth.on || depth.lookahead == 0) return {};
  std::vector<LookaheadShape> out;
  for (int K : depth.lookahead < 0 ? std::vector<int>{1, 2, 3} : std::vector<int>{depth.lookahead})
    for (int P : {0, 2, 3}) {
      if (K > 1 || P > 0) out.push_back({K, P, false});
      if (K == 1) out.push_back({K, P, true});
    }
  return out;
}

}  // namespace neaccel::dfg
