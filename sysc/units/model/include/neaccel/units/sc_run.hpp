// Runs a stream of operations through the SystemC unit model (sc_unit.hpp), pipelined back to back
// (non-pipelined: one every Latency cycles), and returns the outputs in issue order. SystemC elaborates once
// per process: call this at most once per process.
#pragma once

#include "neaccel/units/unit.hpp"

#include <array>
#include <vector>

namespace neaccel::units {

// ops[i] = {op, a, b}. Throws neaccel::Error if a result does not appear exactly Latency cycles after issue.
std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 3>>& ops);
// ops[i] = {op, a, b, c} (c: the FMAs' addend).
std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 4>>& ops);

}  // namespace neaccel::units
