// `neaccel area --design DIR [--pnr] [--json]` (design_area.hpp): the area (and with --pnr the iCE40 timing) of a
// whole design directory written by `neaccel rtl` (docs/cost.md).
//
// Synthesis: the design's own generic flow (synth/generic.ys: read every manifest rtl_source and rtl/nea_top.v,
// `synth -top nea_top`, which keeps the module hierarchy), so `cells` is the study's "flat" figure. Unit cells come
// from the per-module counts of that same run: every instance of a module declared in an rtl_source under a
// directory named `units`, or of the wrapper `nea_unit`, counts its module's cells (recursively through its
// submodules); the rest is `non_unit_cells`. Nothing here depends on the inside of nea_datapath / nea_stream, so a
// hardwired design directory (same manifest layout, top nea_top) works unchanged.
//
// --pnr: the design's functional ports (the `dbg_*` trace ports of nea_top left open, so that the design fits the
// package's pins) through `yosys synth_ice40` + `nextpnr-ice40` (HX8K ct256, seed 1: place_and_route_ice40); when
// it does not fit, `synth_xilinx -family xc7` LUT/FF/DSP/BRAM instead.
//
// Results are cached by a content hash of the sources, the wrapper, the hex files and the scripts under
// DIR/area-cache/<hash>/ (same inputs: no re-run, and byte-identical output).
#include "neaccel/cost/design_area.hpp"
#include "neaccel/ref/json_error.hpp"
#include "neaccel/cost/yosys_script.hpp"

#include "pnr_wrapper.hpp"
#include "tool_cache.hpp"

