#include "neaccel/units/unit.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/fixed.hpp"
#include "neaccel/units/fp32.hpp"

namespace neaccel::units {

const char* unit_name(UnitKind kind) {
  switch (kind) {
    case UnitKind::Fp32Mul: return "fp32-mul";
    case UnitKind::Fp32Add: return "fp32-add";
    case UnitKind::FxMul: return "fx-mul";
    case UnitKind::Fp32Fma: return "fp32-fma";
    case UnitKind::Fp32Div: return "fp32-div";
    case UnitKind::FxFma: return "fx-fma";
    case UnitKind::FxDiv: return "fx-div";
    default: return "fx-add";
  }
}

bool is_fixed(UnitKind k) {
  return k == UnitKind::FxMul || k == UnitKind::FxAdd || k == UnitKind::FxFma || k == UnitKind::FxDiv;
}

int operand_count(UnitKind k) { return (k == UnitKind::Fp32Fma || k == UnitKind::FxFma) ? 3 : 2; }

UnitKind parse_unit(const std::string& name, const std::string& what) {
  for (UnitKind k : kAllUnitKinds) {
    if (name == unit_name(k)) return k;
  }
  throw Error(what + ": unknown unit '" + name +
              "' (fp32-mul, fp32-add, fp32-fma, fp32-div, fx-mul, fx-add, fx-fma or fx-div)");
}

bool UnitConfig::operator==(const UnitConfig& o) const {
  return kind == o.kind && latency == o.latency && pipelined == o.pipelined && deep == o.deep &&
         (!is_fixed(kind) || (width == o.width && frac == o.frac));
}

std::string describe(const UnitConfig& c) {
  std::string s = std::string(unit_name(c.kind)) + " latency " + std::to_string(c.latency) +
                  (c.deep ? " deep" : c.pipelined ? " pipelined" : " non-pipelined");
  if (is_fixed(c.kind)) s += " fixed:" + std::to_string(c.width - c.frac) + "." + std::to_string(c.frac);
  return s;
}

UnitFunction reference_function(const UnitConfig& config) {
  const fixed::Format fmt{config.width - config.frac, config.frac};
  switch (config.kind) {
    case UnitKind::Fp32Mul:
      return [](uint32_t, uint32_t a, uint32_t b, uint32_t) {
        const fp32::Result r = fp32::mul(a, b);
        return UnitOut{true, r.bits, r.flags};
      };
    case UnitKind::Fp32Add:
      return [](uint32_t op, uint32_t a, uint32_t b, uint32_t) {
        const fp32::Result r = fp32::add_op(op, a, b);
        return UnitOut{true, r.bits, r.flags};
      };
    case UnitKind::Fp32Fma:
      return [](uint32_t, uint32_t a, uint32_t b, uint32_t c) {
        const fp32::Result r = fp32::fma(a, b, c);
        return UnitOut{true, r.bits, r.flags};
      };
    case UnitKind::Fp32Div:
      return [](uint32_t, uint32_t a, uint32_t b, uint32_t) {
        const fp32::Result r = fp32::div(a, b);
        return UnitOut{true, r.bits, r.flags};
      };
    case UnitKind::FxMul:
      fixed::check(fmt);
      return [fmt](uint32_t, uint32_t a, uint32_t b, uint32_t) {
        const int64_t r = fixed::mul(fixed::from_bits(a, fmt), fixed::from_bits(b, fmt), fmt);
        return UnitOut{true, fixed::to_bits(r, fmt), 0};
      };
    case UnitKind::FxFma:
      fixed::check(fmt);
      return [fmt](uint32_t, uint32_t a, uint32_t b, uint32_t c) {
        const int64_t r =
            fixed::fma(fixed::from_bits(a, fmt), fixed::from_bits(b, fmt), fixed::from_bits(c, fmt), fmt);
        return UnitOut{true, fixed::to_bits(r, fmt), 0};
      };
    case UnitKind::FxDiv:
      fixed::check(fmt);
      return [fmt](uint32_t, uint32_t a, uint32_t b, uint32_t) {
        const int64_t r = fixed::div(fixed::from_bits(a, fmt), fixed::from_bits(b, fmt), fmt);
        return UnitOut{true, fixed::to_bits(r, fmt), 0};
      };
    default:
      fixed::check(fmt);
      return [fmt](uint32_t op, uint32_t a, uint32_t b, uint32_t) {
        const int64_t r = fixed::add_op(op, fixed::from_bits(a, fmt), fixed::from_bits(b, fmt), fmt);
        return UnitOut{true, fixed::to_bits(r, fmt), 0};
      };
  }
}

}  // namespace neaccel::units
