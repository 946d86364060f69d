// The hardwired datapath generator (hw/hardwired.hpp): deterministic text, exactly the multiplexers the program's
// interconnect needs, no ROM, back-pressure refused. Its cycle behaviour is checked by co-simulation against the
// SystemC model (dp.cli.sim_hw_cosim_*, tests/datapath/CMakeLists.txt).
#include "neaccel/hw/artifacts.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/hw/interconnect.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>
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

// Registered decode: no select or enable of the compute phase is decoded from the counter in the cycle it is used
// (every statement that reads the counter's predecode dh_* / dl_* is a flip-flop's next value, or drives the input
// port, the output port or the parameter memory); the multiplexers are the same. Its cycles: dp.cli.sim_hw_cosim_*rd.
TEST(Hardwired, RegisteredDecodeTakesTheCounterOffTheMultiplexers) {
  hw::DesignSpec s = spec("random:3:1", 1, 2, 0);
  s.binding = "interconnect";
  const hw::Design d = hw::make_design(s);
  const std::string comb = hw::hardwired_verilog(d.dp);
  const std::string reg = hw::hardwired_verilog(d.dp, {hw::Decode::Registered});
  EXPECT_EQ(reg, hw::hardwired_verilog(hw::make_design(s).dp, {hw::Decode::Registered}));
  EXPECT_NE(reg, comb);
  EXPECT_EQ(port_mux_inputs(reg), port_mux_inputs(comb));
  // Statements (up to ';') reading the predecode that are neither flip-flop inputs nor port/parameter logic.
  const auto decoded_as_used = [](const std::string& text) {
    static const std::regex comment(R"(//[^\n]*)");
    const std::string v = std::regex_replace(text, comment, "");
    static const std::regex predecode(R"(\bd[hl]_\d+\b)");
    static const std::regex allowed(R"(^\s*(wire d[hl]_|wire load_en|wire ld_r|assign out_sel|always @\(posedge clk_i\) if \(cfg_we))");
    std::vector<std::string> found;
    std::size_t at = 0;
    while (at < v.size()) {
      const std::size_t end = std::min(v.find(';', at), v.size());
      const std::string st = v.substr(at, end - at);
      at = end + 1;
      if (!std::regex_search(st, predecode) || st.find("<=") != std::string::npos) continue;
      std::string trimmed = st.substr(st.find_first_not_of(" \n"));
      if (!std::regex_search(trimmed, allowed)) found.push_back(trimmed.substr(0, trimmed.find('\n')));
    }
    return found;
  };
  const auto comb_found = decoded_as_used(comb);
  EXPECT_FALSE(comb_found.empty());  // the check sees the combinational decode's selects
  const auto reg_found = decoded_as_used(reg);
  EXPECT_TRUE(reg_found.empty()) << reg_found.front();
  EXPECT_NE(reg.find("enter_compute"), std::string::npos);
  // Streaming and microcoded designs: refused (hardwired latency datapaths only).
  hw::DesignSpec st = spec("random:3:1", 1, 2, hw::kStreamMinII);
  EXPECT_THROW(hw::hardwired_verilog(hw::make_design(st).dp, {hw::Decode::Registered}), Error);
  st.decode = "registered";
  EXPECT_THROW(hw::make_design(st), Error);
  hw::DesignSpec mc = spec("random:3:1", 1, 2, 0);
  mc.arch = hw::Arch::Microcoded;
  mc.decode = "registered";
  EXPECT_THROW(hw::make_design(mc), Error);
  EXPECT_EQ(hw::parse_decode("registered", "x"), hw::Decode::Registered);
  EXPECT_EQ(hw::decode_name(hw::parse_decode("combinational", "x")), "combinational");
  EXPECT_THROW(hw::parse_decode("pipelined", "--decode"), Error);
}

