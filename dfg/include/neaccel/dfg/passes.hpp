// Graph transformations (seed 003 section 9.6: customisation). Each pass maps a valid graph to a valid graph,
// keeps topological order, the input list (unless DCE prunes it), the outputs and every surviving node's
// provenance, and never increases the number of multiplications or of additions (add + sub).
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace neaccel::dfg {

// Constant folding and algebraic simplification, one forward sweep:
//   c1 op c2 -> c (computed in double);  x*0, 0*x -> 0;  x*1 -> x;  x*-1 -> neg x;  x+0, 0+x, x-0 -> x;
//   0-x -> neg x;  neg neg x -> x;  neg c -> -c;  x + neg y -> x - y;  neg x + y -> y - x;  x - neg y -> x + y;
//   neg x * c -> x * (-c);  neg x * neg y -> x * y;  x - x -> 0.
// Like the papers' customisation it assumes finite values (x*0 = 0 even for x = inf or NaN) and ignores the sign
// of zero. A multiplication by -1 becomes a negation, so the neg count may grow by at most the muls removed.
Graph fold_constants(const Graph& g);

// Common-subexpression elimination: nodes with the same op and operands (operands of add and mul in canonical
// order, so a*b == b*a), constants with the same bits and inputs with the same name become one node; the first
// occurrence (and its provenance) is kept.
Graph eliminate_common_subexpressions(const Graph& g);

// Factoring of products (distributivity): x*k + y*k -> (x + y)*k, x*k - y*k -> (x - y)*k, where the two products
// are each used once and share an operand node, or have constant factors of equal value (or opposite value, which
// flips + and -). Saves one multiplication per match (the old products become dead: run DCE after). Also like
// terms: c1 x y +- c2 x y -> (c1 +- c2) (x y) for products used once each, their constant factors c1, c2 possibly
// inside an operand (x (c1 y)); this turns w x (J w) of a diagonal J into Euler's (Jz - Jy) wy wz. In double it
// changes rounding only (the test bound is 1e-12 relative to the outputs).
Graph factor_products(const Graph& g);

struct DceOptions {
  bool keep_inputs = true;  // false: inputs that nothing reads are removed from Graph::inputs too
};
// Removes nodes no output depends on.
Graph eliminate_dead_code(const Graph& g, const DceOptions& opt = {});

struct Pass {
  std::string name;
  std::function<Graph(const Graph&)> run;
};
Pass fold_pass();
Pass cse_pass();
Pass factor_pass();
Pass dce_pass(const DceOptions& opt = {});
// "fold,cse,dce" -> passes; throws neaccel::Error on an unknown name. "" = no pass.
std::vector<Pass> parse_pipeline(const std::string& spec);

// Runs the passes in order; with to_fixpoint, repeats the sequence until the graph no longer changes (at most
// max_rounds rounds).
Graph run_pipeline(const Graph& g, const std::vector<Pass>& passes, bool to_fixpoint = true, int max_rounds = 16);

// The customised graph: fold, CSE, factoring and DCE to a fixpoint (inputs kept).
Graph customise(const Graph& g);

// ---- Orders ----
// A random topological order (every operand before its users), reproducible from the seed.
std::vector<NodeId> random_topological_order(const Graph& g, std::uint64_t seed);
// The graph renumbered so that node order[k] becomes node k (order must be topological; throws otherwise).
Graph renumber(const Graph& g, const std::vector<NodeId>& order);

}  // namespace neaccel::dfg
