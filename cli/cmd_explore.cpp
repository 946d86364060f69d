// `neaccel explore`: sweep units, latencies and pipelining over robots and graph flavours (parallel, resumable,
// shardable); CSV + JSON, Pareto front, gap distribution, gnuplot SVG. The final explore.csv/json and pareto.csv
// carry each point's estimated area, clock period, ns per evaluation and set points per second (study/timing.hpp).
#include "command.hpp"
#include "value_lists.hpp"

#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/source.hpp"
#include "neaccel/sched/table86.hpp"
#include "neaccel/study/timing.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace {

using namespace neaccel;
using namespace neaccel::sched;
namespace fs = std::filesystem;

// The function explored (--function, docs/functions.md): set once by run() before any graph is built.
std::string g_function = "id";

// The customised graph of the explored function for one robot and flavour (id: sched::robot_graph).
dfg::Graph function_graph(const std::string& robot, const std::string& flavour) {
  const dfg::Function fn = dfg::function_from_name(g_function);
  if (fn == dfg::Function::Id) return robot_graph(robot, flavour);
  if (flavour != "general" && flavour != "custom" && flavour != "general-dh")
    throw Error(fmt::format("flavour: '{}' (general, general-dh, custom)", flavour));
  dfg::TraceOptions topt;
  topt.keep_zero_pattern = flavour == "general-dh";
  return dfg::customise(dfg::trace_function(ref::load_robot(robot), fn, dfg::Form::ModifiedNE,
                                            flavour == "custom" ? dfg::Flavour::Custom : dfg::Flavour::General, topt));
}

struct Options {
  std::string robots = "puma560", ns, flavours = "general,custom", mul = "1-16", add = "1-16", lat_mul = "1-6",
              lat_add = "1-4", pipelined = "1,0", out = "out/explore", shard, depth = "on", function = "id",
              max_registers = "0", read_ports = "0", write_ports = "0", fma = "0", lat_fma, div, lat_div = "8";
  std::vector<std::string> merge;
  int jobs = 0, restarts = 4, ilp_worst = 0;
  long ilp_nodes = 20000;
  bool json = false, no_modulo = false, modulo_np = false, no_plot = false, table86 = false, depth_on = true,
       div_pipelined = false;
  int lookahead = 0;  // dfg::DepthMode::lookahead (--depth lookahead[:K])
  std::string in_words;  // issue 16: input port widths (words per cycle) for the streaming I/O bound, e.g. 1,2,4
};

// Issue 16: the streaming II of a point with an input port of k words per cycle and the robot parameters loaded once
// (docs/datapath.md "Robot parameters loaded once"): max(modulo II, ceil(port inputs / k), outputs), port inputs =
// the joint inputs (hw::is_joint_input) of the point's graph.
struct PortCounts {
  int inputs = 0, outputs = 0;
};
PortCounts port_counts(const Point& p, std::map<std::string, PortCounts>& cache) {
  const std::string key = p.robot + "|" + p.flavour;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const dfg::Graph g = function_graph(p.robot, p.flavour);
  PortCounts c;
  for (const auto& name : g.inputs) c.inputs += hw::is_joint_input(name);
  c.outputs = static_cast<int>(g.outputs.size());
  return cache[key] = c;
}

