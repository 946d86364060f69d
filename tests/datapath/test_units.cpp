// dp.units.*: divider and fused multiply-add unit classes in the datapath: design points of the
// other dynamics functions (fd, dtau) and of FMA designs through the cycle core, which is the SystemC model's
// behaviour (the co-simulation tests in CMakeLists.txt compare it with the Verilated RTL every cycle): every output
// bit-identical to the graph evaluated in the number format, the cycle count as documented, the error against the
// same graph in double bounded. Option errors are one line (hw::OptionError).
#include "support.hpp"

#include "neaccel/dfg/graph.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/hw/binding.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/hw/interconnect.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>

namespace neaccel {
namespace {

struct UnitPoint {
  const char* name;
  const char* robot;
  const char* function;
  const char* format;
  int mul, add, lat_mul, lat_add;
  int div, lat_div;
  bool div_pipelined;
  int fma, lat_fma;
  int states;
  double tol;  // bound on max_i |y_i - y_ref_i| / max(1, max_i |y_ref_i|), y_ref = the graph in double
};

hw::DesignSpec spec_of(const UnitPoint& p) {
  hw::DesignSpec s;
  s.robot = p.robot;
  s.custom = true;
  s.format = hw::NumberFormat::parse(p.format);
  s.mul = p.mul;
  s.add = p.add;
  s.lat_mul = p.lat_mul;
  s.lat_add = p.lat_add;
  s.function = p.function;
  s.div = p.div;
  s.lat_div = p.lat_div;
  s.div_pipelined = p.div_pipelined;
  s.fma = p.fma;
  s.lat_fma = p.lat_fma;
  return s;
}

class units : public ::testing::TestWithParam<UnitPoint> {};

TEST_P(units, StatesBitExactCloseAndOnTime) {
  const UnitPoint pt = GetParam();
  const hw::DesignSpec spec = spec_of(pt);
  const hw::Design d = hw::make_design(spec);
  const auto ops = dfg::count_ops(*d.graph);
  // The design has exactly the unit classes asked for, and the graph uses them.
  EXPECT_EQ(d.dp.config.num_div, pt.div);
  EXPECT_EQ(d.dp.config.num_fma, pt.fma);
  if (pt.div > 0) {
    EXPECT_GT(ops.of(dfg::Op::Div), 0);
  }
  if (pt.fma > 0) {
    EXPECT_GT(ops.of(dfg::Op::Fma), 0);
  }
  std::mt19937_64 rng(2026);
  double max_err = 0;
  const int expected_cycles =
      d.schedule.length + static_cast<int>(d.graph->inputs.size() + d.graph->outputs.size()) + 2;
  for (int k = 0; k < pt.states; ++k) {
    const auto x = hw::random_state(d, rng);
    const auto raw = hw::encode(spec.format, x);
    const auto run = dptest::run_core(d.dp, raw);
    const auto want = hw::golden_raw(*d.graph, spec.format, x);
    const auto ref = hw::reference(*d.graph, x);
    ASSERT_EQ(run.cycles, expected_cycles);
    ASSERT_EQ(run.out.size(), want.size());
    double scale = 1;
    for (double t : ref) scale = std::max(scale, std::abs(t));
    for (std::size_t o = 0; o < want.size(); ++o) {
      ASSERT_TRUE(hw::same(spec.format, run.out[o], want[o])) << "state " << k << " " << d.graph->outputs[o].name;
      max_err = std::max(max_err, std::abs(hw::decode(spec.format, run.out[o]) - ref[o]) / scale);
    }
  }
  RecordProperty("max_rel_error", std::to_string(max_err));
  RecordProperty("cycles", expected_cycles);
  std::printf("%s: %zu nodes (%d mul, %d div, %d fma), length %d, registers %d, cycles %d, max_rel_error %.3g\n",
              pt.name, d.graph->nodes.size(), ops.of(dfg::Op::Mul), ops.of(dfg::Op::Div), ops.of(dfg::Op::Fma),
              d.schedule.length, d.dp.num_regs, expected_cycles, max_err);
  EXPECT_LE(max_err, pt.tol);
}

// Tolerances (relative to max(1, max |y_ref|), y_ref the same graph in double; measured on these 100 states):
// - binary32 id and dtau: a few hundred roundings of 2^-24 on terms up to the output scale; measured <= 4.8e-7,
//   bound 1e-4 as dp.robots.
// - binary32 fd and fd-strobe: qdd = M^-1 (tau - h) through n reciprocals of the pivots, so the error grows with the
//   conditioning of M (docs/functions.md); on random states measured <= 1.5e-7, bound 1e-5 (near-singular
//   configurations are not drawn here).
// - fixed:7.18 planar2 fd: quantisation 2^-19 ~ 2e-6 absolute per rounding, amplified by 1 / pivot (planar2's pivots
//   are O(0.1..1)); measured 2.7e-5, bound 2e-4.
INSTANTIATE_TEST_SUITE_P(
    Points, units,
    ::testing::Values(
        UnitPoint{"puma560_fd_fp32_m2a2d1", "puma560", "fd", "fp32", 2, 2, 3, 2, 1, 8, false, 0, 0, 100, 1e-5},
        UnitPoint{"puma560_fd_fp32_m1a1d1p_fma1", "puma560", "fd", "fp32", 1, 1, 3, 2, 1, 6, true, 1, 4, 100, 1e-5},
        UnitPoint{"puma560_dtau_fp32_m2a2", "puma560", "dtau", "fp32", 2, 2, 3, 2, 0, 8, false, 0, 0, 100, 1e-4},
        UnitPoint{"puma560_id_fp32_m2a2_fma2", "puma560", "id", "fp32", 2, 2, 3, 2, 0, 8, false, 2, 4, 100, 1e-4},
        UnitPoint{"puma560_id_fixed_m1a1_fma1", "puma560", "id", "fixed:12.20", 1, 1, 1, 1, 0, 8, false, 1, 2, 100,
                  1e-4},
        UnitPoint{"planar2_fd_fixed_m1a1d1", "planar2", "fd", "fixed:7.18", 1, 1, 2, 1, 1, 4, false, 0, 0, 100, 2e-4},
        UnitPoint{"stanford_fdstrobe_fp32_m2a2d2", "stanford", "fd-strobe", "fp32", 2, 2, 3, 2, 2, 8, false, 0, 0, 50,
                  1e-5}),
    [](const ::testing::TestParamInfo<UnitPoint>& i) { return std::string(i.param.name); });

// The datapath description of a design with every unit class: unit order mul, add, div, fma; each FMA unit's src_c
// field is in the microcode word; issues to FMA units read a third operand; the hardwired text instantiates
// nea_fma_unit and a Kind 2 nea_unit per divider.
TEST(UnitClasses, DescriptionAndGeneratedText) {
  UnitPoint p{"", "puma560", "fd", "fp32", 2, 1, 3, 2, 1, 8, false, 1, 4, 0, 0};
  const hw::Design d = hw::make_design(spec_of(p));
  const auto& c = d.dp.config;
  ASSERT_EQ(d.dp.units.size(), 5u);
  EXPECT_EQ(d.dp.units[0].kind, hw::UnitKind::Mul);
  EXPECT_EQ(d.dp.units[2].kind, hw::UnitKind::Add);
  EXPECT_EQ(d.dp.units[3].kind, hw::UnitKind::Div);
  EXPECT_FALSE(d.dp.units[3].pipelined);
  EXPECT_EQ(d.dp.units[3].latency, 8);
  EXPECT_EQ(d.dp.units[4].kind, hw::UnitKind::Fma);
  EXPECT_EQ(c.word_bits(), 5 * (3 + 2 * c.op_addr_bits()) + 5 * (1 + c.reg_addr_bits()) + c.op_addr_bits());
  int fma_issues = 0, div_issues = 0;
  for (const auto& w : d.dp.program) {
    fma_issues += w.issue[4].valid;
    div_issues += w.issue[3].valid;
    if (w.issue[4].valid) {
      EXPECT_EQ(d.graph->nodes[w.issue[4].node].op, dfg::Op::Fma);
    }
    if (w.issue[3].valid) {
      EXPECT_EQ(d.graph->nodes[w.issue[3].node].op, dfg::Op::Div);
    }
  }
  const auto ops = dfg::count_ops(*d.graph);
  EXPECT_EQ(fma_issues, ops.of(dfg::Op::Fma));
  EXPECT_EQ(div_issues, ops.of(dfg::Op::Div));
  // A non-pipelined divider issues at most once per latency.
  int last = -100;
  for (int t = 0; t < static_cast<int>(d.dp.program.size()); ++t)
    if (d.dp.program[t].issue[3].valid) {
      EXPECT_GE(t - last, 8) << "divider issued at " << last << " and " << t;
      last = t;
    }
  const auto params = hw::rtl_parameters(c);
  auto has = [&](const char* k, long v) {
    for (const auto& [name, value] : params)
      if (name == k) return value == v;
    return false;
  };
  EXPECT_TRUE(has("NumDiv", 1) && has("LatDiv", 8) && has("PipeDiv", 0) && has("NumFma", 1) && has("LatFma", 4));
  const std::string text = hw::hardwired_verilog(d.dp);
  EXPECT_NE(text.find("nea_fma_unit #("), std::string::npos);
  EXPECT_NE(text.find(".Kind(2)"), std::string::npos);
  EXPECT_NE(text.find(".c_i("), std::string::npos);
}

// A mul/add design keeps its parameter list (no NumDiv/NumFma), so its generated wrapper text is unchanged.
TEST(UnitClasses, MulAddDesignHasNoNewParameters) {
  UnitPoint p{"", "puma560", "id", "fp32", 2, 2, 3, 2, 0, 8, false, 0, 0, 0, 0};
  const hw::Design d = hw::make_design(spec_of(p));
  for (const auto& [name, value] : hw::rtl_parameters(d.dp.config)) {
    EXPECT_NE(name, "NumDiv");
    EXPECT_NE(name, "NumFma");
  }
  EXPECT_EQ(d.dp.config.word_bits(), 4 * (3 + 2 * d.dp.config.op_addr_bits()) + 4 * (1 + d.dp.config.reg_addr_bits()));
}

// Interconnect-aware binding with FMA units (third port c): the binder's own count of multiplexer inputs is the
// interconnect of the datapath built from its result, it never gets worse, and the rebound design still computes the
// graph bit for bit.
TEST(UnitClasses, InterconnectBindingCountsTheThirdPort) {
  UnitPoint p{"", "puma560", "fd", "fp32", 2, 2, 3, 2, 1, 6, true, 2, 4, 0, 0};
  hw::DesignSpec spec = spec_of(p);
  const hw::Design d = hw::make_design(spec);
  hw::BindingOptions opt;
  opt.moves_per_op = 200;
  const hw::BoundSchedule b = hw::bind_for_interconnect(*d.graph, d.problem, d.schedule, opt);
  const hw::Datapath dp = hw::build_bound(*d.graph, d.problem, b, spec.format);
  const hw::Interconnect ic = hw::interconnect(dp);
  EXPECT_EQ(b.mux_inputs, ic.mux_inputs());
  EXPECT_EQ(b.mux_inputs_before, hw::interconnect(d.dp).mux_inputs());
  EXPECT_LE(b.mux_inputs, b.mux_inputs_before);
  bool c_port_used = false;
  for (std::size_t u = 0; u < dp.units.size(); ++u)
    if (dp.units[u].kind == hw::UnitKind::Fma) c_port_used = c_port_used || !ic.unit_sources[u][2].empty();
  EXPECT_TRUE(c_port_used);
  std::mt19937_64 rng(7);
  for (int k = 0; k < 10; ++k) {
    const auto x = hw::random_state(d, rng);
    const auto run = dptest::run_core(dp, hw::encode(spec.format, x));
    const auto want = hw::golden_raw(*d.graph, spec.format, x);
    ASSERT_EQ(run.out.size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o) ASSERT_TRUE(hw::same(spec.format, run.out[o], want[o]));
  }
}

// Streaming datapaths with dividers and FMA units (modulo schedule; a non-pipelined divider reserves its latency in
// the modulo reservation table): 30 set points streamed back to back through the cycle core, every result bit-exact,
// in order, II apart, each set point's latency as claimed; verify_stream (run by make_design) checks the third operand.
struct StreamPoint {
  const char* robot;
  const char* function;
  const char* format;
  int div, lat_div;
  bool div_pipelined;
  int fma, lat_fma;
};

class units_stream : public ::testing::TestWithParam<StreamPoint> {};

TEST_P(units_stream, BitExactAtTheClaimedIi) {
  const StreamPoint sp = GetParam();
  UnitPoint p{"", sp.robot, sp.function, sp.format, 1, 1, 3, 2, sp.div, sp.lat_div, sp.div_pipelined, sp.fma,
              sp.lat_fma, 0, 0};
  hw::DesignSpec spec = spec_of(p);
  spec.ii = hw::kStreamMinII;
  const hw::Design d = hw::make_design(spec);
  ASSERT_TRUE(d.dp.streaming());
  std::mt19937_64 rng(11);
  std::vector<std::vector<double>> xs;
  std::vector<std::vector<std::uint32_t>> raw;
  for (int k = 0; k < 30; ++k) {
    xs.push_back(hw::random_state(d, rng));
    raw.push_back(hw::encode(spec.format, xs.back()));
  }
  const auto r = dptest::run_core_stream(d.dp, raw);
  ASSERT_EQ(r.out.size(), xs.size());
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const auto want = hw::golden_raw(*d.graph, spec.format, xs[k]);
    ASSERT_EQ(r.out[k].size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o) ASSERT_TRUE(hw::same(spec.format, r.out[k][o], want[o])) << k;
    EXPECT_EQ(r.last_out[k] - r.first_in[k] + 1, d.dp.latency());
    if (k > 0) {
      EXPECT_EQ(r.first_out[k] - r.first_out[k - 1], d.dp.stream.ii);
    }
  }
  std::printf("%s %s %s streaming: II %d, latency %d, %d registers, kernel %zu words\n", sp.robot, sp.function,
              sp.format, d.dp.stream.ii, d.dp.latency(), d.dp.num_regs, d.dp.program.size());
}

INSTANTIATE_TEST_SUITE_P(Points, units_stream,
                         ::testing::Values(StreamPoint{"puma560", "fd", "fp32", 1, 8, false, 1, 4},
                                           StreamPoint{"planar2", "fd", "fixed:7.18", 1, 4, false, 1, 2},
                                           StreamPoint{"puma560", "id", "fp32", 0, 8, false, 2, 4}),
                         [](const ::testing::TestParamInfo<StreamPoint>& i) {
                           std::string n = std::string(i.param.robot) + "_" + i.param.function + "_" + i.param.format;
                           for (char& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

void expect_option_error(hw::DesignSpec s, const std::string& starts) {
  try {
    (void)hw::make_design(s);
    ADD_FAILURE() << "no error, expected '" << starts << "...'";
  } catch (const hw::OptionError& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind(starts, 0), 0u) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(UnitClasses, OptionErrorsAreOneLine) {
  const UnitPoint base{"", "planar2", "fd", "fp32", 1, 1, 3, 2, 1, 8, false, 0, 0, 0, 0};
  hw::DesignSpec s = spec_of(base);
  s.div = 0;
  expect_option_error(s, "--function fd: the graph has ");
  s = spec_of(base);
  s.function = "id";
  expect_option_error(s, "--div 1: the graph of --function id has no division");
  s = spec_of(base);
  s.function = "inverse";
  expect_option_error(s, "--function: unknown function 'inverse'");
  s = spec_of(base);
  s.fma = 1;
  expect_option_error(s, "--fma: needs --lat-fma >= 1");
  s.lat_fma = 3;
  s.regfile = "mem";
  expect_option_error(s, "--regfile mem: not with FMA units");
  s = spec_of(base);
  s.lat_div = 0;
  expect_option_error(s, "--lat-div: 0");
}

}  // namespace
}  // namespace neaccel
