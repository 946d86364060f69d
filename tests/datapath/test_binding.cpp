// dp.binding.*: binding for interconnect (docs/binding.md). Both bindings run on the same schedule in the
// test: left-edge (the scheduling path's) and interconnect-aware (hw::bind_for_interconnect); the rebound designs
// pass sched::verify and hw::build and compute bit-exactly what the graph computes in the number format.
#include "support.hpp"

#include "neaccel/hw/binding.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/hw/interconnect.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace neaccel {
namespace {

struct Both {
  hw::Design d;             // left-edge design (the scheduling path)
  hw::BoundSchedule bound;  // interconnect binding of the same schedule
  hw::Datapath dp;          // its datapath
  int le_mux = 0, ic_mux = 0;
};

Both both(const dptest::DesignPoint& pt) {
  Both b{hw::make_design(pt.spec()), {}, {}, 0, 0};
  b.bound = hw::bind_for_interconnect(*b.d.graph, b.d.problem, b.d.schedule);
  b.dp = hw::build_bound(*b.d.graph, b.d.problem, b.bound, b.d.spec.format);
  b.le_mux = hw::interconnect(b.d.dp).mux_inputs();
  b.ic_mux = hw::interconnect(b.dp).mux_inputs();
  std::printf("%s: length %d, mux inputs left-edge %d -> interconnect %d (%.1f%% fewer), registers %d -> %d\n",
              pt.name().c_str(), b.d.schedule.length, b.le_mux, b.ic_mux, 100.0 * (b.le_mux - b.ic_mux) / b.le_mux,
              b.d.schedule.num_registers, b.bound.schedule.num_registers);
  return b;
}

// Runs `states` random joint states through the cycle core; every output must be bit-identical to the graph
// evaluated in the design's number format.
void expect_bit_exact(const hw::Design& d, const hw::Datapath& dp, int states) {
  std::mt19937_64 rng(20);
  for (int k = 0; k < states; ++k) {
    const auto x = hw::random_state(d, rng);
    const auto run = dptest::run_core(dp, hw::encode(d.spec.format, x));
    const auto want = hw::golden_raw(*d.graph, d.spec.format, x);
    ASSERT_EQ(run.out.size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o)
      ASSERT_TRUE(hw::same(d.spec.format, run.out[o], want[o])) << "state " << k << " tau" << o + 1;
    ASSERT_EQ(run.cycles, dp.cycles());
  }
}

class binding_robot : public ::testing::TestWithParam<dptest::DesignPoint> {};

// The target: at least 40% fewer multiplexer inputs than left-edge binding on the same schedule.
// Also: same starts (only instances and registers change), sched::verify and hw::build accept the result, the
// internal cost the binder minimised is the interconnect of the built datapath, registers within 110% of
// left-edge's (max live; by default equal), and the rebound datapath computes bit-exactly what the left-edge one does.
TEST_P(binding_robot, FortyPercentFewerMuxInputsVerifiedBitExact) {
  const Both b = both(GetParam());
  const auto& s0 = b.d.schedule;
  const auto& s1 = b.bound.schedule;
  ASSERT_EQ(s1.slots.size(), s0.slots.size());
  for (std::size_t v = 0; v < s0.slots.size(); ++v) {
    EXPECT_EQ(s1.slots[v].start, s0.slots[v].start) << v;
    EXPECT_EQ(s1.slots[v].cls, s0.slots[v].cls) << v;
  }
  EXPECT_EQ(s1.length, s0.length);
  EXPECT_TRUE(sched::verify(b.d.problem, s1).empty());
  EXPECT_EQ(b.bound.mux_inputs_before, b.le_mux);
  EXPECT_EQ(b.bound.mux_inputs, b.ic_mux);
  EXPECT_EQ(s0.num_registers, sched::max_live(b.d.problem, s0));  // left-edge is optimal in registers
  EXPECT_LE(10 * s1.num_registers, 11 * s0.num_registers);
  EXPECT_EQ(s1.num_registers, s0.num_registers);  // default: no register above max live
  EXPECT_LE(100 * b.ic_mux, 60 * b.le_mux) << "less than 40% fewer multiplexer inputs";
  EXPECT_EQ(b.dp.cycles(), b.d.dp.cycles());
  expect_bit_exact(b.d, b.dp, 20);
}

INSTANTIATE_TEST_SUITE_P(Points, binding_robot,
                         ::testing::Values(dptest::DesignPoint{"puma560", true, "fp32", 1, 1, 5, 3, true},
                                           dptest::DesignPoint{"puma560", true, "fp32", 2, 2, 3, 2, true},
                                           dptest::DesignPoint{"stanford", true, "fp32", 1, 1, 5, 3, true},
                                           dptest::DesignPoint{"stanford", true, "fp32", 4, 4, 3, 2, true}),
                         [](const auto& info) { return info.param.name(); });

// Other formats, flavours and non-pipelined units (occupancy = latency: an op may move only to an instance free for
// its whole occupancy, or swap with an op of the same start): verified, never worse, bit-exact.
TEST(binding, OtherDesignsVerifiedNeverWorseBitExact) {
  for (const dptest::DesignPoint& pt :
       {dptest::DesignPoint{"puma560", true, "fixed:12.20", 2, 2, 1, 1, true},
        dptest::DesignPoint{"rx90", true, "fp32", 2, 3, 4, 3, false},
        dptest::DesignPoint{"planar2", false, "fp32", 3, 2, 3, 2, true},
        dptest::DesignPoint{"random:3:3", true, "fixed:12.20", 1, 1, 1, 1, true}}) {
    SCOPED_TRACE(pt.name());
    const Both b = both(pt);
    EXPECT_TRUE(sched::verify(b.d.problem, b.bound.schedule).empty());
    EXPECT_LE(b.ic_mux, b.le_mux);
    EXPECT_EQ(b.bound.mux_inputs, b.ic_mux);
    EXPECT_LE(10 * b.bound.schedule.num_registers, 11 * b.d.schedule.num_registers);
    expect_bit_exact(b.d, b.dp, 10);
  }
}

// Robot parameters loaded once: a parameter word is a source of its own (no register, no write-back).
// The rebound puma560 general design verifies, keeps every parameter read on the parameter memory, and the binder's
// incremental count (which adds the parameter sources) equals the interconnect of the datapath built from it. Its
// results are checked bit-exact by co-simulation (dp.cli.sim_hw_cosim_p2gic: the cycle core here has no
// configuration phase).
TEST(binding, ParameterMemoryWordsAreSourcesNotRegisters) {
  hw::DesignSpec spec = dptest::DesignPoint{"puma560", false, "fp32", 2, 2, 3, 2, true}.spec();
  spec.params = "load";
  const hw::Design d = hw::make_design(spec);
  ASSERT_TRUE(d.dp.has_params());
  const auto bound = hw::bind_for_interconnect(*d.graph, d.problem, d.schedule);
  EXPECT_TRUE(sched::verify(d.problem, bound.schedule).empty());
  const hw::Datapath dp = hw::build_bound(*d.graph, d.problem, bound, d.spec.format);
  EXPECT_EQ(dp.param_names, d.dp.param_names);
  const int le = hw::interconnect(d.dp).mux_inputs(), ic = hw::interconnect(dp).mux_inputs();
  EXPECT_EQ(bound.mux_inputs_before, le);
  EXPECT_EQ(bound.mux_inputs, ic);
  EXPECT_LT(ic, le);
  EXPECT_LE(10 * bound.schedule.num_registers, 11 * d.schedule.num_registers);
  int param_reads = 0;
  for (const hw::Word& w : dp.program)
    for (const hw::Issue& is : w.issue)
      if (is.valid) param_reads += (is.a.kind == hw::Operand::Kind::Param) + (is.b.kind == hw::Operand::Kind::Param);
  int le_reads = 0;
  for (const hw::Word& w : d.dp.program)
    for (const hw::Issue& is : w.issue)
      if (is.valid) le_reads += (is.a.kind == hw::Operand::Kind::Param) + (is.b.kind == hw::Operand::Kind::Param);
  EXPECT_GT(param_reads, 0);
  EXPECT_EQ(param_reads, le_reads);  // same reads, only units, ports and registers change
  std::printf("puma560 general 2+2 with a parameter memory: mux inputs left-edge %d -> interconnect %d\n", le, ic);
}

// What each freedom buys on its own (docs/binding.md, "Ablation"): every restricted run is still never worse than
// left-edge, and all three together beat each one alone.
TEST(binding, Ablation) {
#ifndef NDEBUG
  // Measurement of docs/binding.md (seconds in Release, minutes under the sanitizers' Debug build, where the
  // smaller binding tests exercise the same code): Release builds only.
  GTEST_SKIP() << "Release builds only (a measurement; the other binding tests cover the code under the sanitizers)";
#endif
  for (const dptest::DesignPoint& pt : {dptest::DesignPoint{"puma560", true, "fp32", 2, 2, 3, 2, true},
                                        dptest::DesignPoint{"stanford", true, "fp32", 1, 1, 5, 3, true}}) {
    const hw::Design d = hw::make_design(pt.spec());
    const int le = hw::interconnect(d.dp).mux_inputs();
    std::printf("%s: left-edge %d", pt.name().c_str(), le);
    int all = 0, best_single = le;
    for (int mask : {1, 2, 4, 7}) {
      hw::BindingOptions o;
      o.units = mask & 1, o.registers = mask & 2, o.ports = mask & 4;
      const auto b = hw::bind_for_interconnect(*d.graph, d.problem, d.schedule, o);
      EXPECT_EQ(hw::interconnect(hw::build_bound(*d.graph, d.problem, b, d.spec.format)).mux_inputs(), b.mux_inputs);
      EXPECT_LE(b.mux_inputs, le);
      std::printf(", %s %d", mask == 1 ? "units only" : mask == 2 ? "registers only" : mask == 4 ? "ports only" : "all",
                  b.mux_inputs);
      if (mask == 7) all = b.mux_inputs;
      else best_single = std::min(best_single, b.mux_inputs);
    }
    std::printf("\n");
    EXPECT_LT(all, best_single);
  }
}

// The register trade (docs/binding.md): mux inputs against the registers allowed above max live. The bound holds at
// every slack, and more registers never cost more multiplexer inputs than none.
TEST(binding, RegisterSlack) {
#ifndef NDEBUG
  // Measurement of docs/binding.md (seconds in Release, minutes under the sanitizers' Debug build, where the
  // smaller binding tests exercise the same code): Release builds only.
  GTEST_SKIP() << "Release builds only (a measurement; the other binding tests cover the code under the sanitizers)";
#endif
  const hw::Design d = hw::make_design(dptest::DesignPoint{"puma560", true, "fp32", 2, 2, 3, 2, true}.spec());
  const int live = sched::max_live(d.problem, d.schedule);
  std::printf("puma560_custom_fp32_m2a2_l32p: left-edge %d mux inputs, %d registers (max live)",
              hw::interconnect(d.dp).mux_inputs(), live);
  int at0 = 0;
  for (int pct : {0, 5, 10, 20}) {
    hw::BindingOptions o;
    o.register_slack_pct = pct;
    const auto b = hw::bind_for_interconnect(*d.graph, d.problem, d.schedule, o);
    EXPECT_LE(b.schedule.num_registers, live + live * pct / 100);
    std::printf("; slack %d%%: %d mux inputs, %d registers", pct, b.mux_inputs, b.schedule.num_registers);
    if (pct == 0) at0 = b.mux_inputs;
    else EXPECT_LE(b.mux_inputs, at0);
  }
  std::printf("\n");
}

// Same inputs, same binding (the CLI's artefacts are byte-identical; neaccel sim rebuilds the design from the spec).
TEST(binding, Deterministic) {
  const dptest::DesignPoint pt{"planar2", true, "fp32", 2, 2, 3, 2, true};
  const Both a = both(pt), b = both(pt);
  EXPECT_EQ(hw::microcode_hex(a.dp), hw::microcode_hex(b.dp));
  EXPECT_EQ(hw::input_hex(a.dp), hw::input_hex(b.dp));
  EXPECT_EQ(hw::output_hex(a.dp), hw::output_hex(b.dp));
}

// Through make_design (DesignSpec::binding), as the CLI builds it.
TEST(binding, DesignSpecOption) {
  hw::DesignSpec spec = dptest::DesignPoint{"planar2", true, "fp32", 1, 1, 3, 2, true}.spec();
  const hw::Design le = hw::make_design(spec);
  spec.binding = "interconnect";
  const hw::Design ic = hw::make_design(spec);
  EXPECT_LT(hw::interconnect(ic.dp).mux_inputs(), hw::interconnect(le.dp).mux_inputs());
  expect_bit_exact(ic, ic.dp, 10);
  spec.binding = "best";
  EXPECT_THROW(hw::make_design(spec), Error);
  spec.binding = "interconnect";
  spec.ii = hw::kStreamMinII;
  EXPECT_THROW(hw::make_design(spec), Error);
}

// Port swaps: add and mul are commutative bit-exactly in the datapath's arithmetic, including NaN, infinities,
// signed zeros and subnormals (fp32 NaN results are the canonical NaN, contract 5; golden_raw canonicalises the
// graph's): a random graph with every commutative op swapped computes what the graph computes, on special inputs.
TEST(binding, SwappedCommutativeOpsBitExactOnSpecialValues) {
  const dfg::Graph g = dptest::random_graph(7, 6, 80, 4);
  const sched::Problem p = dptest::make_problem(g, 2, 2, 3, 2);
  const sched::Schedule s = hw::schedule_with_registers(p);
  std::vector<char> swap(g.nodes.size(), 0);
  int swapped = 0;
  for (std::size_t v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].op == dfg::Op::Add || g.nodes[v].op == dfg::Op::Mul) swap[v] = 1, ++swapped;
  ASSERT_GT(swapped, 20);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (const char* fmt : {"fp32", "fixed:12.20"}) {
    const auto f = hw::NumberFormat::parse(fmt);
    // fp32: NaN, infinities, signed zeros, subnormals, overflow; fixed: zeros, extremes that saturate, 1 ulp.
    const std::vector<double> specials =
        f.fixed ? std::vector<double>{0.0, -0.0, 2047.99, -2048.0, 0x1p-20, -0x1p-20, 1.0, -2.5, 45.25, -0.75}
                : std::vector<double>{0.0, -0.0, inf, -inf, nan, 1e-40, -1e-40, 3.4e38, -3.4e38, 1.0, -2.5, 1e-30};
    hw::Datapath dp = hw::build(g, p, s, f);
    const hw::Datapath straight = dp;
    hw::apply_port_swaps(g, dp, swap);
    int differ = 0;  // issues whose operands really changed (not x op x)
    for (std::size_t c = 0; c < dp.program.size(); ++c)
      for (std::size_t u = 0; u < dp.program[c].issue.size(); ++u) {
        const auto &x = dp.program[c].issue[u], &y = straight.program[c].issue[u];
        differ += x.valid && !(x.a.kind == y.a.kind && x.a.index == y.a.index);
      }
    EXPECT_GT(differ, 20);
    std::mt19937 rng(5);
    for (int k = 0; k < 300; ++k) {
      std::vector<double> in(g.inputs.size());
      for (auto& x : in) x = specials[rng() % specials.size()];
      const auto run = dptest::run_core(dp, hw::encode(f, in));
      const auto want = hw::golden_raw(g, f, in);
      ASSERT_EQ(run.out.size(), want.size());
      for (std::size_t o = 0; o < want.size(); ++o)
        ASSERT_TRUE(hw::same(f, run.out[o], want[o])) << fmt << " set " << k << " output " << o;
    }
  }
}

