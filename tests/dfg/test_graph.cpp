// Graph utilities: builder (with and without hash-consing), validation, counts.
#include "neaccel/dfg/builder.hpp"
#include "neaccel/dfg/graph.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

namespace neaccel::dfg {
namespace {

TEST(Graph, BuilderAppendsInTopologicalOrderAndValidates) {
  Builder b;
  const NodeId x = b.input("x");
  const NodeId y = b.input("y");
  const NodeId p = b.op(Op::Mul, x, y);
  const NodeId q = b.op(Op::Mul, y, x);  // no hash-consing: a second node
  b.output("r", b.op(Op::Add, p, q));
  const Graph g = b.take();
  EXPECT_NO_THROW(validate(g));
  EXPECT_EQ(g.nodes.size(), 5u);
  EXPECT_EQ(count_ops(g).mul(), 2);
  EXPECT_EQ(count_ops(g).add(), 1);
  EXPECT_EQ(b.graph().nodes.size(), 0u);
}

TEST(Graph, HashConsingSharesCommutedOperandsAndConstants) {
  Builder b(true);
  const NodeId x = b.input("x");
  const NodeId y = b.input("y");
  EXPECT_EQ(b.op(Op::Mul, x, y), b.op(Op::Mul, y, x));
  EXPECT_NE(b.op(Op::Sub, x, y), b.op(Op::Sub, y, x));  // not commutative
  EXPECT_EQ(b.constant(2.5), b.constant(2.5));
  EXPECT_NE(b.constant(0.0), b.constant(-0.0));  // different bits
  EXPECT_EQ(b.input("x"), x);
}

TEST(Graph, BuilderRejectsBadOperands) {
  Builder b;
  const NodeId x = b.input("x");
  EXPECT_THROW(b.op(Op::Add, x, 7), Error);
  EXPECT_THROW(b.op(Op::Neg, x, x), Error);
  EXPECT_THROW(b.op(Op::Const, x), Error);
}

Graph small() {
  Builder b;
  const NodeId x = b.input("x");
  const NodeId c = b.constant(3.0);
  b.output("y", b.op(Op::Mul, x, c));
  return b.take();
}

TEST(Graph, ValidateCatchesEachDefect) {
  EXPECT_NO_THROW(validate(small()));
  Graph g = small();
  g.nodes[2].arg[1] = 2;  // self loop: not topological
  EXPECT_THROW(validate(g, "f.json"), Error);
  g = small();
  g.nodes[2].arg[1] = 99;  // dangling
  EXPECT_THROW(validate(g), Error);
  g = small();
  g.nodes[2].arg[2] = 0;  // too many operands
  EXPECT_THROW(validate(g), Error);
  g = small();
  g.nodes[2].arg[1] = kNoNode;  // too few
  EXPECT_THROW(validate(g), Error);
  g = small();
  g.nodes[0].input = 5;
  EXPECT_THROW(validate(g), Error);
  g = small();
  g.outputs.push_back({"y", 1});  // duplicate output name
  EXPECT_THROW(validate(g), Error);
  g = small();
  g.nodes[1].prov = 3;
  EXPECT_THROW(validate(g), Error);
  g = small();
  g.inputs.push_back("x");
  EXPECT_THROW(validate(g), Error);
}

TEST(Graph, ValidateMessageNamesTheFile) {
  Graph g = small();
  g.nodes[2].arg[0] = 42;
  try {
    validate(g, "kernel.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("kernel.json"), std::string::npos);
  }
}

TEST(Graph, CountsByQuantityAndLink) {
  Builder b;
  const auto p1 = b.provenance({1, "omega", "eq 1"});
  const auto p2 = b.provenance({2, "f", "eq 2"});
  EXPECT_EQ(b.provenance({1, "omega", "eq 1"}), p1);
  const NodeId x = b.input("x");
  const NodeId m = b.op(Op::Mul, x, x, kNoNode, p1);
  const NodeId a = b.op(Op::Add, m, x, kNoNode, p2);
  const NodeId s = b.op(Op::Sub, a, x, kNoNode, p2);
  b.output("y", b.op(Op::Neg, s, kNoNode, kNoNode, p2));
  const Graph g = b.take();
  const auto q = count_by_quantity(g);
  ASSERT_EQ(q.size(), 3u);  // "", "f", "omega" (sorted)
  EXPECT_EQ(q[0].first, "");
  EXPECT_EQ(q[1].first, "f");
  EXPECT_EQ(q[1].second.add(), 2);
  EXPECT_EQ(q[1].second.neg(), 1);
  EXPECT_EQ(q[2].second.mul(), 1);
  const auto l = count_by_link(g);
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[1].mul(), 1);
  EXPECT_EQ(l[2].operations(), 3);
  Op op{};
  EXPECT_TRUE(op_from_name("sqrt", op));
  EXPECT_EQ(op, Op::Sqrt);
  EXPECT_FALSE(op_from_name("pow", op));
}

}  // namespace
}  // namespace neaccel::dfg
