// A scheduling problem and its solution, as data (CIRCT's split: problem, algorithms, verify()).
// Semantics (DESIGN.md): inputs and constants are ready at cycle 0; an op started at t on a unit of latency L
// has its result usable at t + L; a unit accepts a new op every `occupancy` cycles (1 = pipelined, L = not);
// no chaining; length = max over ops of start + latency. With ii > 0 the schedule repeats every ii cycles
// (a stream of independent evaluations) and unit use is checked per congruence class (cycle mod ii).
#pragma once

#include "neaccel/dfg/graph.hpp"

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
};

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
};

}  // namespace neaccel::sched
