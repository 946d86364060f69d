// Exact modulo scheduling: on the classic HLS graphs, at every II from ResMII to the flat list schedule's
// length, with 1..3 pipelined units per class, the single-evaluation length of `modulo_schedule` is the minimum,
// proven by the modulo ILP's branch and bound or the combinatorial lower bound (a heuristic above the optimum makes
// the test fail: the ILP then finds the shorter schedule).
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace neaccel::sched {
namespace {

int count(const dfg::Graph& g, bool mul) {
  int k = 0;
  for (const auto& n : g.nodes)
    if (dfg::is_operation(n.op)) k += (n.op == dfg::Op::Mul) == mul ? 1 : 0;
  return k;
}

int cp(const dfg::Graph& g, int lm, int la) {
  Problem p;
  p.graph = &g;
  p.classes = default_classes(1, 1, lm, la);
  return critical_path(p);
}

// Published operation mixes and critical paths (hls_graphs.cpp cites the sources).
TEST(ClassicGraphs, OperationMixAndCriticalPath) {
  const auto ewf = elliptic_wave_filter();
  EXPECT_EQ(count(ewf, true), 8);
  EXPECT_EQ(count(ewf, false), 26);
  EXPECT_EQ(cp(ewf, 1, 1), 14);
  EXPECT_EQ(cp(ewf, 2, 1), 17);
  const auto arf = ar_lattice_filter();
  EXPECT_EQ(count(arf, true), 16);
  EXPECT_EQ(count(arf, false), 12);
  EXPECT_EQ(cp(arf, 1, 1), 8);
  const auto dct = dct8();
  EXPECT_EQ(count(dct, true), 12);
  EXPECT_EQ(count(dct, false), 32);
  EXPECT_THROW(builtin_graph("nope"), Error);
  EXPECT_EQ(builtin_graph("ewf").nodes.size(), ewf.nodes.size());
}

// The DCT graph computes the DCT-II (scaled as jfdctint.c: sqrt(2) for k > 0), checked against the definition.
TEST(ClassicGraphs, Dct8ComputesTheDct) {
  const auto g = dct8();
  const std::vector<double> x = {0.3, -1.2, 2.5, 0.7, -0.4, 1.9, -2.2, 0.15};
  const auto y = dfg::evaluate<double>(g, x);
  ASSERT_EQ(y.size(), 8u);
  const double pi = std::acos(-1.0);
  for (int k = 0; k < 8; ++k) {
    double ref = 0;
    for (int n = 0; n < 8; ++n) ref += x[n] * std::cos(pi * (2 * n + 1) * k / 16.0);
    if (k > 0) ref *= std::sqrt(2.0);
    EXPECT_NEAR(y[k], ref, 1e-12) << "X" << k;  // double rounding of ~10 operations on O(1) values
  }
}

TEST(ModuloExact, ClassicGraphsAtEveryIiAreAtTheProvenMinimum) {
  int cases = 0, heuristic_optimal = 0, exact_improved = 0;
  for (const char* name : {"hal", "ewf", "arf", "fir16", "dct8"}) {
    const auto g = builtin_graph(name);
    for (int mul = 1; mul <= 3; ++mul)
      for (int add = 1; add <= 3; ++add) {
        Problem p;
        p.graph = &g;
        p.classes = default_classes(mul, add, 2, 1);  // pipelined: multiplier 2 cycles, adder 1 (the EWF setting)
        check(p);
        const int flat = list_schedule(p).length;
        const int mii = res_mii(p);
        for (int ii = mii; ii <= flat; ++ii) {
          p.ii = ii;
          if (std::getenv("NEACCEL_TEST_TRACE")) std::fprintf(stderr, "%s %d+%d ii %d\n", name, mul, add, ii);
          const Schedule s = modulo_schedule(p);
          ASSERT_EQ(s.ii, ii) << name;
          const auto v = verify(p, s);
          ASSERT_TRUE(v.empty()) << name << " " << mul << "+" << add << " ii " << ii << ": " << v.front();
          // The proof, independent of the heuristics: the schedule's length reaches modulo_latency_bound() (critical
          // path, flat resource bounds; tested against ILP optima in test_algorithms.cpp), or the modulo ILP with
          // the schedule as incumbent and horizon closes its tree without finding anything shorter.
          IlpOptions o;
          o.max_nodes = 200000;
          const Schedule e = modulo_ilp_schedule(p, s, o);
          ASSERT_TRUE(e.proven_optimal) << name << " " << mul << "+" << add << " ii " << ii << ": bound " << e.lower_bound;
          EXPECT_EQ(s.length, e.length) << name << " " << mul << "+" << add << " ii " << ii;
          EXPECT_TRUE(s.latency_optimal) << name << " " << mul << "+" << add << " ii " << ii;
          EXPECT_EQ(s.latency_bound, s.length);
          ModuloOptions heur;
          heur.exact = false;
          const Schedule h = modulo_schedule(p, heur);
          ++cases;
          heuristic_optimal += h.length == e.length ? 1 : 0;
          exact_improved += s.algorithm.rfind("modulo/ilp", 0) == 0 ? 1 : 0;
        }
      }
  }
  std::printf("classic graphs: %d (graph, units, II) cases; heuristics alone optimal in %d, exact ILP needed in %d\n",
              cases, heuristic_optimal, exact_improved);
  EXPECT_GT(cases, 100);
}

// Deterministic: the effort limit counts nodes and simplex iterations, so a limited run repeats byte for byte.
TEST(ModuloExact, LimitedRunsRepeat) {
  const auto g = random_dag(60, 3);
  Problem p;
  p.graph = &g;
  p.classes = default_classes(2, 2, 3, 2);
  p.ii = res_mii(p);
  ModuloOptions o;
  o.ilp.max_nodes = 20;
  const Schedule a = modulo_schedule(p, o), b = modulo_schedule(p, o);
  ASSERT_EQ(a.slots.size(), b.slots.size());
  for (std::size_t v = 0; v < a.slots.size(); ++v) {
    EXPECT_EQ(a.slots[v].start, b.slots[v].start);
    EXPECT_EQ(a.slots[v].instance, b.slots[v].instance);
  }
  EXPECT_EQ(a.latency_bound, b.latency_bound);
  EXPECT_TRUE(verify(p, a).empty());
  EXPECT_LE(a.latency_bound, a.length);
}

}  // namespace
}  // namespace neaccel::sched

