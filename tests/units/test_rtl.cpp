// Verilated RTL (C++ mode) against the reference arithmetic: >= 10^6 random operations per unit spread over
// several latencies, deterministic sweeps of the binary32 hard classes, exhaustive small fixed-point formats.
#include "harness.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/fp32.hpp"
#include "neaccel/units/fp_vectors.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>

using namespace neaccel::units;
using neaccel::units::test::Operation;

namespace {

struct Case {
  UnitConfig config;
  size_t ops;
  bool gaps;
};

// gtest prints parameters in test listings: print the configuration, not the raw bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << describe(c.config) << ", " << c.ops << " ops"; }

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const UnitConfig& c = info.param.config;
  std::string n = unit_name(c.kind);
  for (char& ch : n) {
    if (ch == '-') ch = '_';
  }
  n += std::string(c.deep ? "_deep" : "") + "_L" + std::to_string(c.latency) + (c.pipelined ? "" : "_np");
  if (c.kind == UnitKind::FxMul || c.kind == UnitKind::FxAdd) {
    n += "_W" + std::to_string(c.width) + "F" + std::to_string(c.frac);
  }
  return n;
}

UnitConfig cfg(UnitKind k, int lat, bool pipe = true, int w = 32, int f = 16) { return {k, lat, pipe, w, f}; }
// The deep form of a unit (rtl/units/deep).
UnitConfig deep(UnitKind k, int lat, int w = 32, int f = 16) { return {k, lat, true, w, f, true}; }

// Debug (sanitizer) builds run a twentieth of the random operations: the Verilated models are ~20x slower
// unoptimised; Release (./run test) runs the full 10^6 per unit.
#ifdef NDEBUG
constexpr size_t kScale = 1;
#else
constexpr size_t kScale = 20;
#endif

class RandomStream : public testing::TestWithParam<Case> {};

TEST_P(RandomStream, MatchesReference) {
  const Case& tc = GetParam();
  auto unit = make_vl_unit(tc.config);
  const size_t n = tc.ops / kScale;
  const auto ops = test::random_operations(tc.config, n, 0x5eed0000u + static_cast<uint64_t>(tc.config.latency));
  const auto rep = test::run_stream(*unit, ops, tc.gaps, 7);
  EXPECT_EQ(rep.checked, n);
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

// Per unit: 300k + 300k + 300k + 100k = 10^6 random operations (binary32), 400k + 400k + 150k + 50k (fixed).
// Each binary32 latency has its own register cuts (docs/units.md), so latencies 2, 4 and 5 get 50k more each.
INSTANTIATE_TEST_SUITE_P(
    Units, RandomStream,
    testing::Values(Case{cfg(UnitKind::Fp32Mul, 1), 300000, false}, Case{cfg(UnitKind::Fp32Mul, 3), 300000, true},
                    Case{cfg(UnitKind::Fp32Mul, 6), 300000, true},
                    Case{cfg(UnitKind::Fp32Mul, 3, false), 100000, false},
                    Case{cfg(UnitKind::Fp32Mul, 2), 50000, true}, Case{cfg(UnitKind::Fp32Mul, 4), 50000, true},
                    Case{cfg(UnitKind::Fp32Mul, 5), 50000, true},
                    Case{cfg(UnitKind::Fp32Add, 1), 300000, false}, Case{cfg(UnitKind::Fp32Add, 3), 300000, true},
                    Case{cfg(UnitKind::Fp32Add, 6), 300000, true},
                    Case{cfg(UnitKind::Fp32Add, 2), 50000, true}, Case{cfg(UnitKind::Fp32Add, 4), 50000, true},
                    Case{cfg(UnitKind::Fp32Add, 5), 50000, true},
                    Case{cfg(UnitKind::Fp32Add, 3, false), 100000, false},
                    Case{cfg(UnitKind::FxMul, 1), 400000, false}, Case{cfg(UnitKind::FxMul, 2), 400000, true},
                    Case{cfg(UnitKind::FxMul, 4), 150000, true}, Case{cfg(UnitKind::FxMul, 3, false), 50000, false},
                    Case{cfg(UnitKind::FxMul, 2, true, 16, 0), 100000, true},
                    Case{cfg(UnitKind::FxAdd, 1), 400000, false}, Case{cfg(UnitKind::FxAdd, 2), 400000, true},
                    Case{cfg(UnitKind::FxAdd, 4), 150000, true}, Case{cfg(UnitKind::FxAdd, 3, false), 50000, false},
                    // The deep units at every latency with its own cuts, one beyond, and an odd width.
                    Case{deep(UnitKind::FxMul, 1), 50000, false}, Case{deep(UnitKind::FxMul, 2), 50000, true},
                    Case{deep(UnitKind::FxMul, 3), 50000, true}, Case{deep(UnitKind::FxMul, 4), 200000, true},
                    Case{deep(UnitKind::FxMul, 5), 50000, true}, Case{deep(UnitKind::FxMul, 4, 31, 16), 100000, true},
                    Case{deep(UnitKind::FxAdd, 1), 50000, false}, Case{deep(UnitKind::FxAdd, 2), 200000, true},
                    Case{deep(UnitKind::FxAdd, 3), 50000, true},
                    Case{deep(UnitKind::Fp32Mul, 1), 50000, false}, Case{deep(UnitKind::Fp32Mul, 4), 50000, true},
                    Case{deep(UnitKind::Fp32Mul, 8), 300000, true}, Case{deep(UnitKind::Fp32Add, 1), 50000, false},
                    Case{deep(UnitKind::Fp32Add, 4), 50000, true}, Case{deep(UnitKind::Fp32Add, 8), 300000, true}),
    case_name);

// Debug builds take every kScale-th pair (the special-value pairs come first and are all kept).
std::vector<Operation> hard_operations(fpvec::Op op) {
  std::vector<Operation> ops;
  const std::vector<fpvec::Pair> pairs = fpvec::hard_pairs(op);
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i >= 24 * 24 && i % kScale != 0) continue;
    const fpvec::Pair& p = pairs[i];
    ops.push_back({0, p.a, p.b});
    if (op != fpvec::Op::Mul) {
      ops.push_back({1, p.a, p.b});  // subtraction of the same pair
    }
  }
  return ops;
}

