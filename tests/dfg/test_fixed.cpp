// Fixed-point arithmetic of contract 4, against hand-worked cases and an independent long-double oracle.
#include "neaccel/dfg/builder.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/fixed.hpp"
#include "neaccel/ref/error.hpp"
#include "random_graph.hpp"

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <random>

namespace neaccel::dfg {
namespace {

TEST(Fixed, ConversionRoundsToNearestEvenAndSaturates) {
  const FixedFormat q44{4, 4};  // W = 8: raw in [-128, 127], step 1/16
  EXPECT_EQ(fx_from_double(1.03125, q44), 16);   // 16.5 -> 16 (tie, even)
  EXPECT_EQ(fx_from_double(1.09375, q44), 18);   // 17.5 -> 18 (tie, even)
  EXPECT_EQ(fx_from_double(-1.03125, q44), -16);  // -16.5 -> -16
  EXPECT_EQ(fx_from_double(-1.09375, q44), -18);
  EXPECT_EQ(fx_from_double(0.04, q44), 1);        // 0.64 -> 1
  EXPECT_EQ(fx_from_double(100.0, q44), 127);
  EXPECT_EQ(fx_from_double(-100.0, q44), -128);
  EXPECT_EQ(fx_from_double(INFINITY, q44), 127);
  EXPECT_THROW(fx_from_double(NAN, q44), Error);
  EXPECT_EQ(fx_to_double(-24, q44), -1.5);
}

TEST(Fixed, MultiplicationRoundsTiesToEvenOnTheFlooredQuotient) {
  const FixedFormat q44{4, 4};
  EXPECT_EQ(fx_mul(3, 5, q44), 1);    // p = 15: q 0, rem 15 > 8 -> 1
  EXPECT_EQ(fx_mul(2, 4, q44), 0);    // p = 8: q 0, rem 8 = half, q even -> 0
  EXPECT_EQ(fx_mul(3, 8, q44), 2);    // p = 24: q 1, rem 8, q odd -> 2
  EXPECT_EQ(fx_mul(-2, 4, q44), 0);   // p = -8: q -1 (floor), rem 8, q odd -> 0
  EXPECT_EQ(fx_mul(-3, 8, q44), -2);  // p = -24: q -2, rem 8, q even -> -2
  EXPECT_EQ(fx_mul(-3, 5, q44), -1);  // p = -15: q -1, rem 1 < 8 -> -1
  EXPECT_EQ(fx_mul(127, 127, q44), 127);  // 1008 -> saturates
  EXPECT_EQ(fx_mul(-128, 127, q44), -128);
  EXPECT_EQ(fx_add(100, 100, q44), 127);
  EXPECT_EQ(fx_sub(-100, 100, q44), -128);
  EXPECT_EQ(fx_neg(-128, q44), 127);
  EXPECT_EQ(fx_mul(7, -9, FixedFormat{8, 0}), -63);  // F = 0: integer product
}

TEST(Fixed, MultiplicationMatchesLongDoubleOracle) {
  // p = a*b is exact in long double (64-bit significand, |p| < 2^62); nearbyintl in the default rounding mode
  // is round-half-even: an implementation independent of fx_mul's shift-and-remainder.
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  std::mt19937_64 rng(11);
  for (FixedFormat f : {FixedFormat{1, 31}, FixedFormat{8, 24}, FixedFormat{16, 16}, FixedFormat{3, 5}}) {
    std::uniform_int_distribution<std::int64_t> d(f.min_raw(), f.max_raw());
    for (int k = 0; k < 20000; ++k) {
      const std::int64_t a = d(rng), b = d(rng);
      const long double p = static_cast<long double>(a) * static_cast<long double>(b);
      long double r = std::nearbyintl(std::ldexp(p, -f.F));
      r = std::min<long double>(std::max<long double>(r, f.min_raw()), f.max_raw());
      ASSERT_EQ(fx_mul(a, b, f), static_cast<std::int64_t>(r)) << a << " * " << b << " in " << to_string(f);
    }
  }
}

TEST(Fixed, FormatParsing) {
  EXPECT_EQ(parse_fixed_format("fixed:8.24").F, 24);
  EXPECT_EQ(parse_fixed_format("Q12.20").I, 12);
  EXPECT_THROW(parse_fixed_format("fixed:20.20"), Error);
  EXPECT_THROW(parse_fixed_format("fixed:0.8"), Error);
  EXPECT_THROW(parse_fixed_format("fixed:8"), Error);
  EXPECT_THROW(parse_fixed_format("fixed:8.8x"), Error);
}

TEST(Fixed, GraphEvaluationCloseToDoubleWithinFormatResolution) {
  // A short graph: the fixed result must be within a few LSB of double (each op adds at most 1/2 LSB of
  // rounding; the error bound below is generous for 60 operations on values of magnitude ~1).
  const Graph g = test::random_graph(4, 4, 60, 2);
  const std::vector<double> in = test::random_inputs(g, 4);
  const std::vector<double> ref = evaluate<double>(g, in);
  Arithmetic<Fixed> ar{FixedFormat{12, 20}};
  const std::vector<Fixed> out = evaluate<Fixed>(g, convert_inputs(in, ar), ar);
  for (std::size_t o = 0; o < out.size(); ++o) {
    if (std::abs(ref[o]) < 1000) {
      EXPECT_NEAR(ar.to_double(out[o]), ref[o], 1e-3) << o;
    }
  }
}

// div, sqrt and fma against a double oracle, exhaustively over small formats (W <= 8, fma W = 6). The oracle is
// exact there: operands scaled by 2^F are integers below 2^16, the double quotient/root/sum is correctly rounded,
// an exact tie (k + 1/2) is representable and any non-tie lies at least 2^-9 away from one, far above the double
// rounding error; nearbyint in the default mode is round-half-even. Independent of num::fixed's integer code.
std::int64_t oracle_round(double scaled, const FixedFormat& f) {
  const double r = std::nearbyint(scaled);
  return static_cast<std::int64_t>(std::min<double>(std::max<double>(r, f.min_raw()), f.max_raw()));
}

TEST(Fixed, DivisionAndSquareRootMatchDoubleOracleExhaustively) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  for (FixedFormat f : {FixedFormat{4, 4}, FixedFormat{1, 7}, FixedFormat{8, 0}, FixedFormat{3, 5}, FixedFormat{6, 1}}) {
    for (std::int64_t a = f.min_raw(); a <= f.max_raw(); ++a) {
      const double sa = std::ldexp(static_cast<double>(a), f.F);
      const std::int64_t want_sqrt = a <= 0 ? 0 : oracle_round(std::sqrt(sa), f);
      ASSERT_EQ(fx_sqrt(a, f), want_sqrt) << "sqrt " << a << " in " << to_string(f);
      for (std::int64_t b = f.min_raw(); b <= f.max_raw(); ++b) {
        const std::int64_t want = b != 0 ? oracle_round(sa / static_cast<double>(b), f)
                                         : a > 0 ? f.max_raw() : a < 0 ? f.min_raw() : 0;
        ASSERT_EQ(fx_div(a, b, f), want) << a << " / " << b << " in " << to_string(f);
      }
    }
  }
}

TEST(Fixed, FusedMultiplyAddRoundsOnceExhaustively) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  for (FixedFormat f : {FixedFormat{3, 3}, FixedFormat{1, 5}, FixedFormat{6, 0}}) {
    for (std::int64_t a = f.min_raw(); a <= f.max_raw(); ++a)
      for (std::int64_t b = f.min_raw(); b <= f.max_raw(); ++b)
        for (std::int64_t c = f.min_raw(); c <= f.max_raw(); ++c) {
          const double exact = static_cast<double>(a * b) + std::ldexp(static_cast<double>(c), f.F);
          ASSERT_EQ(fx_fma(a, b, c, f), oracle_round(std::ldexp(exact, -f.F), f))
              << a << " * " << b << " + " << c << " in " << to_string(f);
        }
  }
  // One rounding, not two: in fixed:4.4, 2*4 = 8/256 is a tie that mul rounds to 0 (even), so mul then add gives
  // 0 + 1 = 1; fma rounds (8 + 16) / 16 = 1.5 once, to 2 (even).
  const FixedFormat q44{4, 4};
  EXPECT_EQ(fx_add(fx_mul(2, 4, q44), 1, q44), 1);
  EXPECT_EQ(fx_fma(2, 4, 1, q44), 2);
  EXPECT_EQ(fx_fma(5, 5, 0, q44), 2);   // 25 / 16 = 1.5625 -> 2
  EXPECT_EQ(fx_fma(3, 8, 1, q44), 2);   // 40 / 16 = 2.5, tie -> 2 (even)
  EXPECT_EQ(fx_fma(127, 127, 127, q44), 127);  // saturates
}

