// The calibrated cost models of a datapath (docs/cost.md): area in Yosys generic cells and clock period on
// iCE40 HX8K. The coefficients are not in this file: they are fitted by scripts/cost/fit.py on the measurements
// of data/datapath-area.json and data/datapath-timing.json (section "model" of each), embedded at build time.
#include "neaccel/study/cost.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/study/area.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace neaccel::study {

// Embedded at build time (scripts/study/CMakeLists.txt); "{}" when the file is absent.
extern const char* const kDatapathAreaJson;
extern const char* const kDatapathTimingJson;
extern const char* const kUnitTimingJson;

namespace {
using nlohmann::json;

const json& parsed(const char* text, const char* name) {
  static std::map<const char*, json> cache;
  auto it = cache.find(text);
  if (it != cache.end()) return it->second;
  try {
    return cache[text] = json::parse(text);
  } catch (const json::exception& e) {
    throw Error(std::string(name) + ": not JSON (" + e.what() + ")");
  }
}

double coefficient(const json& data, const char* file, const char* name) {
  const json* c = nullptr;
  if (data.contains("model") && data["model"].contains("coefficients")) c = &data["model"]["coefficients"];
  if (!c || !c->contains(name) || !(*c)[name].is_number())
    throw Error(fmt::format("{}: model.coefficients.{} missing (refit with scripts/cost/fit.py, docs/cost.md)", file, name));
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

// Unit names of data/unit-area.json and data/unit-timing.json.
std::string unit_name(const CostPoint& p, bool mul) {
  return std::string(is_fixed(p.format) ? "fx-" : "fp32-") + (mul ? "mul" : "add");
}

// Period (ns) of one unit's slowest stage, from data/unit-timing.json. A non-pipelined unit holds its operands for
// Latency cycles, but the tools time it as one cycle: its figure at latency 1.
double unit_period(const CostPoint& p, bool mul) {
  const json& t = parsed(kUnitTimingJson, "data/unit-timing.json");
  const std::string unit = unit_name(p, mul);
  const int lat = p.pipelined ? (mul ? p.lat_mul : p.lat_add) : 1;
  const json* best = nullptr;
  if (t.contains("units"))
    for (const auto& row : t["units"])
      if (row.value("unit", "") == unit && row.value("pipelined", true) && row.value("latency", 0) <= lat &&
          (!best || row["latency"].get<int>() > (*best)["latency"].get<int>()))
        best = &row;
  // A latency beyond the measured ones: the deepest measured cut (more registers do not slow a stage).
  if (!best) throw Error(fmt::format("data/unit-timing.json: no timing of {} at latency <= {}", unit, lat));
  return 1000.0 / (*best)["fmax_mhz"].get<double>();
}
}  // namespace

int microcode_word_bits(const CostPoint& p) {
  const int U = p.mul + p.add, R = std::max(p.registers, 1);
  const int RA = std::max(1, clog2(R)), OA = std::max(1, clog2(U + R + p.consts));
  if (p.streaming) {
    const int SB = std::max(1, clog2(std::max(p.stages, 1)));
    return U * (3 + SB + 2 * OA) + U * (1 + SB + RA) + 1 + (2 + RA) + (1 + SB + OA);
  }
  return U * (3 + 2 * OA) + U * (1 + RA);
}

nlohmann::json CostEstimate::to_json() const {
  return {{"area_cells", area_cells}, {"unit_cells", unit_cells}, {"register_cells", register_cells},
          {"routing_cells", routing_cells}, {"constant_cells", constant_cells}, {"control_cells", control_cells},
          {"period_ns", period_ns}, {"unit_period_ns", unit_period_ns}, {"fmax_mhz", fmax_mhz()}, {"critical", critical}};
}

nlohmann::json to_json(const CostPoint& p) {
  return {{"arch", p.arch}, {"format", p.format}, {"mul", p.mul}, {"add", p.add}, {"lat_mul", p.lat_mul},
          {"lat_add", p.lat_add}, {"pipelined", p.pipelined}, {"registers", p.registers}, {"consts", p.consts},
          {"program_words", p.program_words}, {"inputs", p.inputs}, {"outputs", p.outputs},
          {"streaming", p.streaming}, {"ii", p.ii}, {"stages", p.stages}, {"mux_inputs", p.mux_inputs}};
}

CostPoint cost_point_from_json(const nlohmann::json& j) {
  CostPoint p;
  try {
    p.arch = j.value("arch", p.arch);
    p.format = j.at("format").get<std::string>();
    p.mul = j.at("mul");
    p.add = j.at("add");
    p.lat_mul = j.at("lat_mul");
    p.lat_add = j.at("lat_add");
    p.pipelined = j.at("pipelined");
    p.registers = j.at("registers");
    p.consts = j.at("consts");
    p.program_words = j.at("program_words");
    p.inputs = j.value("inputs", 0);
    p.outputs = j.value("outputs", 0);
    p.streaming = j.value("streaming", false);
    p.ii = j.value("ii", 0);
    p.stages = j.value("stages", 2);
    p.mux_inputs = j.value("mux_inputs", -1);
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("cost point: ") + e.what());
  }
  return p;
}

