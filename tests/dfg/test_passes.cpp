// Passes: constant folding (each rule), CSE, DCE, pipelines to a fixpoint, orders and renumbering.
#include "neaccel/dfg/builder.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/error.hpp"
#include "random_graph.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>

namespace neaccel::dfg {
namespace {

// Builds out = f(x, y) for a single-output graph.
template <class F>
Graph single(F&& f) {
  Builder b;
  const NodeId x = b.input("x");
  const NodeId y = b.input("y");
  b.output("out", f(b, x, y));
  return b.take();
}

struct Rule {
  const char* name;
  std::function<NodeId(Builder&, NodeId, NodeId)> build;
  int mul, add, neg;  // expected counts after folding + DCE
};

TEST(Passes, FoldEachRule) {
  auto c = [](Builder& b, double v) { return b.constant(v); };
  const std::vector<Rule> rules = {
      {"x*0", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Mul, x, c(b, 0)); }, 0, 0, 0},
      {"0*x", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Mul, c(b, 0), x); }, 0, 0, 0},
      {"x*1", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Mul, x, c(b, 1)); }, 0, 0, 0},
      {"x*-1", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Mul, x, c(b, -1)); }, 0, 0, 1},
      {"-1*x", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Mul, c(b, -1), x); }, 0, 0, 1},
      {"x+0", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Add, x, c(b, 0)); }, 0, 0, 0},
      {"0+x", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Add, c(b, 0), x); }, 0, 0, 0},
      {"x-0", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Sub, x, c(b, 0)); }, 0, 0, 0},
      {"0-x", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Sub, c(b, 0), x); }, 0, 0, 1},
      {"c op c", [&](Builder& b, NodeId, NodeId) { return b.op(Op::Mul, c(b, 2), b.op(Op::Sub, c(b, 3), c(b, 1))); }, 0, 0, 0},
      {"neg neg x", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Neg, b.op(Op::Neg, x)); }, 0, 0, 0},
      {"neg c", [&](Builder& b, NodeId, NodeId) { return b.op(Op::Neg, c(b, 2)); }, 0, 0, 0},
      {"x + neg y", [&](Builder& b, NodeId x, NodeId y) { return b.op(Op::Add, x, b.op(Op::Neg, y)); }, 0, 1, 0},
      {"neg x + y", [&](Builder& b, NodeId x, NodeId y) { return b.op(Op::Add, b.op(Op::Neg, x), y); }, 0, 1, 0},
      {"x - neg y", [&](Builder& b, NodeId x, NodeId y) { return b.op(Op::Sub, x, b.op(Op::Neg, y)); }, 0, 1, 0},
      {"neg x * c", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Mul, b.op(Op::Neg, x), c(b, 3)); }, 1, 0, 0},
      {"neg x * neg y", [&](Builder& b, NodeId x, NodeId y) { return b.op(Op::Mul, b.op(Op::Neg, x), b.op(Op::Neg, y)); }, 1, 0, 0},
      {"x - x", [&](Builder& b, NodeId x, NodeId) { return b.op(Op::Sub, x, x); }, 0, 0, 0},
  };
  const std::vector<double> in{0.75, -2.5};
  for (const Rule& r : rules) {
    const Graph g = single(r.build);
    const Graph f = eliminate_dead_code(fold_constants(g));
    EXPECT_NO_THROW(validate(f)) << r.name;
    const OpCounts k = count_ops(f);
    EXPECT_EQ(k.mul(), r.mul) << r.name;
    EXPECT_EQ(k.add(), r.add) << r.name;
    EXPECT_EQ(k.neg(), r.neg) << r.name;
    // The rewrites are exact in double for these inputs (no rounding: small dyadic values).
    EXPECT_EQ(evaluate<double>(f, in)[0], evaluate<double>(g, in)[0]) << r.name;
  }
}

TEST(Passes, FoldKeepsProvenanceOfSurvivingNodes) {
  Builder b;
  const auto p = b.provenance({3, "f", "eq 9"});
  const NodeId x = b.input("x");
  const NodeId m = b.op(Op::Mul, x, x, kNoNode, p);
  b.output("o", b.op(Op::Add, m, b.constant(0.0)));
  const Graph f = eliminate_dead_code(fold_constants(b.take()));
  ASSERT_EQ(count_ops(f).operations(), 1);
  const Node& n = f.nodes[f.outputs[0].node];
  EXPECT_EQ(n.op, Op::Mul);
  EXPECT_EQ(f.provenance[n.prov].quantity, "f");
  EXPECT_EQ(f.provenance[n.prov].link, 3);
}

