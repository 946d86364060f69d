// Activity from a design's own simulation (neaccel/cost/activity.hpp, docs/asic.md "Activity"): the toggle rates of a
// committed VCD (tests/cost/data/add4.vcd, hand-written: three clock cycles of the add4 design's ports and
// registers), their names as the netlist's, the flip-flops' Q nets of the committed add4 netlist, the OpenSTA script;
// and the flow end to end on add4 with the installed Yosys and OpenSTA: every net at the same rate per net gives
// exactly the power of the global activity (seconds).
#include "neaccel/cost/activity.hpp"
#include "neaccel/cost/asic.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using neaccel::cost::activity_key;
using neaccel::cost::vcd_toggle_rates;

const fs::path kData = fs::path(NEACCEL_SOURCE_DIR) / "tests" / "cost" / "data";

neaccel::cost::ToggleRates add4_rates() {
  std::istringstream in(neaccel::read_whole_file(kData / "add4.vcd"));
  return vcd_toggle_rates(in, "top.clk_i");
}

TEST(AsicActivity, TogglesPerCycleFromAVcd) {
  const auto r = add4_rates();
  EXPECT_EQ(r.cycles, 3);  // rising edges at #5, #15, #25
  // a_i: 0000 -> 0011 (b11, left-extended) -> 1111 -> 0001 (b1): bit 0 once, bits 1..3 twice.
  EXPECT_DOUBLE_EQ(r.rate.at("top.a_i[0]"), 1.0 / 3);
  EXPECT_DOUBLE_EQ(r.rate.at("top.a_i[1]"), 2.0 / 3);
  EXPECT_DOUBLE_EQ(r.rate.at("top.a_i[3]"), 2.0 / 3);
  EXPECT_DOUBLE_EQ(r.rate.at("top.add4.a_i[2]"), 2.0 / 3);  // the same identifier in the inner scope
  // a_q: x -> 0011 is no toggle, 0011 -> 1100 one per bit.
  for (int b = 0; b < 4; ++b) EXPECT_DOUBLE_EQ(r.rate.at("top.add4.a_q[" + std::to_string(b) + "]"), 1.0 / 3);
  // A one-bit vector is its bit and, as Yosys names a one-bit wire, the plain name.
  EXPECT_DOUBLE_EQ(r.rate.at("top.add4.v_q[0]"), 2.0 / 3);
  EXPECT_DOUBLE_EQ(r.rate.at("top.add4.v_q"), 2.0 / 3);
  // The clock: six transitions in three cycles.
  EXPECT_DOUBLE_EQ(r.rate.at("top.clk_i"), 2.0);
  EXPECT_EQ(r.rate.count("top.add4.ratio"), 0u);  // a real has no bits
}

TEST(AsicActivity, BadTracesAreOneLine) {
  std::istringstream no_clock(neaccel::read_whole_file(kData / "add4.vcd"));
  try {
    vcd_toggle_rates(no_clock, "top.clock");
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    EXPECT_STREQ(e.what(), "vcd: no variable top.clock (the clock)");
  }
  std::istringstream undeclared("$scope module top $end $var wire 1 ! clk_i $end $upscope $end $enddefinitions $end #0 0! 1?\n");
  EXPECT_THROW(vcd_toggle_rates(undeclared, "top.clk_i"), neaccel::Error);
  std::istringstream never("$scope module top $end $var wire 1 ! clk_i $end $upscope $end $enddefinitions $end #0 0!\n");
  try {
    vcd_toggle_rates(never, "top.clk_i");
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    EXPECT_STREQ(e.what(), "vcd: the clock top.clk_i never rises");
  }
}

TEST(AsicActivity, TraceNamesAsNetlistNames) {
  const auto m = neaccel::cost::rename_bits(add4_rates().rate, {{"top.add4.", "u_top."}, {"top.", ""}});
  EXPECT_DOUBLE_EQ(m.at("u_top.a_q[2]"), 1.0 / 3);
  EXPECT_DOUBLE_EQ(m.at("a_i[1]"), 2.0 / 3);  // a port of the top
  // Yosys names unnamed generate blocks (genblk1, nested ones too); Verilator's trace leaves them out.
  EXPECT_EQ(activity_key("u_top.u_unit7.genblk1.genblk1.genblk1.g_fx_add.u_p.data_q[0][3]"),
            "u_top.u_unit7.g_fx_add.u_p.data_q[0][3]");
  EXPECT_EQ(activity_key("genblk2.x"), "x");
  EXPECT_EQ(activity_key("u.mygenblk1.x"), "u.mygenblk1.x");
}

