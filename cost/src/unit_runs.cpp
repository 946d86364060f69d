// The arithmetic units' synthesis and place and route (unit_runs.hpp, docs/units.md).
#include "neaccel/cost/unit_runs.hpp"
#include "neaccel/ref/json_error.hpp"
#include "neaccel/cost/yosys_script.hpp"

#include "tool_cache.hpp"

#include "neaccel/cost/pnr.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;

namespace neaccel::cost {
namespace {

using nlohmann::json;

// Bump when the scripts or the parsing change: invalidates the cache. v2: only the unit's own RTL files
// (fp32_* or fx_* plus units_*) are read and hashed; the place-and-route measurement (--timing) added.
constexpr const char* kScriptVersion = "area-v2";
// The timing harness (registered inputs, so every stage is a register-to-register path for nextpnr's clock
// Fmax), kept out of the unit directory's *.v so that it is not part of any datapath.
constexpr const char* kTimingHarness = "timing/unit_timing_top.v";
// The harness of the FMAs and dividers (a c_i operand beside a and b).
constexpr const char* kTimingHarness3 = "timing/unit_timing_top3.v";

// An arithmetic unit of rtl/units: its name (as the tables and the SystemC models name it), its top module, whether
// it is fixed point, and its Kind in the timing harness (4 and over: the three-operand harness, kTimingHarness3).
struct Unit {
  const char* name;
  const char* top;
  bool fixed;
  int harness_kind;
};
constexpr Unit kFp32Mul{"fp32-mul", "fp32_mul", false, 0};
constexpr Unit kFp32Add{"fp32-add", "fp32_add", false, 1};
constexpr Unit kFxMul{"fx-mul", "fx_mul", true, 2};
constexpr Unit kFxAdd{"fx-add", "fx_add", true, 3};
constexpr Unit kFp32Fma{"fp32-fma", "fp32_fma", false, 4};
constexpr Unit kFp32Div{"fp32-div", "fp32_div", false, 5};
constexpr Unit kFxFma{"fx-fma", "fx_fma", true, 6};
constexpr Unit kFxDiv{"fx-div", "fx_div", true, 7};
constexpr const Unit* kUnits[] = {&kFp32Mul, &kFp32Add, &kFxMul, &kFxAdd, &kFp32Fma, &kFp32Div, &kFxFma, &kFxDiv};

const Unit& parse_unit(const std::string& name, const std::string& what) {
  for (const Unit* u : kUnits) {
    if (name == u->name) return *u;
  }
  throw Error(what + ": unknown unit '" + name +
              "' (fp32-mul, fp32-add, fp32-fma, fp32-div, fx-mul, fx-add, fx-fma or fx-div)");
}

struct UnitConfig {
  const Unit* unit;
  int latency;
  bool pipelined;
  int width;  // fixed point only
  int frac;   // fixed point only
};

// "fx-add latency 2 pipelined fixed:5.3": part of the cache keys and of the messages.
std::string describe(const UnitConfig& c) {
  std::string s = std::string(c.unit->name) + " latency " + std::to_string(c.latency) +
                  (c.pipelined ? " pipelined" : " non-pipelined");
  if (c.unit->fixed) s += " fixed:" + std::to_string(c.width - c.frac) + "." + std::to_string(c.frac);
  return s;
}

// The unit's RTL: <dir>/*.v named fp32_* (binary32 units) or fx_* (fixed point), plus the shared units_*.
// Only these are read and hashed, so that editing one family does not invalidate the other's cache.
std::vector<fs::path> rtl_files(const std::string& dir, const Unit& u) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) throw Error(dir + ": not a directory (--rtl names the folder of the unit RTL)");
  const std::string family = u.fixed ? "fx_" : "fp32_";
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".v" && (name.rfind(family, 0) == 0 || name.rfind("units_", 0) == 0))
      files.push_back(fs::absolute(e.path()));
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw Error(dir + ": no " + family + "*.v files (--rtl names the folder of the unit RTL)");
  return files;
}

