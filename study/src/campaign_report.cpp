// The campaign's design choice, its per-design task (rtl + sim + area through this same executable) and its report
// (report.json first; report.md and report.html are rendered from that JSON object only, so every number in them
// is one the JSON holds). Nothing here writes host names, times, job ids or absolute paths: the results are the
// same bytes whether the tasks ran under --local or --slurm, in any order, on any node.
#include "campaign_internal.hpp"

#include "neaccel/study/campaign.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/process.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/source.hpp"
#include "neaccel/sched/table86.hpp"
#include "neaccel/cost/timing.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace neaccel::study {

void campaign_write_atomic(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    f << text;
    if (!f) throw Error(tmp.string() + ": cannot write");
  }
  fs::rename(tmp, path);
}

std::string campaign_self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

namespace {

json read_json(const fs::path& p) {
  try {
    return json::parse(read_whole_file(p));
  } catch (const json::exception& e) {
    throw Error(p.string() + ": " + json_problem(e));
  }
}

// Runs this executable with arguments, stdout to `out`, stderr to `log`; throws with the log's last line.
void run_self(const std::vector<std::string>& args, const fs::path& out, const fs::path& log) {
  proc::Spawn run;
  run.argv = {campaign_self_exe()};
  run.argv.insert(run.argv.end(), args.begin(), args.end());
  run.stdout_path = out;
  run.stderr_path = log;
  if (!proc::run(run).ok()) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    throw Error("`neaccel " + args.front() + "` failed (" + log.string() + "): " + last);
  }
}

CampaignSpec load_spec(const fs::path& dir) { return campaign_spec_from_json(read_json(dir / "spec.json")); }

// The explored points of one robot and flavour that the cost model could cost.
std::vector<const json*> candidates(const json& points, const std::string& robot, const std::string& flavour) {
  std::vector<const json*> v;
  for (const auto& p : points)
    if (p.at("robot") == robot && p.at("flavour") == flavour && p.at("verified").get<bool>() && p.contains("latency_ns"))
      v.push_back(&p);
  return v;
}

double num(const json& p, const char* k) { return p.at(k).get<double>(); }

// The study's choices by time (study/src/stage_hardware.cpp), plus the smallest; first in file order on ties.
const json* choose(const std::vector<const json*>& c, const std::string& how) {
  const json* best = nullptr;
  auto lat = [](const json* p) { return std::make_pair(num(*p, "latency_ns"), num(*p, "area")); };
  for (const json* p : c)
    if (!best || lat(p) < lat(best)) best = p;
  if (!best || how == "fastest") return best;
  if (how == "smallest-within-10%") {
    const double limit = num(*best, "latency_ns") * 1.1;
    const json* s = nullptr;
    for (const json* p : c)
      if (num(*p, "latency_ns") <= limit && (!s || num(*p, "area") < num(*s, "area"))) s = p;
    return s;
  }
  if (how == "smallest") {
    const json* s = nullptr;
    for (const json* p : c)
      if (!s || std::make_pair(num(*p, "area"), num(*p, "latency_ns")) < std::make_pair(num(*s, "area"), num(*s, "latency_ns")))
        s = p;
    return s;
  }
  const json* t = nullptr;  // best-throughput-per-area
  for (const json* p : c)
    if (!t || num(*p, "throughput_per_s_per_cell") > num(*t, "throughput_per_s_per_cell")) t = p;
  return t;
}

bool streaming(const CampaignSlot& s, const json& p) {
  return s.choice == "best-throughput-per-area" && p.value("throughput_mode", std::string()) == "streaming";
}

json point_summary(const json& p) {
  json o;
  for (const char* k : {"mul", "add", "lat_mul", "lat_add", "pipelined", "length", "ii", "eval_cycles", "period_ns",
                        "latency_ns", "area", "throughput_mode", "throughput_per_s", "throughput_area"})
    if (p.contains(k)) o[k] = p[k];
  return o;
}

std::string slot_name(std::size_t k) { return fmt::format("{:03d}", k); }