// Operand registers: each unit is built one stage shorter and reads its operands, issue and op from flip-flops
// loaded from its multiplexers; a unit of latency 1 is refused. Its cycles: dp.cli.sim_hw_cosim_*or.
TEST(Hardwired, OperandRegistersAreTheFirstOfEachUnitsCycles) {
  hw::DesignSpec s = spec("random:3:1", 2, 2, 0);
  const hw::Design d = hw::make_design(s);
  const std::string v = hw::hardwired_verilog(d.dp, {hw::Decode::Combinational, true});
  EXPECT_EQ(v, hw::hardwired_verilog(hw::make_design(s).dp, {hw::Decode::Combinational, true}));
  const std::regex inst(R"(\.Kind\((\d)\), [^\n]*\.Latency\((\d+)\)[^\n]*\n  \) u_unit(\d+) \(\n[^\n]*\.valid_i\(iss_\d+_q\), \.op_i\(([^)]*)\), \.a_i\(a_\d+_q\), \.b_i\(b_\d+_q\))");
  int units = 0;
  for (std::sregex_iterator it(v.begin(), v.end(), inst), end; it != end; ++it, ++units) {
    const int u = std::stoi((*it)[3].str());
    EXPECT_EQ(std::stoi((*it)[2].str()), d.dp.units[static_cast<std::size_t>(u)].latency - 1) << "unit " << u;
    if ((*it)[1].str() == "1") {
      EXPECT_EQ((*it)[4].str(), fmt::format("op_{}_q", u));
    }
  }
  EXPECT_EQ(units, static_cast<int>(d.dp.units.size()));
  EXPECT_EQ(port_mux_inputs(v), port_mux_inputs(hw::hardwired_verilog(d.dp)));
  s.lat_add = 1;
  EXPECT_THROW(hw::hardwired_verilog(hw::make_design(s).dp, {hw::Decode::Combinational, true}), Error);
  s.operand_regs = true;
  EXPECT_THROW(hw::make_design(s), Error);
  s.lat_add = 2;
  s.arch = hw::Arch::Microcoded;
  EXPECT_THROW(hw::make_design(s), Error);
}

// Deep units (Config::deep_units): every multiplier and adder is an nea_unit_deep at the unit's latency (less the
// operand register), dividers stay nea_unit; the design reads rtl/units/deep and nea_unit_deep.v, and a design of the
// standard units keeps its source list (the place-and-route cache is keyed by it).
TEST(Hardwired, DeepUnitsReplaceMultipliersAndAddersOnly) {
  hw::DesignSpec s = spec("planar2", 2, 1, 0);
  s.function = "fd";
  s.div = 1;
  s.lat_div = 4;
  s.lat_mul = 5;
  s.lat_add = 3;
  s.operand_regs = true;
  const hw::Design standard = hw::make_design(s);
  s.units = "deep";
  const hw::Design d = hw::make_design(s);
  EXPECT_TRUE(d.dp.config.deep_units);
  EXPECT_FALSE(standard.dp.config.deep_units);
  EXPECT_EQ(d.dp.program.size(), standard.dp.program.size());  // the same program: only the Verilog differs
  const std::string v = hw::hardwired_verilog(d.dp, hw::hardwired_options(s));
  const std::regex inst(R"((nea_unit\w*) #\(\n    \.Kind\((\d)\), [^\n]*\.Latency\((\d+)\)([^\n]*)\n  \) u_unit(\d+) )");
  int deep = 0, div = 0;
  for (std::sregex_iterator it(v.begin(), v.end(), inst), end; it != end; ++it) {
    const hw::Unit& u = d.dp.units[static_cast<std::size_t>(std::stoi((*it)[5].str()))];
    EXPECT_EQ(std::stoi((*it)[3].str()), u.latency - 1);
    if (u.kind == hw::UnitKind::Div) {
      ++div;
      EXPECT_EQ((*it)[1].str(), "nea_unit");
    } else {
      ++deep;
      EXPECT_EQ((*it)[1].str(), "nea_unit_deep");
      EXPECT_EQ((*it)[4].str(), "");  // always pipelined: no Pipelined parameter
    }
  }
  EXPECT_EQ(deep, 3);
  EXPECT_EQ(div, 1);
  const auto deep_files = [](const std::vector<std::string>& files) {
    int n = 0;
    for (const auto& f : files) n += f.find("/units/deep/") != std::string::npos || f.find("nea_unit_deep") != std::string::npos;
    return n;
  };
  EXPECT_GT(deep_files(hw::rtl_sources(NEACCEL_TEST_RTL_DIR, d.dp.config, hw::Arch::Hardwired)), 4);
  EXPECT_EQ(deep_files(hw::rtl_sources(NEACCEL_TEST_RTL_DIR, standard.dp.config, hw::Arch::Hardwired)), 0);
  // Refused: the microcoded datapath, units that are not pipelined, an unknown name.
  s.arch = hw::Arch::Microcoded;
  s.operand_regs = false;
  EXPECT_THROW(hw::make_design(s), Error);
  s.arch = hw::Arch::Hardwired;
  s.pipelined = false;
  EXPECT_THROW(hw::make_design(s), Error);
  s.pipelined = true;
  s.units = "fast";
  EXPECT_THROW(hw::make_design(s), Error);
}

