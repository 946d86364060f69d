#include "neaccel/cost/area.hpp"

#include "neaccel/ref/error.hpp"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace neaccel::cost {

// data/unit-area.json, embedded at build time (cost/CMakeLists.txt); "{}" when absent.
extern const char* const kUnitAreaJson;

namespace {
const nlohmann::json& table() {
  static const nlohmann::json t = nlohmann::json::parse(kUnitAreaJson);
  return t;
}
}  // namespace

namespace {
const nlohmann::json* find(const std::string& unit, int latency, bool pipelined) {
  const auto& t = table();
  if (!t.contains("units")) return nullptr;
  for (const auto& row : t["units"])
    if (row.value("unit", "") == unit && row.value("latency", 0) == latency && row.value("pipelined", true) == pipelined)
      return &row;
  return nullptr;
}
}  // namespace

UnitArea unit_area(const std::string& unit, int latency, bool pipelined) {
  if (const auto* row = find(unit, latency, pipelined)) return UnitArea{row->at("generic_cells").get<double>(), true};
  // A non-pipelined unit is the same combinational logic with operand registers and a busy counter instead of
  // stage registers: estimated as the pipelined latency-1 unit plus the overhead measured where both exist
  // (fp32-mul at latency 3: non-pipelined minus pipelined latency 1).
  if (!pipelined) {
    const auto* base = find(unit, 1, true);
    const auto* np = find("fp32-mul", 3, false);
    const auto* p1 = find("fp32-mul", 1, true);
    if (base && np && p1)
      return UnitArea{base->at("generic_cells").get<double>() + np->at("generic_cells").get<double>() -
                          p1->at("generic_cells").get<double>(), false};
  }
  throw Error(fmt::format("area: no synthesis figure for {} at latency {} ({}pipelined) in data/unit-area.json "
                          "(regenerate it with `neaccel area --all --json`, docs/units.md)",
                          unit, latency, pipelined ? "" : "non-"));
}

DatapathArea datapath_area(int mul, int lat_mul, int add, int lat_add, bool pipelined, int registers) {
  DatapathArea a;
  a.units = mul * unit_area("fp32-mul", lat_mul, pipelined).cells + add * unit_area("fp32-add", lat_add, pipelined).cells;
  const int units = mul + add;
  const double r = std::max(registers, 1);
  a.registers = r * 32;                                        // flip-flops
  a.routing = 2.0 * units * (r - 1) * 32 + r * units * 32;     // read multiplexers + write-back multiplexers
  a.control = 64;                                              // sequencer
  return a;
}

}  // namespace neaccel::cost