// The cost model's figures for the slot's own number format and architecture (explore.json's are binary32 on the
// microcoded datapath): the point rescheduled (deterministic: the same schedule as in the sweep, checked by its
// length), with the hardwired datapath's multiplexer inputs attached and its streaming datapath built, then costed
// (cost/timing.hpp).
json estimate(const CampaignSpec& spec, const CampaignSlot& s, const std::string& robot, const json& p) {
  const dfg::Graph traced = dfg::robot_graph(robot, s.flavour);
  sched::Point pt{robot, s.flavour, p.at("mul"), p.at("add"), p.at("lat_mul"), p.at("lat_add"), p.at("pipelined")};
  // The graph the sweep ran for this point: the depth pass's choice for its units (explore's default).
  dfg::DepthSetting depth;
  depth.lat = {pt.lat_mul, pt.lat_add, 0};
  const dfg::Graph g = sched::apply_depth(
      traced, depth, sched::default_classes(pt.mul, pt.add, pt.lat_mul, pt.lat_add, pt.pipelined, pt.pipelined));
  sched::SweepOptions so;
  so.restarts = spec.restarts;
  if (s.arch == "hardwired") so.on_list_schedule = cost::attach_interconnect;
  so.on_modulo_schedule = cost::attach_stream;  // the streaming datapath costed as built, as in the study
  const sched::PointResult r = sched::evaluate_point(g, pt, so);
  if (r.length != p.at("length").get<int>())
    throw Error(fmt::format("{} {} {}: rescheduled length {} differs from the sweep's {}", robot, s.flavour,
                            point_key(pt), r.length, p.at("length").get<int>()));
  const json t = cost::timing_json(cost::point_timing(r, cost::graph_shape(traced), s.format, s.arch, spec.target));
  json o;
  for (const char* k : {"area", "period_ns", "eval_cycles", "latency_ns", "throughput_mode", "throughput_area",
                        "throughput_per_s"})
    if (t.contains(k)) o[k] = t[k];
  return o;
}

}  // namespace

