// `neaccel area`: synthesises one arithmetic unit configuration with Yosys (generic `synth` cell count and
// longest combinational path `ltp -noff` as a per-stage logic-depth proxy; `synth_xilinx -family xc7` LUT /
// FF / DSP48E1 / CARRY4 / SRL / MUXF), caching by content hash under <out>/area-cache/ (docs/units.md).
#include "area_design.hpp"
#include "command.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/unit.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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

// Bump when the scripts or the parsing change: invalidates the cache.
constexpr const char* kScriptVersion = "area-v1";

struct AreaOptions {
  std::string unit = "fp32-mul", out = "out", rtl = NEACCEL_UNITS_RTL_DIR;
  int latency = 3, width = 32, frac = 16;
  bool non_pipelined = false, json = false, all = false, cached_only = false;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(p.string() + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// FNV-1a 64: stable across platforms and runs (std::hash is not).
uint64_t fnv1a(const std::string& s, uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::vector<fs::path> rtl_files(const std::string& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) throw Error("--rtl: '" + dir + "' is not a directory");
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".v") files.push_back(fs::absolute(e.path()));
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw Error("--rtl: no .v files in '" + dir + "'");
  return files;
}

const char* top_of(UnitKind k) {
  switch (k) {
    case UnitKind::Fp32Mul: return "fp32_mul";
    case UnitKind::Fp32Add: return "fp32_add";
    case UnitKind::FxMul: return "fx_mul";
    default: return "fx_add";
  }
}

std::string script(const UnitConfig& c, const std::vector<fs::path>& files, bool xilinx, const std::string& stem) {
  const bool fixed = c.kind == UnitKind::FxMul || c.kind == UnitKind::FxAdd;
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
  const auto files = rtl_files(o.rtl);
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
  const bool fixed = c.kind == UnitKind::FxMul || c.kind == UnitKind::FxAdd;
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
    // The non-pipelined (busy Latency cycles) variants; not fp32-add: Yosys 0.23's SAT-based `share` pass
    // ran for over 16 minutes on its multicycle datapath (docs/units.md).
    for (UnitKind k : {UnitKind::Fp32Mul, UnitKind::FxMul, UnitKind::FxAdd}) configs.push_back({k, 3, false, 32, 16});
  } else {
    if (o.latency < 1 || o.latency > 15) throw Error("--latency: must be 1..15");
    UnitConfig c{neaccel::units::parse_unit(o.unit, "--unit"), o.latency, !o.non_pipelined, o.width, o.frac};
    if (o.width < 2 || o.width > 32 || o.frac < 0 || o.frac >= o.width) throw Error("--width/--frac: need 2 <= W <= 32, 0 <= F < W");
    configs.push_back(c);
  }
  nlohmann::json rows = nlohmann::json::array(), missing = nlohmann::json::array();
  for (const auto& c : configs) {
    const nlohmann::json r = synthesize(c, o);
    if (r.is_null()) missing.push_back(describe(c));
    else rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const nlohmann::json& x, const nlohmann::json& y) {
    return std::make_tuple(x["unit"].get<std::string>(), x["latency"].get<int>(), !x["pipelined"].get<bool>()) <
           std::make_tuple(y["unit"].get<std::string>(), y["latency"].get<int>(), !y["pipelined"].get<bool>());
  });
  if (rows.empty()) throw Error("--cached-only: no cached result for the requested configurations");
  if (o.json) {
    nlohmann::json j{{"tool", "yosys 0.23: synth (generic cells, ltp -noff depth), synth_xilinx -family xc7"},
                     {"fixed_format", "fixed:16.16 (Width 32, Frac 16) unless width/frac given"},
                     {"units", rows}, {"not_measured", missing}};
    std::cout << (o.all ? j.dump(2) : rows[0].dump(2)) << "\n";
    return;
  }
  fmt::print("{:<9} {:>2} {:>4} {:>8} {:>6} {:>6} {:>6} {:>4} {:>7} {:>4} {:>5}\n", "unit", "L", "pipe", "cells",
             "depth", "LUT", "FF", "DSP", "CARRY4", "SRL", "MUXF");
  for (const auto& r : rows) print_row(r);
  for (const auto& m : missing) fmt::print("not measured (not cached): {}\n", m.get<std::string>());
}

void setup(CLI::App& app) {
  auto o = std::make_shared<AreaOptions>();
  auto* cmd = app.add_subcommand("area", "Yosys area of an arithmetic unit (generic cells, xc7 LUT/FF/DSP/CARRY4)");
  cmd->add_option("--unit", o->unit, "fp32-mul | fp32-add | fx-mul | fx-add")->capture_default_str();
  cmd->add_option("--latency", o->latency, "pipeline latency")->capture_default_str();
  cmd->add_option("--width", o->width, "fixed point: total bits W")->capture_default_str();
  cmd->add_option("--frac", o->frac, "fixed point: fraction bits F")->capture_default_str();
  cmd->add_flag("--non-pipelined", o->non_pipelined, "non-pipelined (busy Latency cycles) variant");
  cmd->add_flag("--all", o->all, "every unit at latencies 1..6 pipelined, and latency 3 non-pipelined (fixed:16.16)");
  cmd->add_flag("--cached-only", o->cached_only, "report only configurations already in the cache (no Yosys)");
  cmd->add_option("--out", o->out, "output directory (cache in <out>/area-cache)")->capture_default_str();
  cmd->add_option("--rtl", o->rtl, "directory of the unit RTL")->capture_default_str();
  cmd->add_flag("--json", o->json, "JSON output");
  auto design = neaccel::cli::add_area_design_options(cmd);  // --design DIR [--pnr]: cli/area_design.cpp
  cmd->callback([o, design] { design->dir.empty() ? run_area(*o) : neaccel::cli::run_area_design(*design, o->json); });
}

}  // namespace

NEACCEL_COMMAND(area, 61, setup)
