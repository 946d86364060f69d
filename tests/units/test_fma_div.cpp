// The FMA and divider units: the binary32 fma reference (bit-level, num/fp32.hpp) against the
// CPU's fused multiply-add instruction with its MXCSR flags, the divider reference against double division,
// then the Verilated RTL (C++ mode) against the references: random streams at every binary32 latency,
// deterministic hard-class sweeps, the fixed-point units (exhaustive fixed:5.3 divider).
#include "harness.hpp"

#include "neaccel/num/fixed.hpp"
#include "neaccel/units/fp32.hpp"
#include "neaccel/units/fp_vectors.hpp"

#include <gtest/gtest.h>

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

using namespace neaccel::units;
using neaccel::units::test::Operation;

namespace {

#ifdef NDEBUG
constexpr size_t kScale = 1;
#else
constexpr size_t kScale = 20;  // Debug / sanitizer builds: a twentieth of the operations
#endif

// x86 VFMADD231SS with the exception flags read from MXCSR (masked exceptions, round to nearest, no
// flush-to-zero): an implementation independent of num::fp32::fma. Compiled for FMA only in this function;
// called only when the CPU has it.
__attribute__((target("fma"))) fp32::Result hardware_fma(uint32_t a, uint32_t b, uint32_t c) {
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved & ~0x3Fu);  // clear the sticky flags
  const __m128 x = _mm_set_ss(fp32::from_bits(a)), y = _mm_set_ss(fp32::from_bits(b)), z = _mm_set_ss(fp32::from_bits(c));
  const __m128 r = _mm_fmadd_ss(x, y, z);
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(saved);
  uint32_t f = 0;
  if (csr & 0x20u) f |= fp32::kInexact;
  if (csr & 0x10u) f |= fp32::kUnderflow;
  if (csr & 0x08u) f |= fp32::kOverflow;
  if (csr & 0x04u) f |= fp32::kDivByZero;
  if (csr & 0x01u) f |= fp32::kInvalid;
  return {fp32::to_bits(_mm_cvtss_f32(r)), f};
}

std::vector<fpvec::Pair> fma_operands(size_t random, uint64_t seed) {
  std::vector<fpvec::Pair> v = fpvec::hard_pairs(fpvec::Op::Fma);
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < random; ++i) v.push_back(fpvec::random_pair(fpvec::Op::Fma, rng));
  return v;
}

TEST(Fp32Ref, FmaMatchesTheCpuFusedMultiplyAdd) {
  if (!__builtin_cpu_supports("fma")) GTEST_SKIP() << "CPU without FMA instructions";
  const auto v = fma_operands(2000000 / kScale, 21);
  size_t bad = 0, exact_zero = 0, subnormal = 0, underflow = 0, overflow = 0, invalid = 0, qnan_inf_zero = 0;
  std::string first;
  for (const auto& p : v) {
    const fp32::Result want = hardware_fma(p.a, p.b, p.c), got = fp32::fma(p.a, p.b, p.c);
    // The one documented difference (IEEE 754-2008 7.2 leaves it to the implementation): 0 x inf + quiet NaN is
    // invalid in SoftFloat's f32_mulAdd (TestFloat, our contract), not on x86.
    const auto zero = [](uint32_t u) { return (u & 0x7FFFFFFFu) == 0; };
    const auto inf = [](uint32_t u) { return (u & 0x7FFFFFFFu) == 0x7F800000u; };
    const bool inf_zero = (zero(p.a) && inf(p.b)) || (inf(p.a) && zero(p.b));
    if (inf_zero && fp32::is_nan(p.c) && (p.c & 0x00400000u) != 0) {
      ++qnan_inf_zero;
      EXPECT_EQ(got.flags, fp32::kInvalid);
      EXPECT_EQ(want.flags, 0u);
      EXPECT_TRUE(fp32::is_nan(got.bits));
      continue;
    }
    if (!fp32::same_result(got.bits, want.bits) || got.flags != want.flags) {
      if (bad++ == 0) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "%08X %08X %08X: got %08X %02X, cpu %08X %02X", p.a, p.b, p.c, got.bits,
                      got.flags, want.bits, want.flags);
        first = buf;
      }
    }
    exact_zero += (got.bits & 0x7FFFFFFFu) == 0;
    subnormal += (got.bits & 0x7F800000u) == 0 && (got.bits & 0x7FFFFFu) != 0;
    underflow += (got.flags & fp32::kUnderflow) != 0;
    overflow += (got.flags & fp32::kOverflow) != 0;
    invalid += (got.flags & fp32::kInvalid) != 0;
  }
  EXPECT_EQ(bad, 0u) << first;
  // The operands reach the hard classes (lower bounds far below the counts printed).
  EXPECT_GT(exact_zero, 1000u / kScale);
  EXPECT_GT(subnormal, 10000u / kScale);
  EXPECT_GT(underflow, 10000u / kScale);
  EXPECT_GT(overflow, 5000u / kScale);
  EXPECT_GT(invalid, 500u);
  EXPECT_GT(qnan_inf_zero, 0u);
  std::printf("%zu fma operand triples: %zu zero, %zu subnormal, %zu underflow, %zu overflow, %zu invalid\n",
              v.size(), exact_zero, subnormal, underflow, overflow, invalid);
}

