// data/unit-timing.json (measured iCE40 Fmax of every arithmetic unit, docs/units.md): it covers every unit and
// latency the study uses, and the binary32 pipelines pay (Fmax strictly increasing from latency 1 to 5). These
// read the cached data, so a regeneration that breaks either property fails here. UnitTimingSlow re-measures one
// unit through `neaccel area --timing --json` (CTest label slow) and compares it with its cached row.
#include "neaccel/ref/process.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

nlohmann::json load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read");
  return nlohmann::json::parse(in);
}

const nlohmann::json& timing() {
  static const nlohmann::json j = load(NEACCEL_UNIT_TIMING_JSON);
  return j;
}

const nlohmann::json* find(const std::string& unit, int latency, bool pipelined) {
  const nlohmann::json* hit = nullptr;
  for (const auto& r : timing().at("units")) {
    if (r.at("unit") == unit && r.at("latency") == latency && r.at("pipelined") == pipelined) {
      EXPECT_EQ(hit, nullptr) << "duplicate row " << unit << " L" << latency;
      hit = &r;
    }
  }
  return hit;
}

const std::array<const char*, 4> kUnits{"fp32-add", "fp32-mul", "fx-add", "fx-mul"};

TEST(UnitTiming, HeaderNamesDeviceSeedAndCommand) {
  const auto& j = timing();
  EXPECT_EQ(j.at("device"), "hx8k");
  EXPECT_EQ(j.at("package"), "ct256");
  EXPECT_EQ(j.at("seed"), 1);
  EXPECT_NE(j.at("tool").get<std::string>(), "");
  EXPECT_NE(j.at("command").get<std::string>().find("neaccel area --all --timing"), std::string::npos);
}

// Every row carries the schema the period model reads; fixed point is fixed:16.16, binary32 width 32 frac 0.
TEST(UnitTiming, RowsHaveTheSchema) {
  ASSERT_FALSE(timing().at("units").empty());
  for (const auto& r : timing().at("units")) {
    SCOPED_TRACE(r.dump());
    for (const char* k : {"unit", "latency", "pipelined", "width", "frac", "fmax_mhz", "logic_cells", "ram", "io"})
      ASSERT_TRUE(r.contains(k)) << k;
    const bool fp32 = r.at("unit").get<std::string>().rfind("fp32", 0) == 0;
    EXPECT_EQ(r.at("width"), 32);
    EXPECT_EQ(r.at("frac"), fp32 ? 0 : 16);
    EXPECT_GT(r.at("fmax_mhz").get<double>(), 1.0);
    EXPECT_LT(r.at("fmax_mhz").get<double>(), 1000.0);
    EXPECT_GT(r.at("logic_cells").get<long>(), 0);
    EXPECT_LE(r.at("logic_cells").get<long>(), 7680);  // HX8K
  }
}

// The study's units: the four kinds, pipelined at latency 1..6, non-pipelined at latency 3 (all but fp32-add,
// whose multicycle datapath Yosys 0.23 does not synthesise in reasonable time: docs/units.md).
TEST(UnitTiming, CoversEveryUnitTheStudyUses) {
  for (const char* u : kUnits) {
    for (int lat = 1; lat <= 6; ++lat) EXPECT_NE(find(u, lat, true), nullptr) << u << " latency " << lat;
    if (std::string(u) != "fp32-add") {
      EXPECT_NE(find(u, 3, false), nullptr) << u << " latency 3 non-pipelined";
    }
  }
}

// Pipelines that pay: each added binary32 stage up to latency 5 shortens the deepest stage.
TEST(UnitTiming, Fp32FmaxStrictlyIncreasesFromLatency1To5) {
  for (const char* u : {"fp32-add", "fp32-mul"}) {
    for (int lat = 1; lat < 5; ++lat) {
      const auto* lo = find(u, lat, true);
      const auto* hi = find(u, lat + 1, true);
      ASSERT_TRUE(lo && hi) << u;
      EXPECT_LT(lo->at("fmax_mhz").get<double>(), hi->at("fmax_mhz").get<double>())
          << u << ": latency " << lat + 1 << " is not faster than latency " << lat;
    }
  }
}

// Re-measure fp32-add at latency 3 (synth_ice40 + nextpnr, seconds) and compare with its cached row. nextpnr with a
// fixed seed on the same netlist is deterministic, and both sides are rounded to 0.01 MHz by the same code, so the
// figures must be equal: the tolerance (1e-6 MHz) only absorbs floating-point printing. A difference means the
// RTL, the tools or the flow changed since data/unit-timing.json was written: regenerate it (docs/units.md).
TEST(UnitTimingSlow, RemeasuredFp32AddMatchesCachedRow) {
  const char* exe = std::getenv("NEACCEL_EXE");
  const char* out = std::getenv("NEACCEL_TIMING_OUT");
  ASSERT_TRUE(exe && out) << "NEACCEL_EXE and NEACCEL_TIMING_OUT must be set (the CTest does)";
  std::filesystem::remove_all(out);  // an empty cache: place and route again
  neaccel::proc::Spawn area;
  area.argv = {exe, "area", "--unit", "fp32-add", "--latency", "3", "--timing", "--json", "--out", out};
  area.capture_stdout = true;
  area.inherit_stderr = true;
  const neaccel::proc::Result r = neaccel::proc::run(area);
  ASSERT_TRUE(r.ok()) << neaccel::proc::describe(area.argv) << ": exit " << r.exit_code;
  const auto m = nlohmann::json::parse(r.out);
  const auto* row = find("fp32-add", 3, true);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(m.at("device"), timing().at("device"));
  EXPECT_EQ(m.at("seed"), timing().at("seed"));
  EXPECT_NEAR(m.at("fmax_mhz").get<double>(), row->at("fmax_mhz").get<double>(), 1e-6);
  EXPECT_EQ(m.at("logic_cells"), row->at("logic_cells"));
  EXPECT_EQ(m.at("io"), row->at("io"));
}

}  // namespace
