// The arithmetic unit kinds and configurations shared by the RTL wrappers, the SystemC models, the tests
// and the CLI; and the one-operation reference function of each unit (fp32.hpp, fixed.hpp). No SystemC.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace neaccel::units {

// Fp32Fma / FxFma: a * b + c with one rounding (three operands, port c_i); Fp32Div / FxDiv: a / b.
enum class UnitKind { Fp32Mul, Fp32Add, FxMul, FxAdd, Fp32Fma, Fp32Div, FxFma, FxDiv };
inline constexpr UnitKind kAllUnitKinds[] = {UnitKind::Fp32Mul, UnitKind::Fp32Add, UnitKind::FxMul, UnitKind::FxAdd,
                                             UnitKind::Fp32Fma, UnitKind::Fp32Div, UnitKind::FxFma, UnitKind::FxDiv};
// Fixed-point kinds (fx-*); the others are binary32.
bool is_fixed(UnitKind kind);
// 3 for the FMAs, 2 otherwise.
int operand_count(UnitKind kind);

// "fp32-mul" | "fp32-add" | "fx-mul" | "fx-add" | "fp32-fma" | "fp32-div" | "fx-fma" | "fx-div".
const char* unit_name(UnitKind kind);
// Inverse of unit_name; throws neaccel::Error naming `what` for an unknown name.
UnitKind parse_unit(const std::string& name, const std::string& what);

struct UnitConfig {
  UnitKind kind = UnitKind::Fp32Mul;
  int latency = 3;
  bool pipelined = true;
  int width = 32;  // fixed point only
  int frac = 16;   // fixed point only
  // The deep form of the unit (rtl/units/deep: the pipeline cut at the device's DSP and carry-chain registers,
  // always pipelined). The same result bits; only the Verilog differs, so only the Verilated models see it.
  bool deep = false;
  bool operator==(const UnitConfig& o) const;
};
std::string describe(const UnitConfig& c);

struct UnitOut {
  bool valid = false;
  uint32_t result = 0;
  uint32_t flags = 0;  // binary32 units only (TestFloat order)
};

// The operation of a unit on one operand set (op: the op_i code of the adders, ignored by the others; c: the
// addend of the FMAs, ignored by the others): bit-exact reference result and flags (fixed point: W-bit two's
// complement patterns, flags 0).
using UnitFunction = std::function<UnitOut(uint32_t op, uint32_t a, uint32_t b, uint32_t c)>;
UnitFunction reference_function(const UnitConfig& config);

}  // namespace neaccel::units
