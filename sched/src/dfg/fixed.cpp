#include "neaccel/dfg/fixed.hpp"

#include "neaccel/ref/error.hpp"

#include <cmath>
#include <cstdio>

namespace neaccel::dfg {

void check_format(const FixedFormat& f) {
  if (f.I < 1 || f.F < 0 || f.I + f.F > 32)
    throw Error("fixed-point format " + to_string(f) + ": need I >= 1 (sign bit included), F >= 0, I + F <= 32");
}

FixedFormat parse_fixed_format(const std::string& s) {
  std::string t = s;
  if (t.rfind("fixed:", 0) == 0) t = t.substr(6);
  else if (!t.empty() && (t[0] == 'Q' || t[0] == 'q')) t = t.substr(1);
  FixedFormat f;
  int consumed = 0;
  if (std::sscanf(t.c_str(), "%d.%d%n", &f.I, &f.F, &consumed) != 2 || consumed != static_cast<int>(t.size()))
    throw Error("fixed-point format '" + s + "': expected fixed:I.F (e.g. fixed:8.24)");
  check_format(f);
  return f;
}

std::string to_string(const FixedFormat& f) { return "fixed:" + std::to_string(f.I) + "." + std::to_string(f.F); }

std::int64_t fx_saturate(std::int64_t x, const FixedFormat& f) {
  if (x > f.max_raw()) return f.max_raw();
  if (x < f.min_raw()) return f.min_raw();
  return x;
}

std::int64_t fx_from_double(double x, const FixedFormat& f) {
  if (std::isnan(x)) throw Error("fixed-point conversion: NaN has no fixed-point value");
  const double y = std::ldexp(x, f.F);  // exact (a power-of-two scaling)
  if (y >= static_cast<double>(f.max_raw())) return f.max_raw();
  if (y <= static_cast<double>(f.min_raw())) return f.min_raw();
  // |y| < 2^31 here: floor and the half comparison are exact in double.
  const double fl = std::floor(y);
  const double diff = y - fl;
  auto q = static_cast<std::int64_t>(fl);
  if (diff > 0.5 || (diff == 0.5 && (q & 1) != 0)) ++q;
  return fx_saturate(q, f);
}

double fx_to_double(std::int64_t raw, const FixedFormat& f) { return std::ldexp(static_cast<double>(raw), -f.F); }

std::int64_t fx_add(std::int64_t a, std::int64_t b, const FixedFormat& f) { return fx_saturate(a + b, f); }
std::int64_t fx_sub(std::int64_t a, std::int64_t b, const FixedFormat& f) { return fx_saturate(a - b, f); }
std::int64_t fx_neg(std::int64_t b, const FixedFormat& f) { return fx_saturate(-b, f); }

std::int64_t fx_mul(std::int64_t a, std::int64_t b, const FixedFormat& f) {
  const std::int64_t p = a * b;  // |a|, |b| <= 2^31: |p| <= 2^62, exact
  if (f.F == 0) return fx_saturate(p, f);
  std::int64_t q = p >> f.F;  // arithmetic shift = floor (C++20 guarantees it; GCC/Clang do it in C++17)
  const std::int64_t rem = p - q * (std::int64_t{1} << f.F);
  const std::int64_t half = std::int64_t{1} << (f.F - 1);
  if (rem > half || (rem == half && (q & 1) != 0)) ++q;
  return fx_saturate(q, f);
}

}  // namespace neaccel::dfg