// The sweeps and the random generator really reach the hard classes (otherwise the comparisons above could
// pass vacuously): count reference outcomes. Lower bounds are far below the counts seen (docs/units.md).
struct Census {
  size_t underflow = 0, overflow = 0, invalid = 0, subnormal = 0, zero = 0, inexact = 0;
};
Census census(fpvec::Op op, const std::vector<fpvec::Pair>& pairs) {
  Census c;
  for (const auto& p : pairs) {
    const auto r = fpvec::reference(op, p.a, p.b);
    c.underflow += (r.flags & fp32::kUnderflow) != 0;
    c.overflow += (r.flags & fp32::kOverflow) != 0;
    c.invalid += (r.flags & fp32::kInvalid) != 0;
    c.inexact += (r.flags & fp32::kInexact) != 0;
    c.subnormal += (r.bits & 0x7F800000u) == 0 && (r.bits & 0x7FFFFFu) != 0;
    c.zero += (r.bits & 0x7FFFFFFFu) == 0;
  }
  return c;
}

TEST(HardClasses, CoverTheClasses) {
  const Census mul = census(fpvec::Op::Mul, fpvec::hard_pairs(fpvec::Op::Mul));
  EXPECT_GT(mul.underflow, 10000u);
  EXPECT_GT(mul.overflow, 10000u);
  EXPECT_GT(mul.subnormal, 10000u);
  EXPECT_GT(mul.invalid, 50u);
  const Census add = census(fpvec::Op::Add, fpvec::hard_pairs(fpvec::Op::Add));
  EXPECT_GT(add.zero, 2000u);  // exact cancellation
  EXPECT_GT(add.subnormal, 10000u);
  EXPECT_GT(add.overflow, 1000u);
  EXPECT_EQ(add.underflow, 0u);     // sums below 2^-126 are exact
  std::mt19937_64 rng(1);
  std::vector<fpvec::Pair> rnd;
  for (int i = 0; i < 100000; ++i) rnd.push_back(fpvec::random_pair(fpvec::Op::Mul, rng));
  const Census rm = census(fpvec::Op::Mul, rnd);
  EXPECT_GT(rm.underflow, 5000u);
  EXPECT_GT(rm.overflow, 2000u);
  EXPECT_GT(rm.inexact, 30000u);
  std::printf("mul sweep: %zu underflow, %zu overflow, %zu subnormal, %zu invalid; add sweep: %zu zero, %zu "
              "subnormal, %zu overflow; 1e5 random mul: %zu underflow, %zu overflow, %zu inexact\n",
              mul.underflow, mul.overflow, mul.subnormal, mul.invalid, add.zero, add.subnormal, add.overflow,
              rm.underflow, rm.overflow, rm.inexact);
}

