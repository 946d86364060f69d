#include "neaccel/sched/source.hpp"

#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/io.hpp"

#include <fmt/format.h>

#include <fstream>

namespace neaccel::sched {

dfg::Graph robot_graph(const std::string& robot_spec, bool general) {
  const ref::Robot robot = ref::load_robot(robot_spec);
  const auto flavour = general ? dfg::Flavour::General : dfg::Flavour::Custom;
  return dfg::customise(dfg::trace(robot, dfg::Form::ModifiedNE, flavour));
}

dfg::Graph robot_graph(const std::string& robot_spec, const std::string& flavour) {
  if (flavour == "general") return robot_graph(robot_spec, true);
  if (flavour == "custom") return robot_graph(robot_spec, false);
  if (flavour != "general-dh") throw Error(fmt::format("flavour: '{}' (general, general-dh, custom)", flavour));
  dfg::TraceOptions opt;
  opt.keep_zero_pattern = true;
  return dfg::customise(dfg::trace(ref::load_robot(robot_spec), dfg::Form::ModifiedNE, dfg::Flavour::General, opt));
}

dfg::Graph load_graph(const std::string& spec) {
  if (spec.rfind("bench:", 0) == 0) return builtin_graph(spec.substr(6));
  std::ifstream in(spec);
  if (!in) throw Error(fmt::format("{}: cannot open graph file", spec));
  if (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json") {
    nlohmann::json j;
    try {
      in >> j;
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{}: not valid JSON ({})", spec, e.what()));
    }
    if (j.is_object() && j.contains("format") && j.at("format") == "neaccel-schedule" && j.contains("graph"))
      return graph_from_json(j["graph"], spec);
  }
  return dfg::read_graph_file(spec);  // dfg's JSON (lossless or generic) or DOT
}

}  // namespace neaccel::sched
