// Test harness: streams operations through a Verilated unit and checks every cycle against the reference
// function (valid_o exactly Latency cycles after valid_i and never otherwise; result bits, NaN as a class;
// flags).
#pragma once

#include "neaccel/units/unit.hpp"
#include "neaccel/units/vl_unit.hpp"  // declarations only: run_stream is in harness_stream.cpp

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace neaccel::units::test {

struct Operation {
  uint32_t op = 0, a = 0, b = 0, c = 0;  // c: the FMAs' addend
};

struct StreamReport {
  size_t checked = 0;
  size_t mismatches = 0;
  std::string first;  // description of the first mismatch
};

// Issues every operation (pipelined: with random idle gaps when gaps is set; non-pipelined: every Latency
// cycles as the contract requires) and drains the unit.
StreamReport run_stream(VlUnit& unit, const std::vector<Operation>& ops, bool gaps, uint64_t seed);

// Random operations for a unit kind: binary32 from fpvec::random_pair (adder ops 0/1/2); fixed point
// uniform bit patterns mixed with values near 0, +-1 and the saturation bounds.
std::vector<Operation> random_operations(const UnitConfig& c, size_t n, uint64_t seed);

}  // namespace neaccel::units::test