namespace neaccel::sched {
namespace {

// Register-aware list scheduling: at limits down to well below the unconstrained count, every schedule found is
// valid under the limit (verify() checks max live against it) and left-edge allocation stays within it; the port
// limits likewise.
TEST(RegisterAware, ListScheduleHonoursRegistersAndPorts) {
  int found = 0;
  for (const char* seed : {"ewf", "arf", "dct8", "fir16", "hal"}) {
    const auto g = builtin_graph(seed);
    Problem p;
    p.graph = &g;
    p.classes = default_classes(2, 2, 3, 2);
    Schedule free = list_schedule(p);
    allocate_registers(p, free);
    for (int pct : {90, 80, 70, 60}) {
      Problem q = p;
      q.max_registers = std::max(1, free.num_registers * pct / 100);
      Schedule s;
      try {
        s = list_schedule(q);
      } catch (const Error&) {
        continue;  // the heuristic found nothing at this limit (allowed; counted below)
      }
      allocate_registers(q, s);
      const auto v = verify(q, s);
      EXPECT_TRUE(v.empty()) << "seed " << seed << " " << pct << "%: " << v.front();
      EXPECT_LE(s.num_registers, q.max_registers);
      ++found;
    }
    Problem ports = p;
    ports.read_ports = 3;
    ports.write_ports = 2;
    const Schedule s = list_schedule(ports);
    const auto v = verify(ports, s);
    EXPECT_TRUE(v.empty()) << "seed " << seed << " ports: " << v.front();
  }
  std::printf("register-aware list schedules found at 90/80/70/60 %% of the unconstrained count: %d of 20\n", found);
  // On these small graphs inputs and outputs (held to the end) dominate the count: the greedy pass often finds
  // nothing below 90 % (measured: 2 of 20). Validity is what is checked; at least one point must be found.
  EXPECT_GE(found, 1);
}

}  // namespace
}  // namespace neaccel::sched

