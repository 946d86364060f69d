// The calibrated cost models of a datapath (docs/cost.md): area in Yosys generic cells and clock period on
// iCE40 HX8K. The coefficients are not in this file: they are fitted by cost/calibration/fit.py on the measurements
// of data/datapath-area.json and data/datapath-timing.json (section "model" of each), embedded at build time.
#include "neaccel/cost/cost.hpp"
#include "embedded_data.hpp"
#include "neaccel/dfg/json_read.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/cost/area.hpp"
#include "neaccel/cost/routability.hpp"
#include "neaccel/cost/target.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <optional>

namespace neaccel::cost {

// Embedded at build time (cost/CMakeLists.txt); "{}" when the file is absent.
extern const char* const kDatapathAreaJson;
extern const char* const kDatapathTimingJson;
extern const char* const kUnitTimingJson;
extern const char* const kHardwiredAreaJson;
extern const char* const kEcp5UnitTimingJson;  // data/ecp5-85f/unit-timing.json
extern const char* const kEcp5DesignsJson;     // data/ecp5-85f/designs.json
extern const char* const kEcp5RoutabilityJson; // data/ecp5-85f/routability.json

namespace {
using nlohmann::json;

const json& parsed(const char* text, const char* name) {
  static std::map<const char*, json> cache;
  auto it = cache.find(text);
  if (it != cache.end()) return it->second;
  try {
    return cache[text] = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(std::string(name) + ": not JSON (" + json_problem(e) + ")");
  }
}

double coefficient(const json& data, const char* file, const char* name) {
  const json* c = nullptr;
  if (data.contains("model") && data["model"].contains("coefficients")) c = &data["model"]["coefficients"];
  if (!c || !c->contains(name) || !(*c)[name].is_number())
    throw Error(fmt::format("{}: model.coefficients.{} missing (refit with cost/calibration/fit.py, docs/cost.md)", file, name));
  return (*c)[name].get<double>();
}

int clog2(long n) {
  int b = 0;
  while ((1L << b) < n) ++b;
  return b;
}

int width_of(const std::string& format) {
  if (format == "fp32") return 32;
  const auto colon = format.find(':'), dot = format.find('.');
  if (format.rfind("fixed:", 0) != 0 || dot == std::string::npos || dot < colon)
    throw Error("cost: number format '" + format + "' (fp32 or fixed:I.F)");
  return std::stoi(format.substr(colon + 1, dot - colon - 1)) + std::stoi(format.substr(dot + 1));
}

bool is_fixed(const std::string& format) { return format != "fp32"; }

// Unit names of data/unit-area.json and data/unit-timing.json: kind mul, add, div or fma.
std::string unit_name(const CostPoint& p, const char* kind) {
  return std::string(is_fixed(p.format) ? "fx-" : "fp32-") + kind;
}
std::string unit_name(const CostPoint& p, bool mul) { return unit_name(p, mul ? "mul" : "add"); }

// Every unit of the datapath and its operand ports: an FMA unit reads three operands (a * b + c), the other classes
// two. A multiplier/adder design has 2U ports, as before the FMA and divider classes existed.
int all_units(const CostPoint& p) { return p.mul + p.add + p.div + p.fma; }
int operand_ports(const CostPoint& p) { return 2 * (p.mul + p.add + p.div) + 3 * p.fma; }

// A data file the targets name (cost/targets/<name>.json: "unit_timing", "designs"), parsed from its text embedded
// at build time (cost/CMakeLists.txt).
const json& embedded(const std::string& file) {
  static const std::map<std::string, const char*> texts{{"data/unit-timing.json", kUnitTimingJson},
                                                        {"data/ecp5-85f/unit-timing.json", kEcp5UnitTimingJson},
                                                        {"data/ecp5-85f/designs.json", kEcp5DesignsJson},
                                                        {"data/ecp5-85f/routability.json", kEcp5RoutabilityJson}};
  const auto it = texts.find(file);
  if (it == texts.end()) throw Error(file + ": not embedded in the cost library (cost/CMakeLists.txt)");
  return parsed(it->second, it->first.c_str());
}

// The unit timing table of a target (its file's "unit_timing"): data/unit-timing.json for the iCE40 HX8K.
const json& unit_timing_table(const std::string& name) {
  return embedded(target(name).data.value("unit_timing", std::string("data/unit-timing.json")));
}

// The row of a unit timing table of a unit at a latency: the deepest measured latency not above it; nullptr when
// the unit has no row at or below it.
const json* timing_row(const json& t, const std::string& unit, int lat) {
  const json* best = nullptr;
  if (t.contains("units"))
    for (const auto& row : t["units"])
      if (row.value("unit", "") == unit && row.value("pipelined", true) && row.value("latency", 0) <= lat &&
          (!best || row["latency"].get<int>() > (*best)["latency"].get<int>()))
        best = &row;
  return best;
}
const json* timing_row(const std::string& unit, int lat) {
  return timing_row(parsed(kUnitTimingJson, "data/unit-timing.json"), unit, lat);
}

// Period (ns) of one unit's slowest stage, from data/unit-timing.json. A non-pipelined unit holds its operands for
// Latency cycles, but the tools time it as one cycle: its figure at latency 1.
double unit_period(const CostPoint& p, bool mul) {
  const std::string unit = unit_name(p, mul);
  const int lat = p.pipelined ? (mul ? p.lat_mul : p.lat_add) : 1;
  // A latency beyond the measured ones: the deepest measured cut (more registers do not slow a stage).
  const json* best = timing_row(unit, lat);
  if (!best) throw Error(fmt::format("data/unit-timing.json: no timing of {} at latency <= {}", unit, lat));
  return 1000.0 / (*best)["fmax_mhz"].get<double>();
}
}  // namespace

const json& embedded_data(const std::string& file) { return embedded(file); }

json unit_timing_row(const std::string& target, const std::string& unit, int latency) {
  const json* row = timing_row(unit_timing_table(target), unit, latency);
  return row ? *row : json();
}

double unit_stage_period_ns(const std::string& target, const std::string& unit, int latency) {
  const json* row = timing_row(unit_timing_table(target), unit, latency);
  return row ? 1000.0 / (*row)["fmax_mhz"].get<double>() : 0.0;
}

int microcode_word_bits(const CostPoint& p) {
  const int U = all_units(p), R = std::max(p.registers, 1);
  const int RA = std::max(1, clog2(R)), OA = std::max(1, clog2(U + R + p.consts));
  // ... + per FMA unit its third operand field {src_c} (hw::Config::word_bits)
  if (p.streaming) {
    const int SB = std::max(1, clog2(std::max(p.stages, 1)));
    return U * (3 + SB + 2 * OA) + U * (1 + SB + RA) + 1 + (2 + RA) + (1 + SB + OA) + p.fma * OA;
  }
  return U * (3 + 2 * OA) + U * (1 + RA) + p.fma * OA;
}

nlohmann::json CostEstimate::to_json() const {
  return {{"area_cells", area_cells}, {"unit_cells", unit_cells}, {"register_cells", register_cells},
          {"routing_cells", routing_cells}, {"constant_cells", constant_cells}, {"control_cells", control_cells},
          {"period_ns", period_ns}, {"unit_period_ns", unit_period_ns}, {"fmax_mhz", fmax_mhz()}, {"critical", critical},
          {"target", target}, {"lut", lut}, {"dsp", dsp}};
}

nlohmann::json to_json(const CostPoint& p) {
  json j{{"arch", p.arch}, {"format", p.format}, {"mul", p.mul}, {"add", p.add}, {"lat_mul", p.lat_mul},
         {"lat_add", p.lat_add}, {"pipelined", p.pipelined}, {"registers", p.registers}, {"consts", p.consts},
         {"program_words", p.program_words}, {"inputs", p.inputs}, {"outputs", p.outputs},
         {"streaming", p.streaming}, {"ii", p.ii}, {"stages", p.stages}, {"mux_inputs", p.mux_inputs},
         {"mux2_equivalent", p.mux2_equivalent}, {"max_port_sources", p.max_port_sources}};
  // Only when present, so that a multiplier/adder point on the iCE40 is written as before.
  if (p.target != "ice40-hx8k") j["target"] = p.target;
  if (p.params > 0) j["params"] = p.params;
  if (p.div > 0) {
    j["div"] = p.div;
    j["lat_div"] = p.lat_div;
    j["div_pipelined"] = p.div_pipelined;
  }
  if (p.fma > 0) {
    j["fma"] = p.fma;
    j["lat_fma"] = p.lat_fma;
  }
  return j;
}

CostPoint cost_point_from_json(const nlohmann::json& j) {
  CostPoint p;
  try {
    p.target = j.value("target", p.target);
    p.arch = j.value("arch", p.arch);
    p.format = j.at("format").get<std::string>();
    p.mul = j.at("mul");
    p.add = j.at("add");
    p.lat_mul = j.at("lat_mul");
    p.lat_add = j.at("lat_add");
    p.pipelined = j.at("pipelined");
    p.registers = j.at("registers");
    p.consts = j.at("consts");
    p.params = j.value("params", 0);
    p.program_words = j.at("program_words");
    p.inputs = j.value("inputs", 0);
    p.outputs = j.value("outputs", 0);
    p.streaming = j.value("streaming", false);
    p.ii = j.value("ii", 0);
    p.stages = j.value("stages", 2);
    p.mux_inputs = j.value("mux_inputs", -1);
    p.mux2_equivalent = j.value("mux2_equivalent", -1);
    p.max_port_sources = j.value("max_port_sources", -1);
    p.div = j.value("div", 0);
    p.lat_div = j.value("lat_div", p.lat_div);
    p.div_pipelined = j.value("div_pipelined", false);
    p.fma = j.value("fma", 0);
    p.lat_fma = j.value("lat_fma", p.lat_fma);
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("cost point: ") + json_problem(e));
  }
  return p;
}

