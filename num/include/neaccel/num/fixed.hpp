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

// mul: exact 2W-bit product p; q = floor(p / 2^F), rem = p mod 2^F; q += 1 if rem > 2^(F-1) or
// (rem == 2^(F-1) and q odd) (round to nearest, ties to even); then saturation.
inline int64_t mul(int64_t a, int64_t b, const Format& f) {
  const int64_t p = a * b;  // |p| <= 2^62 for W <= 32
  const int fb = f.frac_bits;
  if (fb == 0) return saturate(p, f);
  const int64_t q = p >> fb;  // arithmetic shift = floor (GCC/Clang; guaranteed from C++20)
  const uint64_t rem = static_cast<uint64_t>(p) & ((uint64_t{1} << fb) - 1);
  const uint64_t half = uint64_t{1} << (fb - 1);
  const bool up = rem > half || (rem == half && (q & 1) != 0);
  return saturate(q + (up ? 1 : 0), f);
}

}  // namespace neaccel::num::fixed
