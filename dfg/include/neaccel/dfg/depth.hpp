// Depth-reducing passes: the graph's critical path under given unit latencies, made shorter by
// re-association (tree-height reduction ordered by operand ready time) and, when fused multiply-add units exist,
// by fusing a multiplication into the addition that reads it.
//
// Unlike the customisation passes (passes.hpp) these change rounding: a re-associated sum or product rounds its
// partial results in another order. Values are preserved to rounding; the golden model of a design is the
// transformed graph (what the datapath runs), so co-simulation stays bit-exact, and the error against double is
// measured (docs/dfg.md).
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <string>

namespace neaccel::dfg {

// Latencies of the units the graph will run on, as the scheduler sees them (sched::default_classes): mul on the
// multipliers, add/sub/neg/cmp on the adders, fma on FMA units; other ops (div, sqrt) are given the adder's.
struct Latencies {
  int mul = 1;
  int add = 1;
  int fma = 0;  // 0: no FMA units
};

// The graph's critical path in cycles: the longest chain of operation latencies (inputs and constants take 0).
// Equals sched::critical_path of a problem whose classes have these latencies.
int critical_path(const Graph& g, const Latencies& lat);
// The earliest finish time of every node under these latencies (as-soon-as-possible, unlimited units).
std::vector<int> ready_times(const Graph& g, const Latencies& lat);

struct DepthOptions {
  Latencies lat;
  // At most this fraction more operations than the input graph (0.10 = +10 %); duplication of shared sums and
  // distribution of products over sums spend it, the plain re-association never adds an operation.
  double budget = 0.10;
};

// Tree-height reduction. Every maximal tree of additions/subtractions/negations (and of multiplications/
// negations) whose inner nodes have one user is flattened into signed terms and rebuilt by combining the two
// earliest-ready terms first (Huffman-like under the latencies), in topological order with the ready times of
// the graph being built, so the terms that carry a recursion (omega, alpha, a forward; f, n backward) enter
// their sums last. Constants meeting in a tree are folded. A tree is rebuilt only when that makes it ready no
// later and costs no more operations. Then, within the budget and only on the critical path: shared sums are
// duplicated into the sums that read them, and products k (x + y) read by a sum are distributed (k x + k y),
// whenever that makes the sum ready earlier. The result is valid, keeps inputs, outputs and provenance, and its
// critical path is never longer than the input's.
Graph reduce_depth(const Graph& g, const DepthOptions& opt);

// Fusion of a multiplication into the addition that reads it: a*b + c, c + a*b -> fma(a, b, c); a*b - c ->
// fma(a, b, -c) only where -c exists already (never adds a negation); c - a*b -> fma(-a, b, c) where a is a
// constant (negated exactly). Only for products with one user, and only where the fused node is ready no later
// than the addition was (under lat, whose fma must be > 0). Saves one operation per fusion.
Graph fuse_multiply_add(const Graph& g, const Latencies& lat);

// The pipeline setting of `dfg`, `schedule`, `explore`, `rtl`, `study`: "on" (default) or "off".
// Throws neaccel::Error naming the option otherwise.
bool parse_depth_switch(const std::string& value, const std::string& option = "--depth");

// `--depth on | off | lookahead | lookahead:K` of `dfg`, `schedule`, `explore`: on/off as parse_depth_switch;
// lookahead turns the pass on and adds the lookahead forms of the recursion (dfg/lookahead.hpp) as candidate
// shapes: chains over K >= 1 links when given (1: the recursion's chains, only the torques projected), else
// (lookahead = -1) over 1, 2 and 3 links, each with the torques of 0, 2 or 3 links projected
// (dfg::lookahead_shapes). Throws neaccel::Error naming the option otherwise.
struct DepthMode {
  bool on = true;
  int lookahead = 0;  // 0: the traced recursion only; K >= 1: lookahead over K links; -1: K = 1, 2, 3
};
DepthMode parse_depth_mode(const std::string& value, const std::string& option = "--depth");

}  // namespace neaccel::dfg
