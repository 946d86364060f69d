// Comma-separated integer lists and ranges of the CLI (`explore --mul 1-4,8`, `--n`, `--pipelined`), shared by
// cmd_explore.cpp and the fuzz target fuzz/targets/fuzz_cli_values.cpp. Limits (docs/limits.md): each value in
// [lo, kMaxListValue], a list expands to at most kMaxListValues values; beyond them a one-line neaccel::Error.
#pragma once

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <sstream>
#include <string>
#include <vector>

namespace neaccel::cli {

inline constexpr int kMaxListValue = 1000000;
inline constexpr long kMaxListValues = 10000;

// Non-empty items of s between separators.
inline std::vector<std::string> split(const std::string& s, char sep = ',') {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, sep);)
    if (!x.empty()) out.push_back(x);
  return out;
}

// Refuses a list with an empty item ("1,,2", ",1", "1,"): a typo, never meant as "skip".
inline void check_items(const std::string& s, const std::string& opt) {
  if (s.empty() || s.front() == ',' || s.back() == ',' || s.find(",,") != std::string::npos)
    throw Error(fmt::format("{}: '{}' has an empty item", opt, s));
}

// "1-4,8" -> 1 2 3 4 8 (each value >= lo).
inline std::vector<int> parse_ints(const std::string& s, const std::string& opt, int lo) {
  check_items(s, opt);
  std::vector<int> v;
  for (const auto& part : split(s)) {
    long a = 0, b = 0;
    char dash = 0;
    std::istringstream in(part);
    if (!(in >> a)) throw Error(fmt::format("{}: '{}' is not a number or range", opt, part));
    b = a;
    if (in >> dash) {
      if (dash != '-' || !(in >> b)) throw Error(fmt::format("{}: '{}' is not a number or range", opt, part));
    }
    if (char extra = 0; in >> extra) throw Error(fmt::format("{}: '{}' is not a number or range", opt, part));
    if (a < lo || b < a) throw Error(fmt::format("{}: '{}' (values must be >= {}, ranges ascending)", opt, part, lo));
    if (b > kMaxListValue) throw Error(fmt::format("{}: '{}' (values must be <= {})", opt, part, kMaxListValue));
    if (static_cast<long>(v.size()) + (b - a + 1) > kMaxListValues)
      throw Error(fmt::format("{}: more than {} values", opt, kMaxListValues));
    for (long x = a; x <= b; ++x) v.push_back(static_cast<int>(x));
  }
  if (v.empty()) throw Error(fmt::format("{}: empty", opt));
  return v;
}

}  // namespace neaccel::cli
