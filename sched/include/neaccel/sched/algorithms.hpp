// Scheduling algorithms. Each takes a checked Problem (check()) and returns a Schedule with slots, instances
// and length filled; callers run verify() on what they get (nothing unverified leaves sched/).
#pragma once

#include "neaccel/sched/schedule.hpp"

#include <cstdint>
#include <functional>
#include <string>

namespace neaccel::sched {

enum class Priority {
  Height,      // longest latency path to the end (critical path), ties by mobility then node order
  Mobility,    // least ALAP - ASAP slack first, ties by height
  Provenance,  // graph (trace) order: earliest node first
};
Priority parse_priority(const std::string& name);  // "height" | "mobility" | "provenance"
const char* priority_name(Priority p);

struct ListOptions {
  Priority priority = Priority::Height;
  // Improvement step: this many backward-forward passes (each forward pass takes the previous backward pass's
  // latest starts as priority; Li & Willis' forward-backward improvement), keeping the best schedule.
  int backward_forward = 2;
  // Then this many randomized restarts (height priority with random tie-breaking and perturbation).
  int restarts = 0;
  std::uint64_t seed = 1;
};

// Resource-constrained list scheduling, cycle by cycle, binding each op to the first free instance of its class.
// O(ops log ops + length * units). Requires problem.ii == 0. Sets lower_bound to lower_bound(problem).
Schedule list_schedule(const Problem& problem, const ListOptions& options = {});

// Binds ops to unit instances for given start times (slots[].start, slots[].cls set): interval colouring by
// start cycle (ii == 0) or per congruence class (ii > 0). Throws neaccel::Error if the starts overuse a class.
void bind_units(const Problem& problem, Schedule& schedule);

// Register allocation by the left-edge algorithm on the lifetimes (schedule.hpp): fills reg and num_registers
// with the minimum number of registers for those lifetimes (the maximum number alive at once) when ii == 0.
// With ii > 0 a register is shared only by values whose lifetimes do not overlap modulo ii (first fit); a value
// living longer than ii would need a rotating register (modulo variable expansion), which this allocator does
// not do: it throws neaccel::Error naming the value.
void allocate_registers(const Problem& problem, Schedule& schedule);

// The largest number of values alive at once (per cycle, or per congruence class summed over overlapping
// evaluations when ii > 0): a lower bound on registers; with ii > 0 the bound modulo variable expansion reaches.
int max_live(const Problem& problem, const Schedule& schedule);

// Progress of a long search (the ILP's branch and bound, modulo scheduling's II search), for a caller's display.
struct SearchProgress {
  std::string phase;         // "ilp", "modulo ii 31", "modulo/ilp ii 31"
  double elapsed_s = 0;      // wall-clock seconds since the search (the whole call) started
  long nodes = 0;            // branch-and-bound nodes created so far (ILP phases; 0 elsewhere)
  int best = 0;              // length of the best schedule found so far (0: none yet)
  int bound = 0;             // best proven lower bound on the length (0: unknown)
  bool done = false;         // the last report of the call: the search has ended
  bool time_limit = false;   // with done: it ended at the time limit (best and bound are what it had then)
};
using ProgressFn = std::function<void(const SearchProgress&)>;

// Effort limits are deterministic (node and iteration counts): the same problem gives the same bytes on any machine
// and load. The one exception is time_limit_s, a wall-clock guard for interactive use that changes nothing unless
// it is reached.
struct IlpOptions {
  // Wall-clock limit in seconds on the whole call (root LP and branch and bound; 0 = none), checked between nodes.
  // Library callers (study, sweeps, tests) leave it at 0 so their outputs stay reproducible; the CLI sets one. At the
  // limit the result is the best schedule found (never worse than the list schedule, or the incumbent), with
  // proven_optimal false unless its length meets the bound, and the algorithm says "(time limit N s)".
  double time_limit_s = 0;
  // Called about once a second during branch and bound and once at the end of the call (done = true); may be empty.
  ProgressFn progress;
  long max_nodes = 2000;                 // branch-and-bound nodes created (GLPK tree size); 0 = no limit
  long max_simplex_iterations = 3000;    // simplex iterations of the root LP relaxation; 0 = no limit
  int horizon = 0;             // 0: the list schedule's length (the ILP then looks for anything better)
  long max_columns = 400000;
  // Above this many nonzeros the precedence rows are aggregated (one per edge instead of one per edge and cycle).
  long max_nonzeros = 2000000;
  // false: the combinatorial lower bounds are not used (no early exit when the list schedule meets them, the
  // length column starts at 0): the ILP then checks those bounds independently (tests).
  bool trust_bounds = true;   // larger models are not built: the list schedule is returned, algorithm says so
  bool verbose = false;
  // Branching variable: GLPK's Driebeck-Tomlin heuristic (its default), or the most fractional variable on models of
  // more than this many columns (0 = never). The heuristic evaluates a tableau row per fractional variable at every
  // node: on robot-sized modulo models (thousands of columns, hundreds of them fractional) a few hundred nodes cost
  // minutes; the most fractional variable is as deterministic and far cheaper (puma560 custom 8+8 at II 31: 9 s
  // instead of over 150 s of CPU) but proves less within the node limit, so small models keep the heuristic.
  long most_fractional_above_columns = 0;
};

// Exact time-indexed ILP (GLPK): binary x[v][t] over t in [ASAP(v), horizon - height(v)], disaggregated
// precedence rows, one resource row per class and cycle (with occupancy), minimise the length. Returns the
// optimum (proven_optimal = true, lower_bound = length) or, at the effort limit, the best schedule found (never
// worse than the list schedule) with the best proven lower bound. Requires ii == 0; instances bound afterwards.
Schedule ilp_schedule(const Problem& problem, const IlpOptions& options = {});

// A lower bound on the single-evaluation length of any modulo schedule of `problem` (at any II): one evaluation of
// a modulo schedule is a flat schedule on the same units, so max(critical path, lower_bound(flat problem)).
int modulo_latency_bound(const Problem& problem);

// Exact modulo scheduling at problem.ii (> 0): the time-indexed ILP above with one resource row per class and
// congruence class (cycle mod ii) instead of per cycle, minimising the single-evaluation length. `incumbent` (a
// valid schedule at problem.ii, or an empty Schedule) is handed to GLPK and sets the horizon (options.horizon
// overrides). Returns the best schedule (the incumbent unless the ILP found a shorter one) with lower_bound = the
// best proven bound on the length at this II (LP relaxation, branch-and-bound tree, modulo_latency_bound() when
// trust_bounds) and proven_optimal = (length == lower_bound). Empty slots if there was no incumbent and the ILP
// found nothing within its limits.
Schedule modulo_ilp_schedule(const Problem& problem, const Schedule& incumbent, const IlpOptions& options = {});

// The modulo entry point's default effort (deterministic): small models only (the exact method is for the small
// graphs and the short horizons where it finishes; large robot graphs keep the heuristics and the bound).
inline IlpOptions default_modulo_ilp() {
  IlpOptions o;
  o.max_nodes = 300;
  o.max_columns = 8000;
  o.most_fractional_above_columns = 2000;
  return o;
}

struct ModuloOptions {
  int max_ii = 0;      // 0: up to the sum over ops of occupancy (a sequential schedule always fits)
  int budget = 0;      // scheduling attempts per II (Rau's budget ratio * ops); 0: 4 * ops
  bool list = true;    // at the II found, also the modulo list scheduler (modulo_list_schedule) for a shorter latency
  // at the II found, the deadline scheduler (iterative modulo scheduling with a window per op toward a target length,
  // binary search on the target; deterministic budget: deadline_budget x ops placements per attempt)
  bool deadline = true;
  int deadline_budget = 8;
  bool exact = true;   // at the II found, then the exact modulo ILP (modulo_ilp_schedule) within ilp's limits
  IlpOptions ilp = default_modulo_ilp();
  // Wall-clock limit in seconds on the whole call (0 = none): II search, deadline search and the exact ILPs share it
  // (each ILP gets what is left; ilp.time_limit_s is not used). At the limit the best schedule found so far is
  // returned (the II search stops at its first II anyway; the latency minimisation stops where it is, latency_bound
  // what was proven); with no schedule found yet neaccel::Error names the limit. Not deterministic once reached.
  double time_limit_s = 0;
  ProgressFn progress;  // II search about once a second, the ILPs' reports, and a last one (done = true)
};

// The modulo scheduling entry point (`--algo modulo`, streaming datapaths). Iterative modulo scheduling (Rau 1994)
// for a stream of independent evaluations finds the II: tries II = max(problem.ii, res_mii) upward; height-based
// priority, modulo reservation table per instance, eviction when no slot is free within [Estart, Estart + II - 1].
// At that II the single-evaluation length is then minimised: the shortest of Rau's schedule, the modulo list
// scheduler (options.list) and the exact modulo ILP (options.exact, deterministic limits). Returns ii, the length,
// stages = ceil(length / ii), lower_bound = res_mii, proven_optimal = (ii == res_mii); latency_bound = the proven
// lower bound on the length at this ii (the ILP's, or modulo_latency_bound()), latency_optimal = (length ==
// latency_bound).
Schedule modulo_schedule(const Problem& problem, const ModuloOptions& options = {});

// Modulo list scheduling at exactly problem.ii (> 0) for an acyclic graph: cycle by cycle, released ops in priority
// order take the first instance whose modulo reservation table slots are free (no eviction: without recurrences an
// op can always wait). Aims at a short single-evaluation length (the latency of a streaming datapath), which Rau's
// scheduler does not minimise: four passes, the shortest kept (ties to the earlier): forward by height, forward in
// the order of the flat list schedule, and backward from the outputs, mirrored in time, by depth and in the flat
// schedule's mirrored order (algorithm "modulo/list", "modulo/list-flat-order", "modulo/list-backward",
// "modulo/list-backward-flat-order"). Always succeeds with pipelined units at ii >= res_mii; with occupancy > 1 the
// table can fragment: neaccel::Error then. Instances bound; lower_bound = res_mii.
struct ModuloListOptions {
  bool forward_height = true;  // the passes tried (at least one)
  bool flat_order = true;
  bool backward = true;
  bool backward_flat_order = true;
};
Schedule modulo_list_schedule(const Problem& problem, const ModuloListOptions& options = {});

// Moves ops of a modulo schedule within their slack (dependences, free modulo reservation table slots, the same
// length) to shorten register lifetimes: greedy, later in reverse topological order then earlier in topological
// order, each op to the cycle that most reduces the sum of lifetimes; at most `passes` rounds. Same II and length,
// instances rebound; algorithm gets "+lifetimes". The caller verifies.
Schedule modulo_shorten_lifetimes(const Problem& problem, const Schedule& schedule, int passes = 4);

// Register-aware modulo scheduling: the shortest modulo schedule whose register count registers(problem, schedule)
// (default: max_live, the count modulo variable expansion reaches) is <= problem.max_registers (> 0), at the
// smallest II from modulo_schedule(problem, options)'s up to max_ii (0: twice that II + 8). Candidates per II: the modulo entry point,
// each modulo list pass, the flat list schedule and the register-aware one where they fit mod II, and each
// of them after modulo_shorten_lifetimes(); only verified ones count (verify without
// the limit). Fewer registers cost a larger II (cycles per set point) or a longer latency. Throws neaccel::Error
// naming the limit, the II range and the fewest registers found when none fits.
Schedule modulo_register_schedule(const Problem& problem, const ModuloOptions& options,
                                  const std::function<int(const Problem&, const Schedule&)>& registers = {},
                                  int max_ii = 0);

}  // namespace neaccel::sched
