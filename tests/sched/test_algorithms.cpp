// Algorithms on hand-written HLS graphs with optima derived by hand, and on random DAGs (every schedule verified).
#include "neaccel/dfg/builder.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"

#include <gtest/gtest.h>

namespace neaccel::sched {
namespace {

Problem make(const dfg::Graph& g, int mul, int add, int lm, int la, bool mp = true, bool ap = true) {
  Problem p;
  p.graph = &g;
  p.classes = default_classes(mul, add, lm, la, mp, ap);
  check(p);
  return p;
}
// A Problem points to its graph: a temporary would dangle (ASan found one: stack-use-after-scope).
Problem make(const dfg::Graph&& g, int mul, int add, int lm, int la, bool mp = true, bool ap = true) = delete;

void expect_valid(const Problem& p, const Schedule& s) {
  const auto v = verify(p, s);
  EXPECT_TRUE(v.empty()) << s.algorithm << ": " << v.front();
}

// Hand-derived optima of HAL (node names as in hls_graphs.cpp; "ALU" = the add class, which runs add/sub/cmp).
// (a) 2 mul + 1 ALU, latency 1: the ALU has 5 ops -> >= 5; the schedule in test_check_verify.cpp has 5.
// (b) 1 mul + 1 ALU, latency 1: 6 muls take cycles 0..5; the last is m5 (then s1, u1: length 8) or m6 (then u1:
//     length 7); m6 last with m5 at <= 4, s1 at 5, u1 at 6 gives 7.
// (c) 2 pipelined muls of latency 2 + 1 ALU: the critical path 3x -> m5 -> s1 -> u1 is 2+2+1+1 = 6, reached.
// (d) 1 non-pipelined mul of latency 2 + 1 ALU: the multiplier is busy 12 cycles; m6 last ends at 12, u1 at 12
//     ends at 13.
struct HalCase {
  int mul, add, lm, la;
  bool mp;
  int optimum;
};

class HalOptimum : public ::testing::TestWithParam<HalCase> {};

TEST_P(HalOptimum, BoundsListAndIlp) {
  const auto c = GetParam();
  const auto g = hal_diffeq();
  const auto p = make(g, c.mul, c.add, c.lm, c.la, c.mp);
  EXPECT_LE(lower_bound(p), c.optimum);
  const auto l = list_schedule(p);
  expect_valid(p, l);
  EXPECT_GE(l.length, c.optimum);
  IlpOptions o;
  const auto s = ilp_schedule(p, o);
  expect_valid(p, s);
  EXPECT_EQ(s.length, c.optimum);
  EXPECT_TRUE(s.proven_optimal);
  o.trust_bounds = false;  // the same optimum proven by branch and bound alone
  const auto t = ilp_schedule(p, o);
  expect_valid(p, t);
  EXPECT_EQ(t.length, c.optimum);
  EXPECT_TRUE(t.proven_optimal);
}

INSTANTIATE_TEST_SUITE_P(Hand, HalOptimum,
                         ::testing::Values(HalCase{2, 1, 1, 1, true, 5}, HalCase{1, 1, 1, 1, true, 7},
                                           HalCase{2, 1, 2, 1, true, 6}, HalCase{1, 1, 2, 1, false, 13},
                                           HalCase{6, 5, 1, 1, true, 4}),
                         [](const ::testing::TestParamInfo<HalCase>& i) {
                           const auto& c = i.param;
                           return "mul" + std::to_string(c.mul) + "add" + std::to_string(c.add) + "lat" +
                                  std::to_string(c.lm) + std::to_string(c.la) + (c.mp ? "p" : "np");
                         });

// A random DAG where the plain list schedule (16) misses the bound (15) and the ILP closes the gap.
TEST(Ilp, ClosesTheGapOnARandomDag) {
  const auto g = random_dag(40, 4);
  const auto p = make(g, 2, 2, 2, 1);
  ListOptions plain;
  plain.backward_forward = 0;
  EXPECT_GT(list_schedule(p, plain).length, lower_bound(p));
  const auto s = ilp_schedule(p);
  expect_valid(p, s);
  EXPECT_EQ(s.length, lower_bound(p));
  EXPECT_TRUE(s.proven_optimal);
  EXPECT_EQ(s.algorithm, "ilp");
}

TEST(Bounds, HalCriticalPathAndLoads) {
  const auto g = hal_diffeq();
  const auto p = make(g, 1, 1, 1, 1);
  EXPECT_EQ(critical_path(p), 4);   // 3x -> m5 -> s1 -> u1
  EXPECT_EQ(class_loads(p), (std::vector<int>{6, 5}));
  EXPECT_EQ(resource_bound(p), 6);  // 6 muls on one multiplier
  EXPECT_EQ(lower_bound(p), 7);     // head-body-tail: the last mul is followed by at least one ALU op
  const auto m = mobility(p);
  EXPECT_EQ(m[6], 0);               // 3x is critical
  EXPECT_EQ(m[10], 2);              // x1 at 0..2 (c after it by 3)
  EXPECT_EQ(asap(p).slots[14].start, 3);
  EXPECT_EQ(alap(p, 6).slots[10].start, 4);
}

// FIR, 16 taps. Tree, 2 mul + 1 add (latency 1): 15 adds on one adder, the first not before cycle 1 -> 16;
// the interleaving in the tree reaches it. Chain, 1 + 1: the last add needs the last product (ready at 16) -> 17.
TEST(Ilp, FirOptima) {
  const auto tree = fir(16, true);
  const auto p1 = make(tree, 2, 1, 1, 1);
  const auto s1 = ilp_schedule(p1);
  expect_valid(p1, s1);
  EXPECT_EQ(s1.length, 16);
  EXPECT_TRUE(s1.proven_optimal);
  const auto chain = fir(16, false);
  const auto p2 = make(chain, 1, 1, 1, 1);
  const auto s2 = ilp_schedule(p2);
  expect_valid(p2, s2);
  EXPECT_EQ(s2.length, 17);
  EXPECT_EQ(critical_path(make(chain, 16, 15, 1, 1)), 16);  // 1 mul + 15 chained adds
  EXPECT_EQ(critical_path(make(tree, 16, 15, 1, 1)), 5);    // 1 mul + log2(16) adds
}

// Random DAGs: the ILP is never worse than the list schedule nor better than the bound; all verified.
TEST(Ilp, RandomDagsBetweenBoundAndHeuristic) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const auto g = random_dag(40, seed);
    const auto p = make(g, 2, 2, 2, 1, seed % 2 == 0);
    const auto l = list_schedule(p);
    expect_valid(p, l);
    IlpOptions o;
    const auto s = ilp_schedule(p, o);
    expect_valid(p, s);
    EXPECT_LE(s.length, l.length);
    EXPECT_GE(s.length, lower_bound(p));
    EXPECT_GE(s.length, s.lower_bound);
  }
}

