// Fixed-point arithmetic of contract 4 (BRIEF.md) for the golden model of fixed-point datapaths
// (evaluate<Fixed>). The arithmetic is neaccel::num::fixed (num/fixed.hpp, the one implementation shared with the
// datapath arithmetic hw/number.hpp and the unit reference models in sysc/units); this header gives it the dfg
// names (FixedFormat with I/F, fx_*) and adds parsing of format names.
//
// Format fixed:I.F: I integer bits INCLUDING the sign bit, F fraction bits, W = I + F <= 32, two's complement,
// value = raw / 2^F. Raw values are held in int64_t (always within [-2^(W-1), 2^(W-1) - 1]).
//   from double: round to nearest, ties to even, of x * 2^F, then saturate (NaN is an error).
//   add/sub/neg: exact result, then saturate.
//   mul: exact 2W-bit product p; q = p >> F (floor), rem = p mod 2^F; q += 1 if rem > 2^(F-1) or
//        (rem == 2^(F-1) and q odd) (round to nearest, ties to even); then saturate.
//   fma: exact a*b + c (one rounding, as mul), then saturate.
//   div: exact quotient rounded to nearest, ties to even, then saturate; x / 0 saturates toward the sign of x,
//        0 / 0 = 0.
//   sqrt: exact square root rounded to nearest; a negative operand gives 0.
#pragma once

#include "neaccel/num/fixed.hpp"

#include <cstdint>
#include <string>

namespace neaccel::dfg {

struct FixedFormat {
  int I = 16;  // integer bits including the sign bit, >= 1
  int F = 16;  // fraction bits, >= 0
  int width() const { return I + F; }
  num::fixed::Format to_num() const { return {I, F}; }
  std::int64_t max_raw() const { return num::fixed::raw_max(to_num()); }
  std::int64_t min_raw() const { return num::fixed::raw_min(to_num()); }
};

// Parses "fixed:I.F" or "I.F" (also "Q8.24"); throws neaccel::Error if malformed or W > 32.
FixedFormat parse_fixed_format(const std::string& s);
std::string to_string(const FixedFormat& f);  // "fixed:I.F"
// Throws neaccel::Error unless I >= 1, F >= 0 and I + F <= 32.
inline void check_format(const FixedFormat& f) { num::fixed::check(f.to_num()); }

inline std::int64_t fx_saturate(std::int64_t x, const FixedFormat& f) { return num::fixed::saturate(x, f.to_num()); }
inline std::int64_t fx_from_double(double x, const FixedFormat& f) { return num::fixed::from_double(x, f.to_num()); }
inline double fx_to_double(std::int64_t raw, const FixedFormat& f) { return num::fixed::to_double(raw, f.to_num()); }
inline std::int64_t fx_add(std::int64_t a, std::int64_t b, const FixedFormat& f) {
  return num::fixed::add(a, b, f.to_num());
}
inline std::int64_t fx_sub(std::int64_t a, std::int64_t b, const FixedFormat& f) {
  return num::fixed::sub(a, b, f.to_num());
}
inline std::int64_t fx_neg(std::int64_t b, const FixedFormat& f) { return num::fixed::neg(b, f.to_num()); }
inline std::int64_t fx_mul(std::int64_t a, std::int64_t b, const FixedFormat& f) {
  return num::fixed::mul(a, b, f.to_num());
}
inline std::int64_t fx_fma(std::int64_t a, std::int64_t b, std::int64_t c, const FixedFormat& f) {
  return num::fixed::fma(a, b, c, f.to_num());
}
inline std::int64_t fx_div(std::int64_t a, std::int64_t b, const FixedFormat& f) {
  return num::fixed::div(a, b, f.to_num());
}
inline std::int64_t fx_sqrt(std::int64_t a, const FixedFormat& f) { return num::fixed::sqrt(a, f.to_num()); }

// A fixed-point value for evaluate<Fixed> (the format travels in Arithmetic<Fixed>).
struct Fixed {
  std::int64_t raw = 0;
};

}  // namespace neaccel::dfg
