// dp.stream.*: streaming datapaths (modulo schedule -> modulo variable expansion -> kernel with stage predicates)
// through the cycle core: 100+ set points streamed back to back, every result bit-identical to the graph in the
// format and in order, the measured initiation interval (cycles between successive results) equal to the claimed
// II, the measured latency equal to the claimed span; verify_stream catches a broken register assignment; --ii
// below the minimum is a one-line error.
#include "dp_configs.hpp"
#include "support.hpp"

#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel {
namespace {

// Checks one streaming run against the graph and the claims; returns the max relative error against double.
// puma560 customised, fp32, 2 mul + 2 add (default latencies), streaming at the minimum II.
hw::DesignSpec puma560_stream_spec() {
  hw::DesignSpec spec;
  spec.robot = "puma560";
  spec.custom = true;
  spec.mul = spec.add = 2;
  spec.ii = hw::kStreamMinII;
  return spec;
}

// n random states of a design (appended to x) and their words in its number format.
std::vector<std::vector<std::uint32_t>> random_set_points(const hw::Design& d, int n, std::uint64_t seed,
                                                          std::vector<std::vector<double>>& x) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<std::uint32_t>> raw;
  for (int k = 0; k < n; ++k) {
    x.push_back(hw::random_state(d, rng));
    raw.push_back(hw::encode(d.dp.config.format, x.back()));
  }
  return raw;
}

double check_stream(const dfg::Graph& g, const hw::Datapath& dp, const std::vector<std::vector<double>>& x) {
  const auto& f = dp.config.format;
  std::vector<std::vector<std::uint32_t>> raw;
  for (const auto& s : x) raw.push_back(hw::encode(f, s));
  const auto r = dptest::run_core_stream(dp, raw);
  EXPECT_EQ(r.out.size(), x.size());
  EXPECT_EQ(r.first_in.size(), x.size());
  double max_err = 0;
  for (std::size_t k = 0; k < x.size() && k < r.out.size(); ++k) {
    const auto want = hw::golden_raw(g, f, x[k]);
    const auto ref = hw::reference(g, x[k]);
    EXPECT_EQ(r.out[k].size(), want.size());
    double scale = 1;
    for (double t : ref) scale = std::max(scale, std::abs(t));
    for (std::size_t o = 0; o < want.size() && o < r.out[k].size(); ++o) {
      EXPECT_TRUE(hw::same(f, r.out[k][o], want[o])) << "set point " << k << " out " << o;
      max_err = std::max(max_err, std::abs(hw::decode(f, r.out[k][o]) - ref[o]) / scale);
    }
    // Latency: first input word taken to last result word, inclusive.
    EXPECT_EQ(r.last_out[k] - r.first_in[k] + 1, dp.latency()) << "set point " << k;
    if (k > 0) {  // measured II: successive results (and successive admissions)
      EXPECT_EQ(r.first_out[k] - r.first_out[k - 1], dp.stream.ii) << "set point " << k;
      EXPECT_EQ(r.first_in[k] - r.first_in[k - 1], dp.stream.ii) << "set point " << k;
    }
  }
  // Start to DONE: IDLE (1) + N set points II apart + the last one's span + drain to the next launch word.
  EXPECT_LE(r.cycles, 1 + static_cast<long>(x.size() - 1) * dp.stream.ii + dp.latency() + dp.stream.ii + 1);
  return max_err;
}

struct StreamPoint {
  dptest::DesignPoint design;
  int ii;  // 0: the minimum
  std::string name() const { return design.name() + "_ii" + std::to_string(ii); }
};

class stream : public ::testing::TestWithParam<StreamPoint> {};

