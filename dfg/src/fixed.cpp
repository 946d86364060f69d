#include "neaccel/dfg/fixed.hpp"

#include "neaccel/num/format_spec.hpp"
#include "neaccel/ref/error.hpp"

namespace neaccel::dfg {

FixedFormat parse_fixed_format(const std::string& s) {
  // num's one parser of format names (plain decimal, range-checked): "fixed:I.F", "I.F" or "QI.F".
  const num::fixed::Format f = num::parse_fixed_spec(s, "fixed-point format", num::FixedPrefix::Optional);
  return FixedFormat{f.int_bits, f.frac_bits};
}

std::string to_string(const FixedFormat& f) { return "fixed:" + std::to_string(f.I) + "." + std::to_string(f.F); }

}  // namespace neaccel::dfg