// The combinatorial bounds checked by the ILP run without them: every proven optimum is >= lower_bound().
TEST(Ilp, ProvenOptimaRespectTheBounds) {
  int proven = 0;
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    const auto g = random_dag(16, seed, 0.5, 4, 8);
    const auto p = make(g, 1 + seed % 2, 1 + seed % 3, 1 + seed % 3, 1 + seed % 2, seed % 4 != 0, seed % 4 != 1);
    IlpOptions o;
    o.trust_bounds = false;
    const auto s = ilp_schedule(p, o);
    expect_valid(p, s);
    if (!s.proven_optimal) continue;
    ++proven;
    EXPECT_GE(s.length, lower_bound(p)) << "seed " << seed;
    EXPECT_LE(s.length, list_schedule(p).length);
  }
  EXPECT_GE(proven, 4);  // small graphs: GLPK proves most within the limit
}

TEST(List, PrioritiesAndImprovementAreValid) {
  const auto g = random_dag(600, 7);
  for (int lm : {1, 3}) {
    const auto p = make(g, 3, 2, lm, 2, lm == 1, false);
    for (auto pr : {Priority::Height, Priority::Mobility, Priority::Provenance}) {
      ListOptions o;
      o.priority = pr;
      o.backward_forward = 0;
      const auto plain = list_schedule(p, o);
      expect_valid(p, plain);
      o.backward_forward = 3;
      o.restarts = 5;
      const auto better = list_schedule(p, o);
      expect_valid(p, better);
      EXPECT_LE(better.length, plain.length);
      EXPECT_GE(better.length, better.lower_bound);
      EXPECT_EQ(better.lower_bound, lower_bound(p));
    }
  }
}

TEST(List, DeterministicWithSeed) {
  const auto g = random_dag(300, 3);
  const auto p = make(g, 2, 2, 3, 2);
  ListOptions o;
  o.restarts = 10;
  o.seed = 42;
  const auto a = list_schedule(p, o), b = list_schedule(p, o);
  ASSERT_EQ(a.slots.size(), b.slots.size());
  for (std::size_t v = 0; v < a.slots.size(); ++v) EXPECT_EQ(a.slots[v].start, b.slots[v].start);
}