// The graphs a point may run (sched::point_graph picks by its units): the robot's graph after the depth pass for
// the point's latencies, without added operations ("/0"), with the default budget ("/1"), and the traced graph
// ("/2"); off: the traced graph only.
// With lookahead (--depth lookahead[:K], inverse dynamics only), the lookahead forms of the recursion over K
// links and projected torques (sched::lookahead_shapes) through the same pass ("/laKpP-0", "/laKpP-1") are
// candidates too.
void add_depth_variants(std::map<std::string, dfg::Graph>& graphs, const Point& p, bool depth_on, int lookahead = 0) {
  const std::string key = depth_graph_key(p);
  if (graphs.count(key + "/0")) return;
  const dfg::Graph traced = function_graph(p.robot, p.flavour);
  DepthSetting d;
  d.on = depth_on;
  d.lat = {p.lat_mul, p.lat_add, p.fma > 0 ? p.lat_fma : 0};  // FMA units: the fusion after the re-association
  DepthSetting off = d;
  off.on = false;
  if (!depth_on) {
    graphs.emplace(key + "/0", apply_depth(traced, off));  // the traced graph (fused where FMA units exist)
    return;
  }
  d.budget = 0;
  graphs.emplace(key + "/0", apply_depth(traced, d));
  d.budget = DepthSetting{}.budget;
  graphs.emplace(key + "/1", apply_depth(traced, d));
  graphs.emplace(key + "/2", apply_depth(traced, off));  // as sched::apply_depth with units: the traced graph too
  if (g_function != "id") return;
  DepthSetting la;
  la.lookahead = lookahead;
  for (const LookaheadShape& s : lookahead_shapes(la)) {
    const dfg::Graph shape = robot_lookahead_graph(p.robot, p.flavour, s);
    d.budget = 0;
    const std::string id = fmt::format("{}/la{}p{}{}", key, s.K, s.project, s.dense ? "d" : "");
    graphs.emplace(id + "-0", apply_depth(shape, d));
    d.budget = DepthSetting{}.budget;
    graphs.emplace(id + "-1", apply_depth(shape, d));
  }
}

using cli::parse_ints;
using cli::split;

std::vector<Point> enumerate(const Options& o) {
  std::vector<std::string> robots = split(o.robots);
  for (int n : o.ns.empty() ? std::vector<int>{} : parse_ints(o.ns, "--n", 1)) robots.push_back(fmt::format("random:{}:1", n));
  const auto flavours = split(o.flavours);
  for (const auto& f : flavours)
    if (f != "general" && f != "general-dh" && f != "custom")
      throw Error(fmt::format("--flavour: '{}' (general, general-dh, custom)", f));
  if (robots.empty() || flavours.empty()) throw Error("--robot/--n and --flavour: nothing to sweep");
  const auto mul = parse_ints(o.mul, "--mul", 1), add = parse_ints(o.add, "--add", 1);
  const auto lm = parse_ints(o.lat_mul, "--lat-mul", 1), la = parse_ints(o.lat_add, "--lat-add", 1);
  const auto pipe = parse_ints(o.pipelined, "--pipelined", 0);
  const auto regs = parse_ints(o.max_registers, "--max-registers", 0);
  // FMA units and dividers (issues 15, 18): count 0 means no such class (one point, whatever the latencies).
  const auto fma = parse_ints(o.fma, "--fma", 0);
  const bool any_fma = std::any_of(fma.begin(), fma.end(), [](int n) { return n > 0; });
  if (any_fma && o.lat_fma.empty()) throw Error("--fma: needs --lat-fma (e.g. --lat-fma 3)");
  if (!any_fma && !o.lat_fma.empty()) throw Error("--lat-fma: only with --fma N (N >= 1)");
  const auto lf = any_fma ? parse_ints(o.lat_fma, "--lat-fma", 1) : std::vector<int>{0};
  const dfg::Function fn = dfg::function_from_name(o.function);
  const bool divides = fn == dfg::Function::Fd || fn == dfg::Function::FdKhalil || fn == dfg::Function::FdStrobe;
  if (divides && o.div.empty())
    throw Error(fmt::format("--function {}: divides; the sweep needs a divider class (--div N[,M...] --lat-div L)",
                            o.function));
  if (!divides && o.div_pipelined)
    throw Error(fmt::format("--div-pipelined: --function {} does not divide (dividers: fd, fd-khalil, fd-strobe)",
                            o.function));
  if (!divides && !o.div.empty())
    throw Error(fmt::format("--div: --function {} does not divide (dividers: fd, fd-khalil, fd-strobe)", o.function));
  const auto dv = divides ? parse_ints(o.div, "--div", 1) : std::vector<int>{0};
  const auto ld = divides ? parse_ints(o.lat_div, "--lat-div", 1) : std::vector<int>{0};
  struct Extra {
    int fma, lat_fma, div, lat_div;
  };
  std::vector<Extra> extras;  // in the order the loops nest: lat_fma, fma, lat_div, div
  for (int l : lf)
    for (int f : fma) {
      if (f == 0 && l != lf.front()) continue;  // no FMA class: one point, not one per FMA latency
      for (int m : ld)
        for (int d : dv) extras.push_back({f, f > 0 ? l : 0, d, d > 0 ? m : 0});
    }
  const auto rports = parse_ints(o.read_ports, "--read-ports", 0), wports = parse_ints(o.write_ports, "--write-ports", 0);
  std::vector<Point> pts;
  for (const auto& r : robots)
    for (const auto& f : flavours)
      for (int pp : pipe) {
        if (pp > 1) throw Error("--pipelined: values 0 and 1");
        for (int a : lm)
          for (int b : la)
            for (int m : mul)
              for (int d : add)
                for (int lim : regs)
                  for (const Extra& e : extras)
                    for (int rp : rports)
                      for (int wp : wports) {
                        Point pt{r, f, m, d, a, b, pp == 1, lim, e.fma, e.lat_fma, e.div, e.lat_div,
                                 e.div > 0 && o.div_pipelined};
                        pt.read_ports = rp;
                        pt.write_ports = wp;
                        pts.push_back(pt);
                      }
      }
  return pts;
}

