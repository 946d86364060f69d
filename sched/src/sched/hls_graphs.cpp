#include "neaccel/sched/hls_graphs.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <random>
#include <vector>

namespace neaccel::sched {

using dfg::NodeId;
using dfg::Op;

NodeId GraphBuilder::input(const std::string& name) {
  dfg::Node n;
  n.op = Op::Input;
  n.input = static_cast<std::uint32_t>(g.inputs.size());
  g.inputs.push_back(name);
  g.nodes.push_back(n);
  return static_cast<NodeId>(g.nodes.size() - 1);
}

NodeId GraphBuilder::constant(double v) {
  dfg::Node n;
  n.op = Op::Const;
  n.value = v;
  g.nodes.push_back(n);
  return static_cast<NodeId>(g.nodes.size() - 1);
}

NodeId GraphBuilder::op(Op o, NodeId a, NodeId b) {
  dfg::Node n;
  n.op = o;
  n.arg[0] = a;
  if (dfg::arity(o) > 1) n.arg[1] = b;
  g.nodes.push_back(n);
  return static_cast<NodeId>(g.nodes.size() - 1);
}

void GraphBuilder::output(const std::string& name, NodeId v) { g.outputs.push_back(dfg::Output{name, v}); }

dfg::Graph hal_diffeq() {
  GraphBuilder b;
  const auto x = b.input("x"), y = b.input("y"), u = b.input("u"), dx = b.input("dx"), a = b.input("a");
  const auto three = b.constant(3.0);
  const auto m1 = b.op(Op::Mul, three, x);   // 3x
  const auto m2 = b.op(Op::Mul, u, dx);      // u dx
  const auto m3 = b.op(Op::Mul, three, y);   // 3y
  const auto m4 = b.op(Op::Mul, u, dx);      // u dx (for y1; HAL keeps both)
  const auto x1 = b.op(Op::Add, x, dx);
  const auto m5 = b.op(Op::Mul, m1, m2);     // 3x u dx
  const auto m6 = b.op(Op::Mul, m3, dx);     // 3y dx
  const auto s1 = b.op(Op::Sub, u, m5);
  const auto u1 = b.op(Op::Sub, s1, m6);
  const auto y1 = b.op(Op::Add, y, m4);
  const auto c = b.op(Op::Cmp, x1, a);
  b.output("x1", x1);
  b.output("u1", u1);
  b.output("y1", y1);
  b.output("c", c);
  return b.g;
}

dfg::Graph fir(int taps, bool tree) {
  if (taps < 1) throw Error(fmt::format("fir: taps {} (need >= 1)", taps));
  GraphBuilder b;
  std::vector<NodeId> x, c, p;
  for (int i = 0; i < taps; ++i) x.push_back(b.input(fmt::format("x{}", i)));
  for (int i = 0; i < taps; ++i) c.push_back(b.input(fmt::format("c{}", i)));
  for (int i = 0; i < taps; ++i) p.push_back(b.op(Op::Mul, c[i], x[i]));
  if (tree) {
    while (p.size() > 1) {
      std::vector<NodeId> next;
      for (std::size_t i = 0; i + 1 < p.size(); i += 2) next.push_back(b.op(Op::Add, p[i], p[i + 1]));
      if (p.size() % 2) next.push_back(p.back());
      p = next;
    }
  } else {
    for (std::size_t i = 1; i < p.size(); ++i) p[0] = b.op(Op::Add, p[0], p[i]);
  }
  b.output("y", p[0]);
  return b.g;
}

dfg::Graph random_dag(int ops, std::uint64_t seed, double mul_fraction, int inputs, int window) {
  if (ops < 1 || inputs < 1 || window < 1) throw Error("random graph: ops, inputs and window must be >= 1");
  GraphBuilder b;
  std::mt19937_64 rng(seed);
  for (int i = 0; i < inputs; ++i) b.input(fmt::format("in{}", i));
  std::vector<int> uses(static_cast<std::size_t>(inputs), 0);
  std::bernoulli_distribution is_mul(mul_fraction), from_input(0.15), sub(0.3);
  auto pick = [&]() -> NodeId {
    const auto n = static_cast<int>(b.g.nodes.size());
    if (n == inputs || from_input(rng)) return std::uniform_int_distribution<int>(0, inputs - 1)(rng);
    const int lo = std::max(inputs, n - window);
    return std::uniform_int_distribution<int>(lo, n - 1)(rng);
  };
  for (int k = 0; k < ops; ++k) {
    const NodeId a = pick(), c = pick();
    const Op o = is_mul(rng) ? Op::Mul : (sub(rng) ? Op::Sub : Op::Add);
    b.op(o, a, c);
    uses.push_back(0);
    ++uses[a];
    ++uses[c];
  }
  for (std::size_t v = static_cast<std::size_t>(inputs); v < b.g.nodes.size(); ++v)
    if (uses[v] == 0) b.output(fmt::format("out{}", v), static_cast<NodeId>(v));
  return b.g;
}

dfg::Graph builtin_graph(const std::string& name) {
  if (name == "hal") return hal_diffeq();
  if (name == "fir16") return fir(16, true);
  if (name == "fir16chain") return fir(16, false);
  if (name.rfind("random:", 0) == 0) {
    int ops = 0;
    unsigned long long seed = 1;
    const int k = std::sscanf(name.c_str() + 7, "%d:%llu", &ops, &seed);
    if (k >= 1 && ops >= 1) return random_dag(ops, seed);
  }
  throw Error(fmt::format("graph: unknown built-in '{}' (hal, fir16, fir16chain, random:OPS:SEED)", name));
}

}  // namespace neaccel::sched
