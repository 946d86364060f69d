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

// Resource-constrained minimum initiation interval: max over classes of max(ceil(ops * occupancy / count),
// occupancy). (The graph is acyclic: no recurrence bound.)
int res_mii(const Problem& problem);

// Register-file port bound on the initiation interval (0 when no port is limited): every result written
// to a register takes a write port once per evaluation and every value read by an op takes a read port at least
// once, so II >= max(ceil(results written / write_ports), ceil(values read / read_ports)).
int port_mii(const Problem& problem);

}  // namespace neaccel::sched