void write_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw Error(fmt::format("{}: cannot write", tmp.string()));
  }
  fs::rename(tmp, path);
}

// The cost model's time and area of each point (issue 14: period, ns per evaluation, set points per second), from
// neaccel::study (sched itself stays free of the cost model). A point the model cannot cost (a unit latency without
// an area figure) keeps empty cost fields; `failed` counts them.
struct Costed {
  std::map<std::string, study::GraphShape> shapes;
  std::size_t failed = 0;
  std::optional<study::PointTiming> timing(const PointResult& r) {
    if (r.length <= 0) return std::nullopt;  // a register limit no schedule met (--max-registers): nothing to cost
    const std::string key = r.point.robot + "/" + r.point.flavour;
    if (!shapes.count(key)) shapes[key] = study::graph_shape(function_graph(r.point.robot, r.point.flavour));
    try {
      return study::point_timing(r, shapes.at(key));
    } catch (const Error&) {
      ++failed;
      return std::nullopt;
    }
  }
};

std::string to_csv(const std::vector<PointResult>& rows, Costed& cost) {
  const CsvColumns columns = csv_columns(rows);
  std::string s = csv_header(columns) + "," + study::timing_csv_header() + "\n";
  const std::string head = study::timing_csv_header();
  const std::string empty(static_cast<std::size_t>(std::count(head.begin(), head.end(), ',')), ',');
  for (const auto& r : rows) {
    const auto t = cost.timing(r);
    s += to_csv_row(r, columns) + "," + (t ? study::timing_csv_row(*t) : empty) + "\n";
  }
  return s;
}

// The checkpoint written while sweeping: sched's columns only (costed once, when the sweep finishes).
std::string to_plain_csv(const std::vector<PointResult>& rows) {
  const CsvColumns columns = csv_columns(rows);
  std::string s = csv_header(columns) + "\n";
  for (const auto& r : rows) s += to_csv_row(r, columns) + "\n";
  return s;
}

nlohmann::json summary_json(const SweepSummary& s) {
  return {{"points", s.points}, {"verified", s.verified}, {"within_5_percent", s.within_5_percent},
          {"optimal", s.optimal}, {"worst_gap_percent", s.worst_gap}, {"pipelined_points", s.pipelined},
          {"modulo_ii_at_res_mii", s.ii_at_res_mii}, {"gap_histogram", s.gap_histogram}};
}