TEST_P(stream, HundredSetPointsBitExactInOrderAtClaimedII) {
  const StreamPoint pt = GetParam();
  hw::DesignSpec spec = pt.design.spec();
  spec.ii = pt.ii > 0 ? pt.ii : hw::kStreamMinII;
  const hw::Design d = hw::make_design(spec);  // verify_stream runs inside
  ASSERT_TRUE(d.dp.streaming());
  ASSERT_TRUE(hw::verify_stream(*d.graph, d.dp).empty());
  const auto m = hw::min_ii(d.problem);
  if (pt.ii == 0) EXPECT_EQ(d.dp.stream.ii, m.value());
  else EXPECT_EQ(d.dp.stream.ii, pt.ii);
  std::mt19937_64 rng(2027);
  std::vector<std::vector<double>> x;
  for (int k = 0; k < 100; ++k) x.push_back(hw::random_state(d, rng));
  const double err = check_stream(*d.graph, d.dp, x);
  EXPECT_LE(err, 1e-4);
  const auto& st = d.dp.stream;
  auto latency_spec = spec;
  latency_spec.ii = 0;
  const hw::Design lat = hw::make_design(latency_spec);  // the latency datapath of the same units, for comparison
  std::printf("%s: latency datapath %d cycles per set point, %d registers, %zu words x %d bits\n",
              pt.name().c_str(), lat.dp.cycles(), lat.dp.num_regs, lat.dp.program.size(),
              lat.dp.config.word_bits());
  std::printf("%s: nodes %zu II %d (sched %d, ResMII %d, I/O %d) length %d span %d stages %d copies %d kernel %zu "
              "registers %d (max live %d, longest lifetime %d) consts %zu word %d bits max_rel_error %.3g\n",
              pt.name().c_str(), d.graph->nodes.size(), st.ii, st.ii_sched, m.res_mii, st.ii_io, d.dp.length,
              st.span, st.stages, st.copies, d.dp.program.size(), d.dp.num_regs, st.max_live, st.max_lifetime,
              d.dp.consts.size(), d.dp.config.word_bits(), err);
  EXPECT_GE(d.dp.num_regs, st.max_live);
}

INSTANTIATE_TEST_SUITE_P(
    Points, stream,
    ::testing::Values(StreamPoint{{"puma560", true, "fp32", 2, 2, 3, 2, true}, 0},
                      StreamPoint{{"puma560", true, "fp32", 2, 2, 3, 2, true}, 113},  // above the minimum II
                      StreamPoint{{"puma560", true, "fp32", 2, 2, 3, 3, true}, 0},
                      StreamPoint{{"puma560", true, "fixed:12.20", 1, 1, 1, 1, true}, 0},
                      StreamPoint{{"puma560", false, "fp32", 2, 2, 3, 2, true}, 0},  // I/O bound (285 inputs)
                      StreamPoint{{"stanford", true, "fp32", 2, 2, 3, 2, true}, 150},  // above the minimum
                      StreamPoint{{"random:5:5", true, "fp32", 2, 2, 3, 2, true}, 0},
                      StreamPoint{{"random:4:2", true, "fixed:12.20", 1, 1, 1, 1, true}, 0},
                      StreamPoint{{"random:3:7", true, "fp32", 1, 2, 4, 3, false}, 0}),
    [](const auto& info) { return info.param.name(); });

// A general graph (not a robot): random DAGs, modulo scheduled at the minimum II and above.
TEST(stream, RandomGraphsBitExactAtClaimedII) {
  for (std::uint32_t seed = 1; seed <= 4; ++seed) {
    const auto g = dptest::random_graph(seed, 6, 60, 3);
    for (int extra : {0, 5}) {
      auto p = dptest::make_problem(g, 2, 1, 3, 2);
      sched::Schedule s;
      const int ii = hw::min_ii(p).value() + extra;
      const auto dp = hw::stream_datapath(g, p, s, hw::NumberFormat{}, ii);
      EXPECT_EQ(dp.stream.ii, ii);
      std::mt19937 rng(seed);
      std::vector<std::vector<double>> x;
      for (int k = 0; k < 100; ++k) x.push_back(dptest::random_inputs(rng, g.inputs.size()));
      check_stream(g, dp, x);
    }
  }
}

// Modulo variable expansion is needed: some value lives longer than II, and K > 1 copies are used.
TEST(stream, LongLifetimesUseRegisterCopies) {
  hw::DesignSpec spec = puma560_stream_spec();
  const auto d = hw::make_design(spec);
  EXPECT_GT(d.dp.stream.max_lifetime, d.dp.stream.ii);
  EXPECT_GE(d.dp.stream.copies, 2);
  EXPECT_EQ(static_cast<int>(d.dp.program.size()), d.dp.stream.copies * d.dp.stream.ii);
}

