#include "neaccel/study/area.hpp"

#include "neaccel/ref/error.hpp"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

namespace neaccel::study {

// data/unit-area.json, embedded at build time (scripts/study/CMakeLists.txt); "{}" when absent.
extern const char* const kUnitAreaJson;

namespace {
const nlohmann::json& table() {
  static const nlohmann::json t = nlohmann::json::parse(kUnitAreaJson);
  return t;
}
}  // namespace

UnitArea unit_area(const std::string& unit, int latency, bool pipelined) {
  const auto& t = table();
  if (t.contains("rows"))
    for (const auto& row : t["rows"])
      if (row.value("unit", "") == unit && row.value("latency", 0) == latency && row.value("pipelined", true) == pipelined)
        return UnitArea{row.at("generic_cells").get<double>()};
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

}  // namespace neaccel::study