// The hard classes through fp32_mul and fp32_add and through their deep forms (every section of the deep
// pipelines, each cut; rtl/units/deep).
TEST(HardClasses, Fp32Mul) {
  for (const UnitConfig& c : {cfg(UnitKind::Fp32Mul, 2), deep(UnitKind::Fp32Mul, 8)}) {
    auto unit = make_vl_unit(c);
    const auto ops = hard_operations(fpvec::Op::Mul);
    const auto rep = test::run_stream(*unit, ops, false, 1);
    EXPECT_EQ(rep.checked, ops.size());
    EXPECT_EQ(rep.mismatches, 0u) << describe(c) << ": " << rep.first;
  }
}

TEST(HardClasses, Fp32Add) {
  for (const UnitConfig& c : {cfg(UnitKind::Fp32Add, 2), deep(UnitKind::Fp32Add, 8)}) {
    auto unit = make_vl_unit(c);
    auto ops = hard_operations(fpvec::Op::Add);
    for (uint32_t b : {0x00000000u, 0x80000000u, 0x7F800001u, 0xFFC00000u, 0x00000001u, 0xFF800000u}) {
      ops.push_back({2, 0x3F800000u, b});  // negation keeps NaN bits, flips the sign
    }
    const auto rep = test::run_stream(*unit, ops, false, 1);
    EXPECT_EQ(rep.checked, ops.size());
    EXPECT_EQ(rep.mismatches, 0u) << describe(c) << ": " << rep.first;
  }
}

// fixed:5.3 exhaustively: every operand pair, every adder operation, in the units of rtl/units (latency 1) and in
// the deep ones (the multiplier's four partial products, the adder's sum and saturation in stages of their own).
TEST(Exhaustive, FixedW8F3) {
  for (const UnitConfig& c : {cfg(UnitKind::FxMul, 1, true, 8, 3), cfg(UnitKind::FxAdd, 1, true, 8, 3),
                              deep(UnitKind::FxMul, 4, 8, 3), deep(UnitKind::FxAdd, 2, 8, 3)}) {
    const UnitKind k = c.kind;
    auto unit = make_vl_unit(c);
    std::vector<Operation> ops;
    for (uint32_t op = 0; op < (k == UnitKind::FxAdd ? 3u : 1u); ++op) {
      for (uint32_t a = 0; a < 256; ++a) {
        for (uint32_t b = 0; b < 256; ++b) ops.push_back({op, a, b});
      }
    }
    const auto rep = test::run_stream(*unit, ops, false, 1);
    EXPECT_EQ(rep.checked, ops.size());
    EXPECT_EQ(rep.mismatches, 0u) << describe(c) << ": " << rep.first;
  }
}

TEST(VlUnits, EveryBinary32LatencyIsBuilt) {
  for (int lat = 1; lat <= 6; ++lat) {
    for (UnitKind k : {UnitKind::Fp32Mul, UnitKind::Fp32Add}) {
      auto unit = make_vl_unit(cfg(k, lat));
      std::vector<Operation> ops(200);
      for (size_t i = 0; i < ops.size(); ++i) ops[i] = {0, 0x3F800000u + static_cast<uint32_t>(i) * 977u, 0x40490FDBu};
      const auto rep = test::run_stream(*unit, ops, true, 3);
      EXPECT_EQ(rep.mismatches, 0u) << describe(unit->config()) << ": " << rep.first;
    }
  }
  EXPECT_THROW(make_vl_unit(cfg(UnitKind::Fp32Mul, 9)), neaccel::Error);
}

}  // namespace

namespace {

// The optional big run (ctest label slow: `ctest -R units.big_random`): 10^7 random operations per unit.
TEST(BigRandom, DISABLED_TenMillionPerUnit) {
  for (const UnitConfig& c : {cfg(UnitKind::Fp32Mul, 3), cfg(UnitKind::Fp32Add, 3), cfg(UnitKind::FxMul, 2),
                              cfg(UnitKind::FxAdd, 1)}) {
    auto unit = make_vl_unit(c);
    for (uint64_t chunk = 0; chunk < 10; ++chunk) {
      const auto ops = test::random_operations(c, 1000000, 0xB16000u + chunk);
      const auto rep = test::run_stream(*unit, ops, true, chunk);
      ASSERT_EQ(rep.mismatches, 0u) << describe(c) << ": " << rep.first;
    }
  }
}

}  // namespace
