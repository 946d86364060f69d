#include "neaccel/cost/explore_table.hpp"

#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/cost/target.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <limits>

namespace neaccel::cost {

namespace {

// printf into a string (the summary's figures keep printf's formatting).
void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* format, ...) {
  va_list args, copy;
  va_start(args, format);
  va_copy(copy, args);
  const int n = std::vsnprintf(nullptr, 0, format, copy);
  va_end(copy);
  if (n > 0) {
    std::string buf(static_cast<std::size_t>(n) + 1, '\0');
    std::vsnprintf(buf.data(), buf.size(), format, args);
    buf.resize(static_cast<std::size_t>(n));
    out += buf;
  }
  va_end(args);
}

// The joint inputs and the outputs of a point's graph: the streaming I/O bound with the robot parameters loaded
// once (docs/datapath.md "Robot parameters loaded once").
struct PortCounts {
  int inputs = 0, outputs = 0;
};
PortCounts port_counts(const sched::Point& p, const sched::TracedGraph& traced,
                       std::map<std::string, PortCounts>& cache) {
  const std::string key = p.robot + "|" + p.flavour;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const dfg::Graph g = traced(p.robot, p.flavour);
  PortCounts c;
  for (const auto& name : g.inputs) c.inputs += hw::is_joint_input(name);
  c.outputs = static_cast<int>(g.outputs.size());
  return cache[key] = c;
}

}  // namespace

std::optional<PointTiming> ExploreCosts::timing(const sched::PointResult& r) {
  if (r.length <= 0) return std::nullopt;  // a register limit no schedule met (--max-registers): nothing to cost
  const std::string key = r.point.robot + "/" + r.point.flavour;
  if (!shapes.count(key)) shapes[key] = graph_shape(traced(r.point.robot, r.point.flavour));
  try {
    return point_timing(r, shapes.at(key), "fp32", arch, target);
  } catch (const Error& e) {
    if (!failed++) first_failure = e.what();
    return std::nullopt;
  }
}

bool ExploreCosts::within_budget(const sched::PointResult& r) {
  const auto t = timing(r);
  return !t || !cost::target(t->latency_cost.target).has_device_model() || target_fit(t->latency_cost).within(budget_lut, budget_dsp);
}

std::string explore_csv(const std::vector<sched::PointResult>& rows, ExploreCosts& costs) {
  const sched::CsvColumns columns = sched::csv_columns(rows);
  std::string s = sched::csv_header(columns) + "," + timing_csv_header() + "\n";
  const std::string head = timing_csv_header();
  const std::string empty(static_cast<std::size_t>(std::count(head.begin(), head.end(), ',')), ',');
  for (const auto& r : rows) {
    const auto t = costs.timing(r);
    s += sched::to_csv_row(r, columns) + "," + (t ? timing_csv_row(*t) : empty) + "\n";
  }
  return s;
}

nlohmann::json sweep_summary_json(const sched::SweepSummary& s) {
  return {{"points", s.points}, {"verified", s.verified}, {"within_5_percent", s.within_5_percent},
          {"optimal", s.optimal}, {"worst_gap_percent", s.worst_gap}, {"pipelined_points", s.pipelined},
          {"modulo_ii_at_res_mii", s.ii_at_res_mii}, {"gap_histogram", s.gap_histogram}};
}

ExplorePoints explore_points(const std::vector<sched::PointResult>& rows, ExploreCosts& costs,
                             const std::vector<int>& in_words) {
  ExplorePoints out;
  if (costs.budget_lut > 0 || costs.budget_dsp > 0) {
    out.budget = "budget";
    if (costs.budget_lut > 0) out.budget += fmt::format(" {} LUT4", costs.budget_lut);
    if (costs.budget_dsp > 0) out.budget += fmt::format("{} {} DSP blocks", costs.budget_lut > 0 ? "," : "", costs.budget_dsp);
  }
  std::map<std::string, PortCounts> ports;
  const sched::CsvColumns columns = sched::csv_columns(rows);
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
    const auto t = costs.timing(r);
    if (t) row.update(timing_json(*t, costs.budget_lut, costs.budget_dsp));
    if (!in_words.empty() && r.ii > 0) {  // the input port width as a dimension
      const PortCounts pc = port_counts(r.point, costs.traced, ports);
      nlohmann::json st = nlohmann::json::object();
      for (int k : in_words) {
        const int io = std::max((pc.inputs + k - 1) / k, pc.outputs);
        st[std::to_string(k)] = {{"ii_io", io}, {"ii", std::max(r.ii, io)}};
        auto& b = out.io_bound[k];
        b.first += io > r.ii;
        ++b.second;
      }
      row["port_inputs"] = pc.inputs;
      row["stream_by_in_words"] = st;
    }
    out.points.push_back(row);
  }
  return out;
}

std::string explore_plot_script(const std::vector<sched::PointResult>& front) {
  // The output is named relative to the script's directory, where gnuplot runs (the same bytes whatever the output
  // directory is called).
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
  return gp;
}

std::string explore_summary_text(const sched::SweepSummary& s, const ExplorePoints& points) {
  std::string out;
  appendf(out, "%zu points, %zu verified; list within 5%% of the lower bound: %zu (%.1f%%), at the bound: %zu; worst "
          "gap %.2f%%\n", s.points, s.verified, s.within_5_percent, s.points ? 100.0 * s.within_5_percent / s.points : 0.0,
          s.optimal, s.worst_gap);
  appendf(out, "gap distribution:");
  for (const char* b : {"0", "(0,1]", "(1,2]", "(2,5]", "(5,10]", ">10"}) appendf(out, " %s%%: %zu", b, s.gap_histogram.at(b));
  appendf(out, "\nmodulo: II = ResMII on %zu of %zu pipelined points\n", s.ii_at_res_mii, s.pipelined);
  for (const auto& [k, b] : points.io_bound)
    appendf(out, "input port of %d word%s per cycle (parameters loaded once): streaming II I/O bound on %zu of %zu "
            "points\n", k, k == 1 ? "" : "s", b.first, b.second);
  // The fastest point and the most set points per second, at the cost model's estimated clocks.
  const nlohmann::json* fast = nullptr;
  const nlohmann::json* most = nullptr;
  std::size_t fit = 0, costed = 0;
  std::string part, arch;
  for (const auto& row : points.points) {
    if (!row.contains("latency_ns") || !row["verified"].get<bool>()) continue;
    arch = row["arch"].get<std::string>();
    if (row.contains("target")) {  // a target with a device model: the points that fit it
      ++costed;
      part = row["target"]["latency"]["part"].get<std::string>();
      if (!row["target"].value("within_budget", row["target"]["latency"]["fits"].get<bool>())) continue;
      ++fit;
    }
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
  if (costed)
    appendf(out, "%s: %zu of %zu verified points fit by the device model as %s datapaths (LUT4 and DSP blocks, "
            "within what has routed%s)\n", part.c_str(), fit, costed, arch.c_str(),
            points.budget.empty() ? "" : (", " + points.budget).c_str());
  if (fast && most)
    appendf(out, "estimated, %s: fastest %.1f ns per evaluation (%s, %d cycles at %.2f ns); most throughput %.4g "
            "set points/s (%s, %s)\n", arch.c_str(), (*fast)["latency_ns"].get<double>(), name(*fast).c_str(),
            (*fast)["eval_cycles"].get<int>(), (*fast)["period_ns"].get<double>(),
            (*most)["throughput_per_s"].get<double>(), name(*most).c_str(),
            (*most)["throughput_mode"].get<std::string>().c_str());
  return out;
}

}  // namespace neaccel::cost
