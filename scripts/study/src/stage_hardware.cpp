// Stages 5-7: named design points, their RTL, co-simulation and synthesis.
#include "context.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace neaccel::study {

namespace fs = std::filesystem;

namespace {
using nlohmann::json;

// The named designs of issue 6, chosen on the customised graph: fastest (fewest cycles, then smallest area),
// smallest within 10% of the fastest, best throughput per area (1 / (II * area)).
json choose(const json& rows, double max_area) {
  auto ok = [&](const json& r) { return r["flavour"] == "custom" && r["verified"].get<bool>() && (max_area <= 0 || r["area"].get<double>() <= max_area); };
  std::ptrdiff_t fastest = -1, smallest = -1, best_tpa = -1;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!ok(rows[i])) continue;
    const auto& r = rows[i];
    if (fastest < 0 || std::make_pair(r["cycles"].get<int>(), r["area"].get<double>()) <
                           std::make_pair(rows[static_cast<std::size_t>(fastest)]["cycles"].get<int>(), rows[static_cast<std::size_t>(fastest)]["area"].get<double>()))
      fastest = static_cast<std::ptrdiff_t>(i);
  }
  if (fastest < 0) throw Error(fmt::format("study: no verified design fits the budget of {} cells", max_area));
  const int fast_cycles = rows[static_cast<std::size_t>(fastest)]["cycles"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!ok(rows[i])) continue;
    const auto& r = rows[i];
    if (r["cycles"].get<int>() * 10 <= fast_cycles * 11 &&
        (smallest < 0 || r["area"].get<double>() < rows[static_cast<std::size_t>(smallest)]["area"].get<double>()))
      smallest = static_cast<std::ptrdiff_t>(i);
    auto tpa = [&](const json& x) { return 1.0 / (x["ii"].get<double>() * x["area"].get<double>()); };
    if (best_tpa < 0 || tpa(r) > tpa(rows[static_cast<std::size_t>(best_tpa)])) best_tpa = static_cast<std::ptrdiff_t>(i);
  }
  json out = json::array();
  out.push_back({{"name", "fastest"}, {"point", fastest}, {"objective", "latency"}});
  out.push_back({{"name", "smallest within 10%"}, {"point", smallest}, {"objective", "latency"}});
  out.push_back({{"name", "best throughput per area"}, {"point", best_tpa}, {"objective", "throughput"}});
  return out;
}
}  // namespace

void stage_designs(Context& ctx) {
  ctx.progress.stage("Design choice");
  const json& rows = ctx.data.at("explore")["points"];
  json designs = choose(rows, ctx.opt.max_area);
  for (auto& d : designs) d["explore"] = rows[d["point"].get<std::size_t>()];
  ctx.data.put("designs", {{"designs", designs}});
  Report& r = ctx.report;
  r.heading(2, "5. Chosen designs");
  r.para("Three named points of the customised graph's exploration:");
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < designs.size(); ++i) {
    const std::string p = "/designs/" + std::to_string(i);
    t.push_back({r.num("designs", p + "/name"), r.num("designs", p + "/explore/mul"), r.num("designs", p + "/explore/add"),
                 r.num("designs", p + "/explore/lat_mul"), r.num("designs", p + "/explore/lat_add"),
                 r.num("designs", p + "/explore/pipelined"), r.num("designs", p + "/explore/cycles"),
                 r.num("designs", p + "/explore/ii"), r.num("designs", p + "/explore/registers"),
                 r.num("designs", p + "/explore/area", 0)});
  }
  r.table({"design", "mul", "add", "lat mul", "lat add", "pipelined", "cycles", "II", "registers", "area (cells)"}, t);
  ctx.progress.done(fmt::format("fastest: {} cycles", designs[0]["explore"]["cycles"].get<int>()));
}

