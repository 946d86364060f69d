// Checks a quick study's output directory (written by the CTest fixture study.quick_run): the report's numbers
// match its JSON data, the expected artefacts exist, and the plots are real SVG.
#include "neaccel/study/report.hpp"
#include "neaccel/cost/cost.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>

namespace fs = std::filesystem;

namespace {
const fs::path kDir = fs::path(NEACCEL_TEST_OUT) / "study_quick";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST(StudyOutput, ReportNumbersMatchTheirData) {
  const auto problems = neaccel::study::check_report(kDir);
  for (const auto& p : problems) ADD_FAILURE() << p;
  const auto manifest = nlohmann::json::parse(read(kDir / "numbers.json"));
  EXPECT_GT(manifest.size(), 100u) << "the report should quote its data, not its own numbers";
}

TEST(StudyOutput, ArtefactsExist) {
  for (const char* f : {"report.md", "report.html", "numbers.json", "data/reference.json", "data/counts.json",
                        "data/graphs.json", "data/explore.json", "data/table86.json", "data/designs.json",
                        "data/status.json"})
    EXPECT_TRUE(fs::exists(kDir / f)) << f;
}

TEST(StudyOutput, PlotsAreSvgWithData) {
  int plots = 0;
  for (const auto& e : fs::directory_iterator(kDir / "plots")) {
    if (e.path().extension() != ".svg") continue;
    ++plots;
    const std::string svg = read(e.path());
    EXPECT_NE(svg.find("<svg"), std::string::npos) << e.path();
    EXPECT_GT(svg.size(), 4000u) << e.path() << " looks empty";
    const std::string html = read(kDir / "report.html");
    EXPECT_NE(html.find("plots/" + e.path().filename().string()), std::string::npos) << "report does not show " << e.path();
  }
  EXPECT_GE(plots, 4);
}

TEST(StudyOutput, StatusPasses) {
  const auto status = nlohmann::json::parse(read(kDir / "data" / "status.json"));
  EXPECT_TRUE(status.at("pass").get<bool>()) << status.dump();
}

// ---- Time: every explored point in ns and set points per second; choices by time; the summary. ----

namespace {
using nlohmann::json;

json data(const std::string& name) { return json::parse(read(kDir / "data" / (name + ".json"))); }

// Relative agreement of two figures computed the same way in double (the JSON keeps 17 significant digits).
bool close(double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)); }

// A candidate for the choice: a verified point of the customised graph whose latency datapath fits the study's device
// and lies within what has routed on it (the rows carry the device model's fit when the target has one, as the
// default ecp5-85f does).
bool eligible(const json& r) {
  if (r["flavour"] != "custom" || !r["verified"].get<bool>()) return false;
  if (!r.contains("target")) return true;
  const json& f = r["target"]["latency"];
  // within_budget is the study's own flag; recomputed from its parts (no budget in this study).
  const bool in = f["fits"].get<bool>() && f["routable"].get<bool>() && f["modelled"].get<bool>();
  EXPECT_EQ(r["target"]["within_budget"].get<bool>(), in) << r.dump();
  return in;
}
// A candidate for best throughput per area: eligible, and its throughput design fits, is routable and modelled too.
bool throughput_eligible(const json& r) {
  return eligible(r) && (!r.contains("target") || (r["target"]["throughput"]["fits"].get<bool>() &&
                                                   r["target"]["throughput"]["routable"].get<bool>() &&
                                                   r["target"]["throughput"]["modelled"].get<bool>()));
}
// Its size for "smallest": LUT4 on the device by its model, else generic cells.
double size(const json& r) {
  return r.contains("target") ? r["target"]["latency"]["lut"].get<double>() : r["area"].get<double>();
}
}  // namespace

TEST(StudyOutput, EveryPointCarriesItsTime) {
  const json ex = data("explore"), graphs = data("graphs");
  const json& points = ex["points"];
  ASSERT_GT(points.size(), 10u);
  for (const auto& r : points) {
    const json& g = graphs["graphs"][r["flavour"].get<std::string>()];
    const int inputs = g["inputs"], outputs = graphs["n"];  // inverse dynamics: one torque per joint
    SCOPED_TRACE(r.dump());
    const double period = r["period_ns"];
    ASSERT_GT(period, 0.0);
    EXPECT_EQ(r["io_cycles"].get<int>(), inputs + outputs + 2);
    EXPECT_EQ(r["eval_cycles"].get<int>(), r["cycles"].get<int>() + inputs + outputs + 2);
    EXPECT_TRUE(close(r["latency_ns"], r["eval_cycles"].get<double>() * period));
    const int ii = r["ii"];
    // A streaming datapath beyond what has routed on the device is left out for the latency datapath, with the reason.
    if (r.contains("streaming_left_out")) {
      EXPECT_GT(ii, 0);
      EXPECT_NE(r["streaming_left_out"].get<std::string>().find("LFE5U-85F"), std::string::npos);
    }
    if (ii > 0 && !r.contains("streaming_left_out")) {  // a modulo schedule: streams, II raised to the one-port I/O bound
      EXPECT_EQ(r["throughput_mode"], "streaming");
      EXPECT_EQ(r["set_point_cycles"].get<int>(), std::max({ii, inputs, outputs}));
    } else {  // no modulo schedule: a latency datapath, one set point per evaluation
      EXPECT_EQ(r["throughput_mode"], "latency datapath");
      EXPECT_EQ(r["set_point_cycles"], r["eval_cycles"]);
      EXPECT_EQ(r["throughput_period_ns"], r["period_ns"]);
    }
    EXPECT_TRUE(close(r["throughput_per_s"], 1e9 / (r["set_point_cycles"].get<double>() * r["throughput_period_ns"].get<double>())));
  }
}

