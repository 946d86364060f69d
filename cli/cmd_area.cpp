// `neaccel area`: synthesises one arithmetic unit configuration with Yosys (generic `synth` cell count and
// longest combinational path `ltp -noff` as a per-stage logic-depth proxy; `synth_xilinx -family xc7` LUT /
// FF / DSP48E1 / CARRY4 / SRL / MUXF) and places and routes it on an iCE40 HX8K (yosys synth_ice40 +
// nextpnr-ice40, fixed seed: measured Fmax and iCE40 resources), caching by content hash under
// <out>/area-cache/ (docs/units.md). With --design DIR: a whole design directory (area_design.hpp, docs/cost.md).
#include "area_design.hpp"
#include "cache_key.hpp"
#include "command.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/study/pnr.hpp"
#include "neaccel/units/unit.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <tuple>

namespace fs = std::filesystem;

namespace {

using neaccel::Error;
using neaccel::units::UnitConfig;
using neaccel::units::UnitKind;

// Bump when the scripts or the parsing change: invalidates the cache. v2: only the unit's own RTL files
// (fp32_* or fx_* plus units_*) are read and hashed; the place-and-route measurement (--timing) added.
constexpr const char* kScriptVersion = "area-v2";
// The timing harness (registered inputs, so every stage is a register-to-register path for nextpnr's clock
// Fmax), kept out of the unit directory's *.v so that it is not part of any datapath.
constexpr const char* kTimingHarness = "timing/unit_timing_top.v";
// The harness of the FMAs and dividers (a c_i operand beside a and b).
constexpr const char* kTimingHarness3 = "timing/unit_timing_top3.v";

struct AreaOptions {
  std::string unit = "fp32-mul", out = "out", rtl = NEACCEL_UNITS_RTL_DIR, keep;
  int latency = 3, width = 32, frac = 16;
  bool non_pipelined = false, json = false, all = false, cached_only = false, timing = false, no_timing = false;
};

using neaccel::cli::fnv1a;
using neaccel::cli::slurp;

using neaccel::units::is_fixed;

// The unit's RTL: <dir>/*.v named fp32_* (binary32 units) or fx_* (fixed point), plus the shared units_*.
// Only these are read and hashed, so that editing one family does not invalidate the other's cache.
std::vector<fs::path> rtl_files(const std::string& dir, UnitKind k) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) throw Error("--rtl: '" + dir + "' is not a directory");
  const std::string family = is_fixed(k) ? "fx_" : "fp32_";
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".v" && (name.rfind(family, 0) == 0 || name.rfind("units_", 0) == 0))
      files.push_back(fs::absolute(e.path()));
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw Error("--rtl: no " + family + "*.v files in '" + dir + "'");
  return files;
}

const char* top_of(UnitKind k) {
  switch (k) {
    case UnitKind::Fp32Mul: return "fp32_mul";
    case UnitKind::Fp32Add: return "fp32_add";
    case UnitKind::FxMul: return "fx_mul";
    case UnitKind::Fp32Fma: return "fp32_fma";
    case UnitKind::Fp32Div: return "fp32_div";
    case UnitKind::FxFma: return "fx_fma";
    case UnitKind::FxDiv: return "fx_div";
    default: return "fx_add";
  }
}

