// A scheduling problem and its solution, as data (CIRCT's split: problem, algorithms, verify()).
// Semantics (DESIGN.md): inputs and constants are ready at cycle 0; an op started at t on a unit of latency L
// has its result usable at t + L; a unit accepts a new op every `occupancy` cycles (1 = pipelined, L = not);
// no chaining; length = max over ops of start + latency. With ii > 0 the schedule repeats every ii cycles
// (a stream of independent evaluations) and unit use is checked per congruence class (cycle mod ii).
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace neaccel::sched {

struct UnitClass {
  std::string name;             // "mul", "add"
  std::vector<dfg::Op> ops;     // ops this class executes
  int count = 1;                // instances
  int latency = 1;              // cycles from issue to usable result
  int occupancy = 1;            // cycles an instance is busy per op (1 = pipelined, latency = not pipelined)
};

struct Problem {
  const dfg::Graph* graph = nullptr;
  std::vector<UnitClass> classes;
  int ii = 0;                   // 0: minimise the latency of one evaluation; > 0: modulo schedule at this II
  int max_registers = 0;        // 0 = unlimited
  int read_ports = 0;           // register-file read ports per cycle, 0 = unlimited
  int write_ports = 0;          // register-file write ports per cycle, 0 = unlimited
  // Per graph input, 1 = resident (held outside the register file, e.g. a robot parameter written once
  // into a parameter memory): always available, needs no register. Empty = no resident input.
  std::vector<char> resident;
  // Per graph input, the first cycle an op may read it (inputs loaded while the recursion runs, docs/datapath.md
  // "Overlapped I/O": a word taken from the input port in cycle c is in its register from c + 1). Empty = every input
  // at cycle 0. Latency schedules (ii == 0) only; the list scheduler honours it, verify() checks it.
  std::vector<int> release;
};

// The first cycle an op may read graph input `input` in `problem` (Problem::release; 0 when none is given).
inline int input_release(const Problem& problem, std::uint32_t input) {
  return input < problem.release.size() ? problem.release[input] : 0;
}

// Whether graph input `input` is resident in `problem` (Problem::resident).
inline bool is_resident(const Problem& problem, std::uint32_t input) {
  return input < problem.resident.size() && problem.resident[input] != 0;
}

// Placement of one graph node. Input and Const nodes have cls = -1 and start = 0.
struct Slot {
  int start = 0;                // issue cycle
  int cls = -1;                 // index into Problem::classes
  int instance = -1;            // 0 .. count-1 within the class
};

struct Schedule {
  std::vector<Slot> slots;      // indexed by dfg::NodeId, one per graph node
  int length = 0;               // max over ops of start + latency
  int ii = 0;                   // as in Problem
  // Register assignment (filled by register allocation; empty before): register holding each node's value,
  // -1 for values that need none (constants in the constant ROM, dead values).
  std::vector<int> reg;
  int num_registers = 0;
  std::string algorithm;        // which algorithm produced it ("list/height", "ilp", "modulo", ...)
  int lower_bound = 0;          // best proven lower bound on length (or II for modulo), 0 if unknown
  // Added by sched:
  bool proven_optimal = false;  // the algorithm proved length (or II) optimal (ILP optimum, or length == bound)
  int stages = 0;               // modulo schedules: ceil(length / ii); 0 otherwise
  // Added by sched, modulo schedules: proven lower bound on the single-evaluation length at this ii, and
  // whether length reaches it (0 / false when unknown or not a modulo schedule).
  int latency_bound = 0;
  bool latency_optimal = false;
};

// Register lifetimes (the convention register allocation and verify() share, and the datapath relies on):
// the value of an op issued at s with latency L is written at the end of cycle s + L - 1 and occupies its
// register during cycles [s + L, last consumer's start] inclusive, i.e. the half-open interval
// [begin, end) = [s + L, last_use + 1). Inputs are in their registers from cycle 0 (from their release,
// Problem::release, when they are loaded while the recursion runs). Graph outputs are held
// through cycle `length` (end >= length + 1). Constants live in a constant ROM (no register); values nobody
// reads and that are not outputs need no register. A register may be reused by a value whose begin >= the
// previous value's end.
struct Lifetime {
  dfg::NodeId node = dfg::kNoNode;
  int begin = 0;
  int end = 0;
};

// Index of the first class in `problem` that executes `op`, or -1.
int class_of(const Problem& problem, dfg::Op op);

// Cycles from issue to usable result of node `id` when executed on class `cls` (0 for Input/Const).
int node_latency(const Problem& problem, const Schedule& schedule, dfg::NodeId id);

// The two default classes: "mul" executes Mul; "add" executes Add, Sub, Neg, Cmp. Occupancy 1 when pipelined,
// else the latency.
std::vector<UnitClass> default_classes(int mul, int add, int lat_mul, int lat_add, bool mul_pipelined = true,
                                       bool add_pipelined = true);

// Lifetimes of every value that needs a register (see above), in node order. Requires slots filled.
std::vector<Lifetime> lifetimes(const Problem& problem, const Schedule& schedule);

// Validates a problem before solving (CIRCT's check()): a graph is present and topologically ordered, every op
// of the graph is executed by some class, count >= 1, latency >= 1, 1 <= occupancy <= latency, ii >= 0, limits
// >= 0, class names unique and non-empty. Throws neaccel::Error with a one-line message naming the field.
void check(const Problem& problem);

// Checks a solution independently of every algorithm; returns one line per violated rule (empty = valid):
// slot count, Input/Const placement, dependences with latencies, each op bound to an existing instance of a
// class that executes it, per-cycle (ii == 0) or per-congruence-class (ii > 0) unit use with occupancy,
// length == max over ops of start + latency and outputs ready by it, registers (if assigned): every value
// needing a register has one, no two overlapping lifetimes share one, num_registers covers them, the register
// limit; read ports (operand reads per cycle) and write ports (results written per cycle) when limited.
// At most `max_messages` lines are returned (the last one says how many were omitted).
std::vector<std::string> verify(const Problem& problem, const Schedule& schedule, std::size_t max_messages = 50);

// verify() and throw neaccel::Error with the first violation (and the count) if there is any.
void verify_or_throw(const Problem& problem, const Schedule& schedule);

}  // namespace neaccel::sched
