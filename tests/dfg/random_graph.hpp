// Random graphs for pass and evaluation tests: inputs, constants including 0, 1 and -1 (so folding has work),
// and add/sub/mul/neg nodes with operands drawn from earlier nodes.
#pragma once

#include "neaccel/dfg/builder.hpp"

#include <random>

namespace neaccel::dfg::test {

inline Graph random_graph(unsigned seed, int n_inputs = 5, int n_ops = 200, int n_outputs = 6) {
  std::mt19937 rng(seed);
  Builder b;
  std::vector<NodeId> pool;
  for (int i = 0; i < n_inputs; ++i) pool.push_back(b.input("x" + std::to_string(i)));
  const double consts[] = {0.0, 1.0, -1.0, 0.5, 2.0, -3.25};
  for (double c : consts) pool.push_back(b.constant(c));
  const Op ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Neg};
  for (int k = 0; k < n_ops; ++k) {
    // Prefer recent nodes so the graph is deep, but reach back too.
    auto pick = [&] {
      std::uniform_int_distribution<std::size_t> d(pool.size() > 12 ? pool.size() - 12 : 0, pool.size() - 1);
      std::uniform_int_distribution<std::size_t> any(0, pool.size() - 1);
      return pool[(rng() % 3 == 0) ? any(rng) : d(rng)];
    };
    const Op op = ops[rng() % 4];
    pool.push_back(op == Op::Neg ? b.op(op, pick()) : b.op(op, pick(), pick()));
  }
  for (int o = 0; o < n_outputs; ++o) b.output("y" + std::to_string(o), pool[pool.size() - 1 - static_cast<std::size_t>(o) * 7]);
  return b.take();
}

inline std::vector<double> random_inputs(const Graph& g, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  std::vector<double> v(g.inputs.size());
  for (double& x : v) x = u(rng);
  return v;
}

}  // namespace neaccel::dfg::test