TEST(Fixed, WideFormatDivisionSquareRootAndFmaAtTheEdges) {
  const FixedFormat w{1, 31};  // W = 32, values in [-1, 1)
  EXPECT_EQ(fx_div(w.min_raw(), w.min_raw(), w), w.max_raw());   // -1 / -1 = 1 saturates
  EXPECT_EQ(fx_div(w.min_raw(), w.max_raw(), w), w.min_raw());   // just below -1: saturates
  EXPECT_EQ(fx_div(1, 2, w), std::int64_t{1} << 30);               // raw 1 / raw 2 = 1/2
  EXPECT_EQ(fx_div(5, 0, w), w.max_raw());
  EXPECT_EQ(fx_div(-5, 0, w), w.min_raw());
  EXPECT_EQ(fx_div(0, 0, w), 0);
  EXPECT_EQ(fx_sqrt(-7, w), 0);
  EXPECT_EQ(fx_sqrt(std::int64_t{1} << 29, w), std::int64_t{1} << 30);  // sqrt(1/4) = 1/2
  EXPECT_EQ(fx_fma(w.min_raw(), w.min_raw(), w.min_raw(), w), 0);       // 1 - 1, exact in the wide sum
  EXPECT_EQ(fx_fma(w.min_raw(), w.min_raw(), w.max_raw(), w), w.max_raw());
  const FixedFormat q{16, 16};
  EXPECT_EQ(fx_div(1, std::int64_t{1} << 17, q), 0);   // 2^16 / 2^17 = 0.5 LSB, tie -> 0 (even)
  EXPECT_EQ(fx_div(3, std::int64_t{1} << 17, q), 2);   // 1.5 LSB, tie -> 2 (even)
  EXPECT_EQ(fx_div(-3, std::int64_t{1} << 17, q), -2);
  EXPECT_EQ(fx_div(5, std::int64_t{1} << 17, q), 2);   // 2.5 LSB, tie -> 2 (even)
  EXPECT_EQ(fx_sqrt(fx_from_double(2.0, q), q), fx_from_double(std::sqrt(2.0), q));
  EXPECT_EQ(fx_div(fx_from_double(1.0, q), fx_from_double(3.0, q), q), fx_from_double(1.0 / 3.0, q));
}