TEST(AsicActivity, FlipFlopOutputNetsOfTheNetlist) {
  const auto q = neaccel::cost::netlist_pin_nets(neaccel::read_whole_file(kData / "add4.netlist.v"),
                                                 {"sky130_fd_sc_hd__dfxtp_1"}, "Q");
  EXPECT_EQ(q.size(), 13u);  // a_q, b_q and s_o: 4 + 4 + 5 bits
  EXPECT_NE(std::find(q.begin(), q.end(), "a_q[0]"), q.end());
  EXPECT_NE(std::find(q.begin(), q.end(), "s_o[4]"), q.end());
}

// The worst path's end registers: the Q net of an instance, the last connection or not (a flip-flop with reset has
// RESET_B after Q).
TEST(AsicActivity, InstancePinNet) {
  const std::string add4 = neaccel::read_whole_file(kData / "add4.netlist.v");
  EXPECT_EQ(neaccel::cost::instance_pin_net(add4, "_26_", "Q"), "b_q[0]");
  EXPECT_EQ(neaccel::cost::instance_pin_net(add4, "_26_", "RESET_B"), "");
  EXPECT_EQ(neaccel::cost::instance_pin_net(add4, "_999_", "Q"), "");
  const std::string rst = "  sky130_fd_sc_hd__dfrtp_1 _7_ (\n    .CLK(clk_i),\n    .D(_1_),\n    .Q(\\u_top.idx_q[4] ),\n"
                          "    .RESET_B(rst_ni)\n  );\n";
  EXPECT_EQ(neaccel::cost::instance_pin_net(rst, "_7_", "Q"), "u_top.idx_q[4]");
  EXPECT_EQ(neaccel::cost::instance_pin_net(rst, "_7_", "RESET_B"), "rst_ni");
}

TEST(AsicActivity, OpenStaScriptSetsEveryNet) {
  const std::string s = neaccel::cost::activity_tcl({{"u_top.a_q[2]", 0.25}}, 0.125, "clk_i");
  EXPECT_NE(s.find("  {u_top.a_q[2]} 0.25\n"), std::string::npos);
  EXPECT_NE(s.find("set nea_fallback 0.125\n"), std::string::npos);
  EXPECT_NE(s.find("sta::set_power_pin_activity $nea_pin $nea_a 0.5"), std::string::npos);
  EXPECT_NE(s.find("if {$nea_name == {clk_i}} continue"), std::string::npos);
  EXPECT_THROW(neaccel::cost::activity_tcl({{"a{b", 0.1}}, 0.1, "clk_i"), neaccel::Error);
}

// add4 through the flow twice: per-net activity with every flip-flop output at 0.1 (so every other net at their
// mean, 0.1), and the global 0.1: OpenSTA must report the same power (the per-pin route is not a different model).
TEST(AsicActivity, PerNetActivityEndToEnd) {
  ASSERT_TRUE(neaccel::proc::find_program("yosys")) << neaccel::proc::missing_tool("yosys");
  ASSERT_TRUE(neaccel::proc::find_program("sta")) << neaccel::proc::missing_tool("sta");
  const auto& t = neaccel::cost::target("sky130-hd");
  const fs::path out = fs::path(NEACCEL_TEST_OUT) / "asic-activity";
  fs::remove_all(out);
  neaccel::cost::AsicJob job;
  job.sources = {(kData / "add4.v").string()};
  job.top = "add4";
  job.yosys_cwd = out;
  job.work = out / "work";
  job.liberty_dir = out / "liberty";
  fs::create_directories(out);
  job.activity = 0.1;
  const auto global = neaccel::cost::asic_run(t, job);
  std::map<std::string, double> nets;
  for (const char* r : {"a_q", "b_q"})
    for (int b = 0; b < 4; ++b) nets[std::string(r) + "[" + std::to_string(b) + "]"] = 0.1;
  for (int b = 0; b < 5; ++b) nets["s_o[" + std::to_string(b) + "]"] = 0.1;
  job.net_activity = &nets;
  job.activity_source = {{"source", "test"}};
  const auto per_net = neaccel::cost::asic_run(t, job);  // the netlist is reused: OpenSTA only
  EXPECT_EQ(per_net["activity"]["flip_flops"], 13);
  EXPECT_EQ(per_net["activity"]["flip_flops_traced"], 13);
  EXPECT_DOUBLE_EQ(per_net["activity"]["mean_flip_flop_rate"].get<double>(), 0.1);
  EXPECT_EQ(per_net["power"]["total"], global["power"]["total"]);
  // Busier registers: more switching and internal power, the same clock.
  for (auto& [n, v] : nets) v = 0.5;
  const auto busy = neaccel::cost::asic_run(t, job);
  EXPECT_EQ(busy["clock_ns"], global["clock_ns"]);
  EXPECT_GT(busy["power"]["total"]["switching_mw"].get<double>(), 4 * global["power"]["total"]["switching_mw"].get<double>());
  EXPECT_GT(busy["power"]["total"]["internal_mw"].get<double>(), global["power"]["total"]["internal_mw"].get<double>());
}

}  // namespace