TEST(StudyOutput, DesignsAreChosenByTime) {
  const json ex = data("explore");
  const json& points = ex["points"];
  const json designs = data("designs")["designs"];
  ASSERT_EQ(designs.size(), 3u);
  // Recomputed here from explore.json: the smallest latency in ns (ties: smaller size) among the points that fit the
  // device, the smallest size within 10% of it, the most set points per second per cell of the design sustaining
  // them.
  double best_ns = std::numeric_limits<double>::infinity(), best_size = 0, best_tpa = 0;
  for (const auto& r : points)
    if (eligible(r) && (r["latency_ns"].get<double>() < best_ns ||
                        (r["latency_ns"].get<double>() == best_ns && size(r) < best_size))) {
      best_ns = r["latency_ns"];
      best_size = size(r);
    }
  double small_size = std::numeric_limits<double>::infinity();
  for (const auto& r : points)
    if (eligible(r)) {
      if (r["latency_ns"].get<double>() <= best_ns * 1.1) small_size = std::min(small_size, size(r));
      // Per LUT4 on the device (the study's default target has a device model): the throughput design's, or the
      // latency datapath's at one set point per evaluation.
      if (throughput_eligible(r))
        best_tpa = std::max(best_tpa, r["target"]["throughput_per_s_per_lut"].get<double>());
      best_tpa = std::max(best_tpa, 1e9 / r["latency_ns"].get<double>() / size(r));
    }
  EXPECT_EQ(designs[0]["name"], "fastest");
  EXPECT_EQ(designs[0]["explore"]["latency_ns"].get<double>(), best_ns);
  EXPECT_EQ(size(designs[0]["explore"]), best_size);
  EXPECT_EQ(size(designs[1]["explore"]), small_size);
  // The study's default device has a model: the choice was made on it, and every pick fits it.
  for (const auto& d : designs) {
    ASSERT_TRUE(d["explore"].contains("target")) << d["name"];
    EXPECT_TRUE(d["explore"]["target"]["latency"]["fits"].get<bool>()) << d["name"];
    EXPECT_TRUE(d["explore"]["target"]["latency"]["routable"].get<bool>()) << d["name"];
  }
  const json& tp = designs[2];
  const bool tp_latency = tp["objective"] == "latency";
  EXPECT_TRUE(close(tp_latency ? 1e9 / tp["explore"]["latency_ns"].get<double>() / size(tp["explore"])
                               : tp["explore"]["target"]["throughput_per_s_per_lut"].get<double>(),
                    best_tpa));
  EXPECT_TRUE(close(tp["throughput_per_s"].get<double>(),
                    tp_latency ? 1e9 / tp["explore"]["latency_ns"].get<double>() : tp["explore"]["throughput_per_s"].get<double>()));
  for (const auto& d : designs) {
    const std::string how = d["throughput"];
    // The design each name is generated as: streaming only for a throughput pick whose point streams (a
    // non-pipelined point has no modulo schedule); the table says so, never II 0.
    const bool streams = d["objective"] == "throughput" && d["explore"]["ii"].get<int>() > 0 &&
                         !d["explore"].contains("streaming_left_out");
    EXPECT_EQ(d["streaming"].get<bool>(), streams) << d["name"];
    EXPECT_EQ(how.rfind(streams ? "streaming" : "latency datapath", 0), 0u) << how;
    EXPECT_EQ(d["device"]["fits"].get<bool>(), d["area"].get<double>() <= 7680) << d.dump();
    // A hardwired latency design was ranked as the study generates it (the interconnect-aware binding), not on the
    // left-edge binding the sweep costs every point on; stage_verify checks the built design has those figures.
    if (d["explore"]["arch"] == "hardwired" && !streams) {
      EXPECT_EQ(d["explore"].value("binding", ""), "interconnect") << d["name"];
    }
  }
  // The choice settled: no hardwired point left on its left-edge binding could displace a pick by its bound (its
  // multiplexer figures scaled to below what any re-costed point kept), and the shares are such fractions.
  const json recost = data("recost");
  EXPECT_TRUE(recost["settled"].get<bool>());
  EXPECT_GT(recost["bounded"].get<int>(), 0);
  for (const char* f : {"mux_inputs", "mux2_equivalent", "max_port_sources"}) {
    EXPECT_GT(recost["share"][f].get<double>(), 0.0) << f;
    EXPECT_LE(recost["share"][f].get<double>(), 1.0) << f;
  }
  std::size_t interconnect = 0;
  const json explored = data("explore");
  for (const auto& r : explored["points"]) interconnect += r.value("binding", "") == "interconnect";
  EXPECT_EQ(interconnect, recost["recosted"].get<std::size_t>());
}

TEST(StudyOutput, PredictedCyclesEqualSimulatedCycles) {
  // The exploration's cycles per evaluation (schedule + I/O) are what the verified latency datapath takes in
  // simulation; a streaming throughput pick is generated as a streaming datapath and delivers a result every
  // set_point_cycles (the predicted II) cycles, steadily.
  const json designs = data("designs")["designs"], runs = data("verify")["runs"];
  int matched = 0;
  for (const auto& run : runs)
    for (const auto& d : designs)
      if (run["name"] == d["name"] && run["format"] == "fp32") {
        ++matched;
        EXPECT_EQ(run["mode"] == "streaming", d["streaming"].get<bool>()) << d["name"];
        if (run["mode"] == "streaming") {
          EXPECT_EQ(run["cycles_per_set_point"], d["explore"]["set_point_cycles"]) << d["name"];
          EXPECT_TRUE(run["steady_ii"].get<bool>()) << d["name"];
        } else {
          EXPECT_EQ(run["cycles_per_evaluation"], d["explore"]["eval_cycles"]) << d["name"];
        }
      }
  EXPECT_EQ(matched, 3);
}