#include "neaccel/cost/area.hpp"
#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/pnr.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace neaccel::cost {
namespace {

using nlohmann::json;

// Bump when the scripts or the parsing change: invalidates the cache.
constexpr const char* kVersion = "area-design-v2";  // v2: --fpga, memory banks, xc7 counts through the hierarchy

struct Design {
  fs::path dir, top_v;
  json manifest;
  std::vector<std::string> sources;  // manifest rtl_sources, absolute
  std::string key;                   // contents of everything synthesis reads
};

Design read_design(const std::string& dir_arg) {
  Design d;
  d.dir = fs::absolute(dir_arg).lexically_normal();
  if (!fs::is_directory(d.dir)) throw Error(dir_arg + ": not a directory (--design names a directory written by neaccel rtl)");
  const fs::path mpath = d.dir / "manifest.json";
  if (!fs::exists(mpath)) throw Error(mpath.string() + ": no manifest (write the design with `neaccel rtl --out " + dir_arg + "`)");
  try {
    d.manifest = json::parse(read_whole_file(mpath));
    for (const auto& s : d.manifest.at("files").at("rtl_sources")) d.sources.push_back(s.get<std::string>());
  } catch (const json::exception& e) {
    throw Error(mpath.string() + ": files.rtl_sources: " + json_problem(e));
  }
  if (d.sources.empty()) throw Error(mpath.string() + ": files.rtl_sources is empty");
  d.top_v = d.dir / "rtl" / "nea_top.v";
  d.key = kVersion;
  for (const auto& s : d.sources) d.key += "|" + fs::path(s).filename().string() + "|" + read_whole_file(s);
  d.key += "|nea_top.v|" + read_whole_file(d.top_v);
  d.key += hex_files_key(d.dir);  // ROM contents change the logic: every hex file counts
  return d;
}

// Yosys runs in the design directory: the wrapper's HexDir ("hex", docs/datapath.md) is relative to it. The script,
// its log and what it writes (`tee -o` of `out(d, cache, ...)`) live in the cache directory.
void run_yosys(const Design& d, const fs::path& dir, const std::string& stem, const std::string& text) {
  std::ofstream(dir / (stem + ".ys")) << text;
  const fs::path rel = dir.lexically_relative(d.dir);
  proc::Spawn yosys;
  yosys.argv = {"yosys", "-q", "-l", (rel / (stem + ".log")).string(), "-s", (rel / (stem + ".ys")).string()};
  yosys.cwd = d.dir;
  const proc::Result r = proc::run(yosys);
  if (r.not_found) throw Error(proc::missing_tool("yosys"));
  if (!r.ok()) throw Error("yosys failed on " + (dir / (stem + ".ys")).string() + " (see " + stem + ".log there)");
}

// A file of the cache directory as the Yosys scripts name it (relative to the design directory they run in).
std::string out(const Design& d, const fs::path& cache, const std::string& name) {
  return (cache.lexically_relative(d.dir) / name).string();
}

bool is_memory_bank(const std::string& source) { return fs::path(source).filename() == "nea_rf_bank.v"; }

// memory_banks: the banks of a memory register file (nea_rf_bank) are read as black boxes, each one cell (a memory
// macro; its bits are counted apart): the generic flow has no RAM and would expand them into flip-flops.
std::string read_script(const Design& d, bool memory_banks = false) {
  std::string s;
  for (const auto& f : d.sources)
    s += (memory_banks && is_memory_bank(f) ? "read_verilog -lib " : "read_verilog -defer ") + yosys_path(f) + "\n";
  s += "read_verilog -defer rtl/nea_top.v\n";  // run_yosys runs in the design directory
  return s;
}

// A Yosys `stat` report of a design with hierarchy: module -> (cell type -> count), and the total of the
// "design hierarchy" section (-1 when absent: a single module).
struct StatReport {
  std::map<std::string, std::map<std::string, long>> modules;
  long hierarchy_total = -1;
};

StatReport parse_stat(const std::string& text) {
  StatReport r;
  std::istringstream in(text);
  std::string line, current;
  const std::regex header(R"(^=== (.*) ===\s*$)"), total(R"(^\s*Number of cells:\s+(\d+))");
  std::smatch m;
  bool hierarchy = false;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, header)) {
      current = m[1];
      hierarchy = current == "design hierarchy";
      if (!hierarchy) r.modules[current];
      continue;
    }
    if (current.empty()) continue;
    if (std::regex_search(line, m, total)) {
      if (hierarchy) r.hierarchy_total = std::stol(m[1]);
      continue;
    }
    if (hierarchy || line.find(':') != std::string::npos) continue;
    // A cell line: "     TYPE     COUNT" (the type may contain anything but is not followed by a colon).
    const auto last = line.find_last_not_of(" \t\r");
    if (last == std::string::npos) continue;
    const auto sp = line.find_last_of(" \t", last);
    if (sp == std::string::npos) continue;
    const std::string num = line.substr(sp + 1, last - sp);
    if (num.empty() || !std::all_of(num.begin(), num.end(), ::isdigit)) continue;
    const auto first = line.find_first_not_of(" \t");
    if (first >= sp) continue;
    std::string type = line.substr(first, sp - first);
    type.erase(type.find_last_not_of(" \t") + 1);
    r.modules[current][type] += std::stol(num);
  }
  return r;
}

// "$paramod\nea_unit\Kind=..." -> "nea_unit"; "$paramod$0123abcd\fp32_add" -> "fp32_add"; "nea_top" -> itself.
std::string base_name(const std::string& m) {
  const std::string p = "$paramod";
  if (m.rfind(p, 0) != 0) return m[0] == '\\' ? m.substr(1) : m;
  std::string rest = m.substr(p.size());
  if (!rest.empty() && rest[0] == '$') {
    const auto bs = rest.find('\\');
    return bs == std::string::npos ? rest : rest.substr(bs + 1);
  }
  if (!rest.empty() && rest[0] == '\\') rest = rest.substr(1);
  return rest.substr(0, rest.find('\\'));
}

// Module names declared in the design's unit sources (a directory named `units`) and the unit wrapper.
std::set<std::string> unit_modules(const Design& d) {
  std::set<std::string> names{"nea_unit", "nea_fma_unit"};
  const std::regex decl(R"((^|\n)\s*module\s+([A-Za-z_][A-Za-z0-9_$]*))");
  for (const auto& s : d.sources) {
    if (fs::path(s).parent_path().filename() != "units") continue;
    const std::string text = read_whole_file(s);
    for (std::sregex_iterator it(text.begin(), text.end(), decl), end; it != end; ++it) names.insert((*it)[2]);
  }
  return names;
}

struct Counts {
  double cells = 0, ffs = 0;
};