TEST(Fp32Ref, FmaHandWorkedCases) {
  // 1 * 1 + 2^-24: a tie between 1 and 1 + 2^-23 rounds to even (1), inexact.
  EXPECT_EQ(fp32::fma(0x3F800000u, 0x3F800000u, 0x33800000u).bits, 0x3F800000u);
  EXPECT_EQ(fp32::fma(0x3F800000u, 0x3F800000u, 0x33800000u).flags, fp32::kInexact);
  // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46: half an ulp above 2^-22, a tie, rounds to even (2^-22), inexact. A
  // rounded product then a subtraction would give 2^-22 exactly (no inexact flag on the subtraction).
  EXPECT_EQ(fp32::fma(0x3F800001u, 0x3F800001u, 0xBF800000u).bits, 0x34800000u);
  EXPECT_EQ(fp32::fma(0x3F800001u, 0x3F800001u, 0xBF800000u).flags, fp32::kInexact);
  // Exact cancellation: +0; (-0) * 1 + (-0) = -0; 0 * inf + qNaN is invalid (SoftFloat f32_mulAdd).
  EXPECT_EQ(fp32::fma(0x3FC00000u, 0x40000000u, 0xC0400000u).bits, 0x00000000u);
  EXPECT_EQ(fp32::fma(0x80000000u, 0x3F800000u, 0x80000000u).bits, 0x80000000u);
  EXPECT_EQ(fp32::fma(0x00000000u, 0x7F800000u, 0x7FC00000u).flags, fp32::kInvalid);
  // inf * 1 + (-inf): invalid; max * 2 - max = max exactly (no overflow: one rounding).
  EXPECT_EQ(fp32::fma(0x7F800000u, 0x3F800000u, 0xFF800000u).flags, fp32::kInvalid);
  EXPECT_EQ(fp32::fma(0x7F7FFFFFu, 0x40000000u, 0xFF7FFFFFu).bits, 0x7F7FFFFFu);
  EXPECT_EQ(fp32::fma(0x7F7FFFFFu, 0x40000000u, 0xFF7FFFFFu).flags, 0u);
  // 2^-75 * 2^-75 + 0: 2^-150, a tie between 0 and 2^-149 -> 0 (even), underflow + inexact.
  EXPECT_EQ(fp32::fma(0x1A000000u, 0x1A000000u, 0x00000000u).bits, 0x00000000u);
  EXPECT_EQ(fp32::fma(0x1A000000u, 0x1A000000u, 0x00000000u).flags, fp32::kInexact | fp32::kUnderflow);
}

TEST(Fp32Ref, DivMatchesDoubleDivisionRounded) {
  // A double quotient rounded to binary32 is the correctly rounded binary32 quotient (53 >= 2 * 24 + 2:
  // double rounding is innocuous for division), an independent model of the result bits.
  std::vector<fpvec::Pair> v = fpvec::hard_pairs(fpvec::Op::Div);
  std::mt19937_64 rng(5);
  for (size_t i = 0; i < 1000000 / kScale; ++i) v.push_back(fpvec::random_pair(fpvec::Op::Div, rng));
  size_t bad = 0;
  for (const auto& p : v) {
    const double q = static_cast<double>(fp32::from_bits(p.a)) / static_cast<double>(fp32::from_bits(p.b));
    const uint32_t want = fp32::to_bits(static_cast<float>(q));
    if (!fp32::same_result(fp32::div(p.a, p.b).bits, want) && bad++ == 0) {
      ADD_FAILURE() << std::hex << p.a << " / " << p.b;
    }
  }
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(fp32::div(0x3F800000u, 0x00000000u).flags, fp32::kDivByZero);
  EXPECT_EQ(fp32::div(0x00000000u, 0x00000000u).flags, fp32::kInvalid);
  EXPECT_EQ(fp32::div(0x7F800000u, 0x00000000u).flags, 0u);  // inf / 0 = inf, no flag
}