void plot(const fs::path& dir, const std::vector<PointResult>& front) {
  // The output is named relative to the script's directory, where gnuplot runs (issue 19: the same bytes whatever
  // --out is called).
  std::string gp = "set terminal svg size 900,600 font 'sans,11'\nset output 'explore.svg'\nset xlabel 'units (multipliers + adders)'\nset ylabel 'cycles'\nset logscale y\nset key outside "
                   "right\nset title 'Pareto fronts: cycles vs units'\n";
  // One step line per (robot, flavour, pipelining) at the smallest and at the largest latencies of the sweep
  // (all groups would make an unreadable legend; pareto.csv has them all).
  int lo = std::numeric_limits<int>::max(), hi = 0;
  for (const auto& r : front) {
    lo = std::min(lo, r.point.lat_mul + r.point.lat_add);
    hi = std::max(hi, r.point.lat_mul + r.point.lat_add);
  }
  std::map<std::string, std::string> blocks;
  for (const auto& r : front) {
    const auto& p = r.point;
    if (p.lat_mul + p.lat_add != lo && p.lat_mul + p.lat_add != hi) continue;
    std::string name = fmt::format("{} {} lat {}/{}{}", p.robot, p.flavour, p.lat_mul, p.lat_add, p.pipelined ? "" : " np");
    if (p.fma > 0) name += fmt::format(" fma {}", p.lat_fma);
    if (p.div > 0) name += fmt::format(" div {}{}", p.lat_div, p.div_pipelined ? "p" : "");
    blocks[name] += fmt::format("{} {}\n", p.mul + p.add + p.fma + p.div, r.length);
  }
  std::string plots;
  int k = 0;
  for (const auto& [name, data] : blocks) {
    if (k >= 16) break;  // keep the legend readable
    gp += fmt::format("$d{} << EOD\n{}EOD\n", k, data);
    plots += fmt::format("{}$d{} using 1:2 with steps title '{}'", k ? ", " : "plot ", k, name);
    ++k;
  }
  gp += plots + "\n";
  write_atomic(dir / "explore.gp", gp);
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::fprintf(stderr, "neaccel: note: gnuplot not found; wrote %s only\n", (dir / "explore.gp").c_str());
    return;
  }
  const std::string cmd = "cd '" + dir.string() + "' && gnuplot explore.gp";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "neaccel: note: gnuplot failed on %s\n", (dir / "explore.gp").c_str());
}

// The ILP on the k points with the largest gap: is the schedule or the bound loose?
void ilp_worst(const fs::path& dir, std::vector<PointResult> rows, const Options& o) {
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.gap_percent > b.gap_percent; });
  rows.resize(std::min<std::size_t>(rows.size(), static_cast<std::size_t>(o.ilp_worst)));
  std::map<std::string, dfg::Graph> graphs;
  std::string csv = "robot,flavour,mul,add,lat_mul,lat_add,pipelined,list_length,list_bound,ilp_length,ilp_bound,"
                    "proven_optimal,verdict\n";
  for (const auto& r : rows) {
    const auto& pt = r.point;
    add_depth_variants(graphs, pt, o.depth_on, o.lookahead);
    Problem p;
    p.graph = &point_graph(graphs, pt);
    p.classes = point_classes(pt);
    IlpOptions io;
    io.max_nodes = o.ilp_nodes;
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
    if (!o.json)
      std::printf("%s %s %d/%d lat %d/%d%s: list %d (bound %d) -> ilp %d (bound %d): %s\n", pt.robot.c_str(),
                  pt.flavour.c_str(), pt.mul, pt.add, pt.lat_mul, pt.lat_add, pt.pipelined ? "" : " np", r.length,
                  r.lower_bound, s.length, s.lower_bound, verdict);
  }
  write_atomic(dir / "ilp_worst.csv", csv);
}

