// Verilated RTL (C++ mode) against the reference arithmetic: >= 10^6 random operations per unit spread over
// several latencies, deterministic sweeps of the binary32 hard classes, exhaustive small fixed-point formats.
#include "harness.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/fp_vectors.hpp"

#include <gtest/gtest.h>

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
  n += "_L" + std::to_string(c.latency) + (c.pipelined ? "" : "_np");
  if (c.kind == UnitKind::FxMul || c.kind == UnitKind::FxAdd) {
    n += "_W" + std::to_string(c.width) + "F" + std::to_string(c.frac);
  }
  return n;
}

UnitConfig cfg(UnitKind k, int lat, bool pipe = true, int w = 32, int f = 16) { return {k, lat, pipe, w, f}; }

class RandomStream : public testing::TestWithParam<Case> {};

TEST_P(RandomStream, MatchesReference) {
  const Case& tc = GetParam();
  auto unit = make_vl_unit(tc.config);
  const auto ops = test::random_operations(tc.config, tc.ops, 0x5eed0000u + static_cast<uint64_t>(tc.config.latency));
  const auto rep = test::run_stream(*unit, ops, tc.gaps, 7);
  EXPECT_EQ(rep.checked, tc.ops);
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

// Per unit: 300k + 300k + 300k + 100k = 10^6 random operations (binary32), 400k + 400k + 150k + 50k (fixed).
INSTANTIATE_TEST_SUITE_P(
    Units, RandomStream,
    testing::Values(Case{cfg(UnitKind::Fp32Mul, 1), 300000, false}, Case{cfg(UnitKind::Fp32Mul, 3), 300000, true},
                    Case{cfg(UnitKind::Fp32Mul, 6), 300000, true},
                    Case{cfg(UnitKind::Fp32Mul, 3, false), 100000, false},
                    Case{cfg(UnitKind::Fp32Add, 1), 300000, false}, Case{cfg(UnitKind::Fp32Add, 3), 300000, true},
                    Case{cfg(UnitKind::Fp32Add, 6), 300000, true},
                    Case{cfg(UnitKind::Fp32Add, 3, false), 100000, false},
                    Case{cfg(UnitKind::FxMul, 1), 400000, false}, Case{cfg(UnitKind::FxMul, 2), 400000, true},
                    Case{cfg(UnitKind::FxMul, 4), 150000, true}, Case{cfg(UnitKind::FxMul, 3, false), 50000, false},
                    Case{cfg(UnitKind::FxMul, 2, true, 16, 0), 100000, true},
                    Case{cfg(UnitKind::FxAdd, 1), 400000, false}, Case{cfg(UnitKind::FxAdd, 2), 400000, true},
                    Case{cfg(UnitKind::FxAdd, 4), 150000, true}, Case{cfg(UnitKind::FxAdd, 3, false), 50000, false}),
    case_name);

std::vector<Operation> hard_operations(fpvec::Op op) {
  std::vector<Operation> ops;
  for (const fpvec::Pair& p : fpvec::hard_pairs(op)) {
    ops.push_back({0, p.a, p.b});
    if (op != fpvec::Op::Mul) {
      ops.push_back({1, p.a, p.b});  // subtraction of the same pair
    }
  }
  return ops;
}

TEST(HardClasses, Fp32Mul) {
  auto unit = make_vl_unit(cfg(UnitKind::Fp32Mul, 2));
  const auto ops = hard_operations(fpvec::Op::Mul);
  const auto rep = test::run_stream(*unit, ops, false, 1);
  EXPECT_EQ(rep.checked, ops.size());
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

TEST(HardClasses, Fp32Add) {
  auto unit = make_vl_unit(cfg(UnitKind::Fp32Add, 2));
  auto ops = hard_operations(fpvec::Op::Add);
  for (uint32_t b : {0x00000000u, 0x80000000u, 0x7F800001u, 0xFFC00000u, 0x00000001u, 0xFF800000u}) {
    ops.push_back({2, 0x3F800000u, b});  // negation keeps NaN bits, flips the sign
  }
  const auto rep = test::run_stream(*unit, ops, false, 1);
  EXPECT_EQ(rep.checked, ops.size());
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

// fixed:5.3 exhaustively: every operand pair, every adder operation.
TEST(Exhaustive, FixedW8F3) {
  for (UnitKind k : {UnitKind::FxMul, UnitKind::FxAdd}) {
    auto unit = make_vl_unit(cfg(k, 1, true, 8, 3));
    std::vector<Operation> ops;
    for (uint32_t op = 0; op < (k == UnitKind::FxAdd ? 3u : 1u); ++op) {
      for (uint32_t a = 0; a < 256; ++a) {
        for (uint32_t b = 0; b < 256; ++b) ops.push_back({op, a, b});
      }
    }
    const auto rep = test::run_stream(*unit, ops, false, 1);
    EXPECT_EQ(rep.checked, ops.size());
    EXPECT_EQ(rep.mismatches, 0u) << unit_name(k) << ": " << rep.first;
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
