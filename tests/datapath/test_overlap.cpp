// Overlapped I/O on the latency datapath (docs/datapath.md "Overlapped I/O"; hw::overlap_io, `neaccel rtl --io
// overlap`): the inputs arrive while the recursion runs (sched::io_overlap's load order, in_words per cycle, no op
// before the word it reads is in its register) and every result leaves as soon as it is computed. The cycle core runs
// the program bit-exact against the graph, in the cycles the datapath states; the RTL follows it cycle for cycle
// (dp.cli.sim_hw_cosim_*ov rows, tests/datapath/CMakeLists.txt).
#include "core.hpp"

#include "neaccel/hw/design.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/bounds.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace neaccel {
namespace {

hw::DesignSpec puma(int in_words, const std::string& io) {
  hw::DesignSpec s;
  s.robot = "puma560";
  s.custom = true;
  s.format = hw::NumberFormat::parse("fixed:16.16");
  s.mul = s.add = 4;
  s.lat_mul = 3;
  s.lat_add = 2;
  s.arch = hw::Arch::Hardwired;
  s.in_words = in_words;
  s.io = io;
  return s;
}

// One evaluation through the cycle core, in_valid and out_ready held high, a beat of in_words words per accepted
// cycle: the words left on the output port, the cycles from start to DONE, and the cycles of the first beat taken
// and of the last output word.
struct Measured {
  std::vector<std::uint32_t> out;
  long cycles = 0, first_in = -1, last_out = -1;
};
Measured drive(const hw::Datapath& dp, const std::vector<std::uint32_t>& in) {
  sysc::DatapathCore core(dp);
  const std::size_t k = static_cast<std::size_t>(std::max(1, dp.config.in_words));
  Measured m;
  std::size_t next = 0;
  for (long c = 0; c < 100000; ++c) {
    if (c > 0 && core.done()) {
      m.cycles = c;
      return m;
    }
    if (core.out_valid()) {
      m.out.push_back(core.out_data());
      m.last_out = c;
    }
    std::vector<std::uint32_t> lanes;
    for (std::size_t l = 1; l < k; ++l) lanes.push_back(next + l < in.size() ? in[next + l] : 0u);
    core.set_lanes(lanes);
    const std::uint32_t data = next < in.size() ? in[next] : 0u;
    if (core.in_ready()) {
      if (m.first_in < 0) m.first_in = c;
      next += k;
    }
    core.step(c == 0, true, data, true);
  }
  throw std::runtime_error("drive: no done");
}

// PUMA 560 customised, 4 + 4 units at 3/2: bit-exact, in the cycles stated, within io_overlap's bound and shorter than
// the phases it replaces (first input word to last output word: phases cycles() - 2).
TEST(OverlappedIo, Puma560BitExactOnTimeAndShorterThanPhases) {
  for (int k : {1, 4}) {
    const hw::Design d = hw::make_design(puma(k, "overlap"));
    const hw::Design phases = hw::make_design(puma(k, "phases"));
    ASSERT_TRUE(d.dp.overlapped());
    ASSERT_FALSE(phases.dp.overlapped());
    const sched::IoOverlap io = sched::io_overlap(phases.problem, k);
    EXPECT_GE(d.dp.latency(), io.bound) << "in_words " << k;
    EXPECT_LT(d.dp.latency(), phases.dp.cycles() - 2) << "in_words " << k;
    EXPECT_EQ(d.dp.input_graph, io.input_order) << "in_words " << k;
    std::mt19937_64 rng(2026);
    for (int s = 0; s < 5; ++s) {
      const auto x = hw::random_state(d, rng);
      const Measured m = drive(d.dp, hw::port_words(d.dp, hw::encode(d.spec.format, x)));
      EXPECT_EQ(m.cycles, d.dp.cycles()) << "in_words " << k;
      EXPECT_EQ(m.first_in, 1) << "in_words " << k;  // the first beat with the first program word
      EXPECT_EQ(m.last_out - m.first_in + 1, d.dp.latency()) << "in_words " << k;
      ASSERT_EQ(m.out.size(), d.graph->outputs.size());
      EXPECT_EQ(hw::graph_outputs(d.dp, m.out), hw::golden_raw(*d.graph, d.spec.format, x)) << "in_words " << k;
    }
    // What the host reads: the load order and the order and cycles of the results.
    const auto j = hw::to_json(d.dp);
    EXPECT_EQ(j.at("io").at("load_order").get<std::vector<std::string>>(), d.dp.input_names);
    std::vector<std::string> order;
    for (int o : d.dp.output_order()) order.push_back(d.dp.output_names[static_cast<std::size_t>(o)]);
    EXPECT_EQ(j.at("io").at("output_order").get<std::vector<std::string>>(), order);
    EXPECT_EQ(j.at("io").at("output_cycles").back().get<int>() + 1, d.dp.latency());
    EXPECT_FALSE(hw::to_json(phases.dp).contains("io"));  // the phases' manifest keeps its fields
    EXPECT_NE(hw::hardwired_verilog(d.dp).find("overlapped I/O"), std::string::npos);
    EXPECT_EQ(hw::hardwired_verilog(phases.dp).find("overlapped I/O"), std::string::npos);
  }
}

// An op that reads an input in the cycle its word is taken from the port (one cycle before it is in its register) is
// refused by the scheduler's verify and by hw::build; overlap_io refuses release times that disagree with the load
// order (moved a cycle earlier, or the order reversed).
TEST(OverlappedIo, AnOpBeforeItsInputIsAnError) {
  const hw::Design d = hw::make_design(puma(4, "overlap"));
  const dfg::Graph& g = *d.graph;
  std::size_t victim = g.nodes.size();
  for (std::size_t v = 0; v < g.nodes.size() && victim == g.nodes.size(); ++v) {
    const auto& nd = g.nodes[v];
    if (!dfg::is_operation(nd.op)) continue;
    for (int a = 0; a < dfg::arity(nd.op); ++a) {
      const auto& in = g.nodes[nd.arg[a]];
      if (in.op == dfg::Op::Input && d.schedule.slots[v].start == d.problem.release[in.input]) victim = v;
    }
  }
  ASSERT_LT(victim, g.nodes.size()) << "no op starts in the cycle its input is usable";
  sched::Schedule early = d.schedule;
  early.slots[victim].start -= 1;
  const auto v = sched::verify(d.problem, early);
  EXPECT_TRUE(std::any_of(v.begin(), v.end(), [](const std::string& m) { return m.find("arrives at") != std::string::npos; }));
  try {
    hw::build(g, d.problem, early, d.spec.format);
    ADD_FAILURE() << "hw::build accepted an op before its input";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("in its register from"), std::string::npos) << e.what();
  }
  sched::Problem loose = d.problem;
  for (auto& r : loose.release) r = std::max(0, r - 1);
  hw::Datapath dp = hw::build(g, d.problem, d.schedule, d.spec.format);
  EXPECT_THROW(hw::overlap_io(dp, g, loose, d.schedule, 4, sched::io_overlap(d.problem, 4).input_order), Error);
  hw::Datapath dp2 = hw::build(g, d.problem, d.schedule, d.spec.format);
  std::vector<int> reversed = sched::io_overlap(d.problem, 4).input_order;
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_THROW(hw::overlap_io(dp2, g, d.problem, d.schedule, 4, reversed), Error);
}

// One-line errors naming the option where it is not implemented.
TEST(OverlappedIo, RefusedWhereNotImplemented) {
  auto message = [](const hw::DesignSpec& s) {
    try {
      hw::make_design(s);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  hw::DesignSpec s = puma(1, "overlap");
  s.robot = "planar2";
  s.arch = hw::Arch::Microcoded;
  EXPECT_EQ(message(s), "--io overlap: implemented for the hardwired latency datapath (--arch hardwired, without --ii)");
  s.arch = hw::Arch::Hardwired;
  s.ii = hw::kStreamMinII;
  EXPECT_EQ(message(s), "--io overlap: implemented for the hardwired latency datapath (--arch hardwired, without --ii)");
  s.ii = 0;
  s.io = "sideways";
  EXPECT_EQ(message(s), "--io: 'sideways' (phases, overlap)");
}

}  // namespace
}  // namespace neaccel