TEST(StudyOutput, TimeFrontsAreNotDominated) {
  const json ex = data("explore");
  const json& points = ex["points"];
  struct Front {
    const char* key;
    const char* area;
    const char* metric;
    double sign;  // +1: smaller is better, -1: larger
  };
  for (const Front f : {Front{"custom_latency_ns", "area", "latency_ns", 1}, Front{"custom_throughput", "throughput_area", "throughput_per_s", -1}}) {
    const auto front = ex["fronts"][f.key].get<std::vector<std::size_t>>();
    ASSERT_FALSE(front.empty()) << f.key;
    for (std::size_t i : front)
      for (const auto& r : points) {
        if (r["flavour"] != "custom") continue;
        const double a = r[f.area], m = f.sign * r[f.metric].get<double>();
        const double fa = points[i][f.area], fm = f.sign * points[i][f.metric].get<double>();
        EXPECT_FALSE((a <= fa && m < fm) || (a < fa && m <= fm)) << f.key << " point " << i << " dominated by " << r.dump();
      }
  }
  for (const char* plot : {"pareto_latency_ns.svg", "pareto_throughput.svg"}) EXPECT_TRUE(fs::exists(kDir / "plots" / plot)) << plot;
}

TEST(StudyOutput, SummaryComesFirstAndNamesTheChoices) {
  const std::string md = read(kDir / "report.md");
  const auto summary = md.find("## Summary"), first = md.find("## 1. ");
  ASSERT_NE(summary, std::string::npos);
  ASSERT_NE(first, std::string::npos);
  EXPECT_LT(summary, first);
  const std::string text = md.substr(summary, first - summary);
  for (const char* s : {"- Lowest latency: ", "- Highest throughput: ", "- This machine's CPU"})
    EXPECT_NE(text.find(s), std::string::npos) << s;
  const json s = data("summary");
  double best = 0;
  const json ex = data("explore");
  // The best throughput of the summary is the largest among the verified customised points whose throughput
  // design fits the device.
  for (const auto& r : ex["points"])
    if (r["flavour"] == "custom" && r["verified"].get<bool>() && r["target"]["throughput"]["fits"].get<bool>())
      best = std::max(best, r["throughput_per_s"].get<double>());
  EXPECT_EQ(s["best_throughput"]["throughput_per_s"].get<double>(), best);
  EXPECT_EQ(s["fastest"]["explore"], data("designs")["designs"][0]["explore"]);
}

TEST(StudyOutput, CpuTimingIsMeasuredAndLabelled) {
  // The measured times are in timings.json only (without --report-timings); data/cpu.json keeps what does
  // not vary between runs.
  const json cpu = data("cpu");
  EXPECT_FALSE(cpu["measured"].get<bool>());
  EXPECT_LE(cpu["generated_max_rel_diff"].get<double>(), 1e-9);
  const json t = json::parse(read(kDir / "timings.json"));
  EXPECT_GT(t["cpu"]["reference_ns"].get<double>(), 0.0);
  ASSERT_TRUE(t["cpu"]["generated_ns"].is_number()) << cpu["generated_error"];
  EXPECT_GT(t["cpu"]["generated_ns"].get<double>(), 0.0);
  EXPECT_GT(t["cpu"]["speedup_over_reference"].get<double>(), 0.0);
  EXPECT_EQ(t["stages"].size(), 8u);
  // Nothing in the data or the report is measured: no file mentions the CPU figures' fields.
  for (const auto& e : fs::directory_iterator(kDir / "data"))
    EXPECT_EQ(read(e.path()).find("reference_ns"), std::string::npos) << e.path();
  EXPECT_EQ(read(kDir / "numbers.json").find("reference_ns"), std::string::npos);
  EXPECT_NE(read(kDir / "report.md").find("`timings.json`"), std::string::npos) << "the report should say where the times are";
}

