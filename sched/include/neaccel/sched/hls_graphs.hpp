// Classic high-level-synthesis benchmark graphs, written by hand (tests, benchmarks, `--graph bench:NAME`),
// and random DAGs. Their optima under given units are derived by hand in tests/sched/.
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <cstdint>
#include <string>

namespace neaccel::sched {

// Minimal graph builder (no folding, no CSE).
struct GraphBuilder {
  dfg::Graph g;
  dfg::NodeId input(const std::string& name);
  dfg::NodeId constant(double v);
  dfg::NodeId op(dfg::Op op, dfg::NodeId a, dfg::NodeId b = dfg::kNoNode);
  void output(const std::string& name, dfg::NodeId v);
};

// HAL differential-equation solver (Paulin & Knight 1989), one loop iteration of y'' + 3xy' + 3y = 0:
// x1 = x + dx; u1 = u - 3*x*u*dx - 3*y*dx; y1 = y + u*dx; c = x1 < a. 6 mul, 2 add, 2 sub, 1 cmp.
dfg::Graph hal_diffeq();
// Fifth-order elliptic wave filter ("ewf"): 26 add, 8 mul, critical path 14 ops (3 mul). See hls_graphs.cpp.
dfg::Graph elliptic_wave_filter();
// Auto-regressive lattice filter ("arf"): 16 mul, 12 add, critical path 8 ops (4 mul). See hls_graphs.cpp.
dfg::Graph ar_lattice_filter();
// 8-point DCT-II after Loeffler et al. 1989 as in the IJG's jfdctint.c ("dct8"): 12 mul, 32 add/sub.
dfg::Graph dct8();
// The classic built-in graphs the exact modulo tests sweep: hal, ewf, arf, fir16, dct8.
// FIR filter y = sum_{i < taps} c_i x_i: `taps` muls and taps - 1 adds, summed as a balanced tree or a chain.
dfg::Graph fir(int taps, bool tree);
// Random DAG: `ops` operations (mul with probability mul_fraction, else add/sub), operands drawn from the last
// `window` nodes (locality like traced code) or from `inputs` inputs; every sink is an output.
dfg::Graph random_dag(int ops, std::uint64_t seed, double mul_fraction = 0.5, int inputs = 16, int window = 40);

// "hal", "ewf", "arf", "dct8", "fir16", "fir16chain", "random:OPS:SEED" (SEED optional); throws neaccel::Error otherwise.
dfg::Graph builtin_graph(const std::string& name);

}  // namespace neaccel::sched