CostPoint cost_point_from_manifest(const nlohmann::json& m) {
  try {
    const json& s = m.at("spec");
    const json& dp = m.at("datapath");
    const json& par = dp.at("config").at("parameters");
    // A count of the design (units, latencies, registers, words, multiplexer inputs): a JSON integer, not negative
    // and within int, else an error naming the field (a float or an out-of-range value would be truncated or wrap
    // silently into a figure). `fallback` is the value of a field that may be absent.
    const auto count = [](const json& obj, const char* where, const char* key, std::optional<int> fallback = {}) {
      if (!obj.contains(key)) {
        if (fallback) return *fallback;
        throw Error(fmt::format("manifest: {}.{}: missing", where, key));
      }
      int v = 0;
      if (!dfg::json_read::checked_get(obj.at(key), v) || v < 0)
        throw Error(fmt::format("manifest: {}.{}: {} is not a whole number in 0..{}", where, key, obj.at(key).dump(),
                                std::numeric_limits<int>::max()));
      return v;
    };
    const char* params = "datapath.config.parameters";
    CostPoint p;
    // The models are fitted on designs that decode their selects as they use them; a registered decode
    // (hw/hardwired.hpp) moves the critical path, which is measured by place and route, not estimated.
    if (s.value("decode", std::string("combinational")) != "combinational")
      throw Error(fmt::format("manifest: spec.decode: {}: the cost models cover the combinational decode only; place "
                              "and route the design (area --pnr) for its figures", s["decode"].dump()));
    if (s.value("operand_regs", false))
      throw Error("manifest: spec.operand_regs: the cost models cover units fed by their multiplexers directly; place "
                  "and route the design (area --pnr) for its figures");
    if (s.value("units", std::string("standard")) != "standard")
      throw Error(fmt::format("manifest: spec.units: {}: the cost models are fitted on designs of the standard units; "
                              "place and route the design (area --pnr) for its figures", s["units"].dump()));
    p.arch = s.value("arch", std::string("microcoded"));
    if (p.arch == "hardwired" && s.contains("in_words") && s["in_words"] != 1)
      throw Error(fmt::format("manifest: spec.in_words: {}: the cost models cover the hardwired datapath with a "
                              "one-word input port; place and route the design (area --pnr) for its figures",
                              s["in_words"].dump()));
    p.format = s.at("format").get<std::string>();
    p.mul = count(s, "spec", "mul");
    p.add = count(s, "spec", "add");
    p.lat_mul = count(s, "spec", "lat_mul");
    p.lat_add = count(s, "spec", "lat_add");
    p.pipelined = s.at("pipelined");
    p.registers = count(par, params, "MaxRegs");
    p.consts = count(par, params, "MaxConsts");
    p.params = count(par, params, "MaxParams", 0);
    p.program_words = count(par, params, "MaxProg");
    if (s.contains("div")) {  // spec.div {units, latency, pipelined}, spec.fma {units, latency}: docs/datapath.md
      p.div = count(s["div"], "spec.div", "units");
      p.lat_div = count(s["div"], "spec.div", "latency");
      p.div_pipelined = s["div"].at("pipelined");
    }
    if (s.contains("fma")) {
      p.fma = count(s["fma"], "spec.fma", "units");
      p.lat_fma = count(s["fma"], "spec.fma", "latency");
    }
    p.inputs = static_cast<int>(dp.at("inputs").size());
    p.outputs = static_cast<int>(dp.at("outputs").size());
    p.streaming = dp.value("mode", std::string("latency")) == "streaming";
    if (p.streaming) {
      p.ii = count(dp.at("stream"), "datapath.stream", "ii");
      p.stages = par.contains("MaxStages") ? count(par, params, "MaxStages")
                                           : count(dp.at("stream"), "datapath.stream", "stages");
    }
    if (m.contains("interconnect")) {  // the program's multiplexers (hw::interconnect): the hardwired datapath's
      const json& ic = m["interconnect"];
      p.mux_inputs = count(ic, "interconnect", "mux_inputs", -1);
      p.mux2_equivalent = count(ic, "interconnect", "mux2_equivalent", -1);
      p.max_port_sources = count(ic, "interconnect", "max_port_sources", -1);
    }
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("manifest: ") + json_problem(e));
  }
}

