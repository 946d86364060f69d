// The standard-cell flow (neaccel/cost/asic.hpp, docs/asic.md): the parsers of Yosys's `stat -liberty` and OpenSTA's
// report_checks / report_power on committed reports of a 4-bit adder between registers (tests/cost/data/add4.*), the
// area as the sum of the liberty areas of the netlist's cells, and one arithmetic unit mapped, timed and powered end
// to end with the installed Yosys and OpenSTA (./run setup installs both).
#include "neaccel/cost/asic.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

namespace {

namespace fs = std::filesystem;
using neaccel::cost::liberty_cells;
using neaccel::cost::LibertyCell;

const fs::path kData = fs::path(NEACCEL_SOURCE_DIR) / "tests" / "cost" / "data";

std::string data(const std::string& name) { return neaccel::read_whole_file(kData / name); }

// The decompressed liberty's cells, read once per process.
const std::map<std::string, LibertyCell>& sky130_cells() {
  static const auto cells = liberty_cells(neaccel::cost::read_liberty(neaccel::cost::target("sky130-hd")));
  return cells;
}

TEST(Asic, TargetIsAStandardCellLibrary) {
  const auto& t = neaccel::cost::target("sky130-hd");
  EXPECT_TRUE(t.is_asic());
  EXPECT_FALSE(t.has_device_model());
  EXPECT_EQ(t.sta, "sta");
  EXPECT_EQ(t.data.at("corner").at("operating_conditions"), "tt_025C_1v80");
  // The FPGA targets are read as before.
  EXPECT_FALSE(neaccel::cost::target("ecp5-85f").is_asic());
  EXPECT_EQ(neaccel::cost::target("ice40-hx8k").lut, 7680);
}

TEST(Asic, LibertyCellsHaveAreasAndFlipFlops) {
  const auto& cells = sky130_cells();
  EXPECT_EQ(cells.size(), 428u);  // the README's count
  EXPECT_DOUBLE_EQ(cells.at("sky130_fd_sc_hd__inv_1").area, 3.7536);
  EXPECT_FALSE(cells.at("sky130_fd_sc_hd__inv_1").sequential);
  EXPECT_TRUE(cells.at("sky130_fd_sc_hd__dfxtp_1").sequential);
  EXPECT_TRUE(cells.at("sky130_fd_sc_hd__dlxtp_1").sequential);  // a latch
  EXPECT_FALSE(cells.at("sky130_fd_sc_hd__maj3_1").sequential);
}

TEST(Asic, DontUseCellsLeaveTheSynthesisCopy) {
  const std::string lib = neaccel::cost::read_liberty(neaccel::cost::target("sky130-hd"));
  const auto kept = liberty_cells(neaccel::cost::liberty_without(lib, {"sky130_fd_sc_hd__lpflow_", "sky130_fd_sc_hd__probe"}));
  for (const auto& [name, c] : kept) {
    EXPECT_NE(name.rfind("sky130_fd_sc_hd__lpflow_", 0), 0u) << name;
    EXPECT_NE(name.rfind("sky130_fd_sc_hd__probe", 0), 0u) << name;
  }
  EXPECT_TRUE(kept.count("sky130_fd_sc_hd__inv_1"));
  EXPECT_LT(kept.size(), sky130_cells().size());
}

TEST(Asic, ParsesYosysStat) {
  const auto s = neaccel::cost::parse_yosys_stat(data("add4.stat"));
  EXPECT_EQ(s.cells, 26);
  EXPECT_DOUBLE_EQ(s.area_um2, 357.8432);
  EXPECT_EQ(s.counts.at("sky130_fd_sc_hd__dfxtp_1"), 13);
  EXPECT_EQ(s.counts.at("sky130_fd_sc_hd__xnor2_1"), 5);
  EXPECT_THROW(neaccel::cost::parse_yosys_stat("nothing here"), neaccel::Error);
}

// The area Yosys states is the sum of the liberty areas of the cells the netlist holds.
TEST(Asic, AreaIsTheSumOfTheLibertyAreasOfTheNetlistsCells) {
  const auto s = neaccel::cost::parse_yosys_stat(data("add4.stat"));
  const auto inst = neaccel::cost::netlist_cells(data("add4.netlist.v"));
  double area = 0;
  long n = 0;
  for (const auto& [type, count] : inst) {
    ASSERT_TRUE(sky130_cells().count(type)) << type;
    area += sky130_cells().at(type).area * static_cast<double>(count);
    n += count;
  }
  EXPECT_EQ(inst, s.counts);
  EXPECT_EQ(n, s.cells);
  EXPECT_NEAR(area, s.area_um2, 1e-9 * area);
}

TEST(Asic, ParsesStaPath) {
  const auto p = neaccel::cost::parse_sta_path(data("add4.timing.log"));
  EXPECT_EQ(p.startpoint, "_35_");
  EXPECT_EQ(p.endpoint, "_34_");
  EXPECT_DOUBLE_EQ(p.clock_ns, 10.0);
  EXPECT_DOUBLE_EQ(p.arrival_ns, 1.2504);
  EXPECT_DOUBLE_EQ(p.required_ns, 9.8733);
  EXPECT_DOUBLE_EQ(p.setup_ns, 0.1267);
  EXPECT_DOUBLE_EQ(p.slack_ns, 8.6229);
  EXPECT_NEAR(p.min_period_ns(), p.arrival_ns + p.setup_ns, 1e-9);
  EXPECT_EQ(p.stages, 5);  // clock to Q, nand2, o21ai, maj3, maj3
  EXPECT_THROW(neaccel::cost::parse_sta_path("No paths.\n"), neaccel::Error);
}

TEST(Asic, ParsesStaPower) {
  const auto p = neaccel::cost::parse_sta_power(data("add4.power.log"));
  EXPECT_DOUBLE_EQ(p.total.internal_w, 8.254924e-04);
  EXPECT_DOUBLE_EQ(p.total.switching_w, 1.294908e-05);
  EXPECT_DOUBLE_EQ(p.total.leakage_w, 1.400092e-10);
  EXPECT_DOUBLE_EQ(p.total.total_w, 8.384417e-04);
  EXPECT_DOUBLE_EQ(p.sequential.internal_w, 8.055356e-04);
  EXPECT_DOUBLE_EQ(p.combinational.switching_w, 5.635604e-06);
  EXPECT_THROW(neaccel::cost::parse_sta_power("Group Internal\n"), neaccel::Error);
}

// One unit mapped onto the cells, timed and powered with the installed tools: a 32-bit fixed-point adder at
// latency 1 in its timing harness (seconds).
TEST(Asic, MapsAndTimesOneUnitEndToEnd) {
  ASSERT_TRUE(neaccel::proc::find_program("yosys")) << neaccel::proc::missing_tool("yosys");
  ASSERT_TRUE(neaccel::proc::find_program("sta")) << neaccel::proc::missing_tool("sta");
  neaccel::cost::UnitAsicOptions o;
  o.unit = "fx-add";
  o.latency = 1;
  o.rtl = (fs::path(NEACCEL_SOURCE_DIR) / "rtl" / "units").string();
  o.out = (fs::path(NEACCEL_TEST_OUT) / "asic-unit").string();
  o.remeasure = true;
  const auto j = neaccel::cost::unit_asic(o);
  EXPECT_EQ(j["cache"], "measured");
  EXPECT_GT(j["area_um2"].get<double>(), 1000.0);
  EXPECT_GT(j["flip_flops"].get<long>(), 64);        // the harness's operand and result registers at least
  EXPECT_GT(j["fmax_mhz"].get<double>(), 50.0);
  EXPECT_LT(j["fmax_mhz"].get<double>(), 2000.0);
  EXPECT_GT(j["internal_mw"].get<double>(), 0.0);    // the operating conditions are set: internal power is there
  EXPECT_GT(j["switching_mw"].get<double>(), 0.0);
  EXPECT_GT(j["leakage_uw"].get<double>(), 0.0);
  // Cached: the same row, without the tools.
  o.remeasure = false;
  const auto k = neaccel::cost::unit_asic(o);
  EXPECT_EQ(k["cache"], "cached");
  EXPECT_EQ(k["area_um2"], j["area_um2"]);
  EXPECT_EQ(k["fmax_mhz"], j["fmax_mhz"]);
}

}  // namespace