// Local sequencers (Decode::Local): the schedule kLocalLead cycles later, so the program starts with empty words;
// every compute-phase select and enable decoded from a counter copy of its unit (ls<u>_), none from the central
// counter's predecode or the state; each copy started through go_q. Refused where registered decode is.
TEST(Hardwired, LocalSequencersDecodeBesideEachUnit) {
  hw::DesignSpec s = spec("random:3:1", 2, 2, 0);
  s.decode = "registered";
  const hw::Design reg = hw::make_design(s);
  s.decode = "local";
  const hw::Design d = hw::make_design(s);
  EXPECT_EQ(d.schedule.length, reg.schedule.length + hw::kLocalLead);
  EXPECT_EQ(d.dp.program.size(), reg.dp.program.size() + hw::kLocalLead);
  for (int c = 0; c < hw::kLocalLead; ++c) {
    for (const hw::Issue& is : d.dp.program[static_cast<std::size_t>(c)].issue) EXPECT_FALSE(is.valid) << "word " << c;
    for (const hw::WriteBack& wb : d.dp.program[static_cast<std::size_t>(c)].wb) EXPECT_FALSE(wb.valid) << "word " << c;
  }
  const std::string v = hw::hardwired_verilog(d.dp, hw::hardwired_options(s));
  EXPECT_EQ(v, hw::hardwired_verilog(hw::make_design(s).dp, hw::hardwired_options(s)));
  // Every decode flip-flop of the compute phase: its D from one unit's sequencer only.
  const std::regex ff(R"(always @\(posedge clk_i(?: or negedge rst_ni\)\n    if \(!rst_ni\) \w+ <= 1'b0;\n    else|\)) (\w+) <= ([^;]*);)");
  int local = 0;
  for (std::sregex_iterator it(v.begin(), v.end(), ff), end; it != end; ++it) {
    const std::string name = (*it)[1].str(), d_in = (*it)[2].str();
    if (d_in.find(" ? ") == std::string::npos) continue;  // operand-register copies, go_q
    ++local;
    std::smatch seq;
    ASSERT_TRUE(std::regex_search(d_in, seq, std::regex(R"(^(ls\d+[abc]?_)run_q \?)"))) << name << " <= " << d_in;
    const std::string mine = seq[1].str();
    if (name.find("_sel") != std::string::npos && name[0] != 'r') {  // a port's selects: the port's own sequencer
      EXPECT_EQ(mine, fmt::format("ls{}{}_", name.substr(2, name.find("_sel") - 2), name[0])) << name;
    }
    EXPECT_EQ(d_in.find("computing"), std::string::npos) << name;
    const std::regex predecode(R"(\b(\w*)d[hl]_\d+)");
    for (std::sregex_iterator w(d_in.begin(), d_in.end(), predecode), e; w != e; ++w)
      EXPECT_EQ((*w)[1].str(), mine) << name << " reads " << (*w)[0].str();
  }
  EXPECT_GT(local, 10);
  EXPECT_NE(v.find("go_q <= enter_compute;"), std::string::npos);
  // The loads land a cycle late from registered enables and lanes; the trace shows them as the port takes them.
  EXPECT_TRUE(std::regex_search(v, std::regex(R"(reg ld_r\d+;)")));
  EXPECT_FALSE(std::regex_search(v, std::regex(R"(wire ld_r\d+ =)")));
  EXPECT_NE(v.find("in_lane0_q <= in_data_i;"), std::string::npos);
  EXPECT_TRUE(std::regex_search(v, std::regex(R"(assign dbg_load_addr_o = \{[^}]*ld_r\d+_now)")));
  EXPECT_TRUE(std::regex_search(v, std::regex(fmt::format(R"(ls0_idx_q <= \d+'d{};)", hw::kLocalLead - 1))));
  // Refused: the microcoded datapath and a streaming one.
  s.arch = hw::Arch::Microcoded;
  EXPECT_THROW(hw::make_design(s), Error);
  s.arch = hw::Arch::Hardwired;
  s.ii = hw::kStreamMinII;
  EXPECT_THROW(hw::make_design(s), Error);
  EXPECT_EQ(hw::decode_name(hw::parse_decode("local", "x")), "local");
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