// The platform table: in the summary, inside a measured part, from measured/comparison.json: the accelerator rows
// (the fastest chosen latency datapath as placed and routed on the study's device, then the study's two estimates,
// equal to data/summary.json's, with their LUT4 and DSP blocks by the device model), the CPU rows measured in this
// run, a Pinocchio row saying why it was skipped (--quick), and a GPU row that says it was not measured on this
// machine when it was not. The ratios to the CPU quote the placed time, a measurement, not the estimate.
TEST(StudyOutput, PlatformTableIsMeasuredAndMarked) {
  const json c = json::parse(read(kDir / "measured" / "comparison.json"));
  const json s = data("summary");
  ASSERT_GE(c["rows"].size(), 6u);
  // The placed time: the least of the chosen latency datapaths placed and routed and of the fastest one's levers
  // (data/device.json).
  const json device = data("device");
  double placed_ns = 0.0;
  for (const auto& d : device["designs"])
    if (d["latency_datapath"].get<bool>() && d["placed"].contains("time_ns") &&
        (placed_ns == 0.0 || d["placed"]["time_ns"].get<double>() < placed_ns))
      placed_ns = d["placed"]["time_ns"].get<double>();
  std::string placed_format = "binary32";
  for (const auto& l : device.value("levers", json::array()))
    if (l["placed"].contains("time_ns") && l["placed"]["time_ns"].get<double>() < placed_ns) {
      placed_ns = l["placed"]["time_ns"].get<double>();
      placed_format = l["format"];
    }
  ASSERT_GT(placed_ns, 0.0) << "the quick study places its fastest design from the committed cache";
  ASSERT_TRUE(s["fastest"].contains("placed"));
  EXPECT_EQ(s["fastest"]["placed"]["time_ns"].get<double>(), placed_ns);
  EXPECT_EQ(c["rows"][0]["one_state_ns"].get<double>(), placed_ns);
  EXPECT_EQ(c["rows"][0]["platform"].get<std::string>().rfind("accelerator, lowest latency, placed and routed", 0), 0u);
  EXPECT_NE(c["rows"][0]["platform"].get<std::string>().find(", " + placed_format + ", "), std::string::npos)
      << c["rows"][0]["platform"];
  EXPECT_NE(c["rows"][0]["where"].get<std::string>().find(device["part"].get<std::string>()), std::string::npos);
  EXPECT_EQ(c["rows"][1]["one_state_ns"], s["fastest"]["explore"]["latency_ns"]);
  EXPECT_EQ(c["rows"][1]["platform"].get<std::string>().rfind("accelerator, lowest latency, estimated", 0), 0u);
  EXPECT_EQ(c["rows"][2]["platform"].get<std::string>().rfind("accelerator, highest throughput", 0), 0u);
  for (int i = 0; i < 3; ++i)  // the study's device, not the iCE40 the designs do not fit
    EXPECT_EQ(c["rows"][i]["where"].get<std::string>().find("iCE40"), std::string::npos) << c["rows"][i]["where"];
  EXPECT_EQ(c["ratios"]["accelerator_latency_from"], "placed and routed");
  const json p = json::parse(read(kDir / "measured" / "platforms.json"));
  EXPECT_DOUBLE_EQ(c["ratios"]["accelerator_latency_over_cpu_one_state_b64"].get<double>(),
                   placed_ns / p["scalars"]["double"]["one_state_ns"].get<double>());
  const json t = json::parse(read(kDir / "timings.json"));
  EXPECT_EQ(t["cpu"]["fastest_latency_ns"].get<double>(), placed_ns);
  EXPECT_EQ(t["cpu"]["fastest_latency_from"], "placed and routed");
  // Every row holds the numbers its kind prints; the only rows without figures are the two that say why: Pinocchio
  // skipped by --quick, and no GPU on this machine. A row that holds no number ("not measured: building the
  // Pinocchio benchmark failed", a GPU row of kernels nobody measured) fails here.
  const auto number = [](const json& v) { return v.is_number() && v.get<double>() > 0; };
  int cpu = 0, batched = 0, pin = 0, gpu = 0;
  for (const auto& row : c["rows"]) {
    const std::string p = row["platform"];
    SCOPED_TRACE(row.dump());
    if (p.rfind("CPU, one core, one state", 0) == 0) {
      ++cpu;
      EXPECT_TRUE(number(row["one_state_ns"]));
      EXPECT_TRUE(number(row["states_per_s"]));
      EXPECT_LT(row["error"].get<double>(), 1e-5) << p;  // binary32 at worst (docs/platforms.md: 1.4e-6 measured)
    } else if (p.rfind("CPU, batched kernel", 0) == 0) {
      ++batched;
      EXPECT_TRUE(number(row["states_per_s"]));
      EXPECT_TRUE(number(row["batch"]));
      EXPECT_LT(row["error"].get<double>(), 1e-5) << p;
    } else if (p.find("Pinocchio") != std::string::npos) {
      ++pin;
      if (row["one_state_ns"].is_null()) {  // only --quick's skip (this fixture runs --quick)
        EXPECT_EQ(p, "Pinocchio: skipped (--quick: its first build takes minutes; --pinocchio)");
      } else {
        EXPECT_TRUE(number(row["one_state_ns"]));
        EXPECT_TRUE(number(row["states_per_s"]));
        EXPECT_LE(row["error"].get<double>(), 1e-12);  // dfg::kPinocchioTolerance
      }
    } else if (p.rfind("GPU on this machine: ", 0) == 0) {  // why this machine's GPU has no figures
      EXPECT_TRUE(row["one_state_ns"].is_null() && row["states_per_s"].is_null());
      EXPECT_EQ(p.rfind("GPU on this machine: not measured here", 0), 0u);
    } else if (p.rfind("GPU ", 0) == 0) {  // measured here or kept data: figures
      ++gpu;
      EXPECT_TRUE(number(row["one_state_ns"]));
      EXPECT_TRUE(number(row["states_per_s"]));
      EXPECT_TRUE(number(row["batch"]));
      EXPECT_TRUE(number(row["error"]));
    } else {
      EXPECT_EQ(p.rfind("accelerator, ", 0), 0u) << "a row of an unknown kind";
      EXPECT_TRUE(number(row["one_state_ns"]));
      EXPECT_TRUE(number(row["states_per_s"]));
    }
  }
  EXPECT_EQ(cpu, 2) << "binary64 and binary32";
  EXPECT_EQ(batched, 4) << "one core and all cores, binary64 and binary32";
  EXPECT_EQ(pin, 1);
  // The quick study's graph (puma560 id) is one the kept GPU measurements cover: its rows hold their figures,
  // binary64 and binary32, whether or not this machine has a GPU.
  EXPECT_EQ(gpu, 2) << "a GPU row with figures per format (measured here, or kept data of today's kernels)";
  const std::string md = read(kDir / "report.md");
  const std::size_t table = md.find("| platform | one state (ns)");
  ASSERT_NE(table, std::string::npos);
  const std::size_t begin = md.rfind("<!-- measured: begin -->", table);  // the part the table is in
  ASSERT_NE(begin, std::string::npos);
  const std::size_t before = md.rfind("<!-- measured: end -->", table);
  EXPECT_TRUE(before == std::string::npos || before < begin) << "the table is outside every measured part";
  EXPECT_LT(table, md.find("<!-- measured: end -->", begin));
  EXPECT_LT(table, md.find("## 1. Reference check")) << "the table belongs to the summary";
  // Measured numbers are in measured/numbers.json only.
  EXPECT_EQ(read(kDir / "numbers.json").find("comparison"), std::string::npos);
  EXPECT_NE(read(kDir / "measured" / "numbers.json").find("comparison"), std::string::npos);
}