TEST(Bind, RebindingAndRegistersAreValidAndMinimal) {
  const auto g = random_dag(300, 5);
  const auto p = make(g, 2, 3, 3, 2, false, true);
  auto s = list_schedule(p);
  for (auto& sl : s.slots) sl.instance = -1;
  bind_units(p, s);
  allocate_registers(p, s);
  expect_valid(p, s);
  EXPECT_EQ(s.num_registers, max_live(p, s));  // left edge is optimal on intervals
}

TEST(Modulo, ReachesResMiiWithPipelinedUnits) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto g = random_dag(200, seed);
    auto p = make(g, 3, 2, 4, 2);
    const auto s = modulo_schedule(p);
    p.ii = s.ii;
    expect_valid(p, s);
    EXPECT_EQ(s.ii, res_mii(p));
    EXPECT_EQ(s.stages, (s.length + s.ii - 1) / s.ii);
    EXPECT_GE(s.length, critical_path(p));
  }
}

TEST(Modulo, NonPipelinedUnitsAreValid) {
  const auto g = hal_diffeq();
  auto p = make(g, 2, 1, 3, 2, false, false);
  const auto s = modulo_schedule(p);
  EXPECT_GE(s.ii, res_mii(p));  // ResMII = max(ceil(6*3/2), ceil(5*2/1)) = 10
  EXPECT_EQ(res_mii(p), 10);
  p.ii = s.ii;
  expect_valid(p, s);
}

// allocate_registers keeps one register per value (no modulo variable expansion, that is hw::build_stream's job):
// a lifetime longer than ii is refused with a message naming the node; once ii covers every lifetime, registers are
// allocated and verified.
TEST(Modulo, RegistersOnlyWhenEveryLifetimeFitsTheIi) {
  const auto g = hal_diffeq();
  auto p = make(g, 1, 1, 1, 1);
  ModuloOptions ims;  // Rau's scheduler alone: its schedule at ii 6 keeps a value longer than ii (the shorter
  ims.list = false;   // schedules of the modulo list scheduler and the ILP happen to fit)
  ims.exact = false;
  auto s = modulo_schedule(p, ims);  // ii = 6 (six muls on one multiplier)
  p.ii = s.ii;
  EXPECT_EQ(s.ii, 6);
  try {
    allocate_registers(p, s);
    ADD_FAILURE() << "a lifetime longer than ii 6 was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("> ii 6 (needs modulo variable expansion"), std::string::npos) << e.what();
  }
  bool allocated = false;
  for (int ii = 7; ii <= 40 && !allocated; ++ii) {
    p.ii = ii;
    s = modulo_schedule(p);
    p.ii = s.ii;
    try {
      allocate_registers(p, s);
    } catch (const Error&) {
      continue;  // a lifetime still longer than this ii
    }
    allocated = true;
    expect_valid(p, s);
    EXPECT_GE(s.num_registers, max_live(p, s));
  }
  EXPECT_TRUE(allocated) << "no ii up to 40 gave lifetimes that fit";
}

TEST(ModuloList, ValidAtResMiiAndShortWhenIiAllowsIt) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto g = random_dag(200, seed);
    auto p = make(g, 3, 2, 4, 2);
    p.ii = res_mii(p);
    const auto s = modulo_list_schedule(p);
    expect_valid(p, s);
    EXPECT_EQ(s.ii, p.ii);
    EXPECT_GE(s.length, critical_path(p));
    // At an II as long as the list schedule there is room for a list-like schedule: at most two stages.
    auto q = make(g, 3, 2, 4, 2);
    q.ii = list_schedule(q).length;
    const auto m = modulo_list_schedule(q);
    expect_valid(q, m);
    EXPECT_LE(m.stages, 2);
  }
  const auto hal = hal_diffeq();
  auto p = make(hal, 2, 1, 3, 2, false, false);
  p.ii = 3;  // below the non-pipelined occupancy
  EXPECT_THROW(modulo_list_schedule(p), Error);
}

}  // namespace
}  // namespace neaccel::sched