namespace {
// Runs this executable (the neaccel CLI) with arguments; returns its standard output. Throws on failure with the
// command's last error line.
std::string run_self(const std::vector<std::string>& args, const fs::path& log) {
  std::string cmd = "'" + fs::read_symlink("/proc/self/exe").string() + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " 2>'" + log.string() + "'";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw Error("study: cannot run " + cmd);
  char buf[4096];
  for (std::size_t k; (k = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, k);
  const int rc = pclose(p);
  if (rc != 0) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
      if (!line.empty()) last = line;
    throw Error("study: `neaccel " + args.front() + "` failed: " + last);
  }
  return out;
}

std::string slug(const std::string& name) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

std::vector<std::string> rtl_args(const Context& ctx, const json& p, const std::string& format, const fs::path& dir) {
  std::vector<std::string> a = {"rtl", "--robot", ctx.opt.robot, "--flavour", p["flavour"].get<std::string>(),
                                "--mul", std::to_string(p["mul"].get<int>()), "--add", std::to_string(p["add"].get<int>()),
                                "--lat-mul", std::to_string(p["lat_mul"].get<int>()),
                                "--lat-add", std::to_string(p["lat_add"].get<int>()), "--format", format,
                                "--out", dir.string(), "--json"};
  if (!p["pipelined"].get<bool>()) a.push_back("--not-pipelined");
  return a;
}

// Yosys generic synthesis of a design written by `neaccel rtl` (its synth/generic.ys). The stat's last
// "Number of cells" is the whole hierarchy's; flip-flops are the cells whose type names a DFF.
json synthesize(const fs::path& dir, const std::string& name) {
  const std::string cmd = "cd '" + dir.string() + "' && yosys -q -l synth/generic.log -s synth/generic.ys >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) throw Error("study: yosys failed on " + (dir / "synth/generic.ys").string());
  std::ifstream in(dir / "synth" / "generic.stat");
  if (!in) throw Error("study: yosys wrote no " + (dir / "synth/generic.stat").string());
  long cells = -1, ffs = 0, module_ffs = 0;
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string a, b, c;
    ls >> a;
    if (a == "Number" && (ls >> b >> c) && b == "of" && c == "cells:") {
      ls >> cells;
      module_ffs = 0;
    } else if (a.find("DFF") != std::string::npos) {
      long k = 0;
      if (ls >> k) module_ffs += k;
      ffs = module_ffs;
    }
  }
  if (cells < 0) throw Error("study: no cell count in " + (dir / "synth/generic.stat").string());
  return {{"name", name}, {"cells", cells}, {"flip_flops", ffs}, {"stat", fs::path(dir.filename()) / "synth/generic.stat"}};
}

json simulate(Context& ctx, const fs::path& dir, const std::string& engine) {
  const std::string out = run_self({"sim", "--out", dir.string(), "--engine", engine, "--random",
                                    std::to_string(ctx.states()), "--seed", "20261121", "--json", "--quiet"},
                                   dir / ("sim_" + engine + ".log"));
  json j = json::parse(out);
  return j;
}

// One design in one number format: RTL generated, simulated with Verilator and with the SystemC model on the same
// random states; both must match the graph evaluated in the format bit for bit, and each other.
// With with_rtl = false (quick study) only the SystemC model runs; the RTL is still generated.
json verify_design(Context& ctx, const json& point, const std::string& name, const std::string& format, bool with_rtl) {
  const fs::path dir = ctx.dir / "designs" / slug(name + "_" + format);
  fs::create_directories(dir);
  const json manifest = json::parse(run_self(rtl_args(ctx, point, format, dir), dir / "rtl.log"));
  const json sc = simulate(ctx, dir, "systemc");
  const json rtl = with_rtl ? simulate(ctx, dir, "verilator") : sc;
  const bool same_outputs = rtl["torques"] == sc["torques"];
  const bool ok = rtl["mismatches"] == 0 && sc["mismatches"] == 0 && rtl["cycle_count_errors"] == 0 &&
                  sc["cycle_count_errors"] == 0 && same_outputs;
  if (!ok) ctx.fail("verification: design '" + name + "' (" + format + ") failed its checks (see " + dir.string() + ")");
  return {{"name", name}, {"format", format}, {"dir", fs::relative(dir, ctx.dir).string()},
          {"engines", with_rtl ? "Verilator + SystemC" : "SystemC only"},
          {"states", rtl["states"]}, {"cycles_per_evaluation", rtl["cycles_per_evaluation"]},
          {"schedule_length", rtl["schedule_length"]}, {"io_overhead", rtl["io_overhead"]},
          {"rtl_mismatches", rtl["mismatches"]}, {"systemc_mismatches", sc["mismatches"]},
          {"rtl_equals_systemc", same_outputs}, {"cycle_count_errors", rtl["cycle_count_errors"].get<long>() + sc["cycle_count_errors"].get<long>()},
          {"max_rel_error", rtl["max_rel_error"]}, {"pass", ok}, {"manifest", manifest}};
}
}  // namespace

