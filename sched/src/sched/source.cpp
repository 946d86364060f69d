#include "neaccel/sched/source.hpp"

#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/io.hpp"

#include <fmt/format.h>

#include <fstream>

namespace neaccel::sched {

dfg::Graph robot_graph(const std::string& robot_spec, bool general) {
  const ref::Robot robot = ref::load_robot(robot_spec);
  const auto flavour = general ? dfg::Flavour::General : dfg::Flavour::Custom;
  const dfg::Graph g = dfg::trace_algorithm(robot, flavour, dfg::TraceOptions{},
                                            [](const auto& model, const auto& in) { return ref::modified_ne(model, in); });
  return dfg::customise(g);
}

dfg::Graph load_graph(const std::string& spec) {
  if (spec.rfind("bench:", 0) == 0) return builtin_graph(spec.substr(6));
  std::ifstream in(spec);
  if (!in) throw Error(fmt::format("{}: cannot open graph file", spec));
  nlohmann::json j;
  try {
    in >> j;
  } catch (const nlohmann::json::exception& e) {
    throw Error(fmt::format("{}: not valid JSON ({})", spec, e.what()));
  }
  if (j.is_object() && j.contains("format") && j.contains("graph")) return graph_from_json(j["graph"], spec);
  return graph_from_json(j, spec);
}

}  // namespace neaccel::sched