// The cycles-against-registers table: a register limit no schedule met is "none" (a list length, II or
// latency of 0 is the schedulers' "no schedule", never a figure to print), in the data and so in the report.
TEST(StudyOutput, RegisterTableSaysNoneNotZero) {
  const json t = data("register_tradeoff");
  ASSERT_FALSE(t["rows"].empty());
  for (const auto& row : t["rows"])
    for (const char* k : {"registers", "length", "ii", "modulo_latency"}) {
      const json& v = row.at(k);
      if (v.is_string()) {
        EXPECT_TRUE(v == "none" || v == "not computed") << k << ": " << v;
      } else {
        EXPECT_GT(v.get<int>(), 0) << k << " at " << row["percent"] << "%: 0 should read \"none\"";
      }
    }
  EXPECT_GT(t["rows"][0]["length"].get<int>(), 0) << "the unconstrained list schedule always exists";
}

TEST(StudyOutput, DeviceSectionCostsEveryChosenDesign) {
  // Every distinct chosen design costed on the default target (the ECP5 LFE5U-85F) by its device model; where it has
  // been placed and routed (the committed cache), the time at the placed clock is its cycles times that period.
  const json dev = data("device");
  EXPECT_EQ(dev["target"], "ecp5-85f");
  EXPECT_EQ(dev["part"], "LFE5U-85F-6BG381C");
  const json designs = data("designs")["designs"];
  ASSERT_FALSE(dev["designs"].empty());
  EXPECT_EQ(dev["designs"][0]["name"], designs[0]["name"]) << "the fastest design first (the summary's line)";
  for (const auto& d : dev["designs"]) {
    const json& m = d["model"];
    EXPECT_GT(m["lut"].get<double>(), 0.0) << d["name"];
    EXPECT_GT(m["period_ns"].get<double>(), 0.0) << d["name"];
    EXPECT_TRUE(close(m["time_ns"].get<double>(), d["cycles"].get<int>() * m["period_ns"].get<double>())) << d["name"];
    const json& p = d["placed"];
    ASSERT_TRUE(p.contains("status")) << d["name"];
    if (p.contains("fmax_mhz")) {
      EXPECT_TRUE(close(p["time_ns"].get<double>(), d["cycles"].get<int>() * p["period_ns"].get<double>())) << d["name"];
      EXPECT_GT(p["dsp"].get<long>(), 0) << d["name"];
    }
  }
  // Every chosen name is in the table: as a row, or beside the row of the design it shares (the quick study's
  // fastest and smallest within 10 % are one point).
  for (const auto& c : designs) {
    bool named = false;
    for (const auto& d : dev["designs"]) {
      named = named || d["name"] == c["name"];
      for (const auto& also : d["also"]) named = named || also == c["name"];
    }
    EXPECT_TRUE(named) << c["name"];
  }
  // The fastest design in fixed:16.16 beside it: the same point and cycles on the fixed-point units, costed and (from
  // the committed cache) placed and routed.
  int fixed = 0;
  for (const auto& d : dev["designs"]) {
    if (d["format"] == "fp32") continue;
    ++fixed;
    EXPECT_EQ(d["format"], "fixed:16.16");
    EXPECT_EQ(d["name"], designs[0]["name"].get<std::string>() + ", fixed:16.16");
    EXPECT_EQ(d["point"], dev["designs"][0]["point"]);
    EXPECT_EQ(d["cycles"], dev["designs"][0]["cycles"]);
    EXPECT_EQ(d["dir"], "fastest_fixed_16_16");
    EXPECT_TRUE(d["placed"].contains("time_ns")) << d["placed"]["status"];
  }
  EXPECT_EQ(fixed, 1);
  const std::string md = read(kDir / "report.md");
  const std::string text = md.substr(md.find("## Summary"), md.find("## 1. ") - md.find("## Summary"));
  EXPECT_NE(text.find("- The same design in fixed:16.16 (section 6: torques within "), std::string::npos);
  // A placement read at another seed than the figure of record's (seed 1's did not route) says so, in the status,
  // the table and the summary.
  for (const auto& d : dev["designs"]) {
    const int seed = d["placed"].value("seed", 1);
    if (seed == 1) {
      EXPECT_EQ(d["placed"]["status"].get<std::string>().find("seed"), std::string::npos) << d["placed"]["status"];
      continue;
    }
    const std::string note = fmt::format("nextpnr seed {}", seed);
    EXPECT_NE(d["placed"]["status"].get<std::string>().find(note), std::string::npos) << d["placed"]["status"];
    EXPECT_NE(md.find("| " + d["name"].get<std::string>() + " (" + note + ") |"), std::string::npos) << note;
    if (d["format"] != "fp32") {
      EXPECT_NE(text.find("placed and routed (" + note + "): "), std::string::npos) << note;
    }
  }
  EXPECT_NE(text.find("- On the LFE5U-85F-6BG381C"), std::string::npos);
  EXPECT_NE(md.find("### On a device that holds them: LFE5U-85F-6BG381C"), std::string::npos);
}