// A graph with div, sqrt and fma evaluates in fixed point: each node rounds once (so within 1/2 LSB of the double
// value of that node for operands taken from the fixed evaluation, checked node by node).
TEST(Fixed, GraphWithDivSqrtFmaEvaluatesNodeByNode) {
  Builder b;
  const NodeId x = b.input("x"), y = b.input("y"), z = b.input("z");
  const NodeId r = b.op(Op::Sqrt, b.op(Op::Fma, x, x, b.op(Op::Mul, y, y)));  // |(x, y)|
  const NodeId q = b.op(Op::Div, z, r);
  b.output("r", r);
  b.output("q", b.op(Op::Fma, q, x, y));
  const Graph g = b.take();
  const Arithmetic<Fixed> ar{FixedFormat{8, 20}};
  const double lsb = std::ldexp(1.0, -20);
  const std::vector<Fixed> v = evaluate_nodes<Fixed>(g, convert_inputs({0.3, -1.7, 2.5}, ar), ar);
  int checked = 0;  // the graph has one mul, two fma, one sqrt, one div: each must be checked
  for (NodeId id = 0; id < g.nodes.size(); ++id) {
    const Node& n = g.nodes[id];
    const auto d = [&](int k) { return ar.to_double(v[n.arg[static_cast<std::size_t>(k)]]); };
    double exact = 0;
    switch (n.op) {
      case Op::Mul: exact = d(0) * d(1); break;
      case Op::Fma: exact = d(0) * d(1) + d(2); break;
      case Op::Div: exact = d(0) / d(1); break;
      case Op::Sqrt: exact = std::sqrt(d(0)); break;
      default: continue;
    }
    ++checked;
    EXPECT_LE(std::abs(ar.to_double(v[id]) - exact), 0.5 * lsb) << op_name(n.op);
  }
  EXPECT_EQ(checked, 5);
  const std::vector<double> ref = evaluate<double>(g, {0.3, -1.7, 2.5});
  const std::vector<Fixed> out = evaluate<Fixed>(g, convert_inputs({0.3, -1.7, 2.5}, ar), ar);
  EXPECT_NEAR(ar.to_double(out[0]), ref[0], 4 * lsb);
  EXPECT_NEAR(ar.to_double(out[1]), ref[1], 16 * lsb);
}

}  // namespace
}  // namespace neaccel::dfg