TEST(Passes, CseIsCommutativityAware) {
  Builder b;
  const NodeId x = b.input("x");
  const NodeId y = b.input("y");
  const NodeId p = b.op(Op::Mul, x, y);
  const NodeId q = b.op(Op::Mul, y, x);
  const NodeId s1 = b.op(Op::Sub, p, q);
  const NodeId s2 = b.op(Op::Sub, q, p);  // q - p: operand order kept for sub (here q == p after CSE)
  const NodeId s3 = b.op(Op::Sub, x, y);
  const NodeId s4 = b.op(Op::Sub, y, x);  // not commutative: must stay a separate node
  const NodeId a1 = b.op(Op::Add, b.constant(2.0), p);
  const NodeId a2 = b.op(Op::Add, q, b.constant(2.0));
  b.output("o1", b.op(Op::Mul, s1, s2));
  b.output("o2", b.op(Op::Mul, a1, a2));
  b.output("o3", b.op(Op::Add, s3, s4));
  const Graph g = b.take();
  const Graph c = eliminate_dead_code(eliminate_common_subexpressions(g));
  const OpCounts k = count_ops(c);
  EXPECT_EQ(k.mul(), 3);  // x*y once, and the two output products
  EXPECT_EQ(k.add(), 5);  // s1 and s2 both become p-p (one node: CSE does not fold it to 0), one add, x-y, y-x, their sum
  EXPECT_EQ(k.of(Op::Const), 1);
  const std::vector<double> in{1.25, -0.5};
  EXPECT_EQ(evaluate<double>(c, in), evaluate<double>(g, in));
}

// Factoring: x*k + y*k -> (x + y)*k with a shared operand node or equal constants, x*c - y*(-c) -> (x + y)*c;
// products used twice stay (nothing would be saved).
TEST(Passes, FactorEachRule) {
  struct Case {
    const char* name;
    std::function<NodeId(Builder&, NodeId, NodeId, NodeId)> build;
    int mul, add;  // after factoring
  };
  auto c = [](Builder& b, double v) { return b.constant(v); };
  const std::vector<Case> cases = {
      {"xk+yk", [](Builder& b, NodeId x, NodeId y, NodeId k) { return b.op(Op::Add, b.op(Op::Mul, x, k), b.op(Op::Mul, k, y)); }, 1, 1},
      {"xk-yk", [](Builder& b, NodeId x, NodeId y, NodeId k) { return b.op(Op::Sub, b.op(Op::Mul, k, x), b.op(Op::Mul, y, k)); }, 1, 1},
      {"x3+y3", [&](Builder& b, NodeId x, NodeId y, NodeId) { return b.op(Op::Add, b.op(Op::Mul, x, c(b, 3)), b.op(Op::Mul, c(b, 3), y)); }, 1, 1},
      {"x3-y(-3)", [&](Builder& b, NodeId x, NodeId y, NodeId) { return b.op(Op::Sub, b.op(Op::Mul, x, c(b, 3)), b.op(Op::Mul, y, c(b, -3))); }, 1, 1},
      {"x3+y(-3)", [&](Builder& b, NodeId x, NodeId y, NodeId) { return b.op(Op::Add, b.op(Op::Mul, x, c(b, 3)), b.op(Op::Mul, y, c(b, -3))); }, 1, 1},
      {"x3+y2", [&](Builder& b, NodeId x, NodeId y, NodeId) { return b.op(Op::Add, b.op(Op::Mul, x, c(b, 3)), b.op(Op::Mul, y, c(b, 2))); }, 2, 1},
      {"xk+yk, xk reused", [](Builder& b, NodeId x, NodeId y, NodeId k) {
         const NodeId xk = b.op(Op::Mul, x, k);
         return b.op(Op::Mul, b.op(Op::Add, xk, b.op(Op::Mul, y, k)), xk); }, 3, 1},
      // Like terms: x (3y) - y (2x) -> 1 (x y); the inner constant products die.
      {"x(3y)-y(2x)", [&](Builder& b, NodeId x, NodeId y, NodeId) {
         return b.op(Op::Sub, b.op(Op::Mul, x, b.op(Op::Mul, c(b, 3), y)), b.op(Op::Mul, b.op(Op::Mul, x, c(b, 2)), y)); }, 2, 0},
      {"(3x)(2y)+xy", [&](Builder& b, NodeId x, NodeId y, NodeId) {
         return b.op(Op::Add, b.op(Op::Mul, b.op(Op::Mul, c(b, 3), x), b.op(Op::Mul, y, c(b, 2))), b.op(Op::Mul, y, x)); }, 2, 0},
      // An inner product with another use stays; the rewrite still saves the addition.
      {"((3x)y+(2y)x)(3x)", [&](Builder& b, NodeId x, NodeId y, NodeId) {
         const NodeId x3 = b.op(Op::Mul, c(b, 3), x);
         const NodeId t = b.op(Op::Add, b.op(Op::Mul, x3, y), b.op(Op::Mul, b.op(Op::Mul, c(b, 2), y), x));
         return b.op(Op::Mul, t, x3); }, 4, 0},
      {"x(3y)-k(2x), no like terms", [&](Builder& b, NodeId x, NodeId y, NodeId k) {
         return b.op(Op::Sub, b.op(Op::Mul, x, b.op(Op::Mul, c(b, 3), y)), b.op(Op::Mul, k, b.op(Op::Mul, c(b, 2), x))); }, 4, 1},
  };
  for (const Case& t : cases) {
    Builder b;
    const NodeId x = b.input("x"), y = b.input("y"), k = b.input("k");
    b.output("out", t.build(b, x, y, k));
    const Graph g = b.take();
    const Graph h = factor_products(g);
    ASSERT_NO_THROW(validate(h)) << t.name;
    EXPECT_EQ(count_ops(h).mul(), t.mul) << t.name;
    EXPECT_EQ(count_ops(h).add(), t.add) << t.name;
    const std::vector<double> in{1.25, -0.75, 0.5};  // exact in binary: the rewrite is exact here
    EXPECT_EQ(evaluate<double>(h, in), evaluate<double>(g, in)) << t.name;
  }
}

