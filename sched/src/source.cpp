#include "neaccel/sched/source.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/lookahead.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/io.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace neaccel::sched {

int depth_score(const dfg::Graph& g, const std::vector<UnitClass>& classes) {
  Problem p;
  p.graph = &g;
  p.classes = classes;
  return std::max(critical_path(p), resource_bound(p));
}

dfg::Graph apply_depth(const dfg::Graph& g, const dfg::DepthSetting& depth, const std::vector<UnitClass>& classes) {
  if (!depth.on) return dfg::apply_depth(g, depth);
  std::vector<double> budgets{0.0, depth.budget};
  budgets.insert(budgets.end(), depth.more_budgets.begin(), depth.more_budgets.end());
  dfg::Graph best;
  int best_score = 0, best_ops = 0;
  bool have = false;
  budgets.push_back(-1);  // the traced graph itself: where units bound the schedule, re-association may not pay
  for (double b : budgets) {
    dfg::DepthSetting d = depth;
    d.budget = std::max(b, 0.0);
    d.on = b >= 0;
    dfg::Graph c = dfg::apply_depth(g, d);
    const int score = depth_score(c, classes), ops = dfg::count_ops(c).operations();
    if (!have || score < best_score || (score == best_score && ops < best_ops)) {
      best = std::move(c);
      best_score = score;
      best_ops = ops;
      have = true;
    }
  }
  return best;
}

dfg::Graph robot_depth_graph(const std::string& robot_spec, const std::string& flavour, const dfg::DepthSetting& depth,
                             const std::vector<UnitClass>& classes) {
  dfg::Graph best = apply_depth(dfg::robot_graph(robot_spec, flavour), depth, classes);
  int best_score = depth_score(best, classes), best_ops = dfg::count_ops(best).operations();
  for (const dfg::LookaheadShape& shape : dfg::lookahead_shapes(depth)) {
    dfg::Graph c = apply_depth(dfg::robot_lookahead_graph(robot_spec, flavour, shape), depth, classes);
    const int score = depth_score(c, classes), ops = dfg::count_ops(c).operations();
    if (score < best_score || (score == best_score && ops < best_ops)) {
      best = std::move(c);
      best_score = score;
      best_ops = ops;
    }
  }
  return best;
}

dfg::Graph load_graph(const std::string& spec) {
  if (spec.rfind("bench:", 0) == 0) return builtin_graph(spec.substr(6));
  check_file_size(spec);
  std::error_code ec;
  if (std::filesystem::is_directory(spec, ec)) throw Error(fmt::format("{}: is a directory, not a graph file", spec));
  std::ifstream in(spec);
  if (!in) throw Error(fmt::format("{}: cannot open graph file", spec));
  if (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json") {
    nlohmann::json j;
    try {
      in >> j;
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("{}: not valid JSON ({})", spec, json_problem(e)));
    }
    if (j.is_object() && j.contains("format") && j.at("format") == "neaccel-schedule" && j.contains("graph"))
      return graph_from_json(j["graph"], spec);
  }
  return dfg::read_graph_file(spec);  // dfg's JSON (lossless or generic) or DOT
}

}  // namespace neaccel::sched