// The independent check fails on deliberately broken register assignments: (1) copy 1 of a value living longer
// than II put into copy 0's register (what an allocator without modulo variable expansion would do: the next set
// point overwrites the value before its last read), (2) every value in register 0.
TEST(stream, VerifyStreamCatchesRegisterConflicts) {
  hw::DesignSpec spec = puma560_stream_spec();
  const auto d = hw::make_design(spec);
  const auto& g = *d.graph;
  const auto& p = d.problem;
  const auto& s = d.schedule;
  ASSERT_TRUE(hw::verify_stream(g, d.dp).empty());
  auto regs = hw::stream_registers(g, p, s);
  ASSERT_GE(regs.copies, 2) << "the test needs a lifetime longer than II";
  // The value with the longest lifetime: find one whose copies 0 and 1 are both assigned.
  const int ii = s.ii;
  dfg::NodeId longest = dfg::kNoNode;
  int best = -1;
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    if (regs.reg[v][0] < 0) continue;
    int last = -1;
    for (std::size_t w = 0; w < g.nodes.size(); ++w)
      if (dfg::is_operation(g.nodes[w].op))
        for (int k = 0; k < dfg::arity(g.nodes[w].op); ++k)
          if (g.nodes[w].arg[k] == v) last = std::max(last, s.slots[w].start);
    const int arrive = dfg::is_operation(g.nodes[v].op) ? s.slots[v].start + p.classes[s.slots[v].cls].latency
                                                        : static_cast<int>(g.nodes[v].input) - static_cast<int>(g.inputs.size());
    if (last >= 0 && last - arrive > best) best = last - arrive, longest = static_cast<dfg::NodeId>(v);
  }
  ASSERT_NE(longest, dfg::kNoNode);
  ASSERT_GT(best, ii);
  auto broken = regs;
  broken.reg[longest][1] = broken.reg[longest][0];
  const auto bad = hw::build_stream(g, p, s, hw::NumberFormat{}, &broken);
  const auto v1 = hw::verify_stream(g, bad);
  ASSERT_FALSE(v1.empty());
  EXPECT_NE(v1.front().find("register conflict"), std::string::npos) << v1.front();
  auto all0 = regs;
  for (auto& r : all0.reg)
    for (auto& x : r)
      if (x >= 0) x = 0;
  EXPECT_FALSE(hw::verify_stream(g, hw::build_stream(g, p, s, hw::NumberFormat{}, &all0)).empty());
  // And the cycle core agrees that the broken one computes wrong results (the check is not over-strict).
  std::mt19937 rng(1);
  std::vector<std::vector<std::uint32_t>> raw;
  std::vector<std::vector<double>> x;
  for (int k = 0; k < 20; ++k) {
    x.push_back(dptest::random_inputs(rng, g.inputs.size()));
    raw.push_back(hw::encode({}, x.back()));
  }
  const auto r = dptest::run_core_stream(bad, raw);
  bool any_wrong = false;
  for (std::size_t k = 0; k < x.size(); ++k) any_wrong = any_wrong || r.out[k] != hw::golden_raw(g, {}, x[k]);
  EXPECT_TRUE(any_wrong);
}

// Bubbles: after every third set point the source withholds in_valid past a launch word. The missed launch is an
// empty stage (predicated off), results stay bit-exact and in order, and results are whole multiples of II apart.
TEST(stream, BubblesInTheInputStream) {
  hw::DesignSpec spec = puma560_stream_spec();
  const auto d = hw::make_design(spec);
  const auto& dp = d.dp;
  ASSERT_GE(dp.stream.stages, 2);  // one missed launch must not drain the pipeline
  std::vector<std::vector<double>> x;
  const auto raw = random_set_points(d, 100, 8, x);
  const auto r = dptest::run_core_stream(dp, raw, 3, dp.stream.ii + 5);
  ASSERT_EQ(r.out.size(), x.size());
  int bubbles = 0;
  for (std::size_t k = 0; k < x.size(); ++k) {
    ASSERT_EQ(r.out[k], hw::golden_raw(*d.graph, dp.config.format, x[k])) << "set point " << k;
    ASSERT_EQ(r.last_out[k] - r.first_in[k] + 1, dp.latency());
    if (k == 0) continue;
    const long gap = r.first_out[k] - r.first_out[k - 1];
    ASSERT_EQ(gap % dp.stream.ii, 0) << "set point " << k;
    bubbles += gap > dp.stream.ii;
  }
  EXPECT_EQ(bubbles, 33);  // one after every third set point
}