namespace {
// The hardwired datapath (docs/cost.md): units + k_reg * R * W (one register per program register) +
// k_mux * M2 * W (M2 = two-input multiplexer equivalents of the binding, hw::Interconnect::mux2_equivalent) +
// k_dec * P * U (select and enable decode from the cycle counter: per program word and unit) + k_0. The four
// coefficients are fitted here, by least squares, on the measured non-unit cells of data/hardwired-area.json, so
// that the model is always the fit of the data beside it.
struct HardwiredModel {
  double k_reg = 0, k_mux = 0, k_dec = 0, k_0 = 0;
  double worst_error_percent = 0;
  int points = 0;
};

std::array<double, 4> hardwired_terms(double R, double W, double M2, double P, double U) {
  return {R * W, M2 * W, P * U, 1.0};
}

// Least squares: the coefficients x minimising sum (t . x - y)^2 over the rows, from the normal equations A x = b
// solved by Gaussian elimination with pivoting. Throws neaccel::Error naming `file` when the rows do not determine x.
template <std::size_t N>
std::array<double, N> least_squares(const std::vector<std::pair<std::array<double, N>, double>>& rows, const char* file) {
  std::array<std::array<double, N>, N> A{};
  std::array<double, N> b{};
  for (const auto& [t, y] : rows)
    for (std::size_t i = 0; i < N; ++i) {
      b[i] += t[i] * y;
      for (std::size_t j = 0; j < N; ++j) A[i][j] += t[i] * t[j];
    }
  for (std::size_t i = 0; i < N; ++i) {
    std::size_t piv = i;
    for (std::size_t r = i + 1; r < N; ++r)
      if (std::abs(A[r][i]) > std::abs(A[piv][i])) piv = r;
    std::swap(A[i], A[piv]);
    std::swap(b[i], b[piv]);
    if (std::abs(A[i][i]) < 1e-12) throw Error(std::string(file) + ": the measured designs do not determine the model");
    for (std::size_t r = 0; r < N; ++r) {
      if (r == i) continue;
      const double f = A[r][i] / A[i][i];
      for (std::size_t c = 0; c < N; ++c) A[r][c] -= f * A[i][c];
      b[r] -= f * b[i];
    }
  }
  std::array<double, N> x{};
  for (std::size_t i = 0; i < N; ++i) x[i] = b[i] / A[i][i];
  return x;
}

const HardwiredModel& hardwired_model() {
  static const HardwiredModel model = [] {
    const json& d = parsed(kHardwiredAreaJson, "data/hardwired-area.json");
    if (!d.contains("rows") || d["rows"].size() < 6)
      throw Error("data/hardwired-area.json: fewer than 6 measured designs to fit the hardwired area model");
    std::vector<std::pair<std::array<double, 4>, double>> rows;
    for (const auto& r : d["rows"]) {
      const double W = width_of(r.at("format").get<std::string>());
      rows.emplace_back(hardwired_terms(r.at("registers"), W, r.at("mux2_equivalent"), r.at("program_words"), r.at("units")),
                        r.at("non_unit_cells").get<double>());
    }
    const auto x = least_squares(rows, "data/hardwired-area.json");
    HardwiredModel m;
    m.k_reg = x[0];
    m.k_mux = x[1];
    m.k_dec = x[2];
    m.k_0 = x[3];
    m.points = static_cast<int>(rows.size());
    for (const auto& [t, y] : rows) {
      const double est = m.k_reg * t[0] + m.k_mux * t[1] + m.k_dec * t[2] + m.k_0;
      m.worst_error_percent = std::max(m.worst_error_percent, 100.0 * std::abs(est - y) / y);
    }
    return m;
  }();
  return model;
}
}  // namespace