void finish(const fs::path& dir, std::vector<PointResult> rows, const Options& o) {
  sort_results(rows);
  Costed cost;
  write_atomic(dir / "explore.csv", to_csv(rows, cost));
  const auto front = pareto_front(rows);
  write_atomic(dir / "pareto.csv", to_csv(front, cost));
  const auto s = summarise(rows);
  nlohmann::json all = nlohmann::json::array();
  cost.failed = 0;
  const std::vector<int> widths = o.in_words.empty() ? std::vector<int>{} : parse_ints(o.in_words, "--in-words", 1);
  std::map<std::string, PortCounts> ports;
  std::map<int, std::pair<std::size_t, std::size_t>> io_bound;  // k -> (points I/O bound, points with a modulo II)
  const CsvColumns columns = csv_columns(rows);
  for (const auto& r : rows) {
    nlohmann::json row = {{"robot", r.point.robot}, {"flavour", r.point.flavour}, {"mul", r.point.mul}, {"add", r.point.add},
                          {"lat_mul", r.point.lat_mul}, {"lat_add", r.point.lat_add}, {"pipelined", r.point.pipelined},
                          {"ops", r.ops}, {"critical_path", r.critical_path}, {"lower_bound", r.lower_bound},
                          {"length", r.length}, {"gap_percent", r.gap_percent}, {"algorithm", r.algorithm}, {"ii", r.ii},
                          {"res_mii", r.res_mii}, {"modulo_latency", r.modulo_latency}, {"stages", r.stages},
                          {"registers", r.registers}, {"verified", r.verified},
                          {"max_registers", r.point.max_registers}};
    if (columns.ports)  // register-file port limits (only in sweeps that have them: earlier files stay as they were)
      row.update({{"read_ports", r.point.read_ports}, {"write_ports", r.point.write_ports}});
    if (columns.units)  // FMA units and dividers as dimensions (likewise)
      row.update({{"fma", r.point.fma}, {"lat_fma", r.point.lat_fma}, {"div", r.point.div}, {"lat_div", r.point.lat_div},
                  {"div_pipelined", r.point.div_pipelined}});
    const auto t = cost.timing(r);
    if (t) row.update(study::timing_json(*t));
    if (!widths.empty() && r.ii > 0) {  // the input port width as a dimension (issue 16)
      const PortCounts pc = port_counts(r.point, ports);
      nlohmann::json st = nlohmann::json::object();
      for (int k : widths) {
        const int io = std::max((pc.inputs + k - 1) / k, pc.outputs);
        st[std::to_string(k)] = {{"ii_io", io}, {"ii", std::max(r.ii, io)}};
        auto& b = io_bound[k];
        b.first += io > r.ii;
        ++b.second;
      }
      row["port_inputs"] = pc.inputs;
      row["stream_by_in_words"] = st;
    }
    all.push_back(row);
  }
  if (cost.failed)
    std::fprintf(stderr, "neaccel: note: %zu point(s) have no cost estimate (unit latencies without an area figure in "
                 "data/unit-area.json); their time fields are empty\n", cost.failed);
  write_atomic(dir / "explore.json", nlohmann::json({{"summary", summary_json(s)}, {"points", all}}).dump(1) + "\n");
  if (!o.no_plot) plot(dir, front);
  if (o.ilp_worst > 0) ilp_worst(dir, rows, o);
  if (o.json) {
    std::printf("%s\n", summary_json(s).dump(1).c_str());
    return;
  }
  std::printf("%zu points, %zu verified; list within 5%% of the lower bound: %zu (%.1f%%), at the bound: %zu; worst gap "
              "%.2f%%\n", s.points, s.verified, s.within_5_percent, s.points ? 100.0 * s.within_5_percent / s.points : 0.0,
              s.optimal, s.worst_gap);
  std::printf("gap distribution:");
  for (const char* b : {"0", "(0,1]", "(1,2]", "(2,5]", "(5,10]", ">10"}) std::printf(" %s%%: %zu", b, s.gap_histogram.at(b));
  std::printf("\nmodulo: II = ResMII on %zu of %zu pipelined points\n", s.ii_at_res_mii, s.pipelined);
  for (const auto& [k, b] : io_bound)
    std::printf("input port of %d word%s per cycle (parameters loaded once): streaming II I/O bound on %zu of %zu "
                "points\n", k, k == 1 ? "" : "s", b.first, b.second);
  // The fastest point and the most set points per second, at the cost model's estimated clocks.
  const nlohmann::json* fast = nullptr;
  const nlohmann::json* most = nullptr;
  for (const auto& row : all) {
    if (!row.contains("latency_ns") || !row["verified"].get<bool>()) continue;
    if (!fast || row["latency_ns"].get<double>() < (*fast)["latency_ns"].get<double>()) fast = &row;
    if (!most || row["throughput_per_s"].get<double>() > (*most)["throughput_per_s"].get<double>()) most = &row;
  }
  auto name = [](const nlohmann::json& r) {
    std::string s = fmt::format("{} {} {}+{} lat {}/{}{}", r["robot"].get<std::string>(), r["flavour"].get<std::string>(),
                                r["mul"].get<int>(), r["add"].get<int>(), r["lat_mul"].get<int>(),
                                r["lat_add"].get<int>(), r["pipelined"].get<bool>() ? "" : " np");
    if (r.value("fma", 0) > 0) s += fmt::format(" + {} fma (lat {})", r["fma"].get<int>(), r["lat_fma"].get<int>());
    if (r.value("div", 0) > 0)
      s += fmt::format(" + {} div (lat {}{})", r["div"].get<int>(), r["lat_div"].get<int>(),
                       r["div_pipelined"].get<bool>() ? ", pipelined" : "");
    return s;
  };
  if (fast && most)
    std::printf("estimated: fastest %.1f ns per evaluation (%s, %d cycles at %.2f ns); most throughput %.4g set "
                "points/s (%s, %s)\n", (*fast)["latency_ns"].get<double>(), name(*fast).c_str(),
                (*fast)["eval_cycles"].get<int>(), (*fast)["period_ns"].get<double>(),
                (*most)["throughput_per_s"].get<double>(), name(*most).c_str(),
                (*most)["throughput_mode"].get<std::string>().c_str());
  std::printf("wrote %s (+ explore.json, pareto.csv%s)\n", (dir / "explore.csv").c_str(), o.no_plot ? "" : ", explore.svg");
}

