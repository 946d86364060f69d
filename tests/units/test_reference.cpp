// The reference arithmetic itself (fixed.hpp, fp32.hpp), checked against independent computations and
// values worked out by hand.
#include "neaccel/ref/error.hpp"
#include "neaccel/units/fixed.hpp"
#include "neaccel/units/fp32.hpp"
#include "neaccel/units/fp_vectors.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace fx = neaccel::units::fixed;
namespace fp = neaccel::units::fp32;

TEST(Fixed, FromDoubleRoundsTiesToEvenAndSaturates) {
  const fx::Format q{16, 16};
  EXPECT_EQ(fx::from_double(1.0, q), 65536);
  EXPECT_EQ(fx::from_double(std::ldexp(5.0, -17), q), 2);   // 2.5 ulp -> 2
  EXPECT_EQ(fx::from_double(std::ldexp(7.0, -17), q), 4);   // 3.5 ulp -> 4
  EXPECT_EQ(fx::from_double(std::ldexp(-5.0, -17), q), -2);
  EXPECT_EQ(fx::from_double(40000.0, q), fx::raw_max(q));
  EXPECT_EQ(fx::from_double(-32768.0, q), -(int64_t{1} << 31));
  EXPECT_EQ(fx::from_double(-1e9, q), fx::raw_min(q));
  EXPECT_THROW(fx::from_double(std::nan(""), q), neaccel::Error);
  EXPECT_THROW(fx::check(fx::Format{20, 13}), neaccel::Error);
}

TEST(Fixed, BitsRoundTrip) {
  const fx::Format f{5, 3};
  for (int64_t v = fx::raw_min(f); v <= fx::raw_max(f); ++v) {
    EXPECT_EQ(fx::from_bits(fx::to_bits(v, f), f), v);
    EXPECT_LT(fx::to_bits(v, f), 256u);
  }
}

// Independent model for W <= 16: the exact product is a double, rounding by nearbyint (ties to even).
TEST(Fixed, MulMatchesDoubleModelExhaustively) {
  for (const fx::Format f : {fx::Format{5, 3}, fx::Format{1, 7}, fx::Format{8, 0}, fx::Format{4, 4}}) {
    for (int64_t a = fx::raw_min(f); a <= fx::raw_max(f); ++a) {
      for (int64_t b = fx::raw_min(f); b <= fx::raw_max(f); ++b) {
        const double exact = std::ldexp(static_cast<double>(a * b), -f.frac_bits);
        const double want = std::fmin(std::fmax(std::nearbyint(exact), static_cast<double>(fx::raw_min(f))),
                                      static_cast<double>(fx::raw_max(f)));
        ASSERT_EQ(fx::mul(a, b, f), static_cast<int64_t>(want)) << a << " * " << b;
      }
    }
  }
}

TEST(Fixed, AddSubNegSaturate) {
  const fx::Format f{16, 16};
  EXPECT_EQ(fx::add(fx::raw_max(f), 1, f), fx::raw_max(f));
  EXPECT_EQ(fx::sub(fx::raw_min(f), 1, f), fx::raw_min(f));
  EXPECT_EQ(fx::neg(fx::raw_min(f), f), fx::raw_max(f));
  EXPECT_EQ(fx::add_op(1, 5, 7, f), -2);
  EXPECT_EQ(fx::add_op(2, 5, 7, f), -7);
}

TEST(Fp32Ref, KnownFlags) {
  EXPECT_EQ(fp::mul(0x3F800000, 0x3F800000).flags, 0u);
  const fp::Result ovf = fp::mul(0x7F7FFFFF, 0x40000000);
  EXPECT_EQ(ovf.bits, 0x7F800000u);
  EXPECT_EQ(ovf.flags, fp::kOverflow | fp::kInexact);
  EXPECT_EQ(fp::mul(0x00800000, 0x3F000000).flags, 0u);  // exact subnormal: no underflow
  const fp::Result uf = fp::mul(0x00800001, 0x3F000000);  // (2^-126 + 2^-149) / 2: tie, rounds to even
  EXPECT_EQ(uf.bits, 0x00400000u);
  EXPECT_EQ(uf.flags, fp::kUnderflow | fp::kInexact);
  EXPECT_EQ(fp::mul(0x7F800000, 0x00000000).flags, fp::kInvalid);
  EXPECT_EQ(fp::mul(0x7F800001, 0x3F800000).flags, fp::kInvalid);  // signalling NaN
  EXPECT_EQ(fp::mul(0x7FC00001, 0x3F800000).flags, 0u);          // quiet NaN
  EXPECT_EQ(fp::add(0x7F800000, 0xFF800000).flags, fp::kInvalid);
  EXPECT_EQ(fp::neg(0x7F800001).bits, 0xFF800001u);
  EXPECT_EQ(fp::neg(0x7F800001).flags, 0u);
  EXPECT_EQ(fp::add(0x3F800000, 0xBF800000).bits, 0x00000000u);  // x - x = +0
  EXPECT_EQ(fp::add(0x80000000, 0x80000000).bits, 0x80000000u);
}

// Tininess after rounding: (1 + 2^-23) 2^-27 * (2 - 2^-22) 2^-100 lies in (2^-126 (1 - 2^-25), 2^-126): it is
// below 2^-126 but rounds to 2^-126 at 24 bits, so x86 (and TestFloat's default) raise no underflow.
TEST(Fp32Ref, TininessAfterRounding) {
  const fp::Result r = fp::mul(0x32000001, 0x0DFFFFFE);
  EXPECT_EQ(r.bits, 0x00800000u);
  EXPECT_EQ(r.flags, fp::kInexact);
}

// The flags do not depend on what ran before (the reference clears them every call).
TEST(Fp32Ref, FlagsAreFreshEachCall) {
  (void)fp::mul(0x7F7FFFFF, 0x7F7FFFFF);
  EXPECT_EQ(fp::add(0x3F800000, 0x3F800000).flags, 0u);
}

TEST(FpVectors, ParseAndFormat) {
  using namespace neaccel::units::fpvec;
  EXPECT_EQ(format_line(0x3F800000, 0x1, 0xABCDEF01, 0x11), "3F800000 00000001 ABCDEF01 11");
  const auto v = parse_vectors("3F800000 3F800000 40000000 00\n\n00800001 3f000000 00400000 03\n", "f");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].b, 0x3F000000u);
  EXPECT_EQ(v[1].flags, 3u);
  EXPECT_EQ(v[1].line, 3);
  try {
    parse_vectors("3F800000 3F800000 40000000 00\n3F800000 XYZ 40000000 00\n", "v.txt");
    FAIL();
  } catch (const neaccel::Error& e) {
    EXPECT_NE(std::string(e.what()).find("v.txt:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_vectors("1 2 3\n", "f"), neaccel::Error);
  EXPECT_THROW(parse_vectors("1 2 3 40\n", "f"), neaccel::Error);
  EXPECT_THROW(parse_vectors("1 2 123456789 0\n", "f"), neaccel::Error);
}