json generic_synthesis(const Design& d, const fs::path& cache) {
  const fs::path result = cache / "generic.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  run_yosys(d, cache, "generic", read_script(d, true) + "hierarchy -check -top nea_top\nsynth -top nea_top\ntee -o " + out(d, cache, "generic.stat") + " stat\n");
  const StatReport st = parse_stat(read_whole_file(cache / "generic.stat"));
  const std::set<std::string> units = unit_modules(d);
  std::map<std::string, Counts> memo;
  std::function<Counts(const std::string&)> flat = [&](const std::string& m) -> Counts {
    if (auto it = memo.find(m); it != memo.end()) return it->second;
    Counts c;
    for (const auto& [type, n] : st.modules.at(m)) {
      if (st.modules.count(type)) {
        const Counts sub = flat(type);
        c.cells += static_cast<double>(n) * sub.cells;
        c.ffs += static_cast<double>(n) * sub.ffs;
      } else {
        c.cells += static_cast<double>(n);
        if (type.find("DFF") != std::string::npos) c.ffs += static_cast<double>(n);
      }
    }
    return memo[m] = c;
  };
  // Top: the module no other module instantiates.
  std::set<std::string> instantiated;
  for (const auto& [m, types] : st.modules)
    for (const auto& [type, n] : types)
      if (st.modules.count(type)) instantiated.insert(type);
  std::string top;
  for (const auto& [m, types] : st.modules)
    if (!instantiated.count(m)) top = m;
  if (top.empty()) throw Error((cache / "generic.stat").string() + ": no top module in the report");
  double unit_cells = 0, unit_count = 0;
  std::function<void(const std::string&, double)> walk = [&](const std::string& m, double mult) {
    for (const auto& [type, n] : st.modules.at(m)) {
      if (!st.modules.count(type)) continue;
      if (units.count(base_name(type))) {
        unit_cells += mult * static_cast<double>(n) * flat(type).cells;
        unit_count += mult * static_cast<double>(n);
      } else {
        walk(type, mult * static_cast<double>(n));
      }
    }
  };
  if (units.count(base_name(top))) unit_cells = flat(top).cells;
  else walk(top, 1);
  const Counts all = flat(top);
  if (st.hierarchy_total >= 0 && static_cast<double>(st.hierarchy_total) != all.cells)
    throw Error(fmt::format("{}: per-module cells add up to {}, the hierarchy total is {}", (cache / "generic.stat").string(),
                            all.cells, st.hierarchy_total));
  long banks = 0;  // black-box memory banks (one cell each in the counts above)
  for (const auto& [m, types] : st.modules)
    for (const auto& [type, n] : types)
      if (base_name(type) == "nea_rf_bank") banks += n;
  if (banks > 1 || (banks == 1 && st.modules.size() > 1)) {
    // Instances per module multiply through the hierarchy: count them flat.
    std::map<std::string, double> memo_banks;
    std::function<double(const std::string&)> flat_banks = [&](const std::string& m) -> double {
      if (auto it = memo_banks.find(m); it != memo_banks.end()) return it->second;
      double b = 0;
      for (const auto& [type, n] : st.modules.at(m)) {
        if (st.modules.count(type)) b += static_cast<double>(n) * flat_banks(type);
        else if (base_name(type) == "nea_rf_bank") b += static_cast<double>(n);
      }
      return memo_banks[m] = b;
    };
    banks = static_cast<long>(flat_banks(top));
  }
  json j{{"cells", static_cast<long>(all.cells)},
         {"unit_cells", static_cast<long>(unit_cells)},
         {"non_unit_cells", static_cast<long>(all.cells - unit_cells)},
         {"flip_flops", static_cast<long>(all.ffs)},
         {"unit_instances", static_cast<long>(unit_count)},
         {"memory_banks", banks},
         {"method", "yosys synth -top nea_top (the design's synth/generic.ys; hierarchy kept): cells = design total; "
                    "unit_cells = cells of the instances of modules declared under rtl/units/ and of nea_unit"}};
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

// Leaf cell types of a `stat` report counted through the hierarchy: each submodule's cells times its instances
// (synth_xilinx keeps the hierarchy unless told to flatten: summing the modules would count a module once however
// often it is instantiated).
std::map<std::string, long> flat_cell_types(const StatReport& st, const fs::path& stat) {
  std::set<std::string> instantiated;
  for (const auto& [m, types] : st.modules)
    for (const auto& [type, n] : types)
      if (st.modules.count(type)) instantiated.insert(type);
  std::string top;
  for (const auto& [m, types] : st.modules)
    if (!instantiated.count(m)) top = m;
  if (top.empty()) throw Error(stat.string() + ": no top module in the report");
  std::map<std::string, long> all;
  std::function<void(const std::string&, long)> walk = [&](const std::string& m, long mult) {
    for (const auto& [type, n] : st.modules.at(m)) {
      if (st.modules.count(type)) walk(type, mult * n);
      else all[type] += mult * n;
    }
  };
  walk(top, 1);
  return all;
}

// --hierarchical (docs/cost.md): the same `synth -top nea_top` with the unit wrappers (nea_unit, nea_fma_unit) read
// as black boxes and the unit sources not read at all, so that Yosys synthesises only the non-unit logic; the units
// are each unit type's own synthesis (data/unit-area.json, `neaccel area --all`: the same modules and parameters,
// synthesised once per type), counted from the manifest's unit classes. Flat `synth` keeps the hierarchy and
// optimises nothing across a unit's boundary, so the non-unit cells are those of the flat run; the unit cells differ
// from the flat run's by ABC's run-to-run variation (docs/cost.md measures the difference).
bool is_unit_wrapper(const std::string& source) {
  const std::string f = fs::path(source).filename().string();
  return f == "nea_unit.v" || f == "nea_fma_unit.v";
}
bool is_unit_source(const std::string& source) { return fs::path(source).parent_path().filename() == "units"; }

// The manifest's unit classes as data/unit-area.json names: (unit, count, latency, pipelined).
struct UnitClass {
  std::string unit;
  int count, latency;
  bool pipelined;
};
std::vector<UnitClass> unit_classes(const json& spec, const fs::path& mpath) {
  std::vector<UnitClass> c;
  try {
    const std::string format = spec.at("format").get<std::string>();
    if (format != "fp32" && format != "fixed:16.16")
      throw Error(mpath.string() + ": spec.format '" + format + "': --hierarchical takes its units from data/unit-area.json, "
                  "which has fp32 and fixed:16.16 units only");
    const std::string pre = format == "fp32" ? "fp32-" : "fx-";
    const bool pipe = spec.at("pipelined").get<bool>();
    c.push_back({pre + "mul", spec.at("mul").get<int>(), spec.at("lat_mul").get<int>(), pipe});
    c.push_back({pre + "add", spec.at("add").get<int>(), spec.at("lat_add").get<int>(), pipe});
    if (spec.contains("div"))
      c.push_back({pre + "div", spec["div"].at("units").get<int>(), spec["div"].at("latency").get<int>(),
                   spec["div"].at("pipelined").get<bool>()});
    if (spec.contains("fma"))
      c.push_back({pre + "fma", spec["fma"].at("units").get<int>(), spec["fma"].at("latency").get<int>(), pipe});
  } catch (const json::exception& e) {
    throw Error(mpath.string() + ": spec: " + json_problem(e));
  }
  return c;
}

json hierarchical_synthesis(const Design& d, const fs::path& cache) {
  const fs::path result = cache / "hierarchical.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  const std::vector<UnitClass> classes = unit_classes(d.manifest.value("spec", json::object()), d.dir / "manifest.json");
  std::string script;
  for (const auto& f : d.sources) {
    if (is_unit_source(f)) continue;
    script += (is_unit_wrapper(f) || is_memory_bank(f) ? "read_verilog -lib " : "read_verilog -defer ") + yosys_path(f) + "\n";
  }
  script += "read_verilog -defer rtl/nea_top.v\n";  // run_yosys runs in the design directory
  run_yosys(d, cache, "hierarchical",
            script + "hierarchy -check -top nea_top\nsynth -top nea_top\ntee -o " + out(d, cache, "hierarchical.stat") + " stat\n");
  const fs::path stat = cache / "hierarchical.stat";
  const std::map<std::string, long> all = flat_cell_types(parse_stat(read_whole_file(stat)), stat);
  long total = 0, boxes = 0, banks = 0, ffs = 0;
  for (const auto& [type, n] : all) {
    total += n;
    const std::string b = base_name(type);
    if (b == "nea_unit" || b == "nea_fma_unit") boxes += n;
    else if (b == "nea_rf_bank") banks += n;
    else if (type.find("DFF") != std::string::npos) ffs += n;
  }
  double unit_cells = 0;
  long units = 0;
  json parts = json::array();
  for (const auto& c : classes) {
    if (c.count <= 0) continue;
    const UnitArea a = unit_area(c.unit, c.latency, c.pipelined);
    unit_cells += c.count * a.cells;
    units += c.count;
    parts.push_back({{"unit", c.unit}, {"count", c.count}, {"latency", c.latency}, {"pipelined", c.pipelined},
                     {"cells_each", a.cells}, {"measured", a.measured}});
  }
  if (boxes != units)
    throw Error(fmt::format("{}: {} unit instances (black boxes) in the synthesis, the manifest's spec has {} units",
                            stat.string(), boxes, units));
  // The unit flip-flops are not known per unit here: flip_flops counts the non-unit logic's only.
  const long non_unit = total - boxes;
  json j{{"cells", static_cast<long>(std::llround(non_unit + unit_cells))},
         {"unit_cells", static_cast<long>(std::llround(unit_cells))},
         {"non_unit_cells", non_unit},
         {"non_unit_flip_flops", ffs},
         {"unit_instances", units},
         {"memory_banks", banks},
         {"units", parts},
         {"method", "hierarchical: yosys synth -top nea_top with nea_unit / nea_fma_unit as black boxes (non_unit_cells, "
                    "synthesised here) + each unit type's own synthesis from data/unit-area.json (unit_cells)"}};
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

json xilinx_synthesis(const Design& d, const fs::path& cache) {
  const fs::path result = cache / "xilinx-resources.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  // The report of an earlier run is reused (it is written last, by `tee`): only the counting is redone.
  if (!fs::exists(cache / "xilinx.stat"))
    run_yosys(d, cache, "xilinx", read_script(d) + "hierarchy -check -top nea_top\nsynth_xilinx -top nea_top -family xc7\ntee -o " + out(d, cache, "xilinx.stat") + " stat\n");
  const std::map<std::string, long> all = flat_cell_types(parse_stat(read_whole_file(cache / "xilinx.stat")), cache / "xilinx.stat");
  // Distributed RAM primitives and the LUT6 sites each occupies (7 series CLB: a SLICEM LUT is 64 x 1 bits).
  static const std::map<std::string, long> lutram_sites{
      {"RAM16X1S", 1}, {"RAM32X1S", 1}, {"RAM64X1S", 1}, {"RAM128X1S", 2}, {"RAM256X1S", 4}, {"RAM16X1D", 2},
      {"RAM32X1D", 2}, {"RAM64X1D", 2}, {"RAM128X1D", 4}, {"RAM32M", 4}, {"RAM64M", 4}, {"RAM32M16", 8},
      {"RAM64M8", 8}};
  long lutram = 0, lutram_cells = 0;
  for (const auto& [t, n] : all)
    if (auto it = lutram_sites.find(t); it != lutram_sites.end()) {
      lutram += n * it->second;
      lutram_cells += n;
    }
  json j{{"tool", "yosys synth_xilinx -family xc7 (cells counted through the hierarchy)"},
         {"lut", sum_prefix(all, "LUT")}, {"ff", sum_prefix(all, "FD")}, {"dsp48e1", sum_prefix(all, "DSP48E1")},
         {"bram", sum_prefix(all, "RAMB")}, {"carry4", sum_prefix(all, "CARRY4")}, {"muxf", sum_prefix(all, "MUXF")},
         {"lutram", lutram}, {"lutram_cells", lutram_cells},
         {"note", "lut = logic LUT1..LUT6; lutram = LUT6 sites used as distributed RAM (RAM32M/RAM64M: 4, ...); "
                  "bram = RAMB18E1/RAMB36E1"}};
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

// iCE40 synthesis (synth_ice40, no place and route): LUT4, flip-flops, carries, block RAMs, against the HX8K.
json ice40_synthesis(const Design& d, const fs::path& cache) {
  const fs::path result = cache / "ice40-resources.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  // The report of an earlier run is reused (it is written last, by `tee`): only the counting is redone.
  if (!fs::exists(cache / "ice40.stat"))
    run_yosys(d, cache, "ice40", read_script(d) + "hierarchy -check -top nea_top\nsynth_ice40 -top nea_top\ntee -o " + out(d, cache, "ice40.stat") + " stat\n");
  const std::map<std::string, long> all = flat_cell_types(parse_stat(read_whole_file(cache / "ice40.stat")), cache / "ice40.stat");
  const long lut = sum_prefix(all, "SB_LUT4"), ff = sum_prefix(all, "SB_DFF"), ram = sum_prefix(all, "SB_RAM40_4K");
  const long mac = sum_prefix(all, "SB_MAC16");
  json j{{"tool", "yosys synth_ice40 (cells counted through the hierarchy; no place and route)"},
         {"lut4", lut}, {"ff", ff}, {"carry", sum_prefix(all, "SB_CARRY")}, {"ram40_4k", ram}, {"mac16", mac},
         {"logic_cells_min", std::max(lut, ff)},
         {"fits_hx8k", std::max(lut, ff) <= 7680 && ram <= 32 && mac == 0},
         {"note", "logic_cells_min = max(LUT4, FF): a logic cell holds one LUT4 and one flip-flop; HX8K: 7,680 logic "
                  "cells, 32 RAM40_4K, no MAC16"}};
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

json place_and_route(const Design& d, const fs::path& cache) {
  const fs::path result = cache / "pnr.json";
  if (fs::exists(result)) return json::parse(read_whole_file(result));
  const fs::path wrapper = cache / "nea_pnr_top.v";
  std::ofstream(wrapper) << pnr_wrapper(d.top_v);
  std::vector<std::string> sources = d.sources;
  sources.push_back(d.top_v.string());
  sources.push_back(wrapper.string());
  PnrOptions po;
  po.yosys_dir = d.dir;  // the wrapper's HexDir is relative to the design directory
  const PnrResult r = place_and_route_ice40(sources, "nea_pnr_top", {}, cache / "ice40", po);
  json j = r.to_json();
  j["ports"] = "nea_top without its dbg_* trace ports";
  if (!r.fits) j["xc7"] = xilinx_synthesis(d, cache);
  std::ofstream(result) << j.dump(2) << "\n";
  return j;
}

}  // namespace

json design_area(const DesignAreaOptions& o) {
  const Design d = read_design(o.dir);
  const fs::path cache = d.dir / "area-cache" / ref::fnv1a64_hex(d.key);
  fs::create_directories(cache);
  json j = o.hierarchical ? hierarchical_synthesis(d, cache) : generic_synthesis(d, cache);
  j["design"] = d.dir.filename().string();
  j["spec"] = d.manifest.value("spec", json::object());
  // The model's estimate beside the measurement, or why there is none (as `area --pnr` says it): the cost model
  // knows the flip-flop register file only (docs/cost.md), and a manifest it cannot read is named, not passed over.
  // A directory without a datapath section (a synthetic test design) has no cost point.
  if (d.manifest.contains("datapath")) {
    if (j["spec"].value("regfile", std::string("ff")) == "mem") {
      j["estimate"] = {{"none", "the cost model does not cost a memory register file (--regfile mem)"}};
    } else {
      try {
        const CostPoint p = cost_point_from_manifest(d.manifest);
        j["point"] = to_json(p);
        // The point carries the dividers and FMA units (spec.div / spec.fma): the model counts their unit cells and
        // their operand ports (an FMA unit's third), docs/cost.md.
        j["estimate"] = estimate_cost(p).to_json();
      } catch (const Error& e) {
        j["estimate"] = {{"none", e.what()}};
      }
    }
  }
  if (o.fpga) {
    j["fpga"] = {{"xc7", xilinx_synthesis(d, cache)}};
    if (!o.no_ice40) j["fpga"]["ice40"] = ice40_synthesis(d, cache);
  }
  if (o.pnr) j["pnr"] = place_and_route(d, cache);
  return j;
}

}  // namespace neaccel::cost