// Seed 000 Table 8.6 beside our schedules for the general n-link arm (n from --n, default 1-12).
void table86(const fs::path& dir, const Options& o) {
  std::vector<Table86Row> rows;
  for (int n : parse_ints(o.ns.empty() ? "1-12" : o.ns, "--n", 1)) rows.push_back(table86_row(n, o.depth_on));
  const std::string md = table86_markdown(rows);
  write_atomic(dir / "table86.md", md);
  if (o.json) {
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
    std::printf("%s\n", j.dump(1).c_str());
    return;
  }
  std::printf("%swrote %s\n", md.c_str(), (dir / "table86.md").c_str());
}

void run(const Options& o) {
  const fs::path dir(o.out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("--out {}: cannot create ({})", o.out, ec.message()));
  // The sweep's options are checked before anything is written (function.txt included).
  auto points = o.table86 || !o.merge.empty() ? std::vector<Point>{} : enumerate(o);
  {
    (void)dfg::function_from_name(o.function);  // an unknown name: one line before anything is written
    // Results of one function per directory: resuming or merging another function's points would mix them.
    // A directory without function.txt holds id results if it holds anything (explorations before --function).
    std::ifstream in(dir / "function.txt");
    std::string before = fs::is_empty(dir) ? o.function : "id";
    if (in) std::getline(in, before);
    if (before != o.function)
      throw Error(fmt::format("--out {}: holds the exploration of --function {} (function.txt); use another "
                              "directory for {}", o.out, before, o.function));
    if (o.function != "id") std::ofstream(dir / "function.txt") << o.function << "\n";
    g_function = o.function;
  }
  if (o.table86) {
    table86(dir, o);
    return;
  }
  if (!o.merge.empty()) {
    std::vector<PointResult> rows;
    std::set<std::string> seen;
    for (const auto& f : o.merge)
      for (auto& r : read_csv(f))
        if (seen.insert(point_key(r.point)).second) rows.push_back(r);
    finish(dir, rows, o);
    return;
  }
  fs::path csv = dir / "explore.csv";
  if (!o.shard.empty()) {
    int k = 0, n = 0;
    char slash = 0;
    std::istringstream in(o.shard);
    if (!(in >> k >> slash >> n) || slash != '/' || n < 1 || k < 1 || k > n)
      throw Error(fmt::format("--shard: '{}' (need k/N with 1 <= k <= N)", o.shard));
    std::vector<Point> mine;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (static_cast<int>(i % n) == k - 1) mine.push_back(points[i]);
    points = mine;
    csv = dir / fmt::format("explore-{}-of-{}.csv", k, n);
  }
  std::vector<PointResult> rows;
  std::set<std::string> have;
  if (fs::exists(csv))
    for (auto& r : read_csv(csv.string())) {
      have.insert(point_key(r.point));
      rows.push_back(r);
    }
  std::vector<Point> todo;
  for (const auto& p : points)
    if (!have.count(point_key(p))) todo.push_back(p);
  std::map<std::string, dfg::Graph> graphs;
  for (const auto& p : todo) {
    add_depth_variants(graphs, p, o.depth_on, o.lookahead);
  }
  const int threads = o.jobs > 0 ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  SweepOptions so;
  so.restarts = o.restarts;
  so.modulo = !o.no_modulo;
  so.modulo_nonpipelined = o.modulo_np;
  const bool tty = isatty(STDERR_FILENO);
  const std::size_t chunk = 256, total = todo.size();
  for (std::size_t at = 0; at < todo.size(); at += chunk) {  // save after every chunk: an interrupted run resumes
    const std::vector<Point> part(todo.begin() + at, todo.begin() + std::min(todo.size(), at + chunk));
    auto progress = [&](std::size_t done, std::size_t) {
      if (!tty) return;
      const std::size_t d = at + done, w = 40, filled = total ? d * w / total : w;
      std::fprintf(stderr, "\r[%s%s] %zu/%zu", std::string(filled, '#').c_str(), std::string(w - filled, ' ').c_str(), d, total);
    };
    auto res = run_sweep(part, graphs, so, threads, progress);
    rows.insert(rows.end(), res.begin(), res.end());
    sort_results(rows);
    write_atomic(csv, to_plain_csv(rows));
  }
  if (tty && total) std::fprintf(stderr, "\n");
  if (!o.shard.empty()) {
    std::printf("shard %s: %zu points (%zu new) in %s; join the shards with --merge\n", o.shard.c_str(), rows.size(),
                todo.size(), csv.c_str());
    return;
  }
  finish(dir, rows, o);
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("explore", "sweep unit counts, latencies and pipelining; Pareto front, gaps to bounds");
  cmd->add_option("--robot", o->robots, "robots, comma-separated (built-in, file, random:N:SEED)")->capture_default_str();
  cmd->add_option("--n", o->ns, "also general n-link robots random:N:1 for these n (e.g. 1-12)");
  cmd->add_option("--function", o->function, "id | fd | fd-khalil | fd-strobe | mass | dtau (docs/functions.md; the "
                  "forward functions divide: give --div)")->capture_default_str();
  cmd->add_option("--flavour", o->flavours, "general,general-dh,custom")->capture_default_str();
  cmd->add_option("--mul", o->mul, "multiplier counts (e.g. 1-16 or 1,2,4)")->capture_default_str();
  cmd->add_option("--add", o->add, "adder counts")->capture_default_str();
  cmd->add_option("--lat-mul", o->lat_mul, "multiplier latencies")->capture_default_str();
  cmd->add_option("--lat-add", o->lat_add, "adder latencies")->capture_default_str();
  cmd->add_option("--pipelined", o->pipelined, "1 pipelined, 0 not (both classes)")->capture_default_str();
  cmd->add_option("--max-registers", o->max_registers, "register limits, e.g. 0,40,30 (0 = none): the list and modulo "
                  "schedulers honour each (issue 16)")->capture_default_str();
  cmd->add_option("--fma", o->fma, "FMA unit counts, e.g. 0,2,4 (0 = no FMA class; mul + add pairs are fused only "
                  "where FMA units exist, as in schedule)")->capture_default_str();
  cmd->add_option("--lat-fma", o->lat_fma, "FMA latencies (with --fma N, N >= 1); pipelined as --pipelined says");
  cmd->add_option("--div", o->div, "divider counts (needed by and only by the forward functions fd, fd-khalil, "
                  "fd-strobe)");
  cmd->add_option("--lat-div", o->lat_div, "divider latencies (cycles), with --div")->capture_default_str();
  cmd->add_flag("--div-pipelined", o->div_pipelined, "dividers accept an op every cycle (default: busy for their "
                "latency)");
  cmd->add_option("--read-ports", o->read_ports, "register-file read ports per cycle, e.g. 0,6,4 (0 = none): every "
                  "schedule keeps them (issue 16)")->capture_default_str();
  cmd->add_option("--write-ports", o->write_ports, "register-file write ports per cycle, e.g. 0,3,2 (0 = none)")
      ->capture_default_str();
  cmd->add_option("--restarts", o->restarts, "list scheduler restarts per point")->capture_default_str();
  cmd->add_flag("--no-modulo", o->no_modulo, "skip the modulo (throughput) schedule");
  cmd->add_flag("--modulo-nonpipelined", o->modulo_np, "modulo schedules of non-pipelined points too (slow)");
  cmd->add_flag("--no-plot", o->no_plot, "do not run gnuplot");
  cmd->add_option("--jobs", o->jobs, "threads (default: cores)");
  cmd->add_option("--shard", o->shard, "k/N: evaluate every N-th point starting at the k-th (1-based)");
  cmd->add_option("--merge", o->merge, "join shard CSVs into explore.csv/json, pareto.csv, plot")->expected(1, -1);
  cmd->add_option("--in-words", o->in_words,
                  "input port widths in words per cycle (e.g. 1,2,4): streaming II = max(modulo II, ceil(port inputs / "
                  "k), outputs) per point in explore.json, parameters loaded once");
  cmd->add_option("--out", o->out, "output directory")->capture_default_str();
  cmd->add_option("--ilp-worst", o->ilp_worst, "run the ILP on this many points with the largest gap (ilp_worst.csv)");
  cmd->add_option("--ilp-nodes", o->ilp_nodes, "branch-and-bound node limit per ILP of --ilp-worst (deterministic)")->capture_default_str();
  cmd->add_flag("--table86", o->table86, "seed 000 Table 8.6 vs our schedules for general n-link arms (--n, default 1-12)");
  cmd->add_option("--depth", o->depth, "depth-reducing re-association per latency pair (issue 15): on | off | lookahead[:K] (lookahead forms of the recursion over K links as candidates, K = 2, 3 when not given; --table86 tries them whenever the pass is on)")->capture_default_str();
  cmd->add_flag("--json", o->json, "machine-readable summary on stdout");
  cmd->callback([o] {
    const dfg::DepthMode mode = dfg::parse_depth_mode(o->depth);
    o->depth_on = mode.on;
    o->lookahead = mode.lookahead;
    run(*o);
  });
}

}  // namespace

NEACCEL_COMMAND(explore, 41, setup)