std::string script(const UnitConfig& c, const std::vector<fs::path>& files, bool xilinx, const std::string& stem) {
  const char* top = c.unit->top;
  std::string s = "read_verilog";
  for (const auto& f : files) s += " " + yosys_path(f.string());
  s += "\n";
  s += fmt::format("chparam -set Latency {} -set Pipelined {}", c.latency, c.pipelined ? 1 : 0);
  if (c.unit->fixed) s += fmt::format(" -set Width {} -set Frac {}", c.width, c.frac);
  s += fmt::format(" {}\nhierarchy -check -top {}\n", top, top);
  if (xilinx) {
    s += fmt::format("synth_xilinx -top {} -family xc7 -flatten\ntee -o {}.stat stat\n", top, stem);
  } else {
    s += fmt::format("synth -top {} -flatten\ntee -o {}.stat stat\ntee -o {}.ltp ltp -noff\n", top, stem, stem);
  }
  return s;
}

// Cell type -> count from a `stat` report.
std::map<std::string, long> parse_stat(const std::string& text) {
  std::map<std::string, long> cells;
  std::istringstream in(text);
  std::string line;
  const std::regex total(R"(^\s*Number of cells:\s+(\d+))"), cell(R"(^\s+(\S+)\s+(\d+)\s*$)");
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, total)) cells["__total"] = std::stol(m[1]);
    else if (std::regex_match(line, m, cell)) cells[m[1]] = std::stol(m[2]);
  }
  return cells;
}

void run_yosys(const fs::path& dir, const std::string& stem, const std::string& text) {
  const fs::path ys = dir / (stem + ".ys");
  std::ofstream(ys) << text;
  proc::Spawn yosys;
  yosys.argv = {"yosys", "-q", "-l", stem + ".log", "-s", stem + ".ys"};
  yosys.cwd = dir;
  const proc::Result r = proc::run(yosys);
  if (r.not_found) throw Error(proc::missing_tool("yosys"));
  if (!r.ok()) throw Error("yosys failed on " + ys.string() + " (see " + (dir / (stem + ".log")).string() + ")");
}

