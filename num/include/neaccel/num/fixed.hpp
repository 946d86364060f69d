// Fixed-point arithmetic of contract 4 (BRIEF.md), bit-exact with rtl/units/fx_*.v: the ONE implementation.
// dfg::evaluate<Fixed> (sched/dfg/fixed.hpp), the datapath arithmetic (sched/hw/number.hpp) and the unit reference
// models (sysc/units/fixed.hpp) all call these functions. Header-only, no SystemC, nothing but <cmath> and
// neaccel::Error.
//
// Format fixed:I.F: I integer bits INCLUDING the sign bit, F fraction bits, W = I + F <= 32, two's complement,
// value = raw / 2^F. Raw values are held sign-extended in int64_t.
#pragma once

#include "neaccel/ref/error.hpp"

#include <cmath>
#include <cstdint>
#include <string>

namespace neaccel::num::fixed {

struct Format {
  int int_bits = 16;   // I, including the sign bit
  int frac_bits = 16;  // F
  int width() const { return int_bits + frac_bits; }
};

// Throws neaccel::Error unless 1 <= I, 0 <= F and W <= 32.
inline void check(const Format& f) {
  if (f.int_bits < 1 || f.frac_bits < 0 || f.width() > 32) {
    throw Error("fixed-point format fixed:" + std::to_string(f.int_bits) + "." + std::to_string(f.frac_bits) +
                ": need I >= 1 (sign bit included), F >= 0, I + F <= 32");
  }
}

inline int64_t raw_min(const Format& f) { return -(int64_t{1} << (f.width() - 1)); }
inline int64_t raw_max(const Format& f) { return (int64_t{1} << (f.width() - 1)) - 1; }

// Clamp an exact result to [-2^(W-1), 2^(W-1)-1].
inline int64_t saturate(int64_t v, const Format& f) {
  if (v < raw_min(f)) return raw_min(f);
  if (v > raw_max(f)) return raw_max(f);
  return v;
}

// Round to nearest, ties to even, of x * 2^F, then saturate. NaN throws neaccel::Error.
inline int64_t from_double(double x, const Format& f) {
  if (std::isnan(x)) throw Error("fixed from_double: NaN has no fixed-point value");
  const double scaled = std::ldexp(x, f.frac_bits);  // exact (power of two)
  if (scaled >= static_cast<double>(raw_max(f))) return raw_max(f);
  if (scaled <= static_cast<double>(raw_min(f))) return raw_min(f);
  // In range: |scaled| < 2^31, so the default rounding mode (nearest, ties to even) applies exactly.
  return static_cast<int64_t>(std::nearbyint(scaled));
}

inline double to_double(int64_t raw, const Format& f) { return std::ldexp(static_cast<double>(raw), -f.frac_bits); }

// W-bit two's complement pattern <-> sign-extended raw value.
inline uint32_t to_bits(int64_t raw, const Format& f) {
  const uint64_t mask = (uint64_t{1} << f.width()) - 1;  // W <= 32
  return static_cast<uint32_t>(static_cast<uint64_t>(raw) & mask);
}
inline int64_t from_bits(uint32_t bits, const Format& f) {
  const uint64_t sign = uint64_t{1} << (f.width() - 1);
  const uint64_t mask = (uint64_t{1} << f.width()) - 1;
  const uint64_t v = bits & mask;
  return static_cast<int64_t>(v ^ sign) - static_cast<int64_t>(sign);
}

// add/sub/neg: exact result, then saturation.
inline int64_t add(int64_t a, int64_t b, const Format& f) { return saturate(a + b, f); }
inline int64_t sub(int64_t a, int64_t b, const Format& f) { return saturate(a - b, f); }
inline int64_t neg(int64_t b, const Format& f) { return saturate(-b, f); }

// p / 2^F rounded to nearest, ties to even: q = floor(p / 2^F), rem = p mod 2^F; q += 1 if rem > 2^(F-1) or
// (rem == 2^(F-1) and q odd). Not saturated.
inline int64_t round_shift(int64_t p, int fb) {
  if (fb == 0) return p;
  const int64_t q = p >> fb;  // arithmetic shift = floor (GCC/Clang; guaranteed from C++20)
  const uint64_t rem = static_cast<uint64_t>(p) & ((uint64_t{1} << fb) - 1);
  const uint64_t half = uint64_t{1} << (fb - 1);
  const bool up = rem > half || (rem == half && (q & 1) != 0);
  return q + (up ? 1 : 0);
}

// mul: exact 2W-bit product p (|p| <= 2^62 for W <= 32), rounded by round_shift, then saturation.
inline int64_t mul(int64_t a, int64_t b, const Format& f) { return saturate(round_shift(a * b, f.frac_bits), f); }

// fma: a*b + c with one rounding: the exact a*b + c*2^F (|.| < 2^63 for W <= 32), rounded by round_shift, then
// saturation.
inline int64_t fma(int64_t a, int64_t b, int64_t c, const Format& f) {
  return saturate(round_shift(a * b + c * (int64_t{1} << f.frac_bits), f.frac_bits), f);
}

// div: the exact quotient a*2^F / b (|a*2^F| <= 2^62), rounded to nearest, ties to even, then saturation.
// Division by zero saturates toward the sign of a (raw_max for a > 0, raw_min for a < 0); 0 / 0 = 0.
inline int64_t div(int64_t a, int64_t b, const Format& f) {
  if (b == 0) return a > 0 ? raw_max(f) : a < 0 ? raw_min(f) : 0;
  const uint64_t n = (a < 0 ? static_cast<uint64_t>(-a) : static_cast<uint64_t>(a)) << f.frac_bits;
  const uint64_t d = b < 0 ? static_cast<uint64_t>(-b) : static_cast<uint64_t>(b);
  uint64_t q = n / d;
  const uint64_t rem = n % d;
  if (2 * rem > d || (2 * rem == d && (q & 1) != 0)) ++q;
  const int64_t mag = static_cast<int64_t>(q);  // q <= 2^62
  return saturate((a < 0) != (b < 0) ? -mag : mag, f);
}

// sqrt: the square root of the value, sqrt(a*2^F) in raw units (a*2^F <= 2^62), rounded to nearest (an exact tie
// cannot occur: (r + 1/2)^2 is not an integer). A negative operand gives 0 (there is no NaN in fixed point).
inline int64_t sqrt(int64_t a, const Format& f) {
  if (a <= 0) return 0;
  const uint64_t n = static_cast<uint64_t>(a) << f.frac_bits;
  uint64_t r = static_cast<uint64_t>(std::sqrt(static_cast<double>(n)));  // within 1 of floor(sqrt(n))
  while (r * r > n) --r;
  while ((r + 1) * (r + 1) <= n) ++r;
  if (n - r * r > r) ++r;  // n > r^2 + r  <=>  n > (r + 1/2)^2 for integers
  return saturate(static_cast<int64_t>(r), f);
}

}  // namespace neaccel::num::fixed