namespace neaccel::sched {
namespace {

// The shape of the Newton-Euler graphs: many products of inputs, summed, then a chain toward one output
// (acc = acc * s_i + t_i, Horner-like, the backward recursion). With one multiplier at II = ResMII every multiplier
// slot is taken: a forward pass fills them from cycle 0 with the products and leaves the chain's multiplications
// congruence classes a whole II away; backward, the products go last and take whatever classes are left.
dfg::Graph wide_then_chain(int products, int chain) {
  dfg::Builder b;
  std::vector<dfg::NodeId> in;
  for (int i = 0; i < 8; ++i) in.push_back(b.input("x" + std::to_string(i)));
  auto x = [&](int i) { return in[static_cast<std::size_t>(i % 8)]; };
  std::vector<dfg::NodeId> sums;
  for (int i = 0; i + 1 < products; i += 2)
    sums.push_back(b.op(dfg::Op::Add, b.op(dfg::Op::Mul, x(i), x(i + 3)), b.op(dfg::Op::Mul, x(i + 1), x(i + 5))));
  dfg::NodeId acc = sums[0];
  for (int i = 1; i <= chain; ++i)
    acc = b.op(dfg::Op::Add, b.op(dfg::Op::Mul, acc, sums[static_cast<std::size_t>(i) % sums.size()]), x(i));
  b.output("y", acc);
  return b.take();
}

// Every pass alone gives a valid schedule; together never longer than any alone; the backward pass is what keeps
// the wide-then-chain graph near its flat length at II = ResMII.
TEST(ModuloList, PassesAreValidAndTheBestIsKept) {
  const ModuloListOptions only_forward{true, false, false, false}, only_flat{false, true, false, false},
      only_backward{false, false, true, false}, only_backward_flat{false, false, false, true};
  for (int chain : {8, 16, 24}) {
    const auto g = wide_then_chain(60, chain);
    auto p = make(g, 1, 1, 3, 2);
    p.ii = res_mii(p);
    const auto all = modulo_list_schedule(p);
    expect_valid(p, all);
    int shortest = 1 << 30;
    for (const auto& o : {only_forward, only_flat, only_backward, only_backward_flat}) {
      const auto s = modulo_list_schedule(p, o);
      expect_valid(p, s);
      shortest = std::min(shortest, s.length);
    }
    EXPECT_EQ(all.length, shortest) << chain;
    const int forward = modulo_list_schedule(p, only_forward).length;
    const int backward = modulo_list_schedule(p, only_backward).length;
    const int flat = list_schedule(make(g, 1, 1, 3, 2)).length;
    std::printf("chain %d: ii %d, flat list %d, forward %d, backward %d\n", chain, p.ii, flat, forward, backward);
    // A short chain leaves the multiplier slots of its tail free anyway (all passes equal, measured: 72 at chain 8);
    // from 16 on (measured: forward 232 / 423, backward 155 / 172) the backward pass wins.
    if (chain >= 16) {
      EXPECT_LT(backward, forward) << chain;
    }
  }
  const auto small = wide_then_chain(20, 4);
  auto p = make(small, 1, 1, 3, 2);
  p.ii = res_mii(p);
  EXPECT_THROW(modulo_list_schedule(p, {false, false, false, false}), Error);
}

}  // namespace
}  // namespace neaccel::sched

