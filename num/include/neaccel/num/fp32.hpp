// binary32 arithmetic (contract 5): C++ float with -ffp-contract=off for the result, the x86 exception flags
// (MXCSR through <cfenv>) for the flags. Header-only, no SystemC. The one home of the binary32 bit helpers
// (bits <-> float, NaN test, NaN-as-a-class equality, the RTL's quiet NaN) for sched/hw and sysc/units.
//
// Flags use TestFloat's bit order: bit0 inexact, 1 underflow, 2 overflow, 3 divide-by-zero, 4 invalid.
// x86 detects tininess after rounding and raises underflow only for a tiny inexact result (masked
// exceptions), which is TestFloat's default and what rtl/units/fp32_*.v implement.
// NaN results: x86 returns the default NaN 0xFFC00000 or a quietened input NaN; the RTL returns 0x7FC00000.
// Compare results with same_result() (all NaNs equal).
#pragma once

#include <cfenv>
#include <cstdint>
#include <cstring>

namespace neaccel::num::fp32 {

enum Flag : uint32_t { kInexact = 1, kUnderflow = 2, kOverflow = 4, kDivByZero = 8, kInvalid = 16 };

struct Result {
  uint32_t bits = 0;
  uint32_t flags = 0;
};

inline float from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
inline uint32_t to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline bool is_nan(uint32_t u) { return (u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0; }
// Equal bits, or both NaN (contract 5: NaNs compare as a class).
inline bool same_result(uint32_t x, uint32_t y) { return x == y || (is_nan(x) && is_nan(y)); }
// The NaN the RTL emits.
inline constexpr uint32_t kQuietNan = 0x7FC00000u;
// A result as the RTL emits it: any NaN becomes kQuietNan (contract 5), everything else is unchanged.
inline uint32_t canonical(uint32_t u) { return is_nan(u) ? kQuietNan : u; }

namespace detail {
inline uint32_t take_flags() {
  const int e = std::fetestexcept(FE_INEXACT | FE_UNDERFLOW | FE_OVERFLOW | FE_DIVBYZERO | FE_INVALID);
  uint32_t f = 0;
  if (e & FE_INEXACT) f |= kInexact;
  if (e & FE_UNDERFLOW) f |= kUnderflow;
  if (e & FE_OVERFLOW) f |= kOverflow;
  if (e & FE_DIVBYZERO) f |= kDivByZero;
  if (e & FE_INVALID) f |= kInvalid;
  return f;
}
}  // namespace detail

// The volatile operands and result keep the compiler from folding or moving the operation across the
// flag calls (GCC has no FENV_ACCESS pragma).
inline Result mul(uint32_t a, uint32_t b) {
  volatile float x = from_bits(a), y = from_bits(b);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float r = x * y;
  const uint32_t flags = detail::take_flags();
  return {to_bits(r), flags};
}

inline Result add(uint32_t a, uint32_t b) {
  volatile float x = from_bits(a), y = from_bits(b);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float r = x + y;
  const uint32_t flags = detail::take_flags();
  return {to_bits(r), flags};
}

inline Result sub(uint32_t a, uint32_t b) {
  volatile float x = from_bits(a), y = from_bits(b);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float r = x - y;
  const uint32_t flags = detail::take_flags();
  return {to_bits(r), flags};
}

// C++ unary minus: a sign flip, exact, no flags, also for NaN.
inline Result neg(uint32_t b) {
  volatile float y = from_bits(b);
  volatile float r = -y;
  return {to_bits(r), 0};
}

}  // namespace neaccel::num::fp32
