// binary32 arithmetic (contract 5): C++ float with -ffp-contract=off for the result, the x86 exception flags
// (MXCSR through <cfenv>) for the flags (mul, add, sub, div); fma is bit-level integer arithmetic (below), since
// C++ has no fused float expression and std::fmaf's flags depend on the library. Header-only, no SystemC. The one home of the binary32 bit helpers
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

inline Result div(uint32_t a, uint32_t b) {
  volatile float x = from_bits(a), y = from_bits(b);
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float r = x / y;
  const uint32_t flags = detail::take_flags();
  return {to_bits(r), flags};
}

namespace detail {

// sig >> n with every shifted-out bit ORed into `sticky` (n >= 0, any size).
inline unsigned __int128 shift_right_jam(unsigned __int128 sig, int n, bool& sticky) {
  if (n <= 0) return sig;
  if (n >= 128) {
    sticky = sticky || sig != 0;
    return 0;
  }
  const unsigned __int128 lost = sig & ((static_cast<unsigned __int128>(1) << n) - 1);
  sticky = sticky || lost != 0;
  return sig >> n;
}

inline int msb(unsigned __int128 x) {  // x != 0
  int m = 0;
  while (m < 127 && (x >> (m + 1)) != 0) ++m;
  return m;
}

// Rounds (-1)^sign * (sig + t) * 2^exp to binary32, round to nearest even, where 0 <= t < 1 is a tail of which
// only `tail` (t != 0) is known; sig != 0. Flags as contract 5: tininess after rounding (the value rounded to
// 24 bits with an unbounded exponent is below 2^-126) and inexact give underflow; overflow gives inf with inexact.
inline Result round_pack(bool sign, int exp, unsigned __int128 sig, bool tail) {
  const int e_top = msb(sig) + exp;             // value in [2^e_top, 2^(e_top+1))
  const int lsb = e_top - 23 > -149 ? e_top - 23 : -149;  // weight of the result's last bit
  // Round at a weight 2^w: q, guard, sticky.
  auto round_at = [&](int w, bool& inexact) {
    bool sticky = tail;
    unsigned __int128 q = sig;
    bool guard = false;
    const int n = w - exp;  // bits of sig below weight 2^w
    if (n > 0) {
      q = shift_right_jam(sig, n - 1, sticky);
      guard = (q & 1) != 0;
      q >>= 1;
    } else {
      q = sig << -n;  // exact: n >= -(24 + 104) never overflows here (sig < 2^(e_top - exp + 1))
    }
    inexact = guard || sticky;
    if (guard && (sticky || (q & 1) != 0)) ++q;
    return q;
  };
  bool inexact = false;
  const unsigned __int128 q = round_at(lsb, inexact);
  bool tiny = false;
  if (e_top < -127) {
    tiny = true;
  } else if (e_top == -127) {
    bool unused = false;
    tiny = round_at(e_top - 23, unused) < (static_cast<unsigned __int128>(1) << 24);  // no carry to 2^-126
  }
  const uint32_t s = sign ? 0x80000000u : 0u;
  uint64_t bits;
  if (lsb == -149) {
    bits = static_cast<uint64_t>(q);  // subnormal (q = 2^23 is the smallest normal)
  } else {
    bits = (static_cast<uint64_t>(lsb + 23 + 127) << 23) + static_cast<uint64_t>(q) - (uint64_t{1} << 23);
  }
  if (bits >= 0x7F800000u) return {s | 0x7F800000u, kOverflow | kInexact};
  uint32_t flags = inexact ? kInexact : 0u;
  if (tiny && inexact) flags |= kUnderflow;
  return {s | static_cast<uint32_t>(bits), flags};
}

struct Unpacked {
  bool sign = false, nan = false, snan = false, inf = false, zero = false;
  uint32_t sig = 0;  // with the hidden bit; value = sig * 2^exp
  int exp = 0;
};
inline Unpacked unpack(uint32_t u) {
  Unpacked x;
  const uint32_t e = (u >> 23) & 0xFFu, m = u & 0x7FFFFFu;
  x.sign = (u >> 31) != 0;
  x.nan = e == 0xFFu && m != 0;
  x.snan = x.nan && (m & 0x400000u) == 0;
  x.inf = e == 0xFFu && m == 0;
  x.zero = e == 0 && m == 0;
  x.sig = e == 0 ? m : (m | 0x800000u);
  x.exp = (e == 0 ? 1 : static_cast<int>(e)) - 150;
  return x;
}

}  // namespace detail

// Fused multiply-add a * b + c with one rounding (round to nearest even), bit-level: the exact product (48 bits)
// and c are summed exactly in a 128-bit frame (a term more than 2^-76 below the other becomes a sticky tail), then
// rounded once by detail::round_pack. Specials as SoftFloat's f32_mulAdd (TestFloat): any NaN operand gives NaN
// (kQuietNan), invalid if any operand is signalling; inf x 0 is invalid whatever c is (also a quiet NaN c);
// inf x finite + inf of the opposite sign is invalid; an exact zero sum is +0 unless both addends are -0
// (a*b a signed zero and c = -0 with the same sign).
inline Result fma(uint32_t a, uint32_t b, uint32_t c) {
  const detail::Unpacked x = detail::unpack(a), y = detail::unpack(b), z = detail::unpack(c);
  const bool sp = x.sign != y.sign;
  const bool inf_zero = (x.inf && y.zero) || (x.zero && y.inf);
  if (x.nan || y.nan || z.nan || inf_zero) {
    const bool inv = x.snan || y.snan || z.snan || inf_zero;
    return {kQuietNan, inv ? kInvalid : 0u};
  }
  if (x.inf || y.inf) {
    if (z.inf && z.sign != sp) return {kQuietNan, kInvalid};
    return {(sp ? 0x80000000u : 0u) | 0x7F800000u, 0};
  }
  if (z.inf) return {c, 0};
  const bool pzero = x.zero || y.zero;
  if (pzero && z.zero) return {(sp && z.sign) ? 0x80000000u : 0u, 0};
  if (pzero) return {c, 0};
  using U = unsigned __int128;
  const U p = static_cast<U>(static_cast<uint64_t>(x.sig) * y.sig);
  const int pe = x.exp + y.exp;
  if (z.zero) return detail::round_pack(sp, pe, p, false);
  // Frame: lsb weight L = (top of the larger term) - 124, so the larger term fits in 124 bits.
  const int ptop = detail::msb(p) + pe, ctop = detail::msb(z.sig) + z.exp;
  const int top = ptop > ctop ? ptop : ctop;
  const int frame = top - 124;
  bool pt = false, ct = false;  // tails of the terms shifted below the frame (at most one of them)
  const U pf = pe >= frame ? p << (pe - frame) : detail::shift_right_jam(p, frame - pe, pt);
  const U cf = z.exp >= frame ? static_cast<U>(z.sig) << (z.exp - frame)
                              : detail::shift_right_jam(z.sig, frame - z.exp, ct);
  if (sp == z.sign) return detail::round_pack(sp, frame, pf + cf, pt || ct);
  // Subtraction: big - (small + t), 0 < t < 1 when a tail exists: (big - small - 1) + (1 - t).
  const bool p_big = pf > cf || (pf == cf && ct);
  const U big = p_big ? pf : cf, small = p_big ? cf : pf;
  const bool tail = pt || ct;
  const U diff = big - small - (tail ? 1 : 0);
  if (diff == 0 && !tail) return {0u, 0u};  // exact cancellation: +0 (round to nearest)
  return detail::round_pack(p_big ? sp : z.sign, frame, diff, tail);
}

}  // namespace neaccel::num::fp32