TEST(FixedRef, FmaAndDivAgainstDouble) {
  // fixed:8.8: every product, sum and quotient is exact in double; round half to even by nearbyint.
  const neaccel::num::fixed::Format f{8, 8};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 200000; ++i) {
    const int64_t a = neaccel::num::fixed::from_bits(static_cast<uint32_t>(rng()), f);
    const int64_t b = neaccel::num::fixed::from_bits(static_cast<uint32_t>(rng()), f);
    const int64_t c = neaccel::num::fixed::from_bits(static_cast<uint32_t>(rng()), f);
    const double fma = std::nearbyint((static_cast<double>(a) * static_cast<double>(b)) / 256.0 + static_cast<double>(c));
    ASSERT_EQ(neaccel::num::fixed::fma(a, b, c, f), std::clamp<double>(fma, -32768, 32767)) << a << " " << b << " " << c;
    if (b != 0) {
      // a * 256 / b: the quotient's tie cases are exact in double (|a * 256| < 2^24).
      const double q = std::nearbyint(static_cast<double>(a) * 256.0 / static_cast<double>(b));
      const double r = static_cast<double>(a) * 256.0 - q * static_cast<double>(b);  // exact
      EXPECT_LE(std::fabs(r), std::fabs(static_cast<double>(b)) / 2);
      ASSERT_EQ(neaccel::num::fixed::div(a, b, f), std::clamp<double>(q, -32768, 32767)) << a << " / " << b;
    }
  }
  EXPECT_EQ(neaccel::num::fixed::div(5, 0, f), 32767);
  EXPECT_EQ(neaccel::num::fixed::div(-5, 0, f), -32768);
  EXPECT_EQ(neaccel::num::fixed::div(0, 0, f), 0);
}

struct Case {
  UnitConfig config;
  size_t ops;
  bool gaps;
};
void PrintTo(const Case& c, std::ostream* os) { *os << describe(c.config) << ", " << c.ops << " ops"; }
std::string case_name(const testing::TestParamInfo<Case>& info) {
  const UnitConfig& c = info.param.config;
  std::string n = unit_name(c.kind);
  for (char& ch : n) {
    if (ch == '-') ch = '_';
  }
  n += "_L" + std::to_string(c.latency) + (c.pipelined ? "" : "_np");
  if (is_fixed(c.kind)) n += "_W" + std::to_string(c.width) + "F" + std::to_string(c.frac);
  return n;
}
UnitConfig cfg(UnitKind k, int lat, bool pipe = true, int w = 32, int f = 16) { return {k, lat, pipe, w, f}; }

class NewUnitStream : public testing::TestWithParam<Case> {};

TEST_P(NewUnitStream, MatchesReference) {
  const Case& tc = GetParam();
  auto unit = make_vl_unit(tc.config);
  const size_t n = tc.ops / kScale;
  const auto ops = test::random_operations(tc.config, n, 0xF4A0000u + static_cast<uint64_t>(tc.config.latency));
  const auto rep = test::run_stream(*unit, ops, tc.gaps, 13);
  EXPECT_EQ(rep.checked, n);
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

// Every binary32 latency (each has its own cuts): 40 k random operations at 1, 3, 6 (with idle gaps at 3 and
// 6), 20 k at 2, 4, 5, 10 k non-pipelined; fixed point 40 k per configuration.
INSTANTIATE_TEST_SUITE_P(
    Units, NewUnitStream,
    testing::Values(Case{cfg(UnitKind::Fp32Fma, 1), 40000, false}, Case{cfg(UnitKind::Fp32Fma, 2), 20000, true},
                    Case{cfg(UnitKind::Fp32Fma, 3), 40000, true}, Case{cfg(UnitKind::Fp32Fma, 4), 20000, true},
                    Case{cfg(UnitKind::Fp32Fma, 5), 20000, true}, Case{cfg(UnitKind::Fp32Fma, 6), 40000, true},
                    Case{cfg(UnitKind::Fp32Fma, 3, false), 10000, false},
                    Case{cfg(UnitKind::Fp32Div, 1), 40000, false}, Case{cfg(UnitKind::Fp32Div, 2), 20000, true},
                    Case{cfg(UnitKind::Fp32Div, 3), 40000, true}, Case{cfg(UnitKind::Fp32Div, 4), 20000, true},
                    Case{cfg(UnitKind::Fp32Div, 5), 20000, true}, Case{cfg(UnitKind::Fp32Div, 6), 40000, true},
                    Case{cfg(UnitKind::Fp32Div, 6, false), 10000, false},
                    Case{cfg(UnitKind::FxFma, 1), 40000, false}, Case{cfg(UnitKind::FxFma, 2), 40000, true},
                    Case{cfg(UnitKind::FxFma, 3, false), 10000, false},
                    Case{cfg(UnitKind::FxFma, 1, true, 8, 3), 40000, false},
                    Case{cfg(UnitKind::FxDiv, 1), 40000, false}, Case{cfg(UnitKind::FxDiv, 4), 40000, true},
                    Case{cfg(UnitKind::FxDiv, 4, false), 10000, false},
                    Case{cfg(UnitKind::FxDiv, 2, true, 16, 0), 40000, true}),
    case_name);

std::vector<Operation> hard_ops(fpvec::Op op) {
  std::vector<Operation> ops;
  const auto pairs = fpvec::hard_pairs(op);
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i >= 6000 && i % kScale != 0) continue;
    ops.push_back({0, pairs[i].a, pairs[i].b, pairs[i].c});
  }
  return ops;
}

