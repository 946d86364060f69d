// Seed 000's Table 8.6 ("Simultaneous steps in N-E computation") reproduced from a traced graph's provenance,
// beside our operation-level schedules and the later hardware's reference lines (data/paper-tables.md).
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/ref/robot.hpp"

#include <string>
#include <vector>

namespace neaccel::sched {

// A general n-link revolute arm for the n sweep: PUMA 560's links repeated cyclically (link i is PUMA link
// (i-1) mod 6 + 1), no friction or rotor inertia (the paper's model). In the general flavour only the joint
// types matter for the graph, not the values.
ref::Robot general_arm(int n);

// Table 8.6 accounting on a graph: per link the multiplications (mul) and additions (add + sub; negations are not
// counted, as in the paper) of each provenance quantity; the paper's grouping then gives
//   steps = omega_1 + alpha_1 + A_1 + omega_2 + alpha_2                       (sequential preamble)
//         + sum_i max(omega_{i+2}, alpha_{i+2}, A_{i+1}, a_i, m abar_i, Tr{A K Q}_i, m(r+rbar) x abar_{i-1})
//         + sum_i max(f_i, add n_i, r x R f_i, R n_i)                            (terms computed together)
// separately for mul and add. Ops of other quantities (tau, friction, rotor, gravity, ...) are not in the
// paper's table: they are reported in `other_*`, not added.
struct StepAccount {
  int mul_steps = 0, add_steps = 0;
  int other_mul = 0, other_add = 0;
};
StepAccount table86_accounting(const dfg::Graph& graph, int n);

struct Table86Row {
  int n = 0;
  int paper_mul_steps = 0, paper_add_steps = 0;  // 27n + 42, 27n + 41
  StepAccount ours;                               // the accounting on our general modified N-E graph
  int mul_ops = 0, add_ops = 0;                   // the graph's counts (paper Table 8.5: 90n - 27, 88n - 24)
  int unit_cycles = 0, unit_bound = 0;            // 7 mul + 7 add, latency 1: list schedule, lower bound
  int pipe_cycles = 0, pipe_bound = 0;            // 7 mul (latency 3) + 7 add (latency 2), pipelined
  int rahman_meyer = 0;                           // 69 + 12n cycles
  int hashimoto_kimura = 0;                       // 60n + 193 flop times
  // The depth pass (dfg/depth.hpp): the schedules above run the graph it returns for each latency pair
  // (when `depth` is on); the accounting and mul_ops/add_ops stay those of the traced graph (the paper's view).
  bool depth = true;
  int unit_ops = 0, pipe_ops = 0;                 // operations of the scheduled graphs (lat 1/1, lat 3/2)
  int pipe_cycles_traced = 0;                     // 7+7 pipelined lat 3/2 on the traced graph (depth pass off)
  int unit_cycles_traced = 0;                     // 7+7 lat 1 on the traced graph
  // The lookahead distance of the scheduled graphs' recursion (1: the traced recursion; K >= 2: lookahead over K
  // links, dfg/lookahead.hpp), lat 1/1 and 3/2.
  int unit_lookahead = 1, pipe_lookahead = 1;
  // Torques of the first `project` links projected (dfg::lookahead_ne's project; 0: none), lat 1/1 and 3/2.
  int unit_project = 0, pipe_project = 0;
  bool unit_dense = false, pipe_dense = false;  // chains stepped by the dense rotation matrices
};
// depth: schedule the depth-reduced graphs (default: the pass at budgets 0, +10 %, +15 %, ..., +30 %, +45 %, +60 %
// operations, each scheduled, the shortest kept, ties to fewer operations); off: the traced graph. lookahead (with
// depth): lookahead forms of the recursion are candidates too, at the same budgets (table86.cpp lists them).
Table86Row table86_row(int n, bool depth = true, bool lookahead = true);
std::string table86_markdown(const std::vector<Table86Row>& rows);

}  // namespace neaccel::sched