// The fastest design with the hardwired pipelining options (registered decode; with operand registers where every
// latency is at least 2): per option and format one design, verified by co-simulating its own Verilog (section 6),
// with the fastest design's cycles (the options change the Verilog, not the program), placed from the committed cache
// and compared with the same design's placed time without them; the summary quotes the fastest per format. The
// deep-units lever is built in fixed:16.16 only, at its own latencies (a new schedule: its own cycles), of the
// deep units, with registered decode and with local sequencers.
TEST(StudyOutput, PipeliningOptionsAreVerifiedPlacedAndCompared) {
  const json dev = data("device");
  const json designs = data("designs")["designs"];
  ASSERT_EQ(designs[0]["explore"]["arch"], "hardwired") << "the quick study's fastest design is hardwired";
  ASSERT_TRUE(dev.contains("levers"));
  const json& lv = dev["levers"];
  const bool opregs = designs[0]["explore"]["lat_mul"].get<int>() >= 2 && designs[0]["explore"]["lat_add"].get<int>() >= 2;
  // per lever, binary32 and fixed:16.16; the deep levers (registered decode, local sequencers) in fixed:16.16
  // and, with operand registers, overlapped I/O in fixed:16.16
  EXPECT_EQ(lv.size(), (opregs ? 5u : 2u) + 2u);
  int deep_levers = 0;
  const json runs = data("verify")["runs"];
  const std::string md = read(kDir / "report.md");
  const std::string summary = md.substr(md.find("## Summary"), md.find("## 1. ") - md.find("## Summary"));
  std::map<std::string, double> best;  // per format the least placed time
  for (const auto& l : lv) {
    SCOPED_TRACE(l["name"].get<std::string>() + " " + l["format"].get<std::string>());
    EXPECT_EQ(l["name"], designs[0]["name"].get<std::string>() + ", " + l["lever"].get<std::string>());
    // The same program: the fastest design's cycles, less the load cycles a four-word port saves (n inputs in
    // ceil(n / 4) beats).
    const json m = json::parse(read(kDir / "designs" / l["dir"].get<std::string>() / "manifest.json"));
    EXPECT_NE(l["lever"].get<std::string>().find("a 4-word input port"), std::string::npos);
    EXPECT_EQ(m["spec"].value("in_words", 1), 4);
    const bool deep = l["lever"].get<std::string>().find("with the deep units at ") != std::string::npos;
    EXPECT_EQ(m["spec"].value("units", std::string("standard")), deep ? "deep" : "standard");
    if (deep) {
      ++deep_levers;
      EXPECT_EQ(l["format"], "fixed:16.16");
      EXPECT_EQ(l["lever"].get<std::string>().substr(l["lever"].get<std::string>().rfind(' ') + 1),
                fmt::format("{}/{}", m["spec"]["lat_mul"].get<int>(), m["spec"]["lat_add"].get<int>()));
      EXPECT_EQ(l["cycles"], m["datapath"]["cycles"]);
    } else if (l["lever"].get<std::string>().find("with overlapped I/O") != std::string::npos) {
      // A new schedule with input release times: the first input word to the last result in fewer cycles than the
      // phases with the four-word port.
      EXPECT_EQ(l["format"], "fixed:16.16");
      EXPECT_EQ(m["spec"].value("io", std::string("phases")), "overlap");
      EXPECT_EQ(l["cycles"], m["datapath"]["cycles"]);
      const int n_in = static_cast<int>(m["datapath"]["inputs"].size());
      EXPECT_LT(l["cycles"].get<int>(), dev["designs"][0]["cycles"].get<int>() - n_in + (n_in + 3) / 4);
    } else {
      const int n_in = static_cast<int>(m["datapath"]["inputs"].size());
      EXPECT_EQ(l["cycles"].get<int>(), dev["designs"][0]["cycles"].get<int>() - n_in + (n_in + 3) / 4);
    }
    // Its own Verilog was co-simulated: RTL = SystemC model in every compared cycle, bit-exact.
    bool verified = false;
    for (const auto& r : runs)
      if (r["name"] == l["name"] && r["format"] == l["format"]) {
        verified = r["pass"].get<bool>() && r["engines"] == "Verilator co-simulated with SystemC" &&
                   r["cosim_cycles"].get<long>() > 0 && r["cycles_per_evaluation"] == l["cycles"];
      }
    EXPECT_TRUE(verified);
    // The manifest says which options it was built with.
    const bool local = l["lever"].get<std::string>().rfind("local sequencers, ", 0) == 0;
    EXPECT_EQ(m["spec"]["decode"], local ? "local" : "registered");
    if (local) {
      EXPECT_TRUE(deep);
    }
    EXPECT_EQ(m["spec"].value("operand_regs", false), l["lever"].get<std::string>().find("operand registers") != std::string::npos);
    ASSERT_TRUE(l["placed"].contains("time_ns")) << l["placed"]["status"];
    const double t = l["placed"]["time_ns"].get<double>();
    EXPECT_TRUE(close(t, l["cycles"].get<int>() * l["placed"]["period_ns"].get<double>()));
    ASSERT_TRUE(l.contains("without"));
    EXPECT_TRUE(close(l["speedup"].get<double>(), l["without"]["time_ns"].get<double>() / t));
    const std::string f = l["format"];
    if (!best.count(f) || t < best[f]) best[f] = t;
  }
  EXPECT_EQ(deep_levers, 2);
  EXPECT_EQ(best.size(), 2u);
  for (const auto& [format, t] : best)
    EXPECT_NE(summary.find("the lowest-latency design in " + format + " takes " + fmt::format("{:.1f}", t) + " ns"),
              std::string::npos) << format;
  EXPECT_NE(md.find("| options | format | cycles |"), std::string::npos);
}

