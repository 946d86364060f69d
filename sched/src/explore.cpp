#include "neaccel/sched/explore.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

namespace neaccel::sched {

std::string point_key(const Point& p) {
  const std::string key =
      fmt::format("{}|{}|{}|{}|{}|{}|{}", p.robot, p.flavour, p.mul, p.add, p.lat_mul, p.lat_add, p.pipelined ? 1 : 0);
  std::string out = p.max_registers > 0 ? fmt::format("{}|r{}", key, p.max_registers) : key;
  if (p.read_ports > 0 || p.write_ports > 0) out += fmt::format("|p{}/{}", p.read_ports, p.write_ports);
  if (p.fma > 0) out += fmt::format("|f{}/{}", p.fma, p.lat_fma);
  if (p.div > 0) out += fmt::format("|d{}/{}{}", p.div, p.lat_div, p.div_pipelined ? "p" : "");
  return out;
}

std::vector<UnitClass> point_classes(const Point& p) {
  std::vector<UnitClass> classes = default_classes(p.mul, p.add, p.lat_mul, p.lat_add, p.pipelined, p.pipelined);
  if (p.fma > 0) classes.push_back(UnitClass{"fma", {dfg::Op::Fma}, p.fma, p.lat_fma, p.pipelined ? 1 : p.lat_fma});
  if (p.div > 0) classes.push_back(UnitClass{"div", {dfg::Op::Div}, p.div, p.lat_div, p.div_pipelined ? 1 : p.lat_div});
  return classes;
}

bool has_unit_dimensions(const Point& p) { return p.fma > 0 || p.div > 0; }

bool has_unit_dimensions(const std::vector<PointResult>& rows) {
  return std::any_of(rows.begin(), rows.end(), [](const PointResult& r) { return has_unit_dimensions(r.point); });
}

PointResult evaluate_point(const dfg::Graph& graph, const Point& pt, const SweepOptions& options) {
  PointResult r;
  r.point = pt;
  Problem p;
  p.graph = &graph;
  p.classes = point_classes(pt);
  p.read_ports = pt.read_ports;  // register-file ports: every schedule of the point keeps them
  p.write_ports = pt.write_ports;
  check(p);
  for (const auto& n : graph.nodes) r.ops += dfg::is_operation(n.op) ? 1 : 0;
  r.critical_path = critical_path(p);
  ListOptions lo;
  lo.restarts = options.restarts;
  Schedule s = list_schedule(p, lo);
  allocate_registers(p, s);
  p.max_registers = pt.max_registers;
  if (pt.max_registers > 0 && s.num_registers > pt.max_registers) {  // the unconstrained schedule does not fit
    try {
      s = list_schedule(p, lo);
      allocate_registers(p, s);
    } catch (const Error&) {
      // No schedule within the register limit (the register-aware list scheduler is a heuristic): recorded as
      // such, unverified, length 0; the modulo schedule is still tried.
      s = Schedule{};
    }
  }
  const bool have_list = !s.slots.empty();
  r.verified = have_list && verify(p, s, 1).empty();
  r.lower_bound = s.lower_bound;
  r.length = s.length;
  r.gap_percent = r.lower_bound > 0 ? 100.0 * (r.length - r.lower_bound) / r.lower_bound : 0.0;
  r.algorithm = have_list ? s.algorithm : "none (max_registers)";
  r.registers = s.num_registers;
  if (!have_list) r.lower_bound = lower_bound(p);
  if (!have_list) r.gap_percent = 0.0;
  if (options.on_list_schedule && r.verified) options.on_list_schedule(p, s, r);
  r.res_mii = res_mii(p);
  if (options.modulo && (pt.pipelined || options.modulo_nonpipelined)) {
    ModuloOptions mo;  // Rau's scheduler alone, as the cached sweeps were measured (schedule --algo modulo adds more)
    mo.list = false;
    mo.exact = false;
    std::optional<Schedule> m;
    if (pt.max_registers <= 0) {
      m = modulo_schedule(p, mo);
    } else {
      try {  // register-aware: II upward until max_live fits (ii 0 when none does up to twice the first II)
        m = modulo_register_schedule(p, mo);
      } catch (const Error&) {
      }
    }
    if (m) {
      p.ii = m->ii;
      r.verified = r.verified && verify(p, *m, 1).empty();
      r.ii = m->ii;
      r.modulo_latency = m->length;
      r.stages = m->stages;
      if (options.on_modulo_schedule && r.verified) options.on_modulo_schedule(p, *m, r);
    }
  }
  return r;
}

std::string depth_graph_key(const Point& p) {
  const std::string key = fmt::format("{}/{}/{}/{}", p.robot, p.flavour, p.lat_mul, p.lat_add);
  return p.fma > 0 ? fmt::format("{}+f{}", key, p.lat_fma) : key;
}

const dfg::Graph& point_graph(const std::map<std::string, dfg::Graph>& graphs, const Point& p) {
  const std::string key = depth_graph_key(p);
  const dfg::Graph* best = nullptr;
  int best_score = 0, best_ops = 0;
  for (auto it = graphs.lower_bound(key); it != graphs.end() && it->first.compare(0, key.size(), key) == 0; ++it) {
    if (it->first.size() != key.size() && it->first[key.size()] != '/') continue;
    const auto classes = point_classes(p);
    Problem pr;
    pr.graph = &it->second;
    pr.classes = classes;
    const int score = std::max(critical_path(pr), resource_bound(pr)), ops = dfg::count_ops(it->second).operations();
    if (!best || score < best_score || (score == best_score && ops < best_ops)) {  // apply_depth's rule (source.cpp)
      best = &it->second;
      best_score = score;
      best_ops = ops;
    }
  }
  if (best) return *best;
  const auto it = graphs.find(p.robot + "/" + p.flavour);
  if (it == graphs.end()) throw Error("explore: no graph for " + point_key(p));
  return it->second;
}

std::vector<PointResult> run_sweep(const std::vector<Point>& points, const std::map<std::string, dfg::Graph>& graphs,
                                   const SweepOptions& options, int threads,
                                   const std::function<void(std::size_t, std::size_t)>& progress) {
  std::vector<PointResult> out(points.size());
  std::vector<std::string> errors(points.size());
  std::atomic<std::size_t> next{0}, done{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < points.size(); i = next++) {
      try {
        out[i] = evaluate_point(point_graph(graphs, points[i]), points[i], options);
      } catch (const std::exception& e) {
        errors[i] = e.what();
      }
      ++done;
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
  while (progress && done.load() < points.size()) {
    progress(done.load(), points.size());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (auto& t : pool) t.join();
  if (progress) progress(points.size(), points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!errors[i].empty()) throw Error(fmt::format("explore: point {}: {}", point_key(points[i]), errors[i]));
  return out;
}

namespace {
const char* const kBaseColumns =
    "robot,flavour,mul,add,lat_mul,lat_add,pipelined,ops,critical_path,lower_bound,length,gap_percent,algorithm,ii,"
    "res_mii,modulo_latency,stages,registers,verified,mux_inputs,mux2_equivalent,max_port_sources,max_registers";
const char* const kPortColumns = ",read_ports,write_ports";
const char* const kUnitColumns = ",fma,lat_fma,div,lat_div,div_pipelined";

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
  return f;
}
}  // namespace

CsvColumns csv_columns(const std::vector<PointResult>& rows) {
  CsvColumns c;
  c.units = has_unit_dimensions(rows);
  c.ports = std::any_of(rows.begin(), rows.end(),
                        [](const PointResult& r) { return r.point.read_ports > 0 || r.point.write_ports > 0; });
  return c;
}

std::string csv_header(CsvColumns columns) {
  return std::string(kBaseColumns) + (columns.ports ? kPortColumns : "") + (columns.units ? kUnitColumns : "");
}

std::string to_csv_row(const PointResult& r, CsvColumns columns) {
  const auto& p = r.point;
  std::string s = fmt::format("{},{},{},{},{},{},{},{},{},{},{},{:.3f},{},{},{},{},{},{},{},{},{},{},{}", p.robot,
                              p.flavour, p.mul, p.add, p.lat_mul, p.lat_add, p.pipelined ? 1 : 0, r.ops,
                              r.critical_path, r.lower_bound, r.length, r.gap_percent, r.algorithm, r.ii, r.res_mii,
                              r.modulo_latency, r.stages, r.registers, r.verified ? 1 : 0, r.mux_inputs,
                              r.mux2_equivalent, r.max_port_sources, p.max_registers);
  if (columns.ports) s += fmt::format(",{},{}", p.read_ports, p.write_ports);
  if (columns.units)
    s += fmt::format(",{},{},{},{},{}", p.fma, p.lat_fma, p.div, p.lat_div, p.div_pipelined ? 1 : 0);
  return s;
}

std::vector<PointResult> read_csv(const std::string& path) {
  check_file_size(path);
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot open", path));
  std::string line;
  std::vector<PointResult> rows;
  // The header names the columns: sched's own up to max_port_sources (files written before the
  // max_registers column are read with max_registers 0), then the optional port and unit columns by name.
  // Columns after those (the cost figures `neaccel explore` appends) are ignored: they are recomputed.
  const std::string base(kBaseColumns), old_base = base.substr(0, base.size() - std::string(",max_registers").size());
  auto starts = [&](const std::string& h) {
    return line.compare(0, h.size(), h) == 0 && (line.size() == h.size() || line[h.size()] == ',');
  };
  if (!std::getline(in, line) || !(starts(base) || starts(old_base)))
    throw Error(fmt::format("{}:1: not an explore CSV (header differs)", path));
  const std::vector<std::string> names = split_csv(line);
  auto column = [&](const char* name) -> int {
    const auto it = std::find(names.begin(), names.end(), name);
    return it == names.end() ? -1 : static_cast<int>(it - names.begin());
  };
  const int c_limit = column("max_registers"), c_read = column("read_ports"), c_write = column("write_ports"),
            c_fma = column("fma"), c_lat_fma = column("lat_fma"), c_div = column("div"), c_lat_div = column("lat_div"),
            c_div_pipe = column("div_pipelined");
  if ((c_read < 0) != (c_write < 0) || (c_fma < 0) != (c_div < 0) || (c_fma < 0) != (c_lat_fma < 0) ||
      (c_div < 0) != (c_lat_div < 0) || (c_div < 0) != (c_div_pipe < 0))
    throw Error(fmt::format("{}:1: incomplete port or unit columns (read_ports,write_ports; fma,lat_fma,div,lat_div,"
                            "div_pipelined)", path));
  const std::size_t need = static_cast<std::size_t>(
      std::max({21, c_limit, c_read, c_write, c_fma, c_lat_fma, c_div, c_lat_div, c_div_pipe}) + 1);
  for (int no = 2; std::getline(in, line); ++no) {
    if (line.empty()) continue;
    const std::vector<std::string> f = split_csv(line);
    if (f.size() < need) throw Error(fmt::format("{}:{}: {} fields (need {})", path, no, f.size(), need));
    try {
      PointResult r;
      r.point = Point{f[0], f[1], std::stoi(f[2]), std::stoi(f[3]), std::stoi(f[4]), std::stoi(f[5]), f[6] == "1"};
      r.ops = std::stoi(f[7]);
      r.critical_path = std::stoi(f[8]);
      r.lower_bound = std::stoi(f[9]);
      r.length = std::stoi(f[10]);
      (void)std::stod(f[11]);  // recomputed below at full precision (the CSV keeps 3 decimals)
      r.gap_percent = r.lower_bound > 0 ? 100.0 * (r.length - r.lower_bound) / r.lower_bound : 0.0;
      r.algorithm = f[12];
      r.ii = std::stoi(f[13]);
      r.res_mii = std::stoi(f[14]);
      r.modulo_latency = std::stoi(f[15]);
      r.stages = std::stoi(f[16]);
      r.registers = std::stoi(f[17]);
      r.verified = f[18] == "1";
      r.mux_inputs = std::stoi(f[19]);
      r.mux2_equivalent = std::stoi(f[20]);
      r.max_port_sources = std::stoi(f[21]);
      if (c_limit >= 0) r.point.max_registers = std::stoi(f[c_limit]);
      if (c_read >= 0) {
        r.point.read_ports = std::stoi(f[c_read]);
        r.point.write_ports = std::stoi(f[c_write]);
        if (r.point.read_ports < 0 || r.point.write_ports < 0)
          throw Error(fmt::format("{}:{}: read_ports/write_ports out of range", path, no));
      }
      if (c_fma >= 0) {
        r.point.fma = std::stoi(f[c_fma]);
        r.point.lat_fma = std::stoi(f[c_lat_fma]);
        r.point.div = std::stoi(f[c_div]);
        r.point.lat_div = std::stoi(f[c_lat_div]);
        r.point.div_pipelined = f[c_div_pipe] == "1";
        if (r.point.fma < 0 || r.point.div < 0 || (r.point.fma > 0 && r.point.lat_fma < 1) ||
            (r.point.div > 0 && r.point.lat_div < 1))
          throw Error(fmt::format("{}:{}: fma/div columns out of range", path, no));
      }
      rows.push_back(r);
    } catch (const std::logic_error&) {
      throw Error(fmt::format("{}:{}: malformed number", path, no));
    }
  }
  return rows;
}

namespace {
auto sort_key(const PointResult& r) {
  const auto& p = r.point;
  return std::make_tuple(p.robot, p.flavour, !p.pipelined, p.lat_mul, p.lat_add, p.mul, p.add, p.max_registers,
                         p.read_ports, p.write_ports, p.lat_fma, p.fma, p.lat_div, p.div, p.div_pipelined);
}
}  // namespace

void sort_results(std::vector<PointResult>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return sort_key(a) < sort_key(b); });
}

