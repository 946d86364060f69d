// The hardwired datapath generator (hw/hardwired.hpp): deterministic text, exactly the multiplexers the program's
// interconnect needs, no ROM, back-pressure refused. Its cycle behaviour is checked by co-simulation against the
// SystemC model (dp.cli.sim_hw_cosim_*, tests/datapath/CMakeLists.txt).
#include "neaccel/hw/design.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/hw/interconnect.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace neaccel {
namespace {

hw::DesignSpec spec(const std::string& robot, int mul, int add, int ii) {
  hw::DesignSpec s;
  s.robot = robot;
  s.custom = true;
  s.mul = mul;
  s.add = add;
  s.lat_mul = 3;
  s.lat_add = 2;
  s.ii = ii;
  s.arch = hw::Arch::Hardwired;
  return s;
}

// Sum of the fan-ins of the unit port multiplexers the generator declares ("wire [..] a_3 = ...;  // 5 sources").
int port_mux_inputs(const std::string& v) {
  static const std::regex re(R"(wire \[\d+:0\] [ab]_\d+ = .*;  // (\d+) sources?)");
  int n = 0;
  for (std::sregex_iterator it(v.begin(), v.end(), re), end; it != end; ++it) {
    const int k = std::stoi((*it)[1].str());
    n += k >= 2 ? k : 0;
  }
  return n;
}

TEST(Hardwired, SameDatapathSameTextAndOnlyTheRoutedSources) {
  for (int ii : {0, hw::kStreamMinII}) {
    const hw::Design d = hw::make_design(spec("random:3:1", 1, 2, ii));
    const std::string v = hw::hardwired_verilog(d.dp);
    EXPECT_EQ(v, hw::hardwired_verilog(hw::make_design(spec("random:3:1", 1, 2, ii)).dp));
    const hw::Interconnect ic = hw::interconnect(d.dp);
    const int want = hw::to_json(ic).at("unit_port_mux_inputs").get<int>();
    EXPECT_GT(want, 0);
    EXPECT_EQ(port_mux_inputs(v), want) << "ii " << ii;
    // One register per program register that is written, nothing read from files, one module.
    int regs = 0;
    for (const auto& w : ic.reg_writers) regs += !w.empty();
    const std::regex reg_decl(R"(reg \[\d+:0\] r\d+_q;)");
    EXPECT_EQ(std::distance(std::sregex_iterator(v.begin(), v.end(), reg_decl), std::sregex_iterator()), regs);
    EXPECT_EQ(v.find("$readmemh"), std::string::npos);
    EXPECT_EQ(v.find("module "), v.rfind("module "));
  }
}

// Robot parameters loaded once: one register per parameter word some port reads, each written in the
// configuration phase at its own counter value; the CONFIG state and the configured flag only when there are
// parameters (a custom design's text has neither). Its cycle behaviour: dp.cli.sim_params_cosim_h*.
TEST(Hardwired, ParameterMemoryHoldsTheWordsThePortsRead) {
  for (int ii : {0, hw::kStreamMinII}) {
    hw::DesignSpec s = spec("planar2", 1, 1, ii);
    s.custom = false;
    s.params = "load";
    const hw::Design d = hw::make_design(s);
    ASSERT_TRUE(d.dp.has_params());
    const std::string v = hw::hardwired_verilog(d.dp);
    std::set<int> read;
    for (const auto& ports : hw::interconnect(d.dp).unit_sources)
      for (const auto& src : ports)
        for (const hw::Operand& o : src)
          if (o.kind == hw::Operand::Kind::Param) read.insert(o.index);
    EXPECT_FALSE(read.empty());
    EXPECT_LT(read.size(), d.dp.param_names.size());  // planar2 reads some of its 89 words only
    std::set<int> declared, written;
    const std::regex decl(R"(reg \[\d+:0\] p(\d+)_q;)"), write(R"(if \(cfg_we & [^)]*\)+ p(\d+)_q <= in_data_i;)");
    for (std::sregex_iterator it(v.begin(), v.end(), decl), end; it != end; ++it) declared.insert(std::stoi((*it)[1].str()));
    for (std::sregex_iterator it(v.begin(), v.end(), write), end; it != end; ++it) written.insert(std::stoi((*it)[1].str()));
    EXPECT_EQ(declared, read) << "ii " << ii;
    EXPECT_EQ(written, read) << "ii " << ii;
    EXPECT_NE(v.find("StConfig"), std::string::npos);
    EXPECT_NE(v.find("cfgd_q"), std::string::npos);
    const std::string custom = hw::hardwired_verilog(hw::make_design(spec("planar2", 1, 1, ii)).dp);
    EXPECT_EQ(custom.find("StConfig"), std::string::npos);
    EXPECT_EQ(custom.find("cfgd_q"), std::string::npos);
  }
  hw::DesignSpec c = spec("planar2", 1, 1, 0);
  c.params = "load";  // a custom design has no parameter inputs
  EXPECT_THROW(hw::make_design(c), Error);
}

TEST(Hardwired, BackpressureIsRefused) {
  hw::DesignSpec s = spec("planar2", 1, 1, hw::kStreamMinII);
  s.backpressure = true;
  EXPECT_THROW(hw::make_design(s), Error);
  s.arch = hw::Arch::Microcoded;
  hw::Design d = hw::make_design(s);
  EXPECT_THROW(hw::hardwired_verilog(d.dp), Error);
}

TEST(Hardwired, ArchNames) {
  EXPECT_EQ(hw::parse_arch("hardwired", "x"), hw::Arch::Hardwired);
  EXPECT_EQ(hw::arch_name(hw::parse_arch("microcoded", "x")), "microcoded");
  EXPECT_THROW(hw::parse_arch("asic", "--arch"), Error);
}

}  // namespace
}  // namespace neaccel
