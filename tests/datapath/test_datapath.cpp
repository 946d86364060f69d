// dp.*: datapath description, microcode, and the cycle core executing it (no SystemC kernel needed).
#include "support.hpp"

#include "core.hpp"
#include "neaccel/hw/datapath.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel {
namespace {

using dptest::make_problem;
using hw::golden_raw;
using dptest::random_graph;

// Contract 4 by hand, fixed:4.4 (W = 8, F = 4, range [-8, 7.9375]).
TEST(number, FixedPointContractCases) {
  const auto f = hw::NumberFormat::parse("fixed:4.4");
  EXPECT_EQ(hw::encode(f, 1.5), 0x18u);
  EXPECT_EQ(hw::encode(f, 1.0 / 32), 0x00u);          // 0.5 ulp, tie -> even (0)
  EXPECT_EQ(hw::encode(f, 3.0 / 32), 0x02u);          // 1.5 ulp, tie -> even (2)
  EXPECT_EQ(hw::encode(f, 100.0), 0x7Fu);             // saturate high
  EXPECT_EQ(hw::encode(f, -100.0), 0x80u);            // saturate low
  EXPECT_EQ(hw::mul(f, 0x18, 0x18), 0x24u);           // 1.5 * 1.5 = 2.25
  EXPECT_EQ(hw::mul(f, 0x01, 0x08), 0x00u);           // 1/16 * 1/2 = 1/32: tie, q = 0 even -> 0
  EXPECT_EQ(hw::mul(f, 0x03, 0x08), 0x02u);           // 3/32: tie, q = 1 odd -> 2
  EXPECT_EQ(hw::mul(f, 0xFF, 0x08), 0x00u);           // -1/32: floor -1, rem half, q odd -> 0
  EXPECT_EQ(hw::mul(f, 0x40, 0x40), 0x7Fu);           // 4 * 4 saturates
  EXPECT_EQ(hw::add(f, 0x70, 0x70), 0x7Fu);
  EXPECT_EQ(hw::sub(f, 0x80, 0x10), 0x80u);
  EXPECT_EQ(hw::neg(f, 0x80), 0x7Fu);                 // saturating negate of the most negative value
  EXPECT_DOUBLE_EQ(hw::decode(f, 0xF8), -0.5);
}

TEST(number, Fp32NegIsSignFlipAndNaNIsCanonical) {
  const hw::NumberFormat f;
  EXPECT_EQ(hw::neg(f, 0x00000000u), 0x80000000u);
  EXPECT_EQ(hw::add(f, 0x7F800000u, 0xFF800000u), hw::kQuietNaN);  // inf - inf
  EXPECT_TRUE(hw::same(f, 0x7FC00001u, 0xFFC00000u));
  EXPECT_FALSE(hw::same(f, 0x00000000u, 0x80000000u));
}

TEST(number, ParseRejectsBadFormats) {
  for (const char* bad : {"fp64", "fixed:0.8", "fixed:20.20", "fixed:4", "fixed:a.b"})
    EXPECT_THROW(hw::NumberFormat::parse(bad), Error) << bad;
}

struct Point {
  int mul, add, lat_mul, lat_add;
  bool pipelined;
  const char* format;
};

// Every point: 100 random input vectors, outputs bit-identical to the graph in the format, and the cycle count
// equal to schedule length + n_in + n_out + 2 (docs/datapath.md).
class core : public ::testing::TestWithParam<Point> {};

TEST_P(core, RandomGraphsBitExactAndCycleCount) {
  const Point pt = GetParam();
  const auto fmt = hw::NumberFormat::parse(pt.format);
  std::mt19937 rng(7);
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    const auto g = random_graph(seed, 6, 40, 3);
    const auto p = make_problem(g, pt.mul, pt.add, pt.lat_mul, pt.lat_add, pt.pipelined);
    const auto s = hw::schedule_with_registers(p);
    const auto dp = hw::build(g, p, s, fmt);
    const int expected_cycles = s.length + static_cast<int>(g.inputs.size() + g.outputs.size()) + 2;
    for (int k = 0; k < 25; ++k) {
      const auto x = dptest::random_inputs(rng, g.inputs.size());
      const std::vector<std::uint32_t> raw = hw::encode(fmt, x);
      const auto run = dptest::run_core(dp, raw);
      const auto want = golden_raw(g, fmt, x);
      ASSERT_EQ(run.out.size(), want.size());
      for (std::size_t o = 0; o < want.size(); ++o)
        ASSERT_TRUE(hw::same(fmt, run.out[o], want[o])) << "seed " << seed << " out " << o;
      ASSERT_EQ(run.cycles, expected_cycles);
      ASSERT_EQ(dp.cycles(), expected_cycles);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Mixes, core,
                         ::testing::Values(Point{1, 1, 1, 1, true, "fp32"}, Point{2, 2, 3, 2, true, "fp32"},
                                           Point{1, 2, 4, 3, false, "fp32"}, Point{3, 1, 2, 1, true, "fixed:12.20"},
                                           Point{1, 1, 3, 3, false, "fixed:8.8"}),
                         [](const auto& info) {
                           const Point& p = info.param;
                           std::string f = p.format;
                           for (auto& ch : f)
                             if (ch == ':' || ch == '.') ch = '_';
                           return "m" + std::to_string(p.mul) + "a" + std::to_string(p.add) + "_l" +
                                  std::to_string(p.lat_mul) + std::to_string(p.lat_add) + (p.pipelined ? "p_" : "n_") + f;
                         });

TEST(build, RejectsMissingOrConflictingRegisters) {
  const auto g = random_graph(3, 4, 12, 2);
  const auto p = make_problem(g, 1, 1, 2, 2);
  auto s = hw::schedule_with_registers(p);
  ASSERT_NO_THROW(hw::build(g, p, s, {}));
  auto no_regs = s;
  no_regs.reg.clear();
  EXPECT_THROW(hw::build(g, p, no_regs, {}), Error);
  // Put every value into register 0: some two live values must then overlap.
  auto one_reg = s;
  for (auto& r : one_reg.reg)
    if (r >= 0) r = 0;
  EXPECT_THROW(hw::build(g, p, one_reg, {}), Error);
  // An op issued before its operand arrives.
  auto early = s;
  early.slots[g.outputs[0].node].start = 0;
  EXPECT_THROW(hw::build(g, p, early, {}), Error);
  // Two ops on one instance in one cycle.
  auto clash = s;
  std::size_t a = 0, b = 0;
  for (std::size_t v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].op == dfg::Op::Mul) (a == 0 ? a : b) = (a == 0 ? v : (b == 0 ? v : b));
  ASSERT_NE(b, 0u);
  clash.slots[b] = clash.slots[a];
  EXPECT_THROW(hw::build(g, p, clash, {}), Error);
}

TEST(build, HexIsDeterministicAndSized) {
  const auto g = random_graph(5, 5, 30, 2);
  const auto p = make_problem(g, 2, 1, 3, 2);
  const auto s = hw::schedule_with_registers(p);
  const auto dp1 = hw::build(g, p, s, {}), dp2 = hw::build(g, p, s, {});
  EXPECT_EQ(hw::microcode_hex(dp1), hw::microcode_hex(dp2));
  const auto lines = hw::microcode_hex(dp1);
  ASSERT_EQ(static_cast<int>(lines.size()), s.length + 1);
  EXPECT_EQ(static_cast<int>(lines[0].size()), (dp1.config.word_bits() + 3) / 4);
  // Fitting into a bigger configuration keeps the program and moves the operand addresses.
  auto big = dp1.config;
  big.max_regs += 10;
  big.max_prog += 100;
  const auto dp3 = hw::fit(dp1, big);
  EXPECT_EQ(dp3.program.size(), dp1.program.size());
  auto small = dp1.config;
  small.max_regs -= 1;
  EXPECT_THROW(hw::fit(dp1, small), Error);
  const auto r1 = dptest::run_core(dp1, std::vector<std::uint32_t>(5, hw::encode({}, 0.75)));
  const auto r3 = dptest::run_core(dp3, std::vector<std::uint32_t>(5, hw::encode({}, 0.75)));
  EXPECT_EQ(r1.out, r3.out);
}

}  // namespace
}  // namespace neaccel
