// The dfg fixed-point evaluator's arithmetic (dfg/fixed.hpp) and the units area's bit-level reference
// (sysc/units/include/neaccel/units/fixed.hpp, used by the SystemC models and the RTL checks) are the same
// function of contract 4: compared bit for bit on random operands, ties and saturation edges. Both now forward
// to num::fixed; this checks the forwarding (dfg's FixedFormat{I, F} -> num's Format) and the re-export.
#include "neaccel/dfg/fixed.hpp"
#include "neaccel/units/fixed.hpp"

#include <gtest/gtest.h>

#include <random>

namespace neaccel::dfg {
namespace {

TEST(FixedUnits, SameAsUnitsReference) {
  std::mt19937_64 rng(21);
  for (FixedFormat f : {FixedFormat{1, 31}, FixedFormat{8, 24}, FixedFormat{16, 16}, FixedFormat{12, 20},
                        FixedFormat{4, 4}, FixedFormat{32, 0}, FixedFormat{2, 6}}) {
    const units::fixed::Format u{f.I, f.F};
    std::uniform_int_distribution<std::int64_t> d(f.min_raw(), f.max_raw());
    std::uniform_real_distribution<double> x(-2.0 * std::ldexp(1.0, f.I), 2.0 * std::ldexp(1.0, f.I));
    for (int k = 0; k < 20000; ++k) {
      const std::int64_t a = k < 4 ? (k % 2 ? f.max_raw() : f.min_raw()) : d(rng), b = d(rng);
      ASSERT_EQ(fx_mul(a, b, f), units::fixed::mul(a, b, u)) << a << " " << b;
      ASSERT_EQ(fx_add(a, b, f), units::fixed::add(a, b, u));
      ASSERT_EQ(fx_sub(a, b, f), units::fixed::sub(a, b, u));
      ASSERT_EQ(fx_neg(a, f), units::fixed::neg(a, u));
      // Conversions, including exact ties (k/2 + 1/2 LSB).
      const double v = k % 3 == 0 ? std::ldexp(static_cast<double>(a) + 0.5, -f.F) : x(rng);
      ASSERT_EQ(fx_from_double(v, f), units::fixed::from_double(v, u)) << v;
    }
  }
}

}  // namespace
}  // namespace neaccel::dfg