int campaign_task_design(const fs::path& dir, std::size_t index) {
  const CampaignSpec spec = load_spec(dir);
  const auto all = campaign_slots(spec);
  if (index >= all.size()) throw Error(fmt::format("design task {}: the campaign has {} design slots", index, all.size()));
  const json ex = read_json(dir / "explore" / "merged" / "explore.json");
  const json& points = ex.at("points");
  const fs::path out = dir / "designs" / slot_name(index);
  fs::create_directories(out);
  const CampaignSlot& s = all[index];
  const CampaignRobot& robot = spec.robots[s.robot];
  json res = {{"slot", index}, {"robot", robot.name}, {"flavour", s.flavour}, {"choice", s.choice},
              {"format", s.format}, {"arch", s.arch}};
  const json* p = choose(candidates(points, robot.spec, s.flavour), s.choice);
  if (!p) {
    res["status"] = "no costed, verified point";
    campaign_write_atomic(out / "result.json", res.dump(1) + "\n");
    return 0;
  }
  res["point"] = point_summary(*p);
  res["streaming"] = streaming(s, *p);
  res["estimate"] = estimate(spec, s, robot.spec, *p);
  // The same point in the same format and architecture chosen under an earlier name: built once.
  for (std::size_t j = 0; j < index; ++j) {
    const CampaignSlot& o = all[j];
    if (o.robot != s.robot || o.flavour != s.flavour || o.format != s.format || o.arch != s.arch) continue;
    const json* q = choose(candidates(points, robot.spec, o.flavour), o.choice);
    if (q == p && streaming(o, *q) == streaming(s, *p)) {
      res["status"] = "same design as slot " + slot_name(j);
      res["same_as"] = j;
      campaign_write_atomic(out / "result.json", res.dump(1) + "\n");
      return 0;
    }
  }
  const fs::path rtl = out / "rtl";
  fs::create_directories(rtl);
  std::vector<std::string> a = {"rtl", "--robot", robot.spec, "--flavour", s.flavour == "custom" ? "custom" : "general",
                                "--mul", std::to_string(p->at("mul").get<int>()), "--add", std::to_string(p->at("add").get<int>()),
                                "--lat-mul", std::to_string(p->at("lat_mul").get<int>()),
                                "--lat-add", std::to_string(p->at("lat_add").get<int>()), "--format", s.format,
                                "--arch", s.arch, "--out", rtl.string(), "--json"};
  if (!p->at("pipelined").get<bool>()) a.push_back("--not-pipelined");
  if (s.arch == "hardwired" && !streaming(s, *p)) a.insert(a.end(), {"--binding", "interconnect"});
  if (streaming(s, *p)) a.insert(a.end(), {"--ii", "min"});
  run_self(a, out / "rtl.json", out / "rtl.log");
  bool pass = true;
  json verify = json::object();
  for (const auto& e : spec.engines) {
    run_self({"sim", "--out", rtl.string(), "--engine", e, "--random", std::to_string(spec.states), "--seed", "20261121",
              "--json", "--quiet"},
             out / ("sim_" + e + ".json"), out / ("sim_" + e + ".log"));
    const json j = read_json(out / ("sim_" + e + ".json"));
    json v;
    for (const char* k : {"states", "mode", "cycles_per_evaluation", "cycles_per_set_point", "schedule_length",
                          "mismatches", "cycle_count_errors", "max_rel_error"})
      if (j.contains(k)) v[k] = j[k];
    bool ok = j.at("mismatches") == 0 && j.at("cycle_count_errors") == 0;
    if (e == "cosim") {
      v["cosim_compared_cycles"] = j.at("cosim_compared_cycles");
      v["cosim_cycle_mismatches"] = j.at("cosim_cycle_mismatches");
      ok = ok && j.at("cosim_cycle_mismatches") == 0 && j.at("cosim_compared_cycles").get<long>() > 0;
    }
    v["pass"] = ok;
    pass = pass && ok;
    verify[e] = v;
  }
  res["verify"] = verify;
  res["verified"] = pass;
  if (spec.synthesise) {
    std::vector<std::string> args = {"area", "--design", rtl.string(), "--json"};
    if (spec.place_and_route) args.insert(args.end(), {"--pnr", "--target", "ice40-hx8k"});  // as its report reads it
    run_self(args, out / "area.json", out / "area.log");
    const json ar = read_json(out / "area.json");
    json v = {{"cells", ar.at("cells")}, {"unit_cells", ar.at("unit_cells")}, {"non_unit_cells", ar.at("non_unit_cells")},
              {"flip_flops", ar.at("flip_flops")}};
    if (ar.contains("pnr") && ar["pnr"].is_object()) {
      const json& q = ar["pnr"];
      v["pnr"] = {{"fits_hx8k", q.value("fits", false)}};
      if (q.contains("logic_cells")) v["pnr"]["logic_cells"] = q["logic_cells"];
      if (q.contains("fmax_mhz")) v["pnr"]["fmax_mhz"] = q["fmax_mhz"];
    }
    res["synthesis"] = v;
  }
  res["status"] = pass ? "verified" : "verification failed";
  campaign_write_atomic(out / "result.json", res.dump(1) + "\n");
  if (!pass) {
    std::fprintf(stderr, "neaccel: error: design %s failed verification (see %s)\n", slot_name(index).c_str(), out.c_str());
    return 1;
  }
  return 0;
}