namespace neaccel::sched {
namespace {

// verify()'s rule for a modulo schedule without a register assignment: the values alive per congruence class
// (summed over overlapping evaluations) must fit max_registers. The count is recomputed here from lifetimes().
TEST(RegisterAware, VerifyChecksModuloLiveAgainstTheLimit) {
  const auto g = builtin_graph("ewf");
  Problem p;
  p.graph = &g;
  p.classes = default_classes(2, 2, 3, 2);
  p.ii = res_mii(p);
  ModuloOptions o;
  o.exact = false;
  const Schedule s = modulo_schedule(p, o);
  p.ii = s.ii;
  std::vector<int> live(static_cast<std::size_t>(s.ii), 0);
  for (const auto& lt : lifetimes(p, s))
    for (int c = lt.begin; c < lt.end; ++c) ++live[static_cast<std::size_t>(c % s.ii)];
  const int peak = *std::max_element(live.begin(), live.end());
  Problem q = p;
  q.max_registers = peak;
  EXPECT_TRUE(verify(q, s).empty());
  q.max_registers = peak - 1;
  const auto v = verify(q, s);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_NE(v.front().find("values alive at congruence class"), std::string::npos) << v.front();
}

// Register-aware modulo scheduling: under a limit below the unconstrained count the schedule found is valid, within
// the limit (verify() with the limit), at an II >= the unconstrained one, and repeats byte for byte; the lifetime
// pass keeps II and length and never lengthens the lifetimes; an impossible limit is an Error.
TEST(RegisterAware, ModuloScheduleHonoursTheLimit) {
  int found = 0;
  for (const char* name : {"ewf", "arf", "dct8", "fir16", "hal"}) {
    const auto g = builtin_graph(name);
    Problem p;
    p.graph = &g;
    p.classes = default_classes(2, 2, 3, 2);
    const Schedule free = modulo_schedule(p);
    Problem at = p;
    at.ii = free.ii;
    const int live = max_live(at, free);
    const Schedule shorter = modulo_shorten_lifetimes(at, free);
    EXPECT_TRUE(verify(at, shorter).empty()) << name;
    EXPECT_EQ(shorter.length, free.length);
    long before = 0, after = 0;
    for (const auto& lt : lifetimes(at, free)) before += lt.end - lt.begin;
    for (const auto& lt : lifetimes(at, shorter)) after += lt.end - lt.begin;
    EXPECT_LE(after, before) << name;
    for (int pct : {90, 80}) {
      Problem q = p;
      q.max_registers = std::max(1, live * pct / 100);
      Schedule s, s2;
      try {
        s = modulo_register_schedule(q, ModuloOptions{});
        s2 = modulo_register_schedule(q, ModuloOptions{});
      } catch (const Error&) {
        continue;
      }
      Problem qi = q;
      qi.ii = s.ii;
      const auto v = verify(qi, s);
      EXPECT_TRUE(v.empty()) << name << " " << pct << "%: " << v.front();
      EXPECT_LE(max_live(qi, s), q.max_registers);
      EXPECT_GE(s.ii, free.ii);
      ASSERT_EQ(s.slots.size(), s2.slots.size());
      for (std::size_t k = 0; k < s.slots.size(); ++k) EXPECT_EQ(s.slots[k].start, s2.slots[k].start);
      ++found;
    }
    Problem none = p;
    none.max_registers = 1;
    EXPECT_THROW(modulo_register_schedule(none, ModuloOptions{}), Error) << name;
  }
  std::printf("register-aware modulo schedules found at 90/80 %% of the unconstrained max live: %d of 10\n", found);
  EXPECT_GE(found, 1);
}

}  // namespace
}  // namespace neaccel::sched