double ice40_logic_cells_per_cell() {
  static const double k = [] {
    double worst = 0;
    auto scan = [&](const json& designs) {
      for (const auto& d : designs)
        if (d.contains("cells") && d.contains("logic_cells") && d["cells"].get<double>() > 0)
          worst = std::max(worst, d["logic_cells"].get<double>() / d["cells"].get<double>());
    };
    const json& t = parsed(kDatapathTimingJson, "data/datapath-timing.json");
    const json& h = parsed(kHardwiredAreaJson, "data/hardwired-area.json");
    if (t.contains("designs")) scan(t["designs"]);
    if (h.contains("pnr") && h["pnr"].contains("designs")) scan(h["pnr"]["designs"]);
    if (worst <= 0) throw Error("data/datapath-timing.json: no placed design to relate logic cells to generic cells");
    return worst;
  }();
  return k;
}

nlohmann::json hardwired_area_model() {
  const HardwiredModel& m = hardwired_model();
  return {{"k_reg", m.k_reg}, {"k_mux", m.k_mux}, {"k_dec", m.k_dec}, {"k_0", m.k_0}, {"points", m.points},
          {"worst_error_percent", m.worst_error_percent}};
}

namespace {
// The slowest unit stage: multipliers and adders (their timing must be measured), dividers and FMA units where
// data/unit-timing.json has them (`unmeasured` names those it has not: the stage is then the others').
double unit_stage(const CostPoint& p, CostEstimate& e, const char** which, std::string* unmeasured) {
  const double t_mul = p.mul > 0 ? unit_period(p, true) : 0, t_add = p.add > 0 ? unit_period(p, false) : 0;
  e.unit_period_ns = std::max(t_mul, t_add);
  *which = t_mul >= t_add ? "mul" : "add";
  auto other = [&](int n, const char* kind, int lat, bool pipelined) {
    if (n <= 0) return;
    const std::string unit = unit_name(p, kind);
    const json* row = timing_row(unit, pipelined ? lat : 1);  // non-pipelined: one cycle to the tools, as above
    if (!row) {
      *unmeasured += (unmeasured->empty() ? "" : ", ") + unit;
      return;
    }
    const double t = 1000.0 / (*row)["fmax_mhz"].get<double>();
    if (t > e.unit_period_ns) {
      e.unit_period_ns = t;
      *which = kind;
    }
  };
  other(p.div, "div", p.lat_div, p.div_pipelined);
  other(p.fma, "fma", p.lat_fma, p.pipelined);
  return e.unit_period_ns;
}

std::string stage_note(const std::string& unmeasured) {
  return unmeasured.empty() ? std::string() : " (" + unmeasured + " stage not measured)";
}

// The inputs S of the multiplexer in front of a unit's operand port, which the period models charge log2(S) levels
// of logic: in the microcoded datapath every source (U units' result buses, R registers, C constants); in the
// hardwired datapath the largest fan-in of a unit port in the binding, or when that is unknown (an explored point)
// the sources a port can see, estimated from the multiplexer inputs spread over the unit ports (2 per unit, 3 per
// FMA unit; at least 2).
double operand_sources(const CostPoint& p) {
  if (p.arch != "hardwired")
    return all_units(p) + std::max(p.registers, 1) + std::max(p.consts, 0) + std::max(p.params, 0);
  const double ports = operand_ports(p);
  return p.max_port_sources > 0 ? p.max_port_sources
                                : std::max(2.0, std::ceil(2.0 * (p.mux2_equivalent + ports) / ports));
}

// The hardwired datapath's area (hardwired_model) and period: the same operand path as the microcoded datapath's
// (unit stage + a multiplexer of S inputs, log2(S) levels, data/datapath-timing.json), where S is the largest
// fan-in of a unit port in this binding instead of every source.
CostEstimate estimate_hardwired(const CostPoint& p, CostEstimate e, double W, double U, double R, double P,
                                const json& timing, const char* tf) {
  if (p.mux2_equivalent < 0)
    throw Error("cost: the hardwired architecture needs the binding's multiplexer inputs (mux2_equivalent)");
  const HardwiredModel& m = hardwired_model();
  // M2 counts every port's multiplexer the binding routes, an FMA unit's third (c) port too
  // (hw::Interconnect::unit_sources[u][2]); the decode is per program word and unit, of every class.
  e.register_cells = m.k_reg * R * W;
  e.routing_cells = m.k_mux * p.mux2_equivalent * W;
  e.control_cells = m.k_dec * P * U + m.k_0;
  e.area_cells = e.unit_cells + e.register_cells + e.routing_cells + e.control_cells;
  const char* which = "mul";
  std::string unmeasured;
  const double stage = unit_stage(p, e, &which, &unmeasured);
  const double S = operand_sources(p);
  e.period_ns = stage + coefficient(timing, tf, "t_op0") + coefficient(timing, tf, "t_op_per_level") * std::log2(S);
  e.critical = fmt::format("port mux ({} inputs) + {} stage{}", static_cast<int>(S), which, stage_note(unmeasured));
  return e;
}
}  // namespace