// The summary leads with the designs the study stands behind (measured/headline.json, a measured part): the fastest
// placed design first (summary.json fastest.placed), then each chosen latency datapath placed on the device, each
// verified in section 6, with its placed time, rate and resources, and its ratios to one CPU core (binary64, this
// run) and to the GPU's best binary32 rate recomputed from the platform data.
TEST(StudyOutput, SummaryLeadsWithThePlacedVerifiedDesigns) {
  const json h = json::parse(read(kDir / "measured" / "headline.json"));
  const json s = data("summary");
  const json p = json::parse(read(kDir / "measured" / "platforms.json"));
  ASSERT_GE(h["rows"].size(), 2u);
  EXPECT_EQ(h["rows"][0]["role"], "fastest");
  EXPECT_EQ(h["rows"][0]["time_ns"], s["fastest"]["placed"]["time_ns"]);
  EXPECT_EQ(h["rows"][0]["design"], s["fastest"]["placed"]["design"]);
  const double cpu = p["scalars"]["double"]["one_state_ns"].get<double>();
  EXPECT_EQ(h["cpu_one_state_ns"].get<double>(), cpu);
  const json device = data("device");
  std::size_t placed = 0;
  for (const auto& d : device["designs"])
    placed += d["latency_datapath"].get<bool>() && d["placed"].contains("time_ns") && d["name"] != h["rows"][0]["design"];
  EXPECT_EQ(h["rows"].size(), placed + 1);
  for (const auto& row : h["rows"]) {
    SCOPED_TRACE(row.dump());
    EXPECT_EQ(row["verified"].get<std::string>().rfind("bit-exact", 0), 0u);
    const double ns = row["time_ns"].get<double>();
    EXPECT_TRUE(close(row["per_s"].get<double>(), 1e9 / ns));
    EXPECT_TRUE(close(row["vs_cpu"].get<double>(), cpu / ns));
    EXPECT_GT(row["lut"].get<double>(), 0);
    if (h["gpu_states_per_s"].is_number()) {
      EXPECT_TRUE(close(row["vs_gpu"].get<double>(), (1e9 / ns) / h["gpu_states_per_s"].get<double>()));
    }
  }
  // First in the summary, before the estimates.
  const std::string md = read(kDir / "report.md");
  const std::size_t at = md.find("## Summary");
  ASSERT_NE(at, std::string::npos);
  const std::size_t table = md.find("The designs this study stands behind", at);
  EXPECT_LT(table, md.find("- Lowest latency: ", at));
  EXPECT_LT(md.find("<!-- measured: begin -->", at), table);
}

// The synthesis table's FPGA column speaks of the study's device (the quick study's target, the ECP5): each flat
// design's LUT4 and DSP blocks by that device's model on the design as generated, recomputed here from its manifest,
// not the iCE40 estimate of a device none of the designs fits.
TEST(StudyOutput, SynthesisTableGivesTheStudysDeviceModel) {
  const json device = data("device");
  const std::string part = device["part"];
  const json synthesis = data("synthesis");
  int flat = 0;
  for (const auto& row : synthesis["designs"]) {
    if (row["method"] != "flat: whole datapath") continue;
    ++flat;
    const std::string fpga = row["fpga"];
    EXPECT_EQ(fpga.find("iCE40"), std::string::npos) << fpga;
    neaccel::cost::CostPoint p = neaccel::cost::cost_point_from_manifest(
        json::parse(read(kDir / "designs" / row["dir"].get<std::string>() / "manifest.json")));
    p.target = device["target"];
    const neaccel::cost::CostEstimate e = neaccel::cost::estimate_cost(p);
    EXPECT_EQ(fpga.rfind(fmt::format("{} by its model: {:.0f} LUT4 (", part, e.lut), 0), 0u) << fpga;
    EXPECT_NE(fpga.find(fmt::format(", {:.0f} DSP blocks", e.dsp)), std::string::npos) << fpga;
  }
  EXPECT_GE(flat, 1) << "the quick study synthesises its smallest hardwired design flat";
}