namespace neaccel::sched {
namespace {

// I/O overlapped with the recursion (bounds.hpp, io_overlap), derived by hand on the 4-tap FIR chain (mul and add
// latency 1: y = ((c0 x0 + c1 x1) + c2 x2) + c3 x3, critical path 4). Tails toward y: x0, c0, x1, c1 4; x2, c2 3;
// x3, c3 2. Two words per cycle, largest tail first: x0 x1 | c0 c1 | x2 c2 | x3 c3 in beats 0..3, usable from 1..4;
// the last products are ready at 5, y at 6, leaving in cycle 6: 7 cycles, 3 of them I/O; no order does better
// (the last beat is at least 3, then a product and an add).
TEST(IoOverlap, FirChainByHand) {
  const auto g = fir(4, false);
  const auto p = make(g, 4, 3, 1, 1);
  const IoOverlap two = io_overlap(p, 2);
  EXPECT_EQ(two.critical_path, 4);
  EXPECT_EQ(two.input_order, (std::vector<int>{0, 1, 4, 5, 2, 6, 3, 7}));
  EXPECT_EQ(two.release, (std::vector<int>{1, 1, 3, 4, 2, 2, 3, 4}));
  EXPECT_EQ(two.achieved, 7);
  EXPECT_EQ(two.bound, 7);
  EXPECT_EQ(two.hidden_io_bound(), 3);
  // Every word in the first beat: one cycle to load, the computation, one cycle to unload.
  const IoOverlap all = io_overlap(p, 8);
  EXPECT_EQ(all.achieved, 6);
  EXPECT_EQ(all.bound, 6);
  EXPECT_EQ(all.hidden_io_bound(), 2);
  // The coefficients resident (a parameter memory): x0..x3 one per cycle, usable from 1..4.
  Problem resident = p;
  resident.resident = {0, 0, 0, 0, 1, 1, 1, 1};
  const IoOverlap r = io_overlap(resident, 1);
  EXPECT_EQ(r.port_inputs, 4);
  EXPECT_EQ(r.input_order, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(r.achieved, 7);
  EXPECT_EQ(r.bound, 7);
  EXPECT_THROW(io_overlap(p, 0), Error);
}

// Four outputs ready together leave one per cycle: y_i = x_i * c, all inputs in one beat, ready at 2, out at 2..5.
TEST(IoOverlap, OutputsLeaveOnePerCycle) {
  dfg::Builder b;
  std::vector<dfg::NodeId> x;
  for (int i = 0; i < 4; ++i) x.push_back(b.input("x" + std::to_string(i)));
  const auto c = b.input("c");
  for (int i = 0; i < 4; ++i) b.output("y" + std::to_string(i), b.op(dfg::Op::Mul, x[i], c));
  const dfg::Graph g = b.take();
  const auto p = make(g, 4, 1, 1, 1);
  const IoOverlap o = io_overlap(p, 5);
  EXPECT_EQ(o.critical_path, 1);
  EXPECT_EQ(o.achieved, 6);
  EXPECT_EQ(o.bound, 6);
  EXPECT_EQ(o.output_order, (std::vector<int>{0, 1, 2, 3}));
}

// Input release times (Problem::release, inputs loaded while the recursion runs): the list scheduler starts no op
// before the inputs it reads are in, and on unlimited units reaches io_overlap's construction; verify() reports an op
// that reads an input before its release; an input's register lifetime begins at its release.
TEST(IoOverlap, ListScheduleHonoursReleases) {
  const auto g = fir(4, false);
  for (int k : {1, 2, 8}) {
    auto p = make(g, 4, 3, 1, 1);
    const IoOverlap o = io_overlap(p, k);
    p.release = o.release;
    Schedule s = list_schedule(p);
    allocate_registers(p, s);
    expect_valid(p, s);
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
      const auto& nd = g.nodes[v];
      if (!dfg::is_operation(nd.op)) continue;
      for (int a = 0; a < dfg::arity(nd.op); ++a) {
        if (g.nodes[nd.arg[a]].op != dfg::Op::Input) continue;
        EXPECT_GE(s.slots[v].start, o.release[g.nodes[nd.arg[a]].input]) << "node " << v << " in_words " << k;
      }
    }
    // One output: it leaves in the cycle it is computed, so the span is length + 1 = what io_overlap achieves.
    EXPECT_EQ(s.length + 1, o.achieved) << "in_words " << k;
    for (const auto& lt : lifetimes(p, s)) {
      if (g.nodes[lt.node].op != dfg::Op::Input) continue;
      EXPECT_EQ(lt.begin, o.release[g.nodes[lt.node].input]);
    }
    // An op moved one cycle before the release of an input it reads: a dependence violation naming the input.
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
      const auto& nd = g.nodes[v];
      if (nd.op != dfg::Op::Mul || g.nodes[nd.arg[0]].op != dfg::Op::Input) continue;
      Schedule bad = s;
      bad.slots[v].start = o.release[g.nodes[nd.arg[0]].input] - 1;
      bool named = false;
      for (const auto& m : verify(p, bad))
        named = named || m.find("(input '" + g.inputs[g.nodes[nd.arg[0]].input] + "') arrives at") != std::string::npos;
      EXPECT_TRUE(named) << "node " << v << " in_words " << k;
      break;
    }
  }
  Problem wrong = make(g, 4, 3, 1, 1);
  wrong.release = {1, 2};
  EXPECT_THROW(check(wrong), Error);
  wrong.release.assign(g.inputs.size(), -1);
  EXPECT_THROW(check(wrong), Error);
  wrong.release.assign(g.inputs.size(), 1);
  wrong.ii = 2;
  EXPECT_THROW(check(wrong), Error);
}

// Random DAGs: the bound never exceeds what the construction achieves, nor falls below the computation alone
// plus the first beat.
TEST(IoOverlap, RandomDagsBoundBelowAchieved) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto g = random_dag(60, seed);
    const auto p = make(g, 3, 3, 3, 2);
    for (int k : {1, 2, 4, 16}) {
      const IoOverlap o = io_overlap(p, k);
      EXPECT_LE(o.bound, o.achieved) << "seed " << seed << " in_words " << k;
      EXPECT_GE(o.bound, o.critical_path + 1) << "seed " << seed << " in_words " << k;
    }
  }
}

}  // namespace
}  // namespace neaccel::sched