CostPoint cost_point_from_manifest(const nlohmann::json& m) {
  try {
    const json& s = m.at("spec");
    const json& dp = m.at("datapath");
    const json& par = dp.at("config").at("parameters");
    CostPoint p;
    p.arch = m.value("arch", std::string("microcoded"));
    p.format = s.at("format").get<std::string>();
    p.mul = s.at("mul");
    p.add = s.at("add");
    p.lat_mul = s.at("lat_mul");
    p.lat_add = s.at("lat_add");
    p.pipelined = s.at("pipelined");
    p.registers = par.at("MaxRegs");
    p.consts = par.at("MaxConsts");
    p.program_words = par.at("MaxProg");
    p.inputs = static_cast<int>(dp.at("inputs").size());
    p.outputs = static_cast<int>(dp.at("outputs").size());
    p.streaming = dp.value("mode", std::string("latency")) == "streaming";
    if (p.streaming) {
      p.ii = dp.at("stream").at("ii");
      p.stages = par.contains("MaxStages") ? par["MaxStages"].get<int>() : dp.at("stream").at("stages").get<int>();
    }
    return p;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("manifest: ") + e.what());
  }
}

// Area: units from their own synthesis; the rest in physically meaningful terms (W = word bits, U = units,
// R = registers, C = constants, S = U + R + C operand sources, P x B = microcode ROM bits):
//   register file   k_reg * R * W                       flip-flops and their enables
//   operand muxes   k_op * 2U * W * (U + R - 1)         2 per unit, a (U + R)-input multiplexer of W bits
//   constants       k_const * 2U * W * C                constant inputs of the same multiplexers
//   write-back      k_wb * R * W * U                    per register a (U + 1)-input multiplexer
//   control         k_rom * P * B + k_ctl               microcode ROM as logic, sequencer, I/O ROMs
CostEstimate estimate_cost(const CostPoint& p) {
  const json& area = parsed(kDatapathAreaJson, "data/datapath-area.json");
  const json& timing = parsed(kDatapathTimingJson, "data/datapath-timing.json");
  const char* af = "data/datapath-area.json";
  const char* tf = "data/datapath-timing.json";
  if (p.mul < 0 || p.add < 0 || p.mul + p.add < 1) throw Error("cost: a datapath needs at least one unit");
  const double W = width_of(p.format), U = p.mul + p.add, R = std::max(p.registers, 1), C = std::max(p.consts, 0);
  const double P = std::max(p.program_words, 1), B = microcode_word_bits(p);
  CostEstimate e;
  e.unit_cells = p.mul * unit_area(unit_name(p, true), p.lat_mul, p.pipelined).cells +
                 p.add * unit_area(unit_name(p, false), p.lat_add, p.pipelined).cells;
  e.register_cells = coefficient(area, af, "k_reg") * R * W;
  e.constant_cells = coefficient(area, af, "k_const") * 2 * U * W * C;
  e.routing_cells = coefficient(area, af, "k_op") * 2 * U * W * (U + R - 1) + e.constant_cells +
                    coefficient(area, af, "k_wb") * R * W * U;
  e.control_cells = coefficient(area, af, "k_rom") * P * B + coefficient(area, af, "k_ctl");
  e.area_cells = e.unit_cells + e.register_cells + e.routing_cells + e.control_cells;

  // Period: the operand path is the operand multiplexer (select from the microcode word register, data from a
  // register, a constant or a result bus) in series with the unit's first stage; a multiplexer of S inputs is
  // log2(S) levels of logic. The control path is the microcode ROM read into the word register.
  const double t_mul = p.mul > 0 ? unit_period(p, true) : 0, t_add = p.add > 0 ? unit_period(p, false) : 0;
  e.unit_period_ns = std::max(t_mul, t_add);
  const double S = U + R + C;
  const double t_op = coefficient(timing, tf, "t_op0") + coefficient(timing, tf, "t_op_per_level") * std::log2(S);
  const double t_ctl = coefficient(timing, tf, "t_ctl0") + coefficient(timing, tf, "t_ctl_per_level") * std::log2(P * B);
  const double op_path = e.unit_period_ns + t_op;
  if (op_path >= t_ctl) {
    e.period_ns = op_path;
    e.critical = fmt::format("operand mux ({} inputs) + {} stage", static_cast<int>(S), t_mul >= t_add ? "mul" : "add");
  } else {
    e.period_ns = t_ctl;
    e.critical = "microcode ROM";
  }
  return e;
}

}  // namespace neaccel::study
