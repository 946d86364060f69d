// The scalar dataflow graph: inputs, constants and arithmetic, topologically ordered (DESIGN.md).
// Data only. Built by tracing (dfg/trace.hpp) or import; transformed by passes; consumed by the scheduler.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
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

// ---- Additions owned by the dfg area. Existing members above stay stable for the scheduler. ----

inline constexpr int kNumOps = static_cast<int>(Op::Cmp) + 1;

// The op named `name` ("add", "mul", ... as op_name prints them); false if the name is unknown.
bool op_from_name(const std::string& name, Op& op);
// True for add and mul (operands may be swapped); used by CSE to canonicalise operand order.
bool is_commutative(Op op);
// True for the ops that are not Input or Const (the ones a datapath executes).
inline bool is_operation(Op op) { return op != Op::Input && op != Op::Const; }

bool operator==(const Provenance& a, const Provenance& b);
bool operator==(const Node& a, const Node& b);  // Const values compared bit for bit
bool operator==(const Output& a, const Output& b);
bool operator==(const Graph& a, const Graph& b);
inline bool operator!=(const Graph& a, const Graph& b) { return !(a == b); }

// Throws neaccel::Error with a one-line message starting with `what` (a file name or "graph") if the graph is
// malformed: an operand id not smaller than the node's id (not topological, or dangling), wrong number of
// operands, an Input index out of range or used twice, a provenance index out of range, an output that names
// no node, duplicate input or output names.
void validate(const Graph& g, const std::string& what = "graph");

// Operation counts. mul() counts multiplications, add() additions and subtractions together (the papers count
// a subtraction as an addition); negations are reported separately (a sign flip, free in most datapaths).
struct OpCounts {
  std::array<int, kNumOps> by_op{};
  int of(Op op) const { return by_op[static_cast<std::size_t>(op)]; }
  int mul() const { return of(Op::Mul); }
  int add() const { return of(Op::Add) + of(Op::Sub); }
  int neg() const { return of(Op::Neg); }
  int operations() const;  // every node that is not an Input or a Const
};

// Counts of every node in the graph (dead ones too: run dead-code elimination first to count only live ones).
OpCounts count_ops(const Graph& g);
// Counts per provenance quantity ("omega", "f", ...; "" for nodes without provenance), sorted by name.
std::vector<std::pair<std::string, OpCounts>> count_by_quantity(const Graph& g);
// Counts per link (index = link, 0 = none); size = max link + 1.
std::vector<OpCounts> count_by_link(const Graph& g);

// Index of the input named `name`, or -1.
int find_input(const Graph& g, const std::string& name);

}  // namespace neaccel::dfg