// Back-pressure (hw::enable_backpressure): with a sink that takes every word, the output FIFO costs one cycle of
// latency and no throughput; with a sink that stalls (out_ready low LEN of every EVERY cycles), results stay
// bit-exact, in order and complete, and the credits throttle admissions (the stream slows to the sink's pace
// instead of losing words).
TEST(stream, BackpressureKeepsEveryResult) {
  hw::DesignSpec spec = puma560_stream_spec();
  spec.backpressure = true;
  const auto d = hw::make_design(spec);
  const auto& dp = d.dp;
  ASSERT_TRUE(dp.backpressure());
  EXPECT_EQ(dp.stream.credits, dp.stream.stages + 1);
  EXPECT_EQ(dp.config.out_fifo, dp.stream.credits * static_cast<int>(dp.output_names.size()));
  std::vector<std::vector<double>> x;
  const auto raw = random_set_points(d, 40, 9, x);
  struct Sink {
    int every, len;
  };
  for (const Sink sink : {Sink{0, 0}, Sink{7, 3}, Sink{101, 100}, Sink{40, 39}}) {
    const auto r = dptest::run_core_stream(dp, raw, 0, 0, sink.every, sink.len);
    ASSERT_EQ(r.out.size(), x.size()) << sink.every << "," << sink.len;
    for (std::size_t k = 0; k < x.size(); ++k) {
      ASSERT_EQ(r.out[k], hw::golden_raw(*d.graph, dp.config.format, x[k])) << "set point " << k;
      if (sink.every == 0) {
        EXPECT_EQ(r.last_out[k] - r.first_in[k] + 1, dp.latency()) << "set point " << k;
        if (k > 0) {
          EXPECT_EQ(r.first_out[k] - r.first_out[k - 1], dp.stream.ii) << "set point " << k;
        }
      }
    }
    if (sink.every == 101) {  // one word per 101 cycles: the stream runs at the sink's pace, 6 x 101 per set point
      const long span = r.first_out.back() - r.first_out.front();
      EXPECT_GE(span, static_cast<long>(x.size() - 1) * 6 * 101 - 101);
    }
  }
}

// A program with back-pressure needs hardware with the output FIFO and one without needs hardware without it (the
// credits in meta.hex would be 0: no set point would ever be admitted).
TEST(stream, FitMatchesTheOutputFifo) {
  const hw::Config s22 = sysc::config_s22();
  hw::DesignSpec spec = dptest::spec_for(s22, "planar2", true);
  spec.ii = hw::kStreamMinII;
  const auto plain = hw::make_design(spec);
  spec.backpressure = true;
  const auto bp = hw::make_design(spec);
  EXPECT_NO_THROW(hw::fit(plain.dp, s22));
  EXPECT_THROW(hw::fit(bp.dp, s22), Error);
  hw::Config with_fifo = s22;
  with_fifo.out_fifo = bp.dp.config.out_fifo + 4;
  EXPECT_NO_THROW(hw::fit(bp.dp, with_fifo));
  EXPECT_THROW(hw::fit(plain.dp, with_fifo), Error);
  with_fifo.out_fifo = bp.dp.config.out_fifo - 1;
  EXPECT_THROW(hw::fit(bp.dp, with_fifo), Error);
}

TEST(stream, IiBelowTheMinimumIsAnError) {
  hw::DesignSpec spec = puma560_stream_spec();
  const auto d = hw::make_design(spec);
  spec.ii = d.dp.stream.ii - 1;
  try {
    hw::make_design(spec);
    FAIL() << "no error for --ii " << spec.ii;
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("below the minimum initiation interval"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
  spec.ii = d.dp.stream.ii + 3;
  EXPECT_EQ(hw::make_design(spec).dp.stream.ii, d.dp.stream.ii + 3);
}

}  // namespace
}  // namespace neaccel
