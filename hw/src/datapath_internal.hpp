// Helpers shared by the latency datapath (datapath.cpp) and the streaming datapath (stream.cpp).
#pragma once

#include "neaccel/hw/datapath.hpp"

#include <cstdint>
#include <vector>

namespace neaccel::hw::detail {

// Units (multipliers first) and the unit index of every (class, instance); fills the unit part of dp.config.
std::vector<std::vector<int>> make_units(const sched::Problem& p, Datapath& dp);

// The constant ROM (one entry per distinct value, encoded in dp.config.format, which must be set): fills
// dp.const_values and dp.consts and returns the ROM index of every Const node (-1 for other nodes).
std::vector<int> make_const_rom(const dfg::Graph& g, Datapath& dp);

// Splits the graph inputs into port inputs (dp.input_names, dp.input_graph) and parameter memory words
// (dp.param_names, dp.param_graph, dp.config.max_params) by problem.resident; returns per graph input its parameter
// word (-1: through the port).
std::vector<int> split_inputs(const dfg::Graph& g, const sched::Problem& p, Datapath& dp);

// Adder op code of a graph op (kOpAdd for Mul and Add).
std::uint8_t op_code(dfg::Op op, std::size_t v);

}  // namespace neaccel::hw::detail
