// Wall-clock limits of the long searches (IlpOptions::time_limit_s, ModuloOptions::time_limit_s): results are the
// same bytes as without a limit while it is not reached; at the limit the best schedule found comes back (valid, not
// proven optimal unless it meets its bound, the algorithm says so), or with none found an error naming the limit.
#include "neaccel/dfg/builder.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace neaccel::sched {
namespace {

Problem make(const dfg::Graph& g, int mul, int add, int lm, int la, bool mp = true) {
  Problem p;
  p.graph = &g;
  p.classes = default_classes(mul, add, lm, la, mp, true);
  check(p);
  return p;
}
Problem make(const dfg::Graph&& g, int mul, int add, int lm, int la, bool mp = true) = delete;

void expect_same(const Schedule& a, const Schedule& b, const std::string& what) {
  EXPECT_EQ(a.algorithm, b.algorithm) << what;
  EXPECT_EQ(a.length, b.length) << what;
  EXPECT_EQ(a.ii, b.ii) << what;
  EXPECT_EQ(a.lower_bound, b.lower_bound) << what;
  EXPECT_EQ(a.proven_optimal, b.proven_optimal) << what;
  EXPECT_EQ(a.latency_bound, b.latency_bound) << what;
  ASSERT_EQ(a.slots.size(), b.slots.size()) << what;
  for (std::size_t v = 0; v < a.slots.size(); ++v) {
    EXPECT_EQ(a.slots[v].start, b.slots[v].start) << what << " node " << v;
    EXPECT_EQ(a.slots[v].instance, b.slots[v].instance) << what << " node " << v;
  }
}

// Reports collected from a progress callback.
struct Reports {
  std::vector<SearchProgress> seen;
  ProgressFn fn() {
    return [this](const SearchProgress& p) { seen.push_back(p); };
  }
  int done() const {
    int n = 0;
    for (const auto& p : seen) n += p.done ? 1 : 0;
    return n;
  }
};

// A limit that is not reached (and a progress callback) changes nothing: the node limit ends these searches (50
// nodes on 40-op random graphs without the combinatorial bounds, so branch and bound runs), deterministically.
TEST(TimeLimit, IlpUnchangedWhenNotReached) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto g = random_dag(40, seed);
    const auto p = make(g, 2, 2, 2, 1, seed % 2 == 0);
    IlpOptions plain;
    plain.max_nodes = 50;
    plain.trust_bounds = false;
    IlpOptions limited = plain;
    limited.time_limit_s = 1e6;
    Reports r;
    limited.progress = r.fn();
    const Schedule a = ilp_schedule(p, plain), b = ilp_schedule(p, limited);
    expect_same(a, b, "seed " + std::to_string(seed));
    EXPECT_EQ(b.algorithm.find("time limit"), std::string::npos);
    ASSERT_EQ(r.done(), 1) << "seed " << seed;
    EXPECT_TRUE(r.seen.back().done);
    EXPECT_FALSE(r.seen.back().time_limit);
    EXPECT_EQ(r.seen.back().best, b.length);
    EXPECT_EQ(r.seen.back().bound, b.lower_bound);
  }
}

// A limit already spent when the ILP would start: the list schedule comes back, valid, not proven optimal (without
// the combinatorial bounds nothing proves it), the algorithm naming the limit; the last report says the limit ended
// it.
TEST(TimeLimit, IlpAtTheLimitReturnsTheBestFound) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto g = random_dag(40, seed);
    const auto p = make(g, 2, 2, 2, 1, seed % 2 == 0);
    IlpOptions o;
    o.trust_bounds = false;
    o.time_limit_s = 1e-9;
    Reports r;
    o.progress = r.fn();
    const Schedule s = ilp_schedule(p, o);
    EXPECT_TRUE(verify(p, s).empty()) << "seed " << seed;
    EXPECT_LE(s.length, list_schedule(p, ListOptions{Priority::Height, 2, 8, 1}).length);
    EXPECT_GE(s.length, lower_bound(p));
    EXPECT_FALSE(s.proven_optimal);
    EXPECT_NE(s.algorithm.find("(time limit 1e-09 s)"), std::string::npos) << s.algorithm;
    ASSERT_EQ(r.done(), 1);
    EXPECT_TRUE(r.seen.back().time_limit);
    EXPECT_EQ(r.seen.back().best, s.length);
  }
}