namespace {
// Area: units from their own synthesis; the rest in physically meaningful terms (W = word bits, U = units of every
// class, N = their operand ports (2 per multiplier, adder or divider, 3 per FMA unit: a multiplier/adder design has
// N = 2U), R = registers, Q = parameter memory words, C = constants, S = U + R + C + Q operand sources, P x B =
// microcode ROM bits):
//   register file   k_reg * (R + Q) * W                 flip-flops and their enables (a parameter word is a register
//                                                       written in the configuration phase)
//   operand muxes   k_op * N * W * (R + Q - 1)          one per unit port, over the registers and parameter words
//                   + k_bus * N * W * (U - 1)           and over the other units' result buses (the bypass)
//   constants       k_const * N * W * C                 constant inputs of the same multiplexers
//   write-back      k_wb * R * W * U                    per register a (U + 1)-input multiplexer
//   control         k_rom * P * B + k_ctl               microcode ROM as logic, sequencer, I/O ROMs
CostEstimate estimate_generic(const CostPoint& p) {
  const json& area = parsed(kDatapathAreaJson, "data/datapath-area.json");
  const json& timing = parsed(kDatapathTimingJson, "data/datapath-timing.json");
  const char* af = "data/datapath-area.json";
  const char* tf = "data/datapath-timing.json";
  if (p.mul < 0 || p.add < 0 || p.div < 0 || p.fma < 0 || all_units(p) < 1)
    throw Error("cost: a datapath needs at least one unit");
  const double W = width_of(p.format), U = all_units(p), R = std::max(p.registers, 1), C = std::max(p.consts, 0);
  const double P = std::max(p.program_words, 1), B = microcode_word_bits(p);
  const double N = operand_ports(p);  // 2U without FMA units: the terms below are then those of before
  CostEstimate e;
  e.unit_cells = p.mul * unit_area(unit_name(p, true), p.lat_mul, p.pipelined).cells +
                 p.add * unit_area(unit_name(p, false), p.lat_add, p.pipelined).cells;
  if (p.div > 0) e.unit_cells += p.div * unit_area(unit_name(p, "div"), p.lat_div, p.div_pipelined).cells;
  if (p.fma > 0) e.unit_cells += p.fma * unit_area(unit_name(p, "fma"), p.lat_fma, p.pipelined).cells;
  if (p.arch == "hardwired") return estimate_hardwired(p, e, W, U, R, P, timing, tf);
  if (p.arch != "microcoded") throw Error("cost: architecture '" + p.arch + "' (microcoded, hardwired)");
  const double Q = std::max(p.params, 0);
  e.register_cells = coefficient(area, af, "k_reg") * (R + Q) * W;
  e.constant_cells = coefficient(area, af, "k_const") * N * W * C;
  e.routing_cells = coefficient(area, af, "k_op") * N * W * (R + Q - 1) +
                    coefficient(area, af, "k_bus") * N * W * (U - 1) + e.constant_cells +
                    coefficient(area, af, "k_wb") * R * W * U;
  e.control_cells = coefficient(area, af, "k_rom") * P * B + coefficient(area, af, "k_ctl");
  e.area_cells = e.unit_cells + e.register_cells + e.routing_cells + e.control_cells;

  // Period: the operand path is the operand multiplexer (select from the microcode word register, data from a
  // register, a constant or a result bus) in series with the unit's first stage; a multiplexer of S inputs is
  // log2(S) levels of logic. The control path is the microcode ROM read into the word register.
  const char* which = "mul";
  std::string unmeasured;
  unit_stage(p, e, &which, &unmeasured);
  const double S = operand_sources(p);  // U + R + C + Q
  const double t_op = coefficient(timing, tf, "t_op0") + coefficient(timing, tf, "t_op_per_level") * std::log2(S);
  const double t_ctl = coefficient(timing, tf, "t_ctl0") + coefficient(timing, tf, "t_ctl_per_level") * std::log2(P * B);
  const double op_path = e.unit_period_ns + t_op;
  if (op_path >= t_ctl) {
    e.period_ns = op_path;
    e.critical = fmt::format("operand mux ({} inputs) + {} stage{}", static_cast<int>(S), which, stage_note(unmeasured));
  } else {
    e.period_ns = t_ctl;
    e.critical = "microcode ROM";
  }
  e.lut = e.area_cells * ice40_logic_cells_per_cell();  // iCE40 logic cells, conservative
  return e;
}

// ---- Devices other than the iCE40 HX8K: models fitted on whole designs placed and routed on the device ----

// A unit's row in a device's unit table: pipelined, the deepest measured latency not above `lat`; not pipelined,
// its non-pipelined row where one was placed, else its latency-1 row (the same logic without the hold).
const json& device_unit_row(const json& table, const char* file, const std::string& unit, int lat, bool pipelined) {
  if (!pipelined && table.contains("units"))
    for (const auto& row : table["units"])
      if (row.value("unit", "") == unit && !row.value("pipelined", true)) return row;
  const json* row = timing_row(table, unit, pipelined ? lat : 1);
  if (!row) throw Error(fmt::format("{}: no place and route of {} at latency <= {}", file, unit, pipelined ? lat : 1));
  return *row;
}

// What a design's units take on the device, and its slowest unit stage (a non-pipelined unit: its latency-1 figure,
// as estimate_generic), and the operand multiplexer's inputs.
struct DeviceTerms {
  double unit_lut = 0, unit_dsp = 0, stage = 0, S = 2;
  std::string which = "mul";
};

DeviceTerms device_terms(const CostPoint& p, const json& table, const char* file) {
  DeviceTerms d;
  auto add = [&](int n, const char* kind, int lat, bool pipelined) {
    if (n <= 0) return;
    const std::string unit = unit_name(p, kind);
    const json& area = device_unit_row(table, file, unit, lat, pipelined);
    d.unit_lut += n * area.at("comb").get<double>();
    d.unit_dsp += n * area.at("dsp").get<double>();
    const json& timing = pipelined ? area : device_unit_row(table, file, unit, 1, true);
    const double t = 1000.0 / timing.at("fmax_mhz").get<double>();
    if (t > d.stage) {
      d.stage = t;
      d.which = kind;
    }
  };
  add(p.mul, "mul", p.lat_mul, p.pipelined);
  add(p.add, "add", p.lat_add, p.pipelined);
  add(p.div, "div", p.lat_div, p.div_pipelined);
  add(p.fma, "fma", p.lat_fma, p.pipelined);
  d.S = operand_sources(p);
  return d;
}

struct DeviceModel {
  std::string target, part, designs_file, units_file;
  // Per architecture: k_unit, k_lut, k_lut0 (LUT4) and t_op0, t_op_per_level, t_per_unit (period), and where the
  // architecture has one, k_stream (LUT4 per non-unit generic cell a streaming datapath takes beyond the rest).
  std::map<std::string, std::array<double, 3>> lut, period;
  std::map<std::string, double> stream;
  json designs;  // data/<target>/designs.json's rows
};

// Streaming designs an architecture needs in its fit set for a streaming term of its own (below).
constexpr std::size_t kStreamTermDesigns = 3;

// The model of a device (estimate_cost in cost.hpp), fitted on its placed designs marked "fit", by least squares
// on the relative errors. An architecture with at least kStreamTermDesigns streaming designs in its fit set has its
// three LUT4 and three period coefficients fitted on its latency datapaths alone, and then k_stream on the streaming
// ones, with those fixed: so the streaming designs leave every latency datapath's estimate as it was. With fewer,
// its streaming designs join the others in one fit.
DeviceModel fit_device_model(const std::string& name) {
  const Target& t = target(name);
  DeviceModel m;
  m.target = t.name;
  m.part = t.part;
  // The target file names its placed designs ("designs"); one without has no device model.
  m.designs_file = t.data.value("designs", std::string());
  if (m.designs_file.empty())
    throw Error("cost: target " + t.name + " has no device model (cost/targets/" + t.name + ".json)");
  m.units_file = t.data.value("unit_timing", std::string());
  const json& table = unit_timing_table(t.name);
  const json& d = embedded(m.designs_file);
  if (!d.contains("designs") || !d["designs"].is_array())
    throw Error(m.designs_file + ": no placed designs (cost/calibration/ecp5/designs.sh, docs/cost.md)");
  m.designs = d["designs"];
  using Rows = std::vector<std::pair<std::array<double, 3>, double>>;
  struct ArchRows {
    Rows lut, period, stream_lut, stream_period;
    std::vector<std::array<double, 3>> stream;  // streaming designs: the units' LUT4, the non-unit cells, LUT4 placed
  };
  std::map<std::string, ArchRows> by_arch;
  for (const auto& row : m.designs) {
    try {
      if (row.value("set", "fit") != "fit") continue;
      CostPoint p = cost_point_from_json(row.at("point"));
      p.target = "ice40-hx8k";
      const CostEstimate g = estimate_generic(p);
      const DeviceTerms dt = device_terms(p, table, m.units_file.c_str());
      // Each row divided by the measured figure: the fit minimises the relative errors, which is what the model
      // is held to (a few percent of a large design must not outweigh the whole of a small one).
      const double lut = row.at("lut").get<double>(), period = row.at("period_ns").get<double>();
      const double rest = g.area_cells - g.unit_cells;
      ArchRows& a = by_arch[p.arch];
      (p.streaming ? a.stream_lut : a.lut).push_back({{dt.unit_lut / lut, rest / lut, 1.0 / lut}, 1.0});
      (p.streaming ? a.stream_period : a.period)
          .push_back({{1.0 / period, std::log2(dt.S) / period, all_units(p) / period}, (period - dt.stage) / period});
      if (p.streaming) a.stream.push_back({dt.unit_lut, rest, lut});
    } catch (const json::exception& e) {
      throw Error(m.designs_file + ": design '" + row.value("name", "?") + "': " + json_problem(e));
    }
  }
  for (auto& [arch, a] : by_arch) {
    const bool term = a.stream.size() >= kStreamTermDesigns;
    if (!term) {
      a.lut.insert(a.lut.end(), a.stream_lut.begin(), a.stream_lut.end());
      a.period.insert(a.period.end(), a.stream_period.begin(), a.stream_period.end());
    }
    if (a.lut.size() < 4) continue;  // too few to fit three coefficients: estimating this architecture says so
    const auto& k = m.lut[arch] = least_squares(a.lut, m.designs_file.c_str());
    m.period[arch] = least_squares(a.period, m.designs_file.c_str());
    if (!term) continue;
    // What the streaming designs take beyond the latency datapaths' model, per non-unit generic cell.
    std::vector<std::pair<std::array<double, 1>, double>> rows;
    for (const auto& [unit_lut, rest, lut] : a.stream)
      rows.push_back({{rest / lut}, (lut - (k[0] * unit_lut + k[1] * rest + k[2])) / lut});
    m.stream[arch] = least_squares(rows, m.designs_file.c_str())[0];
  }
  return m;
}

// Each target's model, fitted once (a sweep's threads may ask at the same time). An unknown name or a target
// without placed designs throws its one line each time it is asked.
const DeviceModel& device_model_of(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, DeviceModel> models;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = models.find(name); it != models.end()) return it->second;
  return models.emplace(name, fit_device_model(name)).first->second;
}

