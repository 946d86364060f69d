// Unconstrained schedules and lower bounds on the schedule length (and on the initiation interval).
#pragma once

#include "neaccel/sched/schedule.hpp"

#include <vector>

namespace neaccel::sched {

// ASAP: every op at its earliest start, no resource limit (a valid schedule only with unlimited units; instances
// are left -1). Input/Const at 0.
Schedule asap(const Problem& problem);
// ALAP within `length` cycles (length >= critical_path(problem)); instances -1.
Schedule alap(const Problem& problem, int length);
// Mobility per node: ALAP(critical path) start - ASAP start (0 for Input/Const).
std::vector<int> mobility(const Problem& problem);

// Length of the longest latency-weighted path (the unconstrained optimum).
int critical_path(const Problem& problem);
// max over classes of ceil(ops * occupancy / count) - occupancy + latency (the last op of a class cannot issue
// before every instance has been busy ceil(ops / count) - 1 times; it then needs its latency). Also reported
// plain: ceil(ops * occupancy / count) per class.
int resource_bound(const Problem& problem);
// Per class, the number of cycles ceil(ops * occupancy / count) (0 for classes with no ops).
std::vector<int> class_loads(const Problem& problem);
// Head-body-tail bound (Rim & Jain style, over ASAP windows and ALAP tails): for each class and each pair of
// thresholds (a, b), the ops whose earliest start is >= a and whose tail (longest path after completion) is
// >= b need a + (ceil(k / count) - 1) * occupancy + latency + b cycles. Dominates the two bounds above.
int head_body_tail_bound(const Problem& problem);
// Register-file ports (0 when no port is limited): smallest latency - 1 + ceil(results written /
// write_ports), and the same for the values read by ops over read_ports.
int port_bound(const Problem& problem);
// The best of the bounds above.
int lower_bound(const Problem& problem);

// Inputs loaded while the recursion runs, outputs leaving as soon as they are computed (docs/scheduling.md, "I/O
// overlapped with the recursion"). The port inputs (graph inputs that are not resident) arrive `in_words` per
// cycle: the word in position j of the load order in beat floor(j / in_words), beat 0 in cycle 0, written to its
// register at the end of that cycle and so usable by an op issued from the next; resident inputs and constants are
// there from cycle 0. A result is usable, and may be driven on the one-word output port, from start + latency;
// one output word per cycle. Cycles are counted from the first input word to the last output word, inclusive.
struct IoOverlap {
  int in_words = 1;
  int port_inputs = 0, outputs = 0;
  int critical_path = 0;  // the computation alone (every input at cycle 0): critical_path(problem)
  // No schedule on any number of units of these latencies is shorter: the last output cannot leave before it is
  // computed, and the input order below minimises that (largest tail first is optimal for unit-time arrivals on
  // in_words lanes with tails, Jackson's rule), nor before the outputs have all left one per cycle after the first
  // of them can be ready.
  int bound = 0;
  // The same cycles for a schedule on unlimited units built here: the input order below, every op as soon as its
  // operands are there, the outputs in the order they are computed (output_order). Equal to `bound` where the bound
  // is reached.
  int achieved = 0;
  int hidden_io_bound() const { return bound - critical_path; }  // cycles of I/O that no schedule hides
  std::vector<int> input_order;   // graph input indices through the port, in load order (largest tail first)
  std::vector<int> output_order;  // graph output indices in the order they leave
  std::vector<int> release;       // per graph input: the first cycle an op may read it (0: resident)
};
// Throws neaccel::Error when in_words < 1 or the problem does not check().
IoOverlap io_overlap(const Problem& problem, int in_words);

// Resource-constrained minimum initiation interval: max over classes of max(ceil(ops * occupancy / count),
// occupancy). (The graph is acyclic: no recurrence bound.)
int res_mii(const Problem& problem);

// Register-file port bound on the initiation interval (0 when no port is limited): every result written
// to a register takes a write port once per evaluation and every value read by an op takes a read port at least
// once, so II >= max(ceil(results written / write_ports), ceil(values read / read_ports)).
int port_mii(const Problem& problem);

}  // namespace neaccel::sched