std::string script(const UnitConfig& c, const std::vector<fs::path>& files, bool xilinx, const std::string& stem) {
  const bool fixed = is_fixed(c.kind);
  std::string s = "read_verilog";
  for (const auto& f : files) s += " " + f.string();
  s += "\n";
  s += fmt::format("chparam -set Latency {} -set Pipelined {}", c.latency, c.pipelined ? 1 : 0);
  if (fixed) s += fmt::format(" -set Width {} -set Frac {}", c.width, c.frac);
  s += fmt::format(" {}\nhierarchy -check -top {}\n", top_of(c.kind), top_of(c.kind));
  if (xilinx) {
    s += fmt::format("synth_xilinx -top {} -family xc7 -flatten\ntee -o {}.stat stat\n", top_of(c.kind), stem);
  } else {
    s += fmt::format("synth -top {} -flatten\ntee -o {}.stat stat\ntee -o {}.ltp ltp -noff\n", top_of(c.kind), stem,
                     stem);
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

long sum_prefix(const std::map<std::string, long>& cells, const std::string& prefix) {
  long n = 0;
  for (const auto& [k, v] : cells) {
    if (k.rfind(prefix, 0) == 0) n += v;
  }
  return n;
}

void run_yosys(const fs::path& dir, const std::string& stem, const std::string& text) {
  const fs::path ys = dir / (stem + ".ys");
  std::ofstream(ys) << text;
  const std::string cmd = fmt::format("cd '{}' && yosys -q -l {}.log -s {}.ys > /dev/null 2>&1", dir.string(), stem, stem);
  if (std::system(cmd.c_str()) != 0) {
    throw Error("yosys failed on " + ys.string() + " (see " + (dir / (stem + ".log")).string() + ")");
  }
}

nlohmann::json synthesize(const UnitConfig& c, const AreaOptions& o) {
  const auto files = rtl_files(o.rtl, c.kind);
  std::string key = std::string(kScriptVersion) + "|" + describe(c) + "|" + script(c, {}, false, "g") + "|" + script(c, {}, true, "x");
  for (const auto& f : files) key += "|" + f.filename().string() + "|" + slurp(f);
  const fs::path dir = fs::path(o.out) / "area-cache" / fmt::format("{:016x}", fnv1a(key));
  const fs::path result = dir / "result.json";
  if (fs::exists(result)) return nlohmann::json::parse(slurp(result));
  if (o.cached_only) return nullptr;
  fs::create_directories(dir);
  run_yosys(dir, "generic", script(c, files, false, "generic"));
  run_yosys(dir, "xilinx", script(c, files, true, "xilinx"));
  const auto gen = parse_stat(slurp(dir / "generic.stat"));
  const auto xil = parse_stat(slurp(dir / "xilinx.stat"));
  std::smatch m;
  const std::string ltp = slurp(dir / "generic.ltp");
  const std::regex len(R"(length=(\d+))");
  const long depth = std::regex_search(ltp, m, len) ? std::stol(m[1]) : -1;
  const bool fixed = is_fixed(c.kind);
  nlohmann::json j{{"unit", neaccel::units::unit_name(c.kind)},
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
  if (fixed) {
    j["width"] = c.width;
    j["frac"] = c.frac;
  }
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

int harness_kind(UnitKind k) {
  switch (k) {
    case UnitKind::Fp32Mul: return 0;
    case UnitKind::Fp32Add: return 1;
    case UnitKind::FxMul: return 2;
    case UnitKind::Fp32Fma: return 4;  // unit_timing_top3.v
    case UnitKind::Fp32Div: return 5;
    case UnitKind::FxFma: return 6;
    case UnitKind::FxDiv: return 7;
    default: return 3;
  }
}

// Measured Fmax and iCE40 resources of one unit inside the timing harness (neaccel::study::place_and_route_ice40:
// HX8K ct256, seed 1). Row fields: unit latency pipelined width frac (fp32: 32, 0) fmax_mhz logic_cells ram io
// device package seed. Null when --cached-only and not cached.
nlohmann::json measure_timing(const UnitConfig& c, const AreaOptions& o) {
  auto files = rtl_files(o.rtl, c.kind);
  const bool three = harness_kind(c.kind) >= 4;
  const fs::path harness = fs::path(o.rtl) / (three ? kTimingHarness3 : kTimingHarness);
  if (!fs::is_regular_file(harness)) throw Error("--rtl: no timing harness '" + harness.string() + "'");
  files.push_back(fs::absolute(harness));
  const bool fixed = is_fixed(c.kind);
  const int width = fixed ? c.width : 32, frac = fixed ? c.frac : 0;
  const neaccel::study::PnrOptions po;
  const std::vector<std::pair<std::string, long>> params{
      {"Kind", harness_kind(c.kind)}, {"Latency", c.latency}, {"Pipelined", c.pipelined ? 1 : 0}, {"Width", width},
      {"Frac", frac}};
  std::string key = fmt::format("{}|timing|{}|{}|{}|{}|{}", kScriptVersion, describe(c), po.device, po.package,
                                po.seed, po.target_mhz);
  for (const auto& [k, v] : params) key += fmt::format("|{}={}", k, v);
  for (const auto& f : files) key += "|" + f.filename().string() + "|" + slurp(f);
  const fs::path dir = fs::path(o.out) / "area-cache" / fmt::format("{:016x}", fnv1a(key));
  const fs::path result = dir / "timing.json";
  if (fs::exists(result)) return nlohmann::json::parse(slurp(result));
  if (o.cached_only) return nullptr;
  std::vector<std::string> sources;
  for (const auto& f : files) sources.push_back(f.string());
  const auto r =
      neaccel::study::place_and_route_ice40(sources, three ? "unit_timing_top3" : "unit_timing_top", params, dir, po);
  if (!r.fits) throw Error(describe(c) + ": does not fit the iCE40 " + po.device + " (see " + (dir / "nextpnr.log").string() + ")");
  nlohmann::json j{{"unit", neaccel::units::unit_name(c.kind)},
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

void print_row(const nlohmann::json& j) {
  fmt::print("{:<9} {:>2} {:>4} {:>8} {:>6} {:>6} {:>6} {:>4} {:>7} {:>4} {:>5}\n", j["unit"].get<std::string>(),
             j["latency"].get<int>(), j["pipelined"].get<bool>() ? "yes" : "no", j["generic_cells"].get<long>(),
             j["logic_depth"].get<long>(), j["lut"].get<long>(), j["ff"].get<long>(), j["dsp48e1"].get<long>(),
             j["carry4"].get<long>(), j["srl"].get<long>(), j["muxf"].get<long>());
}

void run_area(const AreaOptions& o) {
  std::vector<UnitConfig> configs;
  if (o.all) {
    // Latency-major order (1, 3, 6 first), so an interrupted sweep still spans the range; output is sorted.
    for (int lat : {1, 3, 6, 2, 4, 5}) {
      for (UnitKind k : {UnitKind::Fp32Mul, UnitKind::Fp32Add, UnitKind::FxMul, UnitKind::FxAdd}) {
        configs.push_back({k, lat, true, 32, 16});
      }
    }
    // The non-pipelined (busy Latency cycles) variants at latency 3 (timing: fixed point also at 2 and 4; the
    // datapath is the same, only the busy counter differs). Not fp32-add: Yosys 0.23's SAT-based `share` pass
    // (in both the generic synth and synth_ice40) ran for over 10 minutes on its multicycle datapath.
    for (UnitKind k : {UnitKind::Fp32Mul, UnitKind::FxMul, UnitKind::FxAdd}) configs.push_back({k, 3, false, 32, 16});
    if (o.timing) {
      for (int lat : {2, 4}) {
        for (UnitKind k : {UnitKind::FxMul, UnitKind::FxAdd}) configs.push_back({k, lat, false, 32, 16});
      }
    }
    // The FMAs and dividers (issues 15, 18), after the units the study uses: binary32 at latency 1..6, fixed
    // point at 1, 2, 4 (fx-div's stages are the division steps split evenly), the non-pipelined (iterative)
    // variants at the latency the tests run.
    for (int lat : {1, 2, 3, 4, 5, 6}) {
      for (UnitKind k : {UnitKind::Fp32Fma, UnitKind::Fp32Div}) configs.push_back({k, lat, true, 32, 16});
    }
    for (int lat : {1, 2, 4}) {
      for (UnitKind k : {UnitKind::FxFma, UnitKind::FxDiv}) configs.push_back({k, lat, true, 32, 16});
    }
    configs.push_back({UnitKind::Fp32Fma, 3, false, 32, 16});
    configs.push_back({UnitKind::Fp32Div, 6, false, 32, 16});
    configs.push_back({UnitKind::FxFma, 3, false, 32, 16});
    configs.push_back({UnitKind::FxDiv, 4, false, 32, 16});
  } else {
    if (o.latency < 1 || o.latency > 15) throw Error("--latency: must be 1..15");
    UnitConfig c{neaccel::units::parse_unit(o.unit, "--unit"), o.latency, !o.non_pipelined, o.width, o.frac};
    if (o.width < 2 || o.width > 32 || o.frac < 0 || o.frac >= o.width) throw Error("--width/--frac: need 2 <= W <= 32, 0 <= F < W");
    configs.push_back(c);
  }
  if (o.timing && o.no_timing) throw Error("--timing and --no-timing exclude each other");
  // --all: area rows (data/unit-area.json) or, with --timing, timing rows (data/unit-timing.json). One unit:
  // the area row with the unit's timing beside it, unless --timing (timing only) or --no-timing (area only).
  const bool want_area = !o.timing, want_timing = o.timing || (!o.all && !o.no_timing);
  // --keep FILE: rows of an earlier output of this command, used where the cache has no result (the RTL of
  // those units did not change since FILE was written; docs/units.md).
  nlohmann::json kept = nlohmann::json::array();
  if (!o.keep.empty()) {
    if (!o.cached_only) throw Error("--keep: only with --cached-only");
    try {
      kept = nlohmann::json::parse(slurp(o.keep)).at("units");
    } catch (const nlohmann::json::exception& e) {
      throw Error("--keep: " + o.keep + ": no \"units\" array (" + e.what() + ")");
    }
  }
  const auto from_kept = [&](const UnitConfig& c) -> nlohmann::json {
    for (const auto& k : kept) {
      if (k.value("unit", "") == neaccel::units::unit_name(c.kind) && k.value("latency", 0) == c.latency &&
          k.value("pipelined", true) == c.pipelined &&
          (!is_fixed(c.kind) || (k.value("width", 32) == c.width && k.value("frac", 16) == c.frac)))
        return k;
    }
    return nullptr;
  };
  nlohmann::json rows = nlohmann::json::array(), missing = nlohmann::json::array();
  for (const auto& c : configs) {
    nlohmann::json r = want_area ? synthesize(c, o) : nlohmann::json::object();
    if (r.is_null() && want_area && !want_timing) r = from_kept(c);
    nlohmann::json t = (want_timing && !r.is_null()) ? measure_timing(c, o) : nlohmann::json::object();
    if (t.is_null() && !want_area) t = from_kept(c);
    if (r.is_null() || t.is_null()) {
      missing.push_back(describe(c));
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
  std::sort(rows.begin(), rows.end(), [](const nlohmann::json& x, const nlohmann::json& y) {
    return std::make_tuple(x["unit"].get<std::string>(), x["latency"].get<int>(), !x["pipelined"].get<bool>()) <
           std::make_tuple(y["unit"].get<std::string>(), y["latency"].get<int>(), !y["pipelined"].get<bool>());
  });
  if (rows.empty()) throw Error("--cached-only: no cached result for the requested configurations");
  if (o.timing && o.all) {
    const neaccel::study::PnrOptions po;
    nlohmann::json j{{"tool", "yosys 0.23 synth_ice40 + nextpnr-ice40 (unit in rtl/units/timing/unit_timing_top.v, FMAs and "
                              "dividers in unit_timing_top3.v: registered inputs and outputs, every stage register to "
                              "register)"},
                     {"device", po.device},
                     {"package", po.package},
                     {"seed", po.seed},
                     {"command", "neaccel area --all --timing --json --cached-only > data/unit-timing.json"},
                     {"units", nlohmann::json::array()}};
    for (auto r : rows) {
      for (const char* k : {"device", "package", "seed"}) r.erase(k);
      j["units"].push_back(r);
    }
    if (o.json) {
      std::cout << j.dump(2) << "\n";
    } else {
      fmt::print("{:<9} {:>2} {:>4} {:>5} {:>4} {:>9} {:>6}\n", "unit", "L", "pipe", "width", "frac", "fmax_MHz", "LCs");
      for (const auto& r : j["units"]) {
        fmt::print("{:<9} {:>2} {:>4} {:>5} {:>4} {:>9.2f} {:>6}\n", r["unit"].get<std::string>(), r["latency"].get<int>(),
                   r["pipelined"].get<bool>() ? "yes" : "no", r["width"].get<int>(), r["frac"].get<int>(),
                   r["fmax_mhz"].get<double>(), r["logic_cells"].get<long>());
      }
    }
    for (const auto& m : missing) std::cerr << "not measured (not cached): " << m.get<std::string>() << "\n";
    return;
  }
  if (o.json) {
    nlohmann::json j{{"tool", "yosys 0.23: synth (generic cells, ltp -noff depth), synth_xilinx -family xc7"},
                     {"fixed_format", "fixed:16.16 (Width 32, Frac 16) unless width/frac given"},
                     {"units", rows}, {"not_measured", missing}};
    std::cout << (o.all ? j.dump(2) : rows[0].dump(2)) << "\n";
    return;
  }
  if (!want_area) {
    const auto& r = rows[0];
    fmt::print("{} latency {} ({}pipelined): Fmax {:.2f} MHz on iCE40 {} {} (seed {}), {} logic cells, {} RAM, {} I/O\n",
               r["unit"].get<std::string>(), r["latency"].get<int>(), r["pipelined"].get<bool>() ? "" : "non-",
               r["fmax_mhz"].get<double>(), r["device"].get<std::string>(), r["package"].get<std::string>(),
               r["seed"].get<int>(), r["logic_cells"].get<long>(), r["ram"].get<long>(), r["io"].get<long>());
    return;
  }
  fmt::print("{:<9} {:>2} {:>4} {:>8} {:>6} {:>6} {:>6} {:>4} {:>7} {:>4} {:>5}\n", "unit", "L", "pipe", "cells",
             "depth", "LUT", "FF", "DSP", "CARRY4", "SRL", "MUXF");
  for (const auto& r : rows) print_row(r);
  if (want_timing && rows.size() == 1 && rows[0].contains("fmax_mhz")) {
    fmt::print("iCE40 {} {} (seed {}): Fmax {:.2f} MHz, {} logic cells, {} RAM, {} I/O\n",
               rows[0]["device"].get<std::string>(), rows[0]["package"].get<std::string>(), rows[0]["seed"].get<int>(),
               rows[0]["fmax_mhz"].get<double>(), rows[0]["ice40_logic_cells"].get<long>(),
               rows[0]["ice40_ram"].get<long>(), rows[0]["ice40_io"].get<long>());
  }
  for (const auto& m : missing) fmt::print("not measured (not cached): {}\n", m.get<std::string>());
}

void setup(CLI::App& app) {
  auto o = std::make_shared<AreaOptions>();
  auto* cmd = app.add_subcommand("area", "Yosys area of an arithmetic unit (generic cells, xc7 LUT/FF/DSP/CARRY4)");
  cmd->add_option("--unit", o->unit, "fp32-mul | fp32-add | fp32-fma | fp32-div | fx-mul | fx-add | fx-fma | fx-div")->capture_default_str();
  cmd->add_option("--latency", o->latency, "pipeline latency")->capture_default_str();
  cmd->add_option("--width", o->width, "fixed point: total bits W")->capture_default_str();
  cmd->add_option("--frac", o->frac, "fixed point: fraction bits F")->capture_default_str();
  cmd->add_flag("--non-pipelined", o->non_pipelined, "non-pipelined (busy Latency cycles) variant");
  cmd->add_flag("--all", o->all, "every unit at latencies 1..6 pipelined, and latency 3 non-pipelined (fixed:16.16)");
  cmd->add_flag("--cached-only", o->cached_only, "report only configurations already in the cache (no Yosys)");
  cmd->add_flag("--timing", o->timing,
                "place and route only (iCE40 HX8K, nextpnr, seed 1): measured Fmax and iCE40 resources; with --all "
                "the data/unit-timing.json table");
  cmd->add_flag("--no-timing", o->no_timing, "one unit: Yosys area only, no place and route");
  cmd->add_option("--keep", o->keep,
                  "with --all --cached-only: take configurations missing from the cache from this earlier --json "
                  "output (units whose RTL did not change)");
  cmd->add_option("--out", o->out, "output directory (cache in <out>/area-cache)")->capture_default_str();
  cmd->add_option("--rtl", o->rtl, "directory of the unit RTL")->capture_default_str();
  cmd->add_flag("--json", o->json, "JSON output");
  auto design = neaccel::cli::add_area_design_options(cmd);  // --design DIR [--pnr]: cli/area_design.cpp
  cmd->callback([o, design] { design->dir.empty() ? run_area(*o) : neaccel::cli::run_area_design(*design, o->json); });
}

}  // namespace

NEACCEL_COMMAND(area, 61, setup)
