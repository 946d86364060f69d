#include "neaccel/sched/sweep_run.hpp"

#include "neaccel/sched/algorithms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace neaccel::sched {

std::vector<Point> grid_points(const SweepGrid& g) {
  struct Extra {
    int fma, lat_fma, div, lat_div;
  };
  std::vector<Extra> extras;  // in the order the loops nest: lat_fma, fma, lat_div, div
  for (int l : g.lat_fma)
    for (int f : g.fma) {
      if (f == 0 && l != g.lat_fma.front()) continue;  // no FMA class: one point, not one per FMA latency
      for (int m : g.lat_div)
        for (int d : g.div) extras.push_back({f, f > 0 ? l : 0, d, d > 0 ? m : 0});
    }
  std::vector<Point> pts;
  for (const auto& r : g.robots)
    for (const auto& f : g.flavours)
      for (int pp : g.pipelined)
        for (int a : g.lat_mul)
          for (int b : g.lat_add)
            for (int m : g.mul)
              for (int d : g.add)
                for (int lim : g.max_registers)
                  for (const Extra& e : extras)
                    for (int rp : g.read_ports)
                      for (int wp : g.write_ports) {
                        Point pt{r, f, m, d, a, b, pp == 1, lim, e.fma, e.lat_fma, e.div, e.lat_div,
                                 e.div > 0 && g.div_pipelined};
                        pt.read_ports = rp;
                        pt.write_ports = wp;
                        pts.push_back(pt);
                      }
  return pts;
}

std::string checkpoint_csv(const std::vector<PointResult>& rows) {
  const CsvColumns columns = csv_columns(rows);
  std::string s = csv_header(columns) + "\n";
  for (const auto& r : rows) s += to_csv_row(r, columns) + "\n";
  return s;
}

ResumedSweep resume_sweep(const std::vector<Point>& points, const std::string& checkpoint, const TracedGraph& traced,
                          const SweepGraphOptions& graph_options, const SweepOptions& options, int threads,
                          const std::function<void(std::size_t, std::size_t)>& progress,
                          const std::function<void(const std::vector<PointResult>&)>& save) {
  ResumedSweep out;
  std::set<std::string> have;
  if (std::filesystem::exists(checkpoint))
    for (auto& r : read_csv(checkpoint)) {
      // A row the list-schedule hook would have annotated but was not (a checkpoint of a run without the hook: the
      // microcoded architecture's) is evaluated again, so a resumed run gives the bytes a fresh one does.
      if (options.on_list_schedule && r.verified && r.mux_inputs < 0) continue;
      have.insert(point_key(r.point));
      out.rows.push_back(r);
    }
  std::vector<Point> todo;
  for (const auto& p : points)
    if (!have.count(point_key(p))) todo.push_back(p);
  const std::map<std::string, dfg::Graph> graphs = sweep_graphs(todo, traced, graph_options);
  const std::size_t chunk = 256, total = todo.size();
  for (std::size_t at = 0; at < todo.size(); at += chunk) {  // save after every chunk: an interrupted run resumes
    const std::vector<Point> part(todo.begin() + at, todo.begin() + std::min(todo.size(), at + chunk));
    auto chunk_progress = [&](std::size_t done, std::size_t) { progress(at + done, total); };
    auto res = run_sweep(part, graphs, options, threads, chunk_progress);
    out.rows.insert(out.rows.end(), res.begin(), res.end());
    sort_results(out.rows);
    save(out.rows);
  }
  out.new_points = total;
  return out;
}

std::string ilp_check_worst(std::vector<PointResult> rows, int count, long max_nodes, const TracedGraph& traced,
                            const SweepGraphOptions& graph_options,
                            const std::function<void(const IlpCheckRow&)>& on_row) {
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.gap_percent > b.gap_percent; });
  rows.resize(std::min<std::size_t>(rows.size(), static_cast<std::size_t>(count)));
  std::map<std::string, dfg::Graph> graphs;
  std::string csv = "robot,flavour,mul,add,lat_mul,lat_add,pipelined,list_length,list_bound,ilp_length,ilp_bound,"
                    "proven_optimal,verdict\n";
  for (const auto& r : rows) {
    const auto& pt = r.point;
    add_sweep_graphs(graphs, pt, traced, graph_options);
    Problem p;
    p.graph = &point_graph(graphs, pt);
    p.classes = point_classes(pt);
    IlpOptions io;
    io.max_nodes = max_nodes;
    const Schedule s = ilp_schedule(p, io);
    verify_or_throw(p, s);
    const char* verdict = r.length <= r.lower_bound                              ? "list at the bound"
                          : s.algorithm.find("not built") != std::string::npos ? "ilp too large"
                          : s.length < r.length && s.proven_optimal       ? "schedule was loose (ilp optimal)"
                          : s.length < r.length                           ? "schedule was loose (ilp better, not proven)"
                          : s.proven_optimal                              ? "bound was loose (list optimal)"
                          : s.lower_bound > r.lower_bound                 ? "open (ilp raised the bound)"
                                                                          : "open";
    csv += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{}\n", pt.robot, pt.flavour, pt.mul, pt.add, pt.lat_mul,
                       pt.lat_add, pt.pipelined ? 1 : 0, r.length, r.lower_bound, s.length, s.lower_bound,
                       s.proven_optimal ? 1 : 0, verdict);
    on_row({pt, r.length, r.lower_bound, s.length, s.lower_bound, s.proven_optimal, verdict});
  }
  return csv;
}

nlohmann::json table86_json(const std::vector<Table86Row>& rows) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& r : rows)
    j.push_back({{"n", r.n}, {"paper_mul_steps", r.paper_mul_steps}, {"paper_add_steps", r.paper_add_steps},
                 {"our_mul_steps", r.ours.mul_steps}, {"our_add_steps", r.ours.add_steps}, {"mul_ops", r.mul_ops},
                 {"add_ops", r.add_ops}, {"unit_cycles", r.unit_cycles}, {"unit_bound", r.unit_bound},
                 {"pipelined_cycles", r.pipe_cycles}, {"pipelined_bound", r.pipe_bound},
                 {"rahman_meyer", r.rahman_meyer}, {"hashimoto_kimura", r.hashimoto_kimura},
                 {"depth", r.depth ? "on" : "off"}, {"unit_ops", r.unit_ops}, {"pipelined_ops", r.pipe_ops},
                 {"pipelined_cycles_traced", r.pipe_cycles_traced}, {"unit_cycles_traced", r.unit_cycles_traced},
                 {"unit_lookahead", r.unit_lookahead}, {"pipelined_lookahead", r.pipe_lookahead},
                 {"unit_project", r.unit_project}, {"pipelined_project", r.pipe_project},
                 {"unit_dense", r.unit_dense}, {"pipelined_dense", r.pipe_dense}});
  return j;
}

}  // namespace neaccel::sched