TEST(binding, SwapOfNonCommutativeOpIsAnError) {
  const dfg::Graph g = dptest::random_graph(3, 4, 40, 2);
  const sched::Problem p = dptest::make_problem(g, 1, 1, 2, 1);
  const sched::Schedule s = hw::schedule_with_registers(p);
  hw::Datapath dp = hw::build(g, p, s, hw::NumberFormat::parse("fp32"));
  std::vector<char> swap(g.nodes.size(), 0);
  std::size_t sub = 0;
  while (sub < g.nodes.size() && g.nodes[sub].op != dfg::Op::Sub) ++sub;
  ASSERT_LT(sub, g.nodes.size());
  swap[sub] = 1;
  EXPECT_THROW(hw::apply_port_swaps(g, dp, swap), Error);
  EXPECT_THROW(hw::apply_port_swaps(g, dp, std::vector<char>(3, 0)), Error);
}

TEST(binding, RejectsStreamingAndMissingRegisters) {
  const dfg::Graph g = dptest::random_graph(4, 4, 30, 2);
  sched::Problem p = dptest::make_problem(g, 1, 1, 2, 1);
  sched::Schedule s = sched::list_schedule(p);  // no registers
  EXPECT_THROW(hw::bind_for_interconnect(g, p, s), Error);
  p.ii = 1;  // from ResMII up
  s = sched::modulo_schedule(p);
  p.ii = s.ii;
  EXPECT_THROW(hw::bind_for_interconnect(g, p, s), Error);
  EXPECT_THROW(hw::parse_binding("fastest"), Error);
}

}  // namespace
}  // namespace neaccel
