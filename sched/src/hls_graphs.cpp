#include "neaccel/sched/hls_graphs.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <random>
#include <vector>

namespace neaccel::sched {

using dfg::NodeId;
using dfg::Op;

namespace {
// Largest bench:random:OPS graph (docs/limits.md): as large as the largest real graph measured (10^6 nodes).
constexpr int kMaxRandomOps = 1000000;
}  // namespace

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

dfg::Graph elliptic_wave_filter() {
  // Fifth-order elliptic wave filter (Dewilde, Deprettere & Nouta 1985; the HLS benchmark since Paulin & Knight 1989):
  // one sample, input `in` and seven state words sv1..sv7 (the delay elements), eight outputs (out and the next
  // states); 34 operations, 26 additions and 8 multiplications by constants; critical path 14 operations of which 3
  // multiplications (14 cycles with single-cycle units, 17 with two-cycle multipliers, the figures of the
  // literature). The published netlist was not available offline: this is a reconstruction with the published
  // operation mix, critical path and state count (adaptor-style multiply-accumulate sections), not node for node
  // the published graph; tests check the counts and the critical path, not a published schedule.
  GraphBuilder b;
  const auto in = b.input("in");
  NodeId sv[8];
  for (int i = 1; i <= 7; ++i) sv[i] = b.input(fmt::format("sv{}", i));
  NodeId k[9];
  for (int i = 1; i <= 8; ++i) k[i] = b.constant(0.0625 * (i + 1));  // adaptor coefficients (illustrative values)
  auto add = [&](NodeId x, NodeId y) { return b.op(Op::Add, x, y); };
  auto mul = [&](NodeId c, NodeId x) { return b.op(Op::Mul, c, x); };
  // The critical chain through three adaptors.
  const auto n1 = add(in, sv[1]), n2 = add(n1, sv[2]), n3 = add(n2, sv[3]), m1 = mul(k[1], n3);
  const auto n4 = add(m1, sv[2]), n5 = add(n4, n1), n6 = add(n5, sv[4]), m2 = mul(k[2], n6);
  const auto n7 = add(m2, sv[4]), n8 = add(n7, n5), n9 = add(n8, sv[5]), m3 = mul(k[3], n9);
  const auto n10 = add(m3, sv[5]), n11 = add(n10, n8);
  // Side adaptors feeding the other states.
  const auto m4 = mul(k[4], n2), n12 = add(m4, sv[6]), n13 = add(n12, n3);
  const auto m5 = mul(k[5], n1), n14 = add(m5, sv[7]), n15 = add(n14, n4);
  const auto n18 = add(n13, n15), m7 = mul(k[7], n18), n19 = add(m7, n13), n20 = add(m7, n15);
  const auto m6 = mul(k[6], n5), n16 = add(m6, sv[6]), n17 = add(n16, n7);
  const auto n21 = add(n17, sv[7]), m8 = mul(k[8], n21), n22 = add(m8, n17), n23 = add(m8, sv[7]);
  const auto n24 = add(n19, n6), n25 = add(n20, n22), n26 = add(n23, n4);
  b.output("out", n11);
  const NodeId next[7] = {n24, n25, n26, n10, n13, n17, n19};
  for (int i = 0; i < 7; ++i) b.output(fmt::format("sv{}_next", i + 1), next[i]);
  return b.g;
}

dfg::Graph ar_lattice_filter() {
  // Auto-regressive lattice filter (the ARF benchmark of the HLS literature, e.g. Jain, Parker & Park 1988): four
  // lattice sections, each two forward and two backward products of the section's (f, b) pair by its reflection
  // coefficients, f' = k1 f + k2 b, b' = k3 f + k4 b (16 multiplications, 8 additions), and four output additions;
  // 28 operations (16 mul, 12 add), critical path 8 operations (4 x mul, add). As for the EWF this is a
  // reconstruction with the published mix and critical path, not node for node the published netlist.
  GraphBuilder b;
  NodeId f = b.input("x");
  NodeId s[5];
  for (int i = 1; i <= 4; ++i) s[i] = b.input(fmt::format("b{}", i));
  NodeId bn[5];
  for (int i = 1; i <= 4; ++i) {
    NodeId k[4];
    for (int j = 0; j < 4; ++j) k[j] = b.constant(0.1 * (4 * i + j + 1));
    const auto p1 = b.op(Op::Mul, k[0], f), p2 = b.op(Op::Mul, k[1], s[i]);
    const auto p3 = b.op(Op::Mul, k[2], f), p4 = b.op(Op::Mul, k[3], s[i]);
    bn[i] = b.op(Op::Add, p3, p4);
    f = b.op(Op::Add, p1, p2);
  }
  b.output("y", f);
  b.output("b4_next", bn[4]);
  for (int i = 1; i <= 3; ++i) b.output(fmt::format("b{}_next", i), b.op(Op::Add, bn[i], s[i]));  // depth 3, 5, 7
  b.output("e", b.op(Op::Add, bn[1], bn[2]));                                                    // depth 5
  return b.g;
}

dfg::Graph dct8() {
  // 8-point DCT-II after Loeffler, Ligtenberg & Moschytz (ICASSP 1989) in the form of the IJG's jfdctint.c (one row
  // pass, without the final descaling): 12 multiplications and 32 additions/subtractions. Output k is
  // sqrt(2) sum_n x_n cos(pi (2n + 1) k / 16) for k > 0 and sum_n x_n for k = 0 (tests evaluate it). The constants
  // are computed from c_k = cos(k pi / 16) instead of the IJG's 13-bit fixed-point values.
  GraphBuilder b;
  NodeId x[8];
  for (int i = 0; i < 8; ++i) x[i] = b.input(fmt::format("x{}", i));
  const double r2 = std::sqrt(2.0);
  double c[8];
  for (int i = 0; i < 8; ++i) c[i] = std::cos(i * std::acos(-1.0) / 16.0);
  auto add = [&](NodeId u, NodeId v) { return b.op(Op::Add, u, v); };
  auto sub = [&](NodeId u, NodeId v) { return b.op(Op::Sub, u, v); };
  auto mul = [&](double k, NodeId v) { return b.op(Op::Mul, b.constant(k), v); };
  const auto t0 = add(x[0], x[7]), t7 = sub(x[0], x[7]), t1 = add(x[1], x[6]), t6 = sub(x[1], x[6]);
  const auto t2 = add(x[2], x[5]), t5 = sub(x[2], x[5]), t3 = add(x[3], x[4]), t4 = sub(x[3], x[4]);
  // Even part.
  const auto t10 = add(t0, t3), t13 = sub(t0, t3), t11 = add(t1, t2), t12 = sub(t1, t2);
  NodeId X[8];
  X[0] = add(t10, t11);
  X[4] = sub(t10, t11);
  const auto ze = mul(r2 * c[6], add(t12, t13));
  X[2] = add(ze, mul(r2 * (c[2] - c[6]), t13));
  X[6] = sub(ze, mul(r2 * (c[2] + c[6]), t12));
  // Odd part.
  const auto z1 = add(t4, t7), z2 = add(t5, t6), z3 = add(t4, t6), z4 = add(t5, t7);
  const auto z5 = mul(r2 * c[3], add(z3, z4));
  const auto p4 = mul(r2 * (-c[1] + c[3] + c[5] - c[7]), t4), p5 = mul(r2 * (c[1] + c[3] - c[5] + c[7]), t5);
  const auto p6 = mul(r2 * (c[1] + c[3] + c[5] - c[7]), t6), p7 = mul(r2 * (c[1] + c[3] - c[5] - c[7]), t7);
  const auto q1 = mul(r2 * (c[7] - c[3]), z1), q2 = mul(r2 * (-c[1] - c[3]), z2);
  const auto q3 = add(mul(r2 * (-c[3] - c[5]), z3), z5), q4 = add(mul(r2 * (c[5] - c[3]), z4), z5);
  X[7] = add(add(p4, q1), q3);
  X[5] = add(add(p5, q2), q4);
  X[3] = add(add(p6, q2), q3);
  X[1] = add(add(p7, q1), q4);
  for (int i = 0; i < 8; ++i) b.output(fmt::format("X{}", i), X[i]);
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
  if (name == "ewf") return elliptic_wave_filter();
  if (name == "arf") return ar_lattice_filter();
  if (name == "dct8") return dct8();
  if (name.rfind("random:", 0) == 0) {
    // random:OPS[:SEED], both plain decimal: OPS in 1..kMaxRandomOps (the graph is held whole, about 100 bytes an
    // operation before scheduling), SEED any 64-bit value. "1e9", "-5" or "12x" are refused, never read as a prefix.
    const std::string rest = name.substr(7);
    const std::size_t colon = rest.find(':');
    const std::string ops_text = rest.substr(0, colon), seed_text = colon == std::string::npos ? "1" : rest.substr(colon + 1);
    const auto decimal = [](const std::string& t) {
      return !t.empty() && t.size() <= 20 && t.find_first_not_of("0123456789") == std::string::npos;
    };
    const auto bad = [&](const std::string& why) {
      return Error(fmt::format("graph: 'random:{}': {} (random:OPS:SEED, OPS in 1..{}, SEED >= 0)", rest, why,
                               kMaxRandomOps));
    };
    if (!decimal(ops_text)) throw bad(fmt::format("OPS '{}' is not a whole number", ops_text));
    if (!decimal(seed_text)) throw bad(fmt::format("SEED '{}' is not a whole number", seed_text));
    errno = 0;
    const unsigned long long ops = std::strtoull(ops_text.c_str(), nullptr, 10);
    const unsigned long long seed = std::strtoull(seed_text.c_str(), nullptr, 10);
    if (errno == ERANGE) throw bad("a number is too large");
    if (ops < 1 || ops > static_cast<unsigned long long>(kMaxRandomOps)) throw bad(fmt::format("OPS {} is out of range", ops));
    return random_dag(static_cast<int>(ops), seed);
  }
  throw Error(fmt::format("graph: unknown built-in '{}' (hal, ewf, arf, dct8, fir16, fir16chain, random:OPS:SEED)", name));
}

}  // namespace neaccel::sched
