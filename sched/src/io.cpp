// Schedule JSON, Gantt SVG and utilisation.
#include "neaccel/sched/io.hpp"

#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/json_read.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>
#include <map>
#include <set>

namespace neaccel::sched {

using nlohmann::json;

namespace {

dfg::Op op_from(const std::string& name, const std::string& where) {
  for (int k = 0; k <= static_cast<int>(dfg::Op::Cmp); ++k)
    if (name == dfg::op_name(static_cast<dfg::Op>(k))) return static_cast<dfg::Op>(k);
  throw Error(fmt::format("{}: unknown op '{}'", where, name));
}

using dfg::json_read::checked_get;
using dfg::json_read::json_depth;
using dfg::json_read::kMaxJsonDepth;

template <class T>
T get(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw Error(fmt::format("{}.{}: missing", where, key));
  T out{};
  if (!checked_get(j.at(key), out)) throw Error(fmt::format("{}.{}: wrong type or out of range", where, key));
  return out;
}

}  // namespace

json graph_to_json(const dfg::Graph& g) { return dfg::to_json(g); }

dfg::Graph graph_from_json(const json& j, const std::string& what) { return dfg::graph_from_json(j, what); }

json to_json(const Problem& p, const Schedule& s) {
  json classes = json::array();
  for (const auto& c : p.classes) {
    json ops = json::array();
    for (auto op : c.ops) ops.push_back(dfg::op_name(op));
    classes.push_back({{"name", c.name}, {"ops", ops}, {"count", c.count}, {"latency", c.latency}, {"occupancy", c.occupancy}});
  }
  json slots = json::array();
  for (const auto& sl : s.slots) slots.push_back({sl.start, sl.cls, sl.instance});
  return {{"format", "neaccel-schedule"},
          {"version", 1},
          {"graph", graph_to_json(*p.graph)},
          {"problem", {{"classes", classes}, {"ii", p.ii}, {"max_registers", p.max_registers},
                       {"read_ports", p.read_ports}, {"write_ports", p.write_ports}}},
          {"schedule", {{"algorithm", s.algorithm}, {"length", s.length}, {"ii", s.ii}, {"stages", s.stages},
                        {"lower_bound", s.lower_bound}, {"proven_optimal", s.proven_optimal},
                        {"num_registers", s.num_registers}, {"slots", slots}, {"reg", s.reg}}}};
}

std::unique_ptr<Loaded> from_json(const json& j, const std::string& what) {
  if (!j.is_object() || !j.contains("format") || j.at("format") != "neaccel-schedule")
    throw Error(fmt::format("{}: format: not a neaccel-schedule file", what));
  if (json_depth(j) > kMaxJsonDepth) throw Error(fmt::format("{}: JSON nested deeper than {}", what, kMaxJsonDepth));
  if (!j.contains("version") || j.at("version") != 1)
    throw Error(fmt::format("{}: version: unsupported (need 1)", what));
  auto out = std::make_unique<Loaded>();
  out->graph = graph_from_json(get<json>(j, "graph", what), what);
  auto& p = out->problem;
  p.graph = &out->graph;
  const std::string pw = what + ": problem";
  const auto pj = get<json>(j, "problem", what);
  for (const auto& c : get<json>(pj, "classes", pw)) {
    UnitClass u;
    u.name = get<std::string>(c, "name", pw + ".classes[]");
    for (const auto& o : get<std::vector<std::string>>(c, "ops", pw + ".classes[]")) u.ops.push_back(op_from(o, pw + ".classes[].ops"));
    u.count = get<int>(c, "count", pw + ".classes[]");
    u.latency = get<int>(c, "latency", pw + ".classes[]");
    u.occupancy = get<int>(c, "occupancy", pw + ".classes[]");
    p.classes.push_back(u);
  }
  p.ii = get<int>(pj, "ii", pw);
  p.max_registers = get<int>(pj, "max_registers", pw);
  p.read_ports = get<int>(pj, "read_ports", pw);
  p.write_ports = get<int>(pj, "write_ports", pw);
  check(p);
  auto& s = out->schedule;
  const std::string sw = what + ": schedule";
  const auto sj = get<json>(j, "schedule", what);
  s.algorithm = get<std::string>(sj, "algorithm", sw);
  s.length = get<int>(sj, "length", sw);
  s.ii = get<int>(sj, "ii", sw);
  s.stages = get<int>(sj, "stages", sw);
  s.lower_bound = get<int>(sj, "lower_bound", sw);
  s.proven_optimal = get<bool>(sj, "proven_optimal", sw);
  s.num_registers = get<int>(sj, "num_registers", sw);
  s.reg = get<std::vector<int>>(sj, "reg", sw);
  for (const auto& sl : get<json>(sj, "slots", sw)) {
    if (!sl.is_array() || sl.size() != 3) throw Error(fmt::format("{}.slots[]: need [start, cls, instance]", sw));
    Slot slot{};
    if (!checked_get(sl[0], slot.start) || !checked_get(sl[1], slot.cls) || !checked_get(sl[2], slot.instance))
      throw Error(fmt::format("{}.slots[{}]: need three integers [start, cls, instance]", sw, s.slots.size()));
    s.slots.push_back(slot);
  }
  return out;
}

std::vector<ClassUse> utilisation(const Problem& p, const Schedule& s) {
  std::vector<ClassUse> use(p.classes.size());
  for (std::size_t c = 0; c < use.size(); ++c) {
    use[c].name = p.classes[c].name;
    use[c].count = p.classes[c].count;
    use[c].capacity = static_cast<long>(p.classes[c].count) * (s.ii > 0 ? s.ii : s.length);
  }
  for (std::size_t v = 0; v < s.slots.size(); ++v) {
    const int c = s.slots[v].cls;
    if (c < 0 || !dfg::is_operation(p.graph->nodes[v].op)) continue;
    ++use[c].ops;
    use[c].busy += p.classes[c].occupancy;
  }
  for (auto& u : use) u.utilisation = u.capacity > 0 ? static_cast<double>(u.busy) / u.capacity : 0.0;
  return use;
}

std::string utilisation_table(const std::vector<ClassUse>& use) {
  std::string t = fmt::format("{:<8} {:>5} {:>6} {:>8} {:>9} {:>7}\n", "class", "units", "ops", "busy", "capacity", "util%");
  for (const auto& u : use)
    t += fmt::format("{:<8} {:>5} {:>6} {:>8} {:>9} {:>7.1f}\n", u.name, u.count, u.ops, u.busy, u.capacity, 100.0 * u.utilisation);
  return t;
}

namespace {
const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
                          "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d37295", "#8cd17d", "#b6992d"};
std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}
}  // namespace