void stage_verify(Context& ctx) {
  ctx.progress.stage("Verification");
  const json& designs = ctx.data.at("designs")["designs"];
  json runs = json::array();
  // The quick study builds one Verilator model (each unit mix and format is its own Verilog configuration, a
  // build of about a minute); the full study simulates the RTL of every run.
  for (std::size_t i = 0; i < designs.size(); ++i) {
    const auto& d = designs[i];
    ctx.progress.detail(d["name"].get<std::string>() + " (fp32)");
    runs.push_back(verify_design(ctx, d["explore"], d["name"], "fp32", !ctx.opt.quick || i == 0));
  }
  // Accuracy of fixed point against binary32 on the fastest design's schedule (same unit mix).
  for (const char* fx : {"fixed:16.16", "fixed:12.20"}) {
    ctx.progress.detail(std::string("fastest (") + fx + ")");
    runs.push_back(verify_design(ctx, designs[0]["explore"], designs[0]["name"], fx, !ctx.opt.quick));
  }
  ctx.data.put("verify", {{"runs", runs}});
  Report& r = ctx.report;
  r.heading(2, "6. Verification");
  r.para("Each design's Verilog was generated from its verified schedule (under `designs/`). Its SystemC model and, "
         "where the engines column says so, the Verilog itself under Verilator ran on the same {} random joint states. "
         "Every output must equal the dataflow graph evaluated in the number format bit for bit (any NaN equals any "
         "NaN), the RTL must equal the SystemC model, and each evaluation must take exactly the schedule length plus "
         "the I/O overhead (input load, output unload and two handshake cycles).",
         {r.num("verify", "/runs/0/states")});
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string p = "/runs/" + std::to_string(i);
    t.push_back({r.num("verify", p + "/name"), r.num("verify", p + "/format"), r.num("verify", p + "/engines"),
                 r.num("verify", p + "/schedule_length"),
                 r.num("verify", p + "/io_overhead"), r.num("verify", p + "/cycles_per_evaluation"),
                 r.num("verify", p + "/rtl_mismatches"), r.num("verify", p + "/systemc_mismatches"),
                 r.num("verify", p + "/rtl_equals_systemc"), r.num("verify", p + "/max_rel_error", 2)});
  }
  r.table({"design", "format", "engines", "schedule", "I/O", "cycles", "RTL mismatches", "SystemC mismatches", "RTL = SystemC",
           "max rel. error vs double"}, t);
  r.note("Relative error: |tau - tau_double| / max(|tau_double|, 1) per joint, the largest over all states "
         "(docs/datapath.md). Fixed point saturates; its error is dominated by the fraction bits.");
  std::size_t passed = 0;
  for (const auto& x : runs) passed += x["pass"].get<bool>();
  ctx.progress.done(fmt::format("{}/{} design runs bit-exact", passed, runs.size()));
}

void stage_synthesis(Context& ctx) {
  ctx.progress.stage("Synthesis");
  const json& runs = ctx.data.at("verify")["runs"];
  json rows = json::array();
  for (const auto& run : runs) {
    if (run["format"] != "fp32") continue;
    // The quick study synthesises the smallest design only (Yosys takes minutes on the larger ones).
    if (ctx.opt.quick && run["name"] != "smallest within 10%") continue;
    ctx.progress.detail(run["name"].get<std::string>());
    const fs::path dir = ctx.dir / run["dir"].get<std::string>();
    json row = synthesize(dir, run["name"]);
    for (const auto& d : ctx.data.at("designs")["designs"])
      if (d["name"] == run["name"]) row["estimate"] = d["explore"]["area"];
    rows.push_back(row);
  }
  ctx.data.put("synthesis", {{"designs", rows}});
  Report& r = ctx.report;
  r.heading(2, "7. Synthesis");
  r.para("Yosys 0.23 `synth` (technology-independent cells) of each chosen design's whole datapath: units, register "
         "file, routing, sequencer and ROMs, beside the exploration's area estimate.");
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string p = "/designs/" + std::to_string(i);
    t.push_back({r.num("synthesis", p + "/name"), r.num("synthesis", p + "/cells"), r.num("synthesis", p + "/flip_flops"),
                 r.num("synthesis", p + "/estimate", 0)});
  }
  r.table({"design", "cells (Yosys)", "flip-flops", "estimate (cells)"}, t);
  ctx.progress.done(fmt::format("{} designs synthesised", rows.size()));
}

}  // namespace neaccel::study
