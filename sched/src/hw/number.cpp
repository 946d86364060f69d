#include "neaccel/hw/number.hpp"

#include "neaccel/ref/error.hpp"

#include <cmath>
#include <cstring>
#include <regex>

namespace neaccel::hw {
namespace {

float as_float(std::uint32_t raw) {
  float f;
  std::memcpy(&f, &raw, sizeof f);
  return f;
}

std::uint32_t as_raw(float f) {
  std::uint32_t raw;
  std::memcpy(&raw, &f, sizeof raw);
  return raw;
}

// A binary32 result as the RTL emits it: NaNs become the canonical quiet NaN (contract 5).
std::uint32_t fp_result(float f) { return std::isnan(f) ? kQuietNaN : as_raw(f); }

std::uint32_t mask(const NumberFormat& f) {
  return f.width() == 32 ? 0xFFFFFFFFu : ((1u << f.width()) - 1u);
}

std::int64_t to_signed(const NumberFormat& f, std::uint32_t raw) {
  const int w = f.width();
  std::int64_t v = raw & mask(f);
  if (v >> (w - 1)) v -= (std::int64_t{1} << w);
  return v;
}

// Saturate an exact result to [-2^(W-1), 2^(W-1)-1] and return its raw word (contract 4).
std::uint32_t saturate(const NumberFormat& f, std::int64_t v) {
  const std::int64_t hi = (std::int64_t{1} << (f.width() - 1)) - 1;
  const std::int64_t lo = -(std::int64_t{1} << (f.width() - 1));
  if (v > hi) v = hi;
  if (v < lo) v = lo;
  return static_cast<std::uint32_t>(v) & mask(f);
}

}  // namespace

std::string NumberFormat::name() const {
  return fixed ? "fixed:" + std::to_string(int_bits) + "." + std::to_string(frac_bits) : "fp32";
}

NumberFormat NumberFormat::parse(const std::string& text, const std::string& field) {
  if (text == "fp32" || text == "binary32") return NumberFormat{};
  static const std::regex re("fixed:([0-9]{1,2})\\.([0-9]{1,2})");
  std::smatch m;
  if (std::regex_match(text, m, re)) {
    NumberFormat f{true, std::stoi(m[1]), std::stoi(m[2])};
    if (f.int_bits >= 1 && f.frac_bits >= 0 && f.width() >= 2 && f.width() <= 32) return f;
  }
  throw Error(field + ": '" + text + "' is not a number format (fp32 or fixed:I.F with 2 <= I+F <= 32, I >= 1)");
}

bool operator==(const NumberFormat& a, const NumberFormat& b) {
  return a.fixed == b.fixed && (!a.fixed || (a.int_bits == b.int_bits && a.frac_bits == b.frac_bits));
}

std::uint32_t encode(const NumberFormat& f, double x) {
  if (!f.fixed) return fp_result(static_cast<float>(x));
  if (std::isnan(x)) throw Error("fixed-point encode: NaN has no fixed-point value");
  const double scaled = std::ldexp(x, f.frac_bits);  // exact
  const double limit = std::ldexp(1.0, 40);          // far outside any W <= 32 range: saturates below
  const double clamped = scaled > limit ? limit : (scaled < -limit ? -limit : scaled);
  return saturate(f, static_cast<std::int64_t>(std::nearbyint(clamped)));  // default rounding mode: ties to even
}

double decode(const NumberFormat& f, std::uint32_t raw) {
  if (!f.fixed) return as_float(raw);
  return std::ldexp(static_cast<double>(to_signed(f, raw)), -f.frac_bits);
}

std::uint32_t mul(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp_result(as_float(a) * as_float(b));
  // Exact 2W-bit product, floor shift, round to nearest even on the remainder, saturate (contract 4).
  const std::int64_t p = to_signed(f, a) * to_signed(f, b);
  const int F = f.frac_bits;
  if (F == 0) return saturate(f, p);
  std::int64_t q = p >> F;  // arithmetic shift = floor
  const std::uint64_t rem = static_cast<std::uint64_t>(p) & ((std::uint64_t{1} << F) - 1);
  const std::uint64_t half = std::uint64_t{1} << (F - 1);
  if (rem > half || (rem == half && (q & 1))) q += 1;
  return saturate(f, q);
}

std::uint32_t add(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp_result(as_float(a) + as_float(b));
  return saturate(f, to_signed(f, a) + to_signed(f, b));
}

std::uint32_t sub(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp_result(as_float(a) - as_float(b));
  return saturate(f, to_signed(f, a) - to_signed(f, b));
}

std::uint32_t neg(const NumberFormat& f, std::uint32_t b) {
  if (!f.fixed) return b ^ 0x80000000u;  // sign flip, bit-identical to C++ unary minus
  return saturate(f, -to_signed(f, b));
}

bool same(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed && std::isnan(as_float(a)) && std::isnan(as_float(b))) return true;
  return ((a ^ b) & mask(f)) == 0;
}

}  // namespace neaccel::hw
