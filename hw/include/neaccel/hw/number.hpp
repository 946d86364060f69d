// Number formats of a datapath and their bit-exact arithmetic on raw words (BRIEF contracts 4 and 5).
// These are the behavioural unit semantics the SystemC datapath model executes; the RTL units implement the same.
// The arithmetic itself is num/'s (num::fixed, num::fp32); this is the raw-word view the datapath uses.
#pragma once

#include "neaccel/num/fp32.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace neaccel::hw {

// IEEE-754 binary32 (round to nearest even, subnormals kept) or two's-complement fixed point fixed:I.F
// (I integer bits including the sign, F fraction bits, W = I + F <= 32, value = raw / 2^F).
struct NumberFormat {
  bool fixed = false;
  int int_bits = 0;
  int frac_bits = 0;

  int width() const { return fixed ? int_bits + frac_bits : 32; }
  std::string name() const;  // "fp32" or "fixed:I.F"
  // Parses "fp32" or "fixed:I.F"; throws neaccel::Error naming `field` on anything else.
  static NumberFormat parse(const std::string& text, const std::string& field = "--format");
};

bool operator==(const NumberFormat& a, const NumberFormat& b);

// The canonical NaN the RTL emits for invalid binary32 operations (contract 5).
inline constexpr std::uint32_t kQuietNaN = num::fp32::kQuietNan;

// Raw words hold the value in the low width() bits (fixed point: two's complement, not sign-extended).
std::uint32_t encode(const NumberFormat& f, double x);   // fp32: (float)x; fixed: RNE of x*2^F, saturated
std::vector<std::uint32_t> encode(const NumberFormat& f, const std::vector<double>& xs);  // element by element
double decode(const NumberFormat& f, std::uint32_t raw);

std::uint32_t mul(const NumberFormat& f, std::uint32_t a, std::uint32_t b);
std::uint32_t add(const NumberFormat& f, std::uint32_t a, std::uint32_t b);
std::uint32_t sub(const NumberFormat& f, std::uint32_t a, std::uint32_t b);
std::uint32_t neg(const NumberFormat& f, std::uint32_t b);  // fp32: sign flip (exact); fixed: saturating
std::uint32_t div(const NumberFormat& f, std::uint32_t a, std::uint32_t b);  // fp32: IEEE RNE; fixed: num::fixed::div
std::uint32_t fma(const NumberFormat& f, std::uint32_t a, std::uint32_t b, std::uint32_t c);  // a * b + c, one rounding

// Equality of raw words as the checks use it: bitwise, except that any two binary32 NaNs are equal.
bool same(const NumberFormat& f, std::uint32_t a, std::uint32_t b);

}  // namespace neaccel::hw