namespace {

// A table rendered the same way to Markdown and HTML.
struct Table {
  std::vector<std::string> head;
  std::vector<std::vector<std::string>> rows;
};

std::string md(const Table& t) {
  std::string s = "|";
  for (const auto& h : t.head) s += " " + h + " |";
  s += "\n|";
  for (std::size_t i = 0; i < t.head.size(); ++i) s += i ? "---:|" : "---|";
  s += "\n";
  for (const auto& r : t.rows) {
    s += "|";
    for (const auto& c : r) s += " " + c + " |";
    s += "\n";
  }
  return s + "\n";
}

std::string esc(const std::string& x) {
  std::string o;
  for (char c : x) o += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return o;
}

std::string html(const Table& t) {
  std::string s = "<table>\n<tr>";
  for (const auto& h : t.head) s += "<th>" + esc(h) + "</th>";
  s += "</tr>\n";
  for (const auto& r : t.rows) {
    s += "<tr>";
    for (const auto& c : r) s += "<td>" + esc(c) + "</td>";
    s += "</tr>\n";
  }
  return s + "</table>\n";
}

std::string f1(const json& v) { return v.is_number() ? fmt::format("{:.1f}", v.get<double>()) : "-"; }
std::string f0(const json& v) { return v.is_number() ? fmt::format("{:.0f}", v.get<double>()) : "-"; }
std::string g4(const json& v) { return v.is_number() ? fmt::format("{:.4g}", v.get<double>()) : "-"; }
std::string txt(const json& v) { return v.is_string() ? v.get<std::string>() : v.is_null() ? "-" : v.dump(); }
std::string units(const json& p) {
  if (!p.is_object() || !p.contains("mul")) return "-";
  return fmt::format("{}+{} lat {}/{}{}", p["mul"].get<int>(), p["add"].get<int>(), p["lat_mul"].get<int>(),
                     p["lat_add"].get<int>(), p["pipelined"].get<bool>() ? "" : " np");
}
const json& at(const json& j, const std::string& k) {
  static const json null;
  return j.is_object() && j.contains(k) ? j.at(k) : null;
}

}  // namespace

