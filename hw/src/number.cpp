#include "neaccel/hw/number.hpp"

#include "neaccel/num/fixed.hpp"
#include "neaccel/num/fp32.hpp"
#include "neaccel/ref/error.hpp"

#include <regex>

namespace neaccel::hw {
namespace {

// The arithmetic is num/'s (contract 4: num::fixed, contract 5: num::fp32); this file only maps raw words to it.
namespace fx = num::fixed;
namespace fp = num::fp32;

float as_float(std::uint32_t raw) { return fp::from_bits(raw); }

// A binary32 result as the RTL emits it: NaNs become the canonical quiet NaN (contract 5).
std::uint32_t fp_result(float f) { return fp::canonical(fp::to_bits(f)); }

fx::Format fx_format(const NumberFormat& f) { return {f.int_bits, f.frac_bits}; }

// A fixed-point word (low W bits) as its signed value, and back.
std::int64_t to_signed(const NumberFormat& f, std::uint32_t raw) { return fx::from_bits(raw, fx_format(f)); }
std::uint32_t to_word(const NumberFormat& f, std::int64_t v) { return fx::to_bits(v, fx_format(f)); }

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
  return to_word(f, fx::from_double(x, fx_format(f)));
}

std::vector<std::uint32_t> encode(const NumberFormat& f, const std::vector<double>& xs) {
  std::vector<std::uint32_t> out;
  out.reserve(xs.size());
  for (double x : xs) out.push_back(encode(f, x));
  return out;
}

double decode(const NumberFormat& f, std::uint32_t raw) {
  if (!f.fixed) return as_float(raw);
  return fx::to_double(to_signed(f, raw), fx_format(f));
}

std::uint32_t mul(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp_result(as_float(a) * as_float(b));
  return to_word(f, fx::mul(to_signed(f, a), to_signed(f, b), fx_format(f)));
}

std::uint32_t add(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp_result(as_float(a) + as_float(b));
  return to_word(f, fx::add(to_signed(f, a), to_signed(f, b), fx_format(f)));
}

std::uint32_t sub(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp_result(as_float(a) - as_float(b));
  return to_word(f, fx::sub(to_signed(f, a), to_signed(f, b), fx_format(f)));
}

std::uint32_t neg(const NumberFormat& f, std::uint32_t b) {
  if (!f.fixed) return fp::neg(b).bits;  // sign flip, also of a NaN (not canonicalised)
  return to_word(f, fx::neg(to_signed(f, b), fx_format(f)));
}

std::uint32_t div(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp::canonical(fp::div(a, b).bits);
  return to_word(f, fx::div(to_signed(f, a), to_signed(f, b), fx_format(f)));
}

std::uint32_t fma(const NumberFormat& f, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  if (!f.fixed) return fp::canonical(fp::fma(a, b, c).bits);
  return to_word(f, fx::fma(to_signed(f, a), to_signed(f, b), to_signed(f, c), fx_format(f)));
}

bool same(const NumberFormat& f, std::uint32_t a, std::uint32_t b) {
  if (!f.fixed) return fp::same_result(a, b);
  return to_word(f, a ^ b) == 0;
}

}  // namespace neaccel::hw