// The I/O figures beside the bound (sched::io_overlap): per explored latency pair, for a one-word and a four-word
// input port, the least cycles from first input word to last output word on the same critical path, and the deep
// units' bound (rtl/units/deep) recomputed from the target's unit table.
TEST(StudyOutput, DeviceBoundWithOverlappedIoAndDeepUnits) {
  const json dev = data("device");
  ASSERT_TRUE(dev.contains("bound"));
  for (const auto& b : dev["bound"]["by_latency"]) {
    SCOPED_TRACE(b.dump());
    ASSERT_TRUE(b.contains("io"));
    ASSERT_EQ(b["io"].size(), 2u);
    EXPECT_EQ(b["io"][0]["in_words"], 1);
    EXPECT_EQ(b["io"][1]["in_words"], 4);
    for (const auto& io : b["io"]) {
      EXPECT_EQ(io["critical_path"], b["critical_path"]);  // the same graph as the bound's
      EXPECT_EQ(io["hidden_io"].get<int>(), io["cycles"].get<int>() - io["critical_path"].get<int>());
      EXPECT_GE(io["hidden_io"].get<int>(), 2);  // the first beat and the last output word at least
      // Every port word needs its beat: the last beat is at least (n_in - 1) / in_words.
      EXPECT_GE(io["cycles"].get<int>(), (io["port_inputs"].get<int>() - 1) / io["in_words"].get<int>() + 2);
    }
    EXPECT_LE(b["io"][1]["cycles"].get<int>(), b["io"][0]["cycles"].get<int>());  // a wider port is never slower
  }
  ASSERT_TRUE(dev["bound"].contains("deep")) << "the ECP5 table has the deep units";
  const std::map<std::string, std::pair<std::string, std::string>> units{
      {"fp32", {"fp32-mul-deep", "fp32-add-deep"}}, {"fixed", {"fx-mul-deep", "fx-add-deep"}}};
  for (const auto& [format, mu] : units) {
    SCOPED_TRACE(format);
    const json& d = dev["bound"]["deep"][format];
    const int m = d["lat_mul"].get<int>(), a = d["lat_add"].get<int>();
    const double t = std::max(neaccel::cost::unit_stage_period_ns("ecp5-85f", mu.first, m),
                              neaccel::cost::unit_stage_period_ns("ecp5-85f", mu.second, a));
    EXPECT_TRUE(close(d["unit_period_ns"].get<double>(), t));
    EXPECT_TRUE(close(d["ns"].get<double>(), d["critical_path"].get<int>() * t));
    EXPECT_GE(d["with_io"]["cycles"].get<int>(), d["critical_path"].get<int>() + 2);
    EXPECT_TRUE(close(d["with_io"]["ns"].get<double>(), d["with_io"]["cycles"].get<int>() * t));
    const json& q = d["throughput"];
    EXPECT_EQ(q["ii"].get<long>(), std::max({q["ii_dsp"].get<long>(), q["ii_lut"].get<long>(), q["ii_io"].get<long>()}));
    EXPECT_LE(q["multipliers"].get<long>() * q["dsp_per_multiplier"].get<long>(), q["device_dsp"].get<long>());
    EXPECT_TRUE(close(q["evaluations_per_s"].get<double>(), q["fmax_mhz"].get<double>() * 1e6 / q["ii"].get<double>()));
  }
  const std::string md = read(kDir / "report.md");
  EXPECT_NE(md.find("I/O no schedule hides, 1-word port (cycles) | the same, 4-word port (cycles) |"), std::string::npos);
  EXPECT_NE(md.find("On the deep units (the same arithmetic bit for bit"), std::string::npos);
  EXPECT_NE(md.find("And in set points per second: a streaming design of the deep fixed:16.16 units"), std::string::npos);
}

TEST(StudyOutput, DeviceBoundIsTheCriticalPathAtTheUnitsOwnClock) {
  // The bound: per explored pipelined latency pair, the least over its points of the critical path (cycles, unlimited
  // units) times the units' slowest stage alone on the device; the least of those. Recomputed here from explore.json.
  const json ex = data("explore"), dev = data("device");
  ASSERT_TRUE(dev.contains("bound"));
  std::map<std::pair<int, int>, double> least;
  for (const auto& r : ex["points"]) {
    SCOPED_TRACE(r.dump());
    // The list schedule is no shorter than the critical path.
    EXPECT_LE(r["critical_path"].get<int>(), r["cycles"].get<int>());
    EXPECT_GT(r["unit_period_ns"].get<double>(), 0.0);
    if (!r["pipelined"].get<bool>()) continue;
    const double ns = r["critical_path"].get<int>() * r["unit_period_ns"].get<double>();
    auto [it, fresh] = least.insert({{r["lat_mul"].get<int>(), r["lat_add"].get<int>()}, ns});
    if (!fresh) it->second = std::min(it->second, ns);
  }
  const json& by = dev["bound"]["by_latency"];
  ASSERT_EQ(by.size(), least.size());
  double best = 0, fixed_best = 0;
  for (const auto& b : by) {
    const auto it = least.find({b["lat_mul"].get<int>(), b["lat_add"].get<int>()});
    ASSERT_NE(it, least.end()) << b.dump();
    EXPECT_TRUE(close(b["ns"].get<double>(), it->second)) << b.dump();
    EXPECT_TRUE(close(b["ns"].get<double>(), b["critical_path"].get<int>() * b["unit_period_ns"].get<double>()));
    best = best == 0 ? it->second : std::min(best, it->second);
    // The fixed-point units on the same schedules: the same cycles at their own clock (the quick study explores
    // multipliers and adders only, so every latency pair has it).
    ASSERT_TRUE(b.contains("fixed")) << b.dump();
    const json& f = b["fixed"];
    EXPECT_EQ(f["format"], "fixed:16.16");
    EXPECT_TRUE(close(f["ns"].get<double>(), b["critical_path"].get<int>() * f["unit_period_ns"].get<double>()));
    fixed_best = fixed_best == 0 ? f["ns"].get<double>() : std::min(fixed_best, f["ns"].get<double>());
  }
  EXPECT_TRUE(close(dev["bound"]["ns"].get<double>(), best));
  EXPECT_TRUE(close(dev["bound"]["fixed"]["ns"].get<double>(), fixed_best));
  // A bound: every chosen design is slower, by its model and where placed by its placed clock; the fastest design in
  // fixed point than the fixed-point bound.
  for (const auto& d : dev["designs"]) {
    const double bound = d["format"] == "fp32" ? best : fixed_best;
    EXPECT_EQ(d["format"] == "fp32" || d["format"] == "fixed:16.16", true) << d["name"];
    EXPECT_GT(d["model"]["time_ns"].get<double>(), bound) << d["name"];
    if (d["placed"].contains("time_ns")) {
      EXPECT_GT(d["placed"]["time_ns"].get<double>(), bound) << d["name"];
    }
  }
  const std::string md = read(kDir / "report.md");
  const std::string summary = md.substr(md.find("## Summary"), md.find("## 1. ") - md.find("## Summary"));
  EXPECT_NE(summary.find("- No explored design can take less than "), std::string::npos);
  EXPECT_NE(summary.find("- The same bound on the fixed:16.16 units: "), std::string::npos);
  EXPECT_NE(md.find("| lat mul | lat add | critical path (cycles) | fp32 units alone: MHz | fp32 bound (ns) | "
                    "fixed:16.16 units alone: MHz | fixed:16.16 bound (ns) |"),
            std::string::npos);
}
