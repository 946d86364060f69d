// Helpers shared by the latency datapath (datapath.cpp) and the streaming datapath (stream.cpp).
#pragma once

#include "neaccel/hw/datapath.hpp"

#include <cstdint>
#include <vector>

namespace neaccel::hw::detail {

// Units (multipliers first) and the unit index of every (class, instance); fills the unit part of dp.config.
std::vector<std::vector<int>> make_units(const sched::Problem& p, Datapath& dp);

// Adder op code of a graph op (kOpAdd for Mul and Add).
std::uint8_t op_code(dfg::Op op, std::size_t v);

}  // namespace neaccel::hw::detail
