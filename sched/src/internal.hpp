// Shared internals of the scheduling algorithms (not installed): op-level adjacency and latencies.
#pragma once

#include "neaccel/sched/schedule.hpp"

#include <cstdint>
#include <vector>

namespace neaccel::sched::detail {

// The operations of a graph as a DAG with their class, latency and occupancy. Only Input/Const-free edges:
// an edge u -> v means op v reads op u's result (duplicates kept, e.g. x * x gives two edges).
struct OpGraph {
  std::vector<int> cls;        // per node: class index, -1 for Input/Const
  std::vector<int> lat;        // per node: latency (0 for Input/Const)
  std::vector<int> occ;        // per node: occupancy (0 for Input/Const)
  std::vector<int> succ_off;   // CSR successors (ops only), size nodes + 1
  std::vector<std::uint32_t> succ;
  std::vector<int> npred;      // per node: number of operand edges from ops
  std::vector<char> is_output; // per node
  std::vector<std::uint32_t> ops;  // the operation node ids in topological order
};

OpGraph build_op_graph(const Problem& problem);

// Earliest start (no resource limits), per node; Input/Const 0.
std::vector<int> asap_starts(const OpGraph& g);
// Height: latency plus the longest latency path to the end, per node (0 for Input/Const).
std::vector<int> heights(const OpGraph& g);
// Register-file use of each op (for the port limits): its distinct operands read from the register file (not constants,
// not resident inputs; graph inputs included), and whether its result is written to a register (some op reads it or
// it is an output). verify() counts reads and writes the same way (schedule.hpp).
struct RegUse {
  std::vector<std::vector<std::uint32_t>> operands;  // per node
  std::vector<char> writes;                          // per node
  int values_read = 0;                               // distinct values read by some op
  int results_written = 0;                           // ops whose result is written
};
RegUse reg_use(const Problem& problem);

// The graph with every edge reversed, ops in reverse topological order (for backward passes).
OpGraph reversed(const OpGraph& g);

}  // namespace neaccel::sched::detail