CostEstimate estimate_on_device(const CostPoint& p) {
  const DeviceModel& m = device_model_of(p.target);
  CostPoint g = p;
  g.target = "ice40-hx8k";
  CostEstimate e = estimate_generic(g);
  const DeviceTerms d = device_terms(p, unit_timing_table(m.target), m.units_file.c_str());
  const auto lut = m.lut.find(p.arch);
  if (lut == m.lut.end())
    throw Error(fmt::format("{}: fewer than 4 placed {} designs to fit the model on {}", m.designs_file, p.arch,
                            m.target));
  const auto& k = lut->second;
  const auto& t = m.period.at(p.arch);
  e.target = m.target;
  const auto stream = m.stream.find(p.arch);
  const double k_stream = p.streaming && stream != m.stream.end() ? stream->second : 0.0;
  e.lut = k[0] * d.unit_lut + (k[1] + k_stream) * (e.area_cells - e.unit_cells) + k[2];
  e.dsp = d.unit_dsp;
  e.unit_period_ns = d.stage;
  e.period_ns = d.stage + t[0] + t[1] * std::log2(d.S) + t[2] * all_units(p);
  e.critical = fmt::format("{} mux ({} inputs) + {} stage on {}", p.arch == "hardwired" ? "port" : "operand",
                           static_cast<int>(d.S), d.which, m.part);
  return e;
}
}  // namespace

