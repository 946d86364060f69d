// The one parser of fixed-point format names: "fixed:I.F" (also "I.F" and "QI.F" where the caller allows them).
// I and F are plain decimal, at most three digits each, so no text is ever read modulo 2^32 ("fixed:4294967304.8"
// is refused, not taken for fixed:8.8); the result is range-checked (I >= 1, F >= 0, I + F <= max_width).
// Every reader of a format name (dfg's accuracy formats, the datapath's --format, campaign files, the cost model)
// should go through parse_fixed_spec so that one text means one format everywhere.
#pragma once

#include "neaccel/num/fixed.hpp"
#include "neaccel/ref/error.hpp"

#include <optional>
#include <string>

namespace neaccel::num {

enum class FixedPrefix { Required, Optional };  // "fixed:" must lead / may lead ("I.F", "QI.F" accepted too)

// The format of `text`, or nullopt when it is not the fixed-point syntax at all (e.g. "fp32"). Throws
// neaccel::Error naming `field` when it is the syntax but out of range.
inline std::optional<fixed::Format> try_parse_fixed_spec(const std::string& text, const std::string& field,
                                                         FixedPrefix prefix = FixedPrefix::Required,
                                                         int max_width = 32) {
  std::string t = text;
  if (t.rfind("fixed:", 0) == 0) t = t.substr(6);
  else if (prefix == FixedPrefix::Required) return std::nullopt;
  else if (!t.empty() && (t[0] == 'Q' || t[0] == 'q')) t = t.substr(1);
  const std::size_t dot = t.find('.');
  if (dot == std::string::npos) return std::nullopt;
  const std::string i = t.substr(0, dot), f = t.substr(dot + 1);
  const auto digits = [](const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!digits(i) || !digits(f)) return std::nullopt;
  const std::string why = "need I >= 1 (sign bit included), F >= 0, I + F <= " + std::to_string(max_width);
  if (i.size() > 3 || f.size() > 3) throw Error(field + ": '" + text + "': " + why);
  fixed::Format fmt{std::stoi(i), std::stoi(f)};
  if (fmt.int_bits < 1 || fmt.width() > max_width) throw Error(field + ": '" + text + "': " + why);
  return fmt;
}

// As try_parse_fixed_spec, but anything that is not a fixed-point format is an error naming `field` too.
inline fixed::Format parse_fixed_spec(const std::string& text, const std::string& field,
                                      FixedPrefix prefix = FixedPrefix::Required, int max_width = 32) {
  if (auto f = try_parse_fixed_spec(text, field, prefix, max_width)) return *f;
  throw Error(field + ": '" + text + "' is not a fixed-point format (expected fixed:I.F, e.g. fixed:8.24)");
}

}  // namespace neaccel::num
