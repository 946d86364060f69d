// The scalar dataflow graph: inputs, constants and arithmetic, topologically ordered (DESIGN.md).
// Data only. Built by tracing (dfg/trace.hpp) or import; transformed by passes; consumed by the scheduler.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace neaccel::dfg {

// Operations. Div, Sqrt, Fma and Cmp are in the vocabulary for imported graphs and later datapaths.
enum class Op : std::uint8_t { Input, Const, Add, Sub, Mul, Neg, Div, Sqrt, Fma, Cmp };

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

// Where a node comes from: link (1-based, 0 = none), the quantity (seed 000 Table 8.5 rows: "omega", "alpha",
// "A", "a", "m abar", "f", "n", "tau", ...) and the equation it implements ("seed000 eq 7.3").
struct Provenance {
  int link = 0;
  std::string quantity;
  std::string equation;
};

struct Node {
  Op op = Op::Const;
  std::array<NodeId, 3> arg{kNoNode, kNoNode, kNoNode};  // operands, all < this node's id
  double value = 0.0;       // Const: the exact value (number formats round it when they evaluate)
  std::uint32_t input = 0;  // Input: index into Graph::inputs
  std::uint32_t prov = 0;   // index into Graph::provenance; 0 = unknown
};

struct Output {
  std::string name;  // e.g. "tau1"
  NodeId node = kNoNode;
};

struct Graph {
  std::vector<Node> nodes;             // topological order: every operand id is smaller than the node's id
  std::vector<std::string> inputs;     // input names ("s1", "c1", "qd1", "qdd1", "XX2", ...)
  std::vector<Output> outputs;         // in order tau1..taun for inverse dynamics
  std::vector<Provenance> provenance{Provenance{}};  // [0] is "unknown"
};

// Number of operands an op takes (0 for Input and Const).
int arity(Op op);
const char* op_name(Op op);

}  // namespace neaccel::dfg
