// C++ access to the Verilated arithmetic units (C++ mode, no SystemC): one cycle-stepping interface over
// the configurations built by rtl/units/CMakeLists.txt (target neaccel_units_vl).
#pragma once

#include "neaccel/units/unit.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace neaccel::units {

// A Verilated unit. cycle() drives the inputs for one clock period, applies a rising edge and returns the
// outputs after it: the result of an operation issued by call i is returned by call i + latency - 1.
class VlUnit {
 public:
  virtual ~VlUnit() = default;
  // c drives c_i of the FMAs (ignored by the other units).
  virtual UnitOut cycle(bool valid, uint32_t a, uint32_t b, uint32_t op, uint32_t c = 0) = 0;
  // Asserts rst_ni for two cycles (clears every valid bit).
  virtual void reset() = 0;
  virtual const UnitConfig& config() const = 0;
};

// Throws neaccel::Error if the configuration was not built (built_vl_units() lists them).
std::unique_ptr<VlUnit> make_vl_unit(const UnitConfig& config);
std::vector<UnitConfig> built_vl_units();

}  // namespace neaccel::units

namespace neaccel::units {

// Streams ops[i] = {op, a, b} through the Verilated unit back to back (non-pipelined: one every Latency
// cycles) and returns the outputs in issue order; throws neaccel::Error on a valid_o timing violation.
std::vector<UnitOut> run_vl_unit(VlUnit& unit, const std::vector<std::array<uint32_t, 3>>& ops);
// The same with ops[i] = {op, a, b, c} (c: the FMAs' addend).
std::vector<UnitOut> run_vl_unit(VlUnit& unit, const std::vector<std::array<uint32_t, 4>>& ops);

}  // namespace neaccel::units