// The limit stops branch and bound itself: without a node limit and without the combinatorial bounds, GLPK does
// not close this 40-op graph within seconds (gap 19 -> 16 after 3 s, hundreds of nodes); with 0.5 s it ends near
// the limit (allowed: 20 s, one node's work and a loaded machine) with a valid schedule and the tree's bound.
TEST(TimeLimit, IlpStopsBranchAndBound) {
  const auto g = random_dag(40, 1);
  const auto p = make(g, 2, 2, 2, 1, false);
  IlpOptions o;
  o.max_nodes = 0;
  o.trust_bounds = false;
  o.time_limit_s = 0.5;
  Reports r;
  o.progress = r.fn();
  const auto t0 = std::chrono::steady_clock::now();
  const Schedule s = ilp_schedule(p, o);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GE(took, 0.4);  // GLPK's own clock (tm_lim) may stop it a millisecond early
  EXPECT_LT(took, 20.0);
  EXPECT_TRUE(verify(p, s).empty());
  EXPECT_FALSE(s.proven_optimal);
  EXPECT_GT(s.lower_bound, 0);
  EXPECT_LT(s.lower_bound, s.length);
  EXPECT_NE(s.algorithm.find("(time limit 0.5 s)"), std::string::npos) << s.algorithm;
  ASSERT_FALSE(r.seen.empty());
  EXPECT_TRUE(r.seen.back().done && r.seen.back().time_limit);
  EXPECT_GT(r.seen.back().nodes, 0);
  EXPECT_EQ(r.seen.back().best, s.length);
  EXPECT_EQ(r.seen.back().bound, s.lower_bound);
}

TEST(TimeLimit, NegativeIsAnError) {
  const auto g = hal_diffeq();
  const auto p = make(g, 1, 1, 2, 1);
  IlpOptions o;
  o.time_limit_s = -1;
  EXPECT_THROW(ilp_schedule(p, o), Error);
  ModuloOptions m;
  m.time_limit_s = -1;
  EXPECT_THROW(modulo_schedule(p, m), Error);
}

// Modulo scheduling: a limit not reached changes nothing. The exact modulo ILP runs in these cases (node limit 100
// to keep the test short): EWF on 1 + 1 units, latencies 2/2, ends at the node limit; on 2 + 2 it proves the
// optimum; ARF with latencies 3/2 on 1 + 1 too.
TEST(TimeLimit, ModuloUnchangedWhenNotReached) {
  struct Case {
    const char* name;
    int units, lm, la;
  };
  for (const auto& c : {Case{"ewf", 1, 2, 2}, Case{"ewf", 2, 2, 2}, Case{"arf", 1, 3, 2}}) {
    const auto g = builtin_graph(c.name);
    const auto p = make(g, c.units, c.units, c.lm, c.la);
    ModuloOptions plain;
    plain.ilp.max_nodes = 100;
    ModuloOptions limited = plain;
    limited.time_limit_s = 1e6;
    Reports r;
    limited.progress = r.fn();
    const Schedule a = modulo_schedule(p, plain), b = modulo_schedule(p, limited);
    const std::string what = fmt::format("{} {}+{} lat {}/{}", c.name, c.units, c.units, c.lm, c.la);
    expect_same(a, b, what);
    bool ilp_ran = false;  // the ILP's last report of each call comes through as a progress report
    for (const auto& pr : r.seen) ilp_ran = ilp_ran || pr.phase.rfind("modulo/ilp", 0) == 0;
    EXPECT_TRUE(ilp_ran) << what << ": " << a.algorithm;
    ASSERT_EQ(r.done(), 1);
    EXPECT_FALSE(r.seen.back().time_limit);
    EXPECT_EQ(r.seen.back().best, b.length);
  }
}

// At the limit during the latency minimisation (EWF on 1 + 1 units, latencies 3/2: the exact ILP runs to its node
// limit of 300, about 3.5 s unloaded; the II search before it takes milliseconds): the II found and the shortest
// schedule so far, valid, latency not proven, the algorithm naming the limit.
TEST(TimeLimit, ModuloStopsTheLatencySearch) {
  const auto g = elliptic_wave_filter();
  const auto p = make(g, 1, 1, 3, 2);
  ModuloOptions o;
  o.time_limit_s = 0.5;
  Reports r;
  o.progress = r.fn();
  const Schedule s = modulo_schedule(p, o);
  Problem at = p;
  at.ii = s.ii;
  EXPECT_TRUE(verify(at, s).empty());
  EXPECT_EQ(s.ii, res_mii(p));
  EXPECT_FALSE(s.latency_optimal);
  EXPECT_GE(s.latency_bound, modulo_latency_bound(at));
  EXPECT_LT(s.latency_bound, s.length);
  EXPECT_NE(s.algorithm.find("(time limit 0.5 s)"), std::string::npos) << s.algorithm;
  ASSERT_EQ(r.done(), 1);
  EXPECT_TRUE(r.seen.back().time_limit);
  EXPECT_EQ(r.seen.back().best, s.length);
  EXPECT_EQ(r.seen.back().bound, s.latency_bound);
}

TEST(TimeLimit, ModuloWithoutAScheduleIsAnError) {
  const auto g = elliptic_wave_filter();
  const auto p = make(g, 1, 1, 2, 1);
  ModuloOptions o;
  o.time_limit_s = 1e-9;
  try {
    modulo_schedule(p, o);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("time limit 1e-09 s reached"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace neaccel::sched