CostEstimate estimate_cost(const CostPoint& p) {
  CostEstimate e = target(p.target).has_device_model() ? estimate_on_device(p) : estimate_generic(p);
  e.arch = p.arch;
  e.streaming = p.streaming;
  e.port_sources = operand_sources(p);
  return e;
}

double percent_error(double model, double measured) {
  return measured != 0 ? 100.0 * (model - measured) / measured : 0.0;
}

nlohmann::json device_model(const std::string& name) {
  const DeviceModel& m = device_model_of(name);
  json rows = json::array();
  double worst[2][3] = {};  // [fit, check][lut, dsp, period]
  for (const auto& row : m.designs) {
    CostPoint p = cost_point_from_json(row.at("point"));
    p.target = m.target;
    const CostEstimate e = estimate_cost(p);
    const std::string set = row.value("set", "fit");
    const bool fit = set == "fit";
    const double el = percent_error(e.lut, row.at("lut")), ed = percent_error(e.dsp, row.at("dsp")),
                 ep = percent_error(e.period_ns, row.at("period_ns"));
    const double errors[3] = {el, ed, ep};
    // A design of a class the model does not hold for (routability.hpp: its latency or streaming datapaths) is
    // shown with its error, which bounds the class, not counted in the worst errors of the classes it holds for.
    const auto env = routed_envelope(m.target, p.arch);
    const bool modelled = !env || !(p.streaming ? env->streaming_class : env->latency_class).bounds;
    if (set != "outside" && modelled)  // outside: shown, for a reason the designs list gives, not held to the tolerance
      for (int i = 0; i < 3; ++i) worst[fit ? 0 : 1][i] = std::max(worst[fit ? 0 : 1][i], std::abs(errors[i]));
    rows.push_back({{"name", row.value("name", "")}, {"set", set}, {"rtl_args", row.value("rtl_args", "")},
                    {"arch", p.arch}, {"lut", row.at("lut")}, {"dsp", row.at("dsp")}, {"ff", row.value("ff", 0)},
                    {"period_ns", row.at("period_ns")}, {"fmax_mhz", row.value("fmax_mhz", 0.0)},
                    {"seconds", row.value("seconds", 0.0)}, {"point", to_json(p)}, {"estimate", e.to_json()},
                    {"error_percent", {{"lut", el}, {"dsp", ed}, {"period", ep}}}, {"class_modelled", modelled}});
  }
  // The classes the model does not hold for, with their worst errors (routability.hpp).
  json unmodelled = json::array();
  for (const auto& [arch, k] : m.lut) {
    const auto env = routed_envelope(m.target, arch);
    if (!env) continue;
    for (const auto* c : {&env->latency_class, &env->streaming_class})
      if (c->bounds)
        unmodelled.push_back({{"arch", arch}, {"datapaths", c == &env->streaming_class ? "streaming" : "latency"},
                              {"designs", c->designs}, {"lut_error_percent", c->lut_error},
                              {"lut_design", c->lut_design}, {"period_error_percent", c->period_error},
                              {"period_design", c->period_design}});
  }
  json coefficients = json::object();
  for (const auto& [arch, k] : m.lut) {
    const auto& t = m.period.at(arch);
    coefficients[arch] = {{"k_unit", k[0]}, {"k_lut", k[1]}, {"k_lut0", k[2]}, {"t_op0", t[0]},
                          {"t_op_per_level", t[1]}, {"t_per_unit", t[2]}};
    if (const auto it = m.stream.find(arch); it != m.stream.end()) coefficients[arch]["k_stream"] = it->second;
  }
  auto worst_json = [&](int s) { return json{{"lut", worst[s][0]}, {"dsp", worst[s][1]}, {"period", worst[s][2]}}; };
  return {{"target", m.target}, {"part", m.part}, {"designs_file", m.designs_file}, {"units_file", m.units_file},
          {"coefficients", coefficients},
          {"designs", rows}, {"worst_error_percent", {{"fit", worst_json(0)}, {"check", worst_json(1)}}},
          {"unmodelled_classes", unmodelled}};
}

}  // namespace neaccel::cost
