// Option validation of the `neaccel` CLI, in one place. Every command's option values are checked here before any
// work is done, and every refusal is one line naming the option (docs/user-guide.md, "Exit codes"):
//   - main.cpp gives every option of every command the common checks (add_common_checks): no empty value, integers
//     in plain decimal (no "0x10", no octal "010", no "1e9", no negative value for an unsigned option), and real
//     numbers finite. CLI11 would otherwise turn "" into 0 and "010" into 8 without a word.
//   - commands add ranges with int_in()/real_in() (CLI11 validators, so they run while the line is parsed), and
//     check what depends on several options or on the input in their callback, throwing UsageError.
// A UsageError (or a CLI11 parse error) exits with status 2, any other neaccel::Error with 1.
#pragma once

#include "neaccel/ref/error.hpp"
#include "neaccel/cost/target.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace neaccel::cli {

// An option value that does not parse, is out of its documented range, or conflicts with another option: exit 2.
struct UsageError : Error {
  using Error::Error;
};

// Documented ranges (docs/user-guide.md, "Option ranges"): large enough for any design of the study, small enough
// that no allocation or loop sized by them runs away.
inline constexpr long long kMaxUnits = 4096;       // units of one class (--mul, --add, --fma, --div)
inline constexpr long long kMaxLatency = 1024;     // cycles of a unit's latency (--lat-mul, --lat-add, ...)
inline constexpr long long kMaxIi = 1 << 30;       // --ii (also checked against the graph's sequential bound)
inline constexpr long long kMaxRestarts = 100000;  // --restarts
inline constexpr long long kMaxRegisters = 1 << 20;  // --max-registers, --read-ports, --write-ports
inline constexpr long long kMaxFormulationN = 64;  // formulations counts --n, --n-max (the tables grow as n^4)

// What is wrong with `text` as a decimal integer in [lo, hi], or "" when nothing is.
inline std::string int_problem(const std::string& text, long long lo, long long hi) {
  if (text.empty()) return "empty value (expected an integer)";
  std::size_t i = text[0] == '+' || text[0] == '-' ? 1 : 0;
  bool digits = i < text.size();
  for (std::size_t k = i; k < text.size(); ++k) digits = digits && text[k] >= '0' && text[k] <= '9';
  if (!digits) return fmt::format("'{}' is not an integer", text);
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi) return fmt::format("{} is out of range ({}..{})", text, lo, hi);
  return "";
}

// What is wrong with `text` as a finite real number in [lo, hi], or "".
inline std::string real_problem(const std::string& text, double lo, double hi) {
  if (text.empty()) return "empty value (expected a number)";
  const char* b = text.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(b, &end);
  if (end == b || *end != '\0' || std::isspace(static_cast<unsigned char>(text[0])))
    return fmt::format("'{}' is not a number", text);
  if (!std::isfinite(v) || errno == ERANGE) return fmt::format("'{}' is not a finite number", text);
  if (v < lo || v > hi) return fmt::format("{} is out of range ({}..{})", text, lo, hi);
  return "";
}

// Checks `text` as int_problem does and, when it is fine, rewrites it in canonical decimal ("010" -> "10", "+3" ->
// "3"): CLI11 converts integers with base 0 after the validators, which would read "010" as octal 8. Only a
// transform (add_common_checks) may rewrite the text; CLI11 runs check() validators on a copy.
inline std::string canonical_int(std::string& text, long long lo, long long hi) {
  std::string p = int_problem(text, lo, hi);
  if (p.empty()) text = std::to_string(std::strtoll(text.c_str(), nullptr, 10));
  return p;
}

// The integer value of `text`, or a UsageError naming `option`.
inline long long parse_int(const std::string& text, const std::string& option, long long lo, long long hi) {
  if (const std::string p = int_problem(text, lo, hi); !p.empty()) throw UsageError(option + ": " + p);
  return std::strtoll(text.c_str(), nullptr, 10);
}