TEST(Passes, DceRemovesDeadNodesAndOptionallyInputs) {
  Builder b;
  const NodeId x = b.input("x");
  const NodeId y = b.input("y");
  b.input("unused");
  b.op(Op::Mul, x, y);  // dead
  b.output("o", b.op(Op::Add, x, x));
  const Graph g = b.take();
  const Graph kept = eliminate_dead_code(g);
  EXPECT_EQ(kept.inputs.size(), 3u);
  EXPECT_EQ(count_ops(kept).mul(), 0);
  EXPECT_EQ(count_ops(kept).of(Op::Input), 3);
  const Graph pruned = eliminate_dead_code(g, {false});
  EXPECT_EQ(pruned.inputs, std::vector<std::string>{"x"});
  EXPECT_NO_THROW(validate(pruned));
  EXPECT_EQ(evaluate<double>(pruned, {2.0})[0], 4.0);
}

TEST(Passes, PipelinesPreserveValuesAndNeverIncreaseCounts) {
  const char* pipelines[] = {"fold", "cse", "dce", "factor", "fold,dce", "cse,dce", "fold,cse,dce", "dce,cse,fold",
                             "fold,cse,dce-inputs", "cse,factor", "fold,cse,factor,dce"};
  for (unsigned seed = 1; seed <= 30; ++seed) {
    const Graph g = test::random_graph(seed);
    const OpCounts k0 = count_ops(g);
    const std::vector<double> in = test::random_inputs(g, seed);
    const std::vector<double> ref = evaluate<double>(g, in);
    for (const char* spec : pipelines) {
      const Graph h = run_pipeline(g, parse_pipeline(spec));
      ASSERT_NO_THROW(validate(h)) << spec;
      const OpCounts k = count_ops(h);
      EXPECT_LE(k.mul(), k0.mul()) << spec;
      EXPECT_LE(k.add(), k0.add()) << spec;
      EXPECT_LE(k.operations(), k0.operations()) << spec;
      std::map<std::string, double> named;
      for (std::size_t i = 0; i < g.inputs.size(); ++i) named[g.inputs[i]] = in[i];
      const std::vector<double> out = evaluate<double>(h, bind_inputs(h, named));
      // Folding only removes exact identities and evaluates constant subexpressions in double once; with these
      // inputs (|x| <= 1.5, depth ~ 200) the reassociation-free rewrites leave results within 1e-12 relative.
      for (std::size_t o = 0; o < out.size(); ++o)
        EXPECT_NEAR(out[o], ref[o], 1e-12 * std::max(1.0, std::abs(ref[o]))) << spec << " seed " << seed;
    }
  }
}

TEST(Passes, PipelineReachesAFixpoint) {
  const Graph g = test::random_graph(5);
  const Graph h = customise(g);
  EXPECT_EQ(customise(h), h);
  EXPECT_THROW(parse_pipeline("fold,magic"), Error);
}

TEST(Evaluate, FloatIsBitIdenticalInThreeTopologicalOrders) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Graph g = test::random_graph(seed, 6, 400);
    const std::vector<float> in = convert_inputs<float>(test::random_inputs(g, seed));
    const std::vector<float> base = evaluate<float>(g, in);
    for (std::uint64_t s = 1; s <= 3; ++s) {
      const std::vector<NodeId> order = random_topological_order(g, s * 977 + seed);
      ASSERT_NE(order, random_topological_order(g, s * 977 + seed + 1));  // really different orders
      const Graph r = renumber(g, order);
      ASSERT_NO_THROW(validate(r));
      const std::vector<float> a = evaluate<float>(r, in);
      const std::vector<float> b = evaluate<float>(g, in, {}, order);
      for (std::size_t o = 0; o < base.size(); ++o) {
        EXPECT_EQ(std::memcmp(&a[o], &base[o], sizeof(float)), 0);
        EXPECT_EQ(std::memcmp(&b[o], &base[o], sizeof(float)), 0);
      }
    }
  }
}

TEST(Evaluate, RejectsBadOrdersAndInputCounts) {
  const Graph g = test::random_graph(2, 3, 20, 2);
  std::vector<NodeId> order(g.nodes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<NodeId>(order.size() - 1 - i);
  EXPECT_THROW(evaluate<double>(g, test::random_inputs(g, 1), {}, order), Error);
  EXPECT_THROW(renumber(g, order), Error);
  EXPECT_THROW(evaluate<double>(g, {1.0}), Error);
}

}  // namespace
}  // namespace neaccel::dfg