std::vector<PointResult> pareto_front(const std::vector<PointResult>& rows) {
  std::map<std::tuple<std::string, std::string, int, int, bool, int, int, int, int, int, bool>, std::vector<PointResult>>
      groups;
  for (const auto& r : rows)
    if (r.length > 0)  // a register-limited point without a schedule is on no front
      groups[{r.point.robot, r.point.flavour, r.point.lat_mul, r.point.lat_add, r.point.pipelined, r.point.max_registers,
              r.point.read_ports, r.point.write_ports, r.point.lat_fma, r.point.lat_div, r.point.div_pipelined}]
          .push_back(r);
  std::vector<PointResult> front;
  for (auto& [k, g] : groups) {
    std::sort(g.begin(), g.end(), [](const auto& a, const auto& b) {
      const int ua = a.point.mul + a.point.add + a.point.fma + a.point.div,
                ub = b.point.mul + b.point.add + b.point.fma + b.point.div;
      return std::tie(ua, a.length, a.point.mul, a.point.fma, a.point.div) <
             std::tie(ub, b.length, b.point.mul, b.point.fma, b.point.div);
    });
    int best = std::numeric_limits<int>::max();
    for (const auto& r : g)
      if (r.length < best) {
        best = r.length;
        front.push_back(r);
      }
  }
  return front;
}

SweepSummary summarise(const std::vector<PointResult>& rows) {
  SweepSummary s;
  for (const char* b : {"0", "(0,1]", "(1,2]", "(2,5]", "(5,10]", ">10"}) s.gap_histogram[b] = 0;
  for (const auto& r : rows) {
    ++s.points;
    s.verified += r.verified;
    s.within_5_percent += r.gap_percent <= 5.0 + 1e-9;
    s.optimal += r.length == r.lower_bound;
    s.worst_gap = std::max(s.worst_gap, r.gap_percent);
    if (r.point.pipelined) {
      ++s.pipelined;
      s.ii_at_res_mii += r.ii == r.res_mii;
    }
    const double g = r.gap_percent;
    const char* b = g <= 0 ? "0" : g <= 1 ? "(0,1]" : g <= 2 ? "(1,2]" : g <= 5 ? "(2,5]" : g <= 10 ? "(5,10]" : ">10";
    ++s.gap_histogram[b];
  }
  return s;
}

}  // namespace neaccel::sched