// CLI11 validators: the message becomes "--opt: <problem>" (exit 2).
inline CLI::Validator int_in(long long lo, long long hi) {
  return CLI::Validator([lo, hi](std::string& s) { return canonical_int(s, lo, hi); }, fmt::format("{}..{}", lo, hi));
}
inline CLI::Validator real_in(double lo, double hi) {
  return CLI::Validator([lo, hi](std::string& s) { return real_problem(s, lo, hi); }, fmt::format("{}..{}", lo, hi));
}
// One of a fixed set of words: "--algo: unknown 'magic' (list, ilp, modulo)".
inline CLI::Validator one_of(std::vector<std::string> words) {
  const std::string list = fmt::format("{}", fmt::join(words, ", "));
  return CLI::Validator(
      [words, list](std::string& s) {
        for (const auto& w : words)
          if (s == w) return std::string();
        return fmt::format("unknown '{}' ({})", s, list);
      },
      "");
}

// "v1,v2,...,vn" of finite numbers (dynamics --q, --qd, ...): "'x' is not a number", "entry 2 is not finite". The
// count is checked where the robot is known (dyn_args.hpp parse_vector).
inline std::string real_list_problem(const std::string& text) {
  if (text.empty()) return "empty value";
  std::size_t start = 0;
  for (int entry = 1;; ++entry) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const char* b = item.c_str();
    char* end = nullptr;
    const double v = std::strtod(b, &end);
    if (item.empty() || end == b || *end != '\0') return fmt::format("'{}' is not a number", item);
    if (!std::isfinite(v)) return fmt::format("entry {} is not finite", entry);
    if (comma == std::string::npos) return "";
    start = comma + 1;
  }
}
inline CLI::Validator real_list() {
  return CLI::Validator([](std::string& s) { return real_list_problem(s); }, "");
}

// Runs f(); a neaccel::Error it throws (a library parser refusing an option's text) becomes a UsageError.
template <class F>
auto as_usage(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const UsageError&) {
    throw;
  } catch (const Error& e) {
    throw UsageError(e.what());
  }
}

// The checks every option of every command gets (main.cpp), by the option's value type.
inline void add_common_checks(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_type_size_max() == 0) continue;  // a flag
    const std::string type = opt->get_type_name();
    std::function<std::string(std::string&)> check;
    if (type.rfind("INT", 0) == 0) {
      check = [](std::string& s) {
        return canonical_int(s, std::numeric_limits<long long>::min(), std::numeric_limits<long long>::max());
      };
    } else if (type.rfind("UINT", 0) == 0) {
      check = [](std::string& s) {
        if (!s.empty() && s[0] == '-') return fmt::format("'{}' is negative (expected an integer >= 0)", s);
        return canonical_int(s, 0, std::numeric_limits<long long>::max());
      };
    } else if (type.rfind("FLOAT", 0) == 0) {
      check = [](std::string& s) {
        return real_problem(s, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max());
      };
    } else {
      check = [](std::string& s) { return s.empty() ? std::string("empty value") : std::string(); };
    }
    opt->transform(CLI::Validator(check, ""));  // a transform: first in line, and it may rewrite the text
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) add_common_checks(*sub);
}

// --budget-lut and --budget-dsp: the most LUT4 and DSP blocks (by a target's device model) a design may take; `what`
// names the design they bound ("a point's latency datapath"). Not given, they are the whole device (0 inside); a
// given 0 is refused rather than read as "the whole device": `--budget-dsp 0` reads as "no DSP block" and would
// silently mean the opposite; the docs (docs/cost.md, docs/study.md) give N >= 1.
inline void add_device_budget(CLI::App& cmd, long& lut, long& dsp, const std::string& what) {
  cmd.add_option("--budget-lut", lut, "with a --target that has a device model: the most LUT4 " + what +
                                          " may take by the model (at least 1; not given: the whole device)")
      ->check(int_in(1, 100000000));
  cmd.add_option("--budget-dsp", dsp, "likewise, DSP blocks (at least 1; not given: the whole device)")
      ->check(int_in(1, 100000));
}

// The budgets count a device's own resources, so they need a target with a device model (not the iCE40).
inline void check_device_budget(const std::string& target, long lut, long dsp) {
  if ((lut > 0 || dsp > 0) && !neaccel::cost::target(target).has_device_model())
    throw UsageError(fmt::format("--budget-lut and --budget-dsp count a device's LUT4 and DSP blocks: give --target "
                                 "with a device model (ecp5-85f), not {}", target));
}

}  // namespace neaccel::cli
