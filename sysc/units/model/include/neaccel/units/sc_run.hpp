// Runs a stream of operations through the SystemC unit model (sc_unit.hpp), pipelined back to back
// (non-pipelined: one every Latency cycles), and returns the outputs in issue order. SystemC elaborates once
// per process: call run_sc_unit or stream_sc_unit at most once per process.
#pragma once

#include "neaccel/units/unit.hpp"

#include <array>
#include <functional>
#include <vector>

namespace neaccel::units {

// ops[i] = {op, a, b}. Throws neaccel::Error if a result does not appear exactly Latency cycles after issue.
std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 3>>& ops);
// ops[i] = {op, a, b, c} (c: the FMAs' addend).
std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 4>>& ops);

// The same without holding the operations: next(op) fills the next operation {op, a, b, c} and returns false after
// the last one; sink(out) receives each output in issue order, at most Latency operations after it was issued.
// Memory stays constant however many operations flow through (fpcheck over TestFloat's multi-million-line sets).
void stream_sc_unit(const UnitConfig& config, const std::function<bool(std::array<uint32_t, 4>&)>& next,
                    const std::function<void(const UnitOut&)>& sink);

}  // namespace neaccel::units