// The Yosys area row of one configuration. Null when cached_only and not cached.
json synthesize(const UnitConfig& c, const UnitRunOptions& o) {
  const auto files = rtl_files(o.rtl, *c.unit);
  std::string key = std::string(kScriptVersion) + "|" + describe(c) + "|" + script(c, {}, false, "g") + "|" + script(c, {}, true, "x");
  for (const auto& f : files) key += "|" + f.filename().string() + "|" + read_whole_file(f);
  const fs::path dir = fs::path(o.out) / "area-cache" / ref::fnv1a64_hex(key);
  const fs::path result = dir / "result.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  if (o.cached_only) return nullptr;
  fs::create_directories(dir);
  run_yosys(dir, "generic", script(c, files, false, "generic"));
  run_yosys(dir, "xilinx", script(c, files, true, "xilinx"));
  const auto gen = parse_stat(read_whole_file(dir / "generic.stat"));
  const auto xil = parse_stat(read_whole_file(dir / "xilinx.stat"));
  std::smatch m;
  const std::string ltp = read_whole_file(dir / "generic.ltp");
  const std::regex len(R"(length=(\d+))");
  const long depth = std::regex_search(ltp, m, len) ? std::stol(m[1]) : -1;
  json j{{"unit", c.unit->name},
         {"latency", c.latency},
         {"pipelined", c.pipelined},
         {"generic_cells", gen.count("__total") ? gen.at("__total") : -1},
         {"logic_depth", depth},
         {"lut", sum_prefix(xil, "LUT")},
         {"ff", sum_prefix(xil, "FD")},
         {"dsp48e1", sum_prefix(xil, "DSP48E1")},
         {"carry4", sum_prefix(xil, "CARRY4")},
         {"srl", sum_prefix(xil, "SRL")},
         {"muxf", sum_prefix(xil, "MUXF")}};
  if (c.unit->fixed) {
    j["width"] = c.width;
    j["frac"] = c.frac;
  }
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

// Measured Fmax and iCE40 resources of one unit inside the timing harness (place_and_route_ice40: HX8K ct256,
// seed 1). Row fields: unit latency pipelined width frac (fp32: 32, 0) fmax_mhz logic_cells ram io device package
// seed. Null when cached_only and not cached.
json measure_timing(const UnitConfig& c, const UnitRunOptions& o) {
  auto files = rtl_files(o.rtl, *c.unit);
  const bool three = c.unit->harness_kind >= 4;
  const fs::path harness = fs::path(o.rtl) / (three ? kTimingHarness3 : kTimingHarness);
  if (!fs::is_regular_file(harness)) throw Error(harness.string() + ": no timing harness (--rtl names the folder of the unit RTL)");
  files.push_back(fs::absolute(harness));
  const bool fixed = c.unit->fixed;
  const int width = fixed ? c.width : 32, frac = fixed ? c.frac : 0;
  const PnrOptions po;
  const std::vector<std::pair<std::string, long>> params{
      {"Kind", c.unit->harness_kind}, {"Latency", c.latency}, {"Pipelined", c.pipelined ? 1 : 0}, {"Width", width},
      {"Frac", frac}};
  std::string key = fmt::format("{}|timing|{}|{}|{}|{}|{}", kScriptVersion, describe(c), po.device, po.package,
                                po.seed, po.target_mhz);
  for (const auto& [k, v] : params) key += fmt::format("|{}={}", k, v);
  for (const auto& f : files) key += "|" + f.filename().string() + "|" + read_whole_file(f);
  const fs::path dir = fs::path(o.out) / "area-cache" / ref::fnv1a64_hex(key);
  const fs::path result = dir / "timing.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  if (o.cached_only) return nullptr;
  std::vector<std::string> sources;
  for (const auto& f : files) sources.push_back(f.string());
  const auto r = place_and_route_ice40(sources, three ? "unit_timing_top3" : "unit_timing_top", params, dir, po);
  if (!r.fits) throw Error(describe(c) + ": does not fit the iCE40 " + po.device + " (see " + (dir / "nextpnr.log").string() + ")");
  json j{{"unit", c.unit->name},
         {"latency", c.latency},
         {"pipelined", c.pipelined},
         {"width", width},
         {"frac", frac},
         {"fmax_mhz", std::round(r.fmax_mhz * 100.0) / 100.0},
         {"logic_cells", r.logic_cells},
         {"ram", r.ram},
         {"io", r.io},
         {"device", r.device},
         {"package", r.package},
         {"seed", r.seed}};
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

// The configurations of o: the sweep (all) or the one unit of the options.
std::vector<UnitConfig> configurations(const UnitRunOptions& o) {
  std::vector<UnitConfig> configs;
  if (o.all) {
    // Latency-major order (1, 3, 6 first), so an interrupted sweep still spans the range; output is sorted.
    for (int lat : {1, 3, 6, 2, 4, 5}) {
      for (const Unit* u : {&kFp32Mul, &kFp32Add, &kFxMul, &kFxAdd}) configs.push_back({u, lat, true, 32, 16});
    }
    // The non-pipelined (busy Latency cycles) variants at latency 3 (timing: fixed point also at 2 and 4; the
    // datapath is the same, only the busy counter differs). Not fp32-add: Yosys 0.23's SAT-based `share` pass
    // (in both the generic synth and synth_ice40) ran for over 10 minutes on its multicycle datapath.
    for (const Unit* u : {&kFp32Mul, &kFxMul, &kFxAdd}) configs.push_back({u, 3, false, 32, 16});
    if (o.timing) {
      for (int lat : {2, 4}) {
        for (const Unit* u : {&kFxMul, &kFxAdd}) configs.push_back({u, lat, false, 32, 16});
      }
    }
    // The FMAs and dividers, after the units the study uses: binary32 at latency 1..6, fixed point at 1, 2, 4
    // (fx-div's stages are the division steps split evenly), the non-pipelined (iterative) variants at the latency
    // the tests run.
    for (int lat : {1, 2, 3, 4, 5, 6}) {
      for (const Unit* u : {&kFp32Fma, &kFp32Div}) configs.push_back({u, lat, true, 32, 16});
    }
    for (int lat : {1, 2, 4}) {
      for (const Unit* u : {&kFxFma, &kFxDiv}) configs.push_back({u, lat, true, 32, 16});
    }
    configs.push_back({&kFp32Fma, 3, false, 32, 16});
    configs.push_back({&kFp32Div, 6, false, 32, 16});
    configs.push_back({&kFxFma, 3, false, 32, 16});
    configs.push_back({&kFxDiv, 4, false, 32, 16});
  } else {
    if (o.latency < 1 || o.latency > 15) throw Error("--latency: must be 1..15");
    UnitConfig c{&parse_unit(o.unit, "--unit"), o.latency, !o.non_pipelined, o.width, o.frac};
    if (o.width < 2 || o.width > 32 || o.frac < 0 || o.frac >= o.width) throw Error("--width/--frac: need 2 <= W <= 32, 0 <= F < W");
    configs.push_back(c);
  }
  return configs;
}

}  // namespace

UnitRunReport run_units(const UnitRunOptions& o) {
  const std::vector<UnitConfig> configs = configurations(o);
  if (o.timing && o.no_timing) throw Error("--timing and --no-timing exclude each other");
  UnitRunReport report;
  // all: area rows (data/unit-area.json) or, with timing, timing rows (data/unit-timing.json). One unit: the area
  // row with the unit's timing beside it, unless timing (timing only) or no_timing (area only).
  const bool want_area = !o.timing, want_timing = o.timing || (!o.all && !o.no_timing);
  report.area = want_area;
  report.timing = want_timing;
  // keep FILE: rows of an earlier output of this command, used where the cache has no result (the RTL of those
  // units did not change since FILE was written; docs/units.md).
  json kept = json::array();
  if (!o.keep.empty()) {
    if (!o.cached_only) throw Error("--keep: only with --cached-only");
    try {
      kept = json::parse(read_whole_file(o.keep)).at("units");
    } catch (const json::exception& e) {
      throw Error(o.keep + ": no \"units\" array (--keep; " + json_problem(e) + ")");
    }
  }
  const auto from_kept = [&](const UnitConfig& c) -> json {
    for (const auto& k : kept) {
      if (k.value("unit", "") == c.unit->name && k.value("latency", 0) == c.latency &&
          k.value("pipelined", true) == c.pipelined &&
          (!c.unit->fixed || (k.value("width", 32) == c.width && k.value("frac", 16) == c.frac)))
        return k;
    }
    return nullptr;
  };
  json& rows = report.rows;
  for (const auto& c : configs) {
    json r = want_area ? synthesize(c, o) : json::object();
    if (r.is_null() && want_area && !want_timing) r = from_kept(c);
    json t = (want_timing && !r.is_null()) ? measure_timing(c, o) : json::object();
    if (t.is_null() && !want_area) t = from_kept(c);
    if (r.is_null() || t.is_null()) {
      report.missing.push_back(describe(c));
    } else if (!want_area) {
      rows.push_back(t);
    } else {
      if (want_timing) {
        for (const char* k : {"fmax_mhz", "device", "package", "seed"}) r[k] = t[k];
        r["ice40_logic_cells"] = t["logic_cells"];
        r["ice40_ram"] = t["ram"];
        r["ice40_io"] = t["io"];
      }
      rows.push_back(r);
    }
  }
  std::sort(rows.begin(), rows.end(), [](const json& x, const json& y) {
    return std::make_tuple(x["unit"].get<std::string>(), x["latency"].get<int>(), !x["pipelined"].get<bool>()) <
           std::make_tuple(y["unit"].get<std::string>(), y["latency"].get<int>(), !y["pipelined"].get<bool>());
  });
  if (rows.empty()) throw Error("--cached-only: no cached result for the requested configurations");
  if (o.timing && o.all) {
    const PnrOptions po;
    json j{{"tool", "yosys 0.23 synth_ice40 + nextpnr-ice40 (unit in rtl/units/timing/unit_timing_top.v, FMAs and "
                    "dividers in unit_timing_top3.v: registered inputs and outputs, every stage register to "
                    "register)"},
           {"device", po.device},
           {"package", po.package},
           {"seed", po.seed},
           {"command", "neaccel area --all --timing --json --cached-only > data/unit-timing.json"},
           {"units", json::array()}};
    for (auto r : rows) {
      for (const char* k : {"device", "package", "seed"}) r.erase(k);
      j["units"].push_back(r);
    }
    report.json = std::move(j);
  } else if (o.all) {
    report.json = {{"tool", "yosys 0.23: synth (generic cells, ltp -noff depth), synth_xilinx -family xc7"},
                   {"fixed_format", "fixed:16.16 (Width 32, Frac 16) unless width/frac given"},
                   {"units", rows}, {"not_measured", report.missing}};
  } else {
    report.json = rows[0];
  }
  return report;
}

}  // namespace neaccel::cost
