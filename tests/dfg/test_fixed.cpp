// Fixed-point arithmetic of contract 4, against hand-worked cases and an independent long-double oracle.
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

}  // namespace
}  // namespace neaccel::dfg