void campaign_task_report(const fs::path& dir) {
  const CampaignSpec spec = load_spec(dir);
  const json ex = read_json(dir / "explore" / "merged" / "explore.json");
  const json& points = ex.at("points");
  const auto all = campaign_slots(spec);
  json rep;
  rep["campaign"] = spec.name;
  rep["sweep"] = {{"flavours", spec.flavours}, {"formats", spec.formats}, {"architectures", spec.architectures},
                  {"mul", spec.mul}, {"add", spec.add}, {"lat_mul", spec.lat_mul}, {"lat_add", spec.lat_add},
                  {"pipelined", spec.pipelined}, {"shards", spec.shards}, {"choose", spec.choose},
                  {"verify", spec.engines}, {"states", spec.states}, {"synthesise", spec.synthesise},
                  {"place_and_route", spec.place_and_route}};
  rep["explore_summary"] = ex.at("summary");
  json robots = json::array();
  std::set<int> links;
  for (const auto& r : spec.robots) {
    const int n = ref::load_robot(r.spec).dof();
    links.insert(n);
    json rj = {{"name", r.name}, {"links", n}};
    json fl = json::object();
    for (const auto& f : spec.flavours) {
      const auto c = candidates(points, r.spec, f);
      std::size_t total = 0;
      int shortest = -1;
      for (const auto& p : points)
        if (p.at("robot") == r.spec && p.at("flavour") == f) {
          ++total;
          const int len = p.at("length").get<int>();
          if (shortest < 0 || len < shortest) shortest = len;
        }
      json fj = {{"points", total}, {"costed_verified", c.size()}, {"shortest_schedule_cycles", shortest},
                 {"ops", nullptr}};
      for (const auto& p : points)
        if (p.at("robot") == r.spec && p.at("flavour") == f) {
          fj["ops"] = p.at("ops");
          break;
        }
      const json* fast = choose(c, "fastest");
      const json* small = choose(c, "smallest");
      const json* tp = nullptr;
      for (const json* p : c)
        if (!tp || num(*p, "throughput_per_s") > num(*tp, "throughput_per_s")) tp = p;
      fj["best_latency"] = fast ? point_summary(*fast) : json(nullptr);
      fj["best_throughput"] = tp ? point_summary(*tp) : json(nullptr);
      fj["smallest"] = small ? point_summary(*small) : json(nullptr);
      fl[f] = fj;
    }
    rj["flavours"] = fl;
    robots.push_back(rj);
  }
  rep["robots"] = robots;
  json designs = json::array();
  std::size_t verified = 0, failed = 0, repeated = 0;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const fs::path p = dir / "designs" / slot_name(k) / "result.json";
    json d = fs::exists(p) ? read_json(p) : json{{"slot", k}, {"status", "missing"}};
    if (d.value("verified", false)) ++verified;
    if (d.contains("same_as")) ++repeated;
    if (d.value("status", std::string()) == "verification failed" || d.value("status", std::string()) == "missing") ++failed;
    designs.push_back(d);
  }
  rep["designs"] = designs;
  rep["designs_verified"] = verified;
  rep["designs_failed"] = failed;
  rep["designs_repeated"] = repeated;
  json t86 = json::array();
  for (int n : links) {
    const auto row = sched::table86_row(n);
    json shortest = json::object();
    for (const auto& r : robots)
      if (r["links"] == n && r["flavours"].contains("general"))
        shortest[r["name"].get<std::string>()] = r["flavours"]["general"]["shortest_schedule_cycles"];
    t86.push_back({{"n", n}, {"paper_mul_steps", row.paper_mul_steps}, {"paper_add_steps", row.paper_add_steps},
                   {"our_mul_steps", row.ours.mul_steps}, {"our_add_steps", row.ours.add_steps},
                   {"unit_cycles_7_7", row.unit_cycles}, {"pipelined_cycles_7_7", row.pipe_cycles},
                   {"rahman_meyer", row.rahman_meyer}, {"hashimoto_kimura", row.hashimoto_kimura},
                   {"campaign_general_shortest", shortest}});
  }
  rep["table86"] = t86;

  // Rendering: only from `rep`.
  Table side{{"", }, {}};
  for (const auto& r : rep["robots"])
    for (const auto& f : spec.flavours) side.head.push_back(r["name"].get<std::string>() + " (" + f + ")");
  auto row = [&](const std::string& label, auto fn) {
    std::vector<std::string> cells{label};
    for (const auto& r : rep["robots"])
      for (const auto& f : spec.flavours) cells.push_back(fn(r, r["flavours"][f]));
    side.rows.push_back(cells);
  };
  row("links", [](const json& r, const json&) { return txt(r["links"]); });
  row("operations in the graph", [](const json&, const json& f) { return txt(f["ops"]); });
  row("points explored", [](const json&, const json& f) { return txt(f["points"]); });
  row("best latency (ns, est.)", [](const json&, const json& f) { return f1(at(f["best_latency"], "latency_ns")); });
  row("  its units", [](const json&, const json& f) { return units(f["best_latency"]); });
  row("  its cycles x period (ns)", [](const json&, const json& f) {
    return f["best_latency"].is_object() ? txt(f["best_latency"]["eval_cycles"]) + " x " + fmt::format("{:.2f}", f["best_latency"]["period_ns"].get<double>()) : "-";
  });
  row("  its area (cells, est.)", [](const json&, const json& f) { return f0(at(f["best_latency"], "area")); });
  row("best throughput (set points/s, est.)", [](const json&, const json& f) { return g4(at(f["best_throughput"], "throughput_per_s")); });
  row("  its units", [](const json&, const json& f) { return units(f["best_throughput"]); });
  row("  its mode", [](const json&, const json& f) { return txt(at(f["best_throughput"], "throughput_mode")); });
  row("  its area (cells, est.)", [](const json&, const json& f) { return f0(at(f["best_throughput"], "throughput_area")); });
  row("smallest area (cells, est.)", [](const json&, const json& f) { return f0(at(f["smallest"], "area")); });
  row("  its latency (ns, est.)", [](const json&, const json& f) { return f1(at(f["smallest"], "latency_ns")); });

  Table dt{{"slot", "robot", "flavour", "choice", "format", "arch", "units", "est. ns", "est. cells",
            "sim cycles (streaming: per set point)", "verified", "max rel. error", "synth. cells", "status"}, {}};
  for (const auto& d : rep["designs"]) {
    std::string cycles = "-", err = "-", ver = "-";
    if (d.contains("verify")) {
      ver.clear();
      for (const auto& [e, v] : d["verify"].items()) {
        ver += (ver.empty() ? "" : ", ") + e + (v["pass"].get<bool>() ? " ok" : " FAIL");
        cycles = txt(v.contains("cycles_per_evaluation") && !v["cycles_per_evaluation"].is_null() ? v["cycles_per_evaluation"] : v["cycles_per_set_point"]);
        err = g4(v["max_rel_error"]);
      }
    }
    dt.rows.push_back({fmt::format("{:03d}", d["slot"].get<int>()), txt(at(d, "robot")), txt(at(d, "flavour")),
                       txt(at(d, "choice")), txt(at(d, "format")), txt(at(d, "arch")), units(at(d, "point")),
                       f1(at(at(d, "estimate"), "latency_ns")), f0(at(at(d, "estimate"), "area")), cycles, ver, err, f0(at(at(d, "synthesis"), "cells")),
                       txt(at(d, "status"))});
  }
  Table tt{{"n", "paper mul steps", "paper add steps", "ours mul steps", "ours add steps", "7+7 lat 1 (cycles)",
            "7+7 pipelined (cycles)", "Rahman-Meyer", "Hashimoto-Kimura", "this campaign: shortest general schedule"}, {}};
  for (const auto& r : rep["table86"]) {
    std::string ours;
    for (const auto& [name, c] : r["campaign_general_shortest"].items()) ours += (ours.empty() ? "" : ", ") + name + " " + txt(c);
    tt.rows.push_back({txt(r["n"]), txt(r["paper_mul_steps"]), txt(r["paper_add_steps"]), txt(r["our_mul_steps"]),
                       txt(r["our_add_steps"]), txt(r["unit_cycles_7_7"]), txt(r["pipelined_cycles_7_7"]),
                       txt(r["rahman_meyer"]), txt(r["hashimoto_kimura"]), ours.empty() ? "- (general flavour not swept)" : ours});
  }
  const std::string title = "Campaign " + spec.name;
  const std::string intro = fmt::format(
      "{} robot(s), flavours {}, formats {}, architectures {}; {} points explored ({} verified). Estimates (est.) are "
      "the cost model's (docs/cost.md): side by side in binary32 on the microcoded datapath (the exploration's "
      "figures), per chosen design in its own format and architecture; simulation and synthesis figures are measured. {} design(s) verified; {} of the {} slots repeat an earlier slot's design; {} failed or missing.",
      rep["robots"].size(), nlohmann::json(spec.flavours).dump(), nlohmann::json(spec.formats).dump(),
      nlohmann::json(spec.architectures).dump(), txt(rep["explore_summary"]["points"]),
      txt(rep["explore_summary"]["verified"]), txt(rep["designs_verified"]), txt(rep["designs_repeated"]),
      rep["designs"].size(), txt(rep["designs_failed"]));
  const char* s1 = "Robots side by side";
  const char* s2 = "Chosen designs";
  const char* s3 = "Table 8.6-style comparison (general n-link arm of the same joint count)";
  const std::string note3 = "Seed 000's simultaneous steps (27n + 42 multiplication, 27n + 41 addition steps) beside the "
                            "same accounting on our traced graph, our list schedules on 7 + 7 units, and the later "
                            "hardware's figures; the last column is this campaign's shortest explored schedule of each "
                            "robot's general graph (where the general flavour was swept).";
  std::string m = "# " + title + "\n\n" + intro + "\n\n## " + s1 + "\n\n" + md(side) + "## " + s2 + "\n\n" + md(dt) +
                  "## " + s3 + "\n\n" + note3 + "\n\n" + md(tt) + "All numbers are read from report.json.\n";
  std::string h = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + esc(title) +
                  "</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
                  "td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}td:first-child{text-align:left}"
                  "</style></head><body>\n<h1>" + esc(title) + "</h1>\n<p>" + esc(intro) + "</p>\n<h2>" + s1 + "</h2>\n" +
                  html(side) + "<h2>" + s2 + "</h2>\n" + html(dt) + "<h2>" + esc(s3) + "</h2>\n<p>" + esc(note3) + "</p>\n" +
                  html(tt) + "<p>All numbers are read from report.json.</p>\n</body></html>\n";
  const fs::path out = dir / "report";
  fs::create_directories(out);
  campaign_write_atomic(out / "report.json", rep.dump(1) + "\n");
  campaign_write_atomic(out / "report.md", m);
  campaign_write_atomic(out / "report.html", h);
}

}  // namespace neaccel::study