TEST(HardClasses, Fp32Fma) {
  for (int lat : {2, 5}) {
    auto unit = make_vl_unit(cfg(UnitKind::Fp32Fma, lat));
    const auto ops = hard_ops(fpvec::Op::Fma);
    const auto rep = test::run_stream(*unit, ops, false, 1);
    EXPECT_EQ(rep.checked, ops.size());
    EXPECT_EQ(rep.mismatches, 0u) << "latency " << lat << ": " << rep.first;
  }
}

TEST(HardClasses, Fp32Div) {
  for (int lat : {2, 5}) {
    auto unit = make_vl_unit(cfg(UnitKind::Fp32Div, lat));
    const auto ops = hard_ops(fpvec::Op::Div);
    const auto rep = test::run_stream(*unit, ops, false, 1);
    EXPECT_EQ(rep.checked, ops.size());
    EXPECT_EQ(rep.mismatches, 0u) << "latency " << lat << ": " << rep.first;
  }
}

TEST(HardClasses, DivSweepCoversTheClasses) {
  size_t uf = 0, ovf = 0, dz = 0, inv = 0, exact = 0;
  for (const auto& p : fpvec::hard_pairs(fpvec::Op::Div)) {
    const auto r = fp32::div(p.a, p.b);
    uf += (r.flags & fp32::kUnderflow) != 0;
    ovf += (r.flags & fp32::kOverflow) != 0;
    dz += (r.flags & fp32::kDivByZero) != 0;
    inv += (r.flags & fp32::kInvalid) != 0;
    exact += r.flags == 0;
  }
  EXPECT_GT(uf, 5000u);
  EXPECT_GT(ovf, 5000u);
  EXPECT_GT(dz, 20u);
  EXPECT_GT(inv, 50u);
  EXPECT_GT(exact, 4000u);
}

// fixed:5.3 divider exhaustively: every operand pair (including division by zero).
TEST(Exhaustive, FixedDivW8F3) {
  auto unit = make_vl_unit(cfg(UnitKind::FxDiv, 3, true, 8, 3));
  std::vector<Operation> ops;
  for (uint32_t a = 0; a < 256; ++a) {
    for (uint32_t b = 0; b < 256; ++b) ops.push_back({0, a, b, 0});
  }
  const auto rep = test::run_stream(*unit, ops, true, 1);
  EXPECT_EQ(rep.checked, ops.size());
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

// fixed:5.3 FMA: every (a, b) pair with 16 addends spread over the range (c = k * 17 - 128 .. ).
TEST(Exhaustive, FixedFmaW8F3Pairs) {
  auto unit = make_vl_unit(cfg(UnitKind::FxFma, 1, true, 8, 3));
  std::vector<Operation> ops;
  for (uint32_t a = 0; a < 256; ++a) {
    for (uint32_t b = 0; b < 256; ++b) {
      for (uint32_t k = 0; k < 16; ++k) ops.push_back({0, a, b, (k * 17u + 3u) & 0xFFu});
    }
  }
  const auto rep = test::run_stream(*unit, ops, false, 1);
  EXPECT_EQ(rep.checked, ops.size());
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

}  // namespace