std::string gantt_svg(const Problem& p, const Schedule& s, const std::string& title) {
  const auto& g = *p.graph;
  // Quantities in sorted order -> colours (deterministic).
  std::set<std::string> qs;
  for (std::size_t v = 0; v < s.slots.size(); ++v)
    if (dfg::is_operation(g.nodes[v].op)) qs.insert(g.provenance[g.nodes[v].prov].quantity);
  std::map<std::string, const char*> colour;
  std::size_t k = 0;
  for (const auto& q : qs) colour[q] = kPalette[k++ % (sizeof kPalette / sizeof kPalette[0])];
  std::vector<int> row0(p.classes.size() + 1, 0);
  for (std::size_t c = 0; c < p.classes.size(); ++c) row0[c + 1] = row0[c] + p.classes[c].count;
  const int rows = row0.back(), cols = std::max(s.length, 1);
  const double cw = std::clamp(1200.0 / cols, 2.0, 24.0), rh = 18, left = 80, top = 40;
  const double width = left + cols * cw + 20, height = top + rows * rh + 30 + 16.0 * ((qs.size() + 5) / 6);
  std::string o = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" font-family=\"sans-serif\" "
      "font-size=\"10\">\n<text x=\"{}\" y=\"16\" font-size=\"13\">{}</text>\n",
      width, height, left, esc(title));
  for (std::size_t c = 0; c < p.classes.size(); ++c)
    for (int i = 0; i < p.classes[c].count; ++i) {
      const double y = top + (row0[c] + i) * rh;
      o += fmt::format("<text x=\"4\" y=\"{:.1f}\">{} {}</text>\n", y + 13, esc(p.classes[c].name), i);
      o += fmt::format("<rect x=\"{}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" fill=\"#f4f4f4\"/>\n", left, y, cols * cw, rh - 2);
    }
  const int tick = std::max(1, cols / 20);
  for (int t = 0; t <= cols; t += tick)
    o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", left + t * cw, top - 4, t);
  if (s.ii > 0)
    for (int t = s.ii; t < cols; t += s.ii)
      o += fmt::format("<line x1=\"{0:.1f}\" x2=\"{0:.1f}\" y1=\"{1}\" y2=\"{2:.1f}\" stroke=\"#000\" stroke-dasharray=\"3,3\"/>\n",
                       left + t * cw, top, top + rows * rh);
  for (std::size_t v = 0; v < s.slots.size(); ++v) {
    const auto& sl = s.slots[v];
    if (!dfg::is_operation(g.nodes[v].op) || sl.cls < 0 || sl.instance < 0) continue;
    const auto& u = p.classes[sl.cls];
    const auto& pv = g.provenance[g.nodes[v].prov];
    const double x = left + sl.start * cw, y = top + (row0[sl.cls] + sl.instance) * rh;
    o += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{}\" fill=\"{}\" stroke=\"#333\" "
                     "stroke-width=\"0.3\"><title>node {} {} {} link {} [{}, {})</title></rect>\n",
                     x, y, u.occupancy * cw, rh - 2, colour[pv.quantity], v, dfg::op_name(g.nodes[v].op),
                     esc(pv.quantity), pv.link, sl.start, sl.start + u.latency);
    if (u.latency > u.occupancy)
      o += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"2\" fill=\"{}\"/>\n", x + u.occupancy * cw,
                       y + rh - 5, (u.latency - u.occupancy) * cw, colour[pv.quantity]);
    if (cw >= 9 && pv.link > 0)
      o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#fff\">{}</text>\n", x + 1, y + 12, pv.link);
  }
  k = 0;
  for (const auto& q : qs) {
    const double x = left + (k % 6) * 150.0, y = top + rows * rh + 14 + 16.0 * (k / 6);
    o += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1f}\" "
                     "y=\"{:.1f}\">{}</text>\n", x, y - 9, colour[q], x + 14, y, esc(q.empty() ? "(none)" : q));
    ++k;
  }
  return o + "</svg>\n";
}

}  // namespace neaccel::sched
