// dp.cosim.*: Verilated RTL (SystemC mode) beside the SystemC model, compared every cycle (sysc/datapath/cosim.hpp);
// both bit-identical to the graph in the format; cycles = length + n_in + n_out + 2; and fault injection: a
// corrupted microcode word (RTL side), a corrupted register write and a flipped unit result (model side), each
// caught in the cycle it happens. dp.cosim_stream.*: the streaming RTL (nea_stream) beside the model, 100 set points
// streamed in one run, compared every cycle; results in order, bit-identical to the graph, measured II == claimed.
// One simulation per process (SystemC elaborates once).
#include "Vdpsc_f22.h"
#include "Vdpsc_s22.h"
#include "Vdpsc_sx11.h"
#include "Vdpsc_x11.h"

#include "cosim.hpp"
#include "dp_configs.hpp"
#include "support.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace neaccel {
namespace {

struct Prepared {
  hw::Design design;
  hw::Datapath dp;
  std::vector<std::vector<std::uint32_t>> raw;
  std::vector<std::vector<double>> x;
};

Prepared prepare(const hw::Config& cfg, const std::string& robot, bool custom, int states, const std::string& tag,
                 const hw::Datapath* rtl_override = nullptr) {
  Prepared p{hw::make_design(dptest::spec_for(cfg, robot, custom)), {}, {}, {}};
  p.dp = hw::fit(p.design.dp, cfg);
  const std::string dir = std::string(NEACCEL_TEST_OUT) + "/dp/cosim/" + tag;
  hw::write_hex(rtl_override ? *rtl_override : p.dp, dir);
  const std::string plusarg = "+neaccel_hex=" + dir;
  const char* argv[] = {"dp_cosim_tests", plusarg.c_str()};
  Verilated::commandArgs(2, argv);
  std::mt19937_64 rng(4242);
  for (int k = 0; k < states; ++k) {
    p.x.push_back(hw::random_state(p.design, rng));
    p.raw.push_back(hw::encode(cfg.format, p.x.back()));
  }
  return p;
}

template <class Rtl>
void cosim_point(const hw::Config& cfg, const std::string& robot, bool custom, const std::string& tag) {
  const Prepared p = prepare(cfg, robot, custom, 100, tag);
  const auto r = sysc::cosimulate<Rtl>(p.dp, p.raw);
  ASSERT_EQ(r.mismatches, 0) << (r.messages.empty() ? "" : r.messages[0]);
  const long expected =
      p.design.schedule.length + static_cast<long>(p.design.graph->inputs.size() + p.design.graph->outputs.size()) + 2;
  ASSERT_EQ(r.cycles.size(), p.raw.size());
  for (std::size_t k = 0; k < p.raw.size(); ++k) {
    ASSERT_EQ(r.cycles[k], expected);
    const auto want = hw::golden_raw(*p.design.graph, cfg.format, p.x[k]);
    ASSERT_EQ(r.rtl_out[k].size(), want.size());
    ASSERT_EQ(r.model_out[k].size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o) {
      ASSERT_TRUE(hw::same(cfg.format, r.rtl_out[k][o], want[o])) << "state " << k << " tau" << o + 1;
      ASSERT_TRUE(hw::same(cfg.format, r.model_out[k][o], want[o])) << "state " << k << " tau" << o + 1;
    }
  }
  std::printf("%s: %ld cycles compared, %ld per evaluation\n", tag.c_str(), r.compared_cycles, expected);
}

TEST(cosim, Fp32Puma560General) { cosim_point<Vdpsc_f22>(dptest::config_f22(), "puma560", false, "f22_puma560_g"); }
TEST(cosim, Fp32Rx90Custom) { cosim_point<Vdpsc_f22>(dptest::config_f22(), "rx90", true, "f22_rx90_c"); }
TEST(cosim, Fp32RandomArm8General) { cosim_point<Vdpsc_f22>(dptest::config_f22(), "random:8:3", false, "f22_r8_g"); }
TEST(cosim, FixedStanfordGeneral) { cosim_point<Vdpsc_x11>(dptest::config_x11(), "stanford", false, "x11_stanford_g"); }
TEST(cosim, FixedPuma560Custom) { cosim_point<Vdpsc_x11>(dptest::config_x11(), "puma560", true, "x11_puma560_c"); }
TEST(cosim, FixedRandomArm4Custom) { cosim_point<Vdpsc_x11>(dptest::config_x11(), "random:4:9", true, "x11_r4_c"); }

template <class Rtl>
void cosim_stream(const hw::Config& cfg, const dfg::Graph& g, const hw::Datapath& dp_in,
                  const std::vector<std::vector<double>>& x, const std::string& tag, int gap_every = 0) {
  const hw::Datapath dp = hw::fit(dp_in, cfg);
  const std::string dir = std::string(NEACCEL_TEST_OUT) + "/dp/cosim_stream/" + tag;
  hw::write_hex(dp, dir);
  const std::string plusarg = "+neaccel_hex=" + dir;
  const char* argv[] = {"dp_cosim_tests", plusarg.c_str()};
  Verilated::commandArgs(2, argv);
  std::vector<std::vector<std::uint32_t>> raw;
  for (const auto& s : x) raw.push_back(hw::encode(cfg.format, s));
  // gap_every > 0: a bubble (one launch word missed) after every gap_every set points.
  const auto r = sysc::cosimulate<Rtl>(dp, raw, {}, gap_every, dp.stream.ii + 5);
  ASSERT_EQ(r.mismatches, 0) << (r.messages.empty() ? "" : r.messages[0]);
  ASSERT_EQ(r.rtl_out.size(), x.size());
  ASSERT_EQ(r.model_out.size(), x.size());
  ASSERT_EQ(r.cycles.size() + 1, x.size());
  for (std::size_t k = 0; k < r.cycles.size(); ++k) {  // measured II between successive results
    const bool bubble = gap_every > 0 && (k + 1) % gap_every == 0;
    ASSERT_EQ(r.cycles[k], bubble ? 2 * dp.stream.ii : dp.stream.ii) << "results " << k << ", " << k + 1;
  }
  for (std::size_t k = 0; k < x.size(); ++k) {
    const auto want = hw::golden_raw(g, cfg.format, x[k]);
    ASSERT_EQ(r.rtl_out[k].size(), want.size());
    ASSERT_EQ(r.model_out[k].size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o) {
      ASSERT_TRUE(hw::same(cfg.format, r.rtl_out[k][o], want[o])) << "set point " << k << " tau" << o + 1;
      ASSERT_TRUE(hw::same(cfg.format, r.model_out[k][o], want[o])) << "set point " << k << " tau" << o + 1;
    }
    ASSERT_EQ(r.rtl_stream.last_out[k] - r.rtl_stream.first_in[k] + 1, dp.latency());
  }
  std::printf("%s: %ld cycles compared, II %d, latency %d, %zu set points\n", tag.c_str(), r.compared_cycles,
              dp.stream.ii, dp.latency(), x.size());
}

template <class Rtl>
void cosim_stream_robot(const hw::Config& cfg, const std::string& robot, bool custom, const std::string& tag,
                        int gap_every = 0) {
  const hw::Design d = dptest::stream_design(cfg, robot, custom);
  std::mt19937_64 rng(4243);
  std::vector<std::vector<double>> x;
  for (int k = 0; k < 100; ++k) x.push_back(hw::random_state(d, rng));
  cosim_stream<Rtl>(cfg, *d.graph, d.dp, x, tag, gap_every);
}

TEST(cosim_stream, Fp32Puma560Custom) { cosim_stream_robot<Vdpsc_s22>(dptest::config_s22(), "puma560", true, "s22_p560_c"); }
TEST(cosim_stream, Fp32RandomArm5General) {
  cosim_stream_robot<Vdpsc_s22>(dptest::config_s22(), "random:5:4", false, "s22_r5_g");
}
TEST(cosim_stream, FixedPuma560Custom) { cosim_stream_robot<Vdpsc_sx11>(dptest::config_sx11(), "puma560", true, "sx11_p560_c"); }
TEST(cosim_stream, FixedPuma560CustomWithBubbles) {
  cosim_stream_robot<Vdpsc_sx11>(dptest::config_sx11(), "puma560", true, "sx11_p560_c_bubbles", 4);
}
TEST(cosim_stream, Fp32RandomGraph) {
  const auto g = dptest::random_graph(33, 8, 120, 4);
  auto p = dptest::make_problem(g, 2, 2, 3, 2);
  sched::Schedule s;
  const auto dp = hw::stream_datapath(g, p, s, hw::NumberFormat{}, hw::kStreamMinII);
  std::mt19937 rng(6);
  std::vector<std::vector<double>> x;
  for (int k = 0; k < 100; ++k) x.push_back(dptest::random_inputs(rng, g.inputs.size()));
  cosim_stream<Vdpsc_s22>(dptest::config_s22(), g, dp, x, "s22_random_graph");
}

// The cycle (since reset) at which microcode word `pc` of the first evaluation executes: reset releases after 2
// edges, one more edge before start; IDLE (1 cycle) and LOAD (n_in cycles) precede COMPUTE.
long compute_cycle(const hw::Datapath& dp, int pc) { return 1 + 1 + static_cast<long>(dp.input_names.size()) + pc; }

// First microcode word (from `from`) with a register write-back; returns pc and unit.
std::pair<int, int> find_writeback(const hw::Datapath& dp, int from) {
  for (int pc = from; pc < static_cast<int>(dp.program.size()); ++pc)
    for (int u = 0; u < dp.config.num_units(); ++u)
      if (dp.program[pc].wb[u].valid) return {pc, u};
  return {-1, -1};
}

TEST(cosim_fault, CorruptedMicrocodeWordIsCaught) {
  const auto cfg = dptest::config_f22();
  const hw::Design d = hw::make_design(dptest::spec_for(cfg, "random:3:5", true));
  hw::Datapath bad = hw::fit(d.dp, cfg);
  const auto [pc, u] = find_writeback(bad, 5);
  ASSERT_GE(pc, 0);
  bad.program[pc].wb[u].dest ^= 1;  // the RTL writes the wrong register in this one word
  const Prepared p = prepare(cfg, "random:3:5", true, 3, "fault_ucode", &bad);
  const auto r = sysc::cosimulate<Vdpsc_f22>(p.dp, p.raw);
  EXPECT_GT(r.mismatches, 0);
  EXPECT_EQ(r.first_mismatch_cycle, compute_cycle(p.dp, pc)) << (r.messages.empty() ? "" : r.messages[0]);
}

TEST(cosim_fault, CorruptedRegisterWriteIsCaught) {
  const auto cfg = dptest::config_f22();
  Prepared p = prepare(cfg, "random:3:5", true, 3, "fault_regwrite");
  const auto [pc, u] = find_writeback(p.dp, 7);
  ASSERT_GE(pc, 0);
  const long cycle = compute_cycle(p.dp, pc);
  const auto r = sysc::cosimulate<Vdpsc_f22>(p.dp, p.raw, sysc::Fault{sysc::Fault::Kind::RegWrite, cycle, u, 1u << 20, nullptr});
  EXPECT_GT(r.mismatches, 0);
  EXPECT_EQ(r.first_mismatch_cycle, cycle) << (r.messages.empty() ? "" : r.messages[0]);
}

TEST(cosim_fault, FlippedUnitResultIsCaught) {
  const auto cfg = dptest::config_x11();
  Prepared p = prepare(cfg, "random:3:5", true, 3, "fault_unit");
  // A cycle where unit 0 (the multiplier) delivers a result: one latency after an issue.
  int issue_pc = -1;
  for (int pc = 3; pc < static_cast<int>(p.dp.program.size()) && issue_pc < 0; ++pc)
    if (p.dp.program[pc].issue[0].valid) issue_pc = pc;
  ASSERT_GE(issue_pc, 0);
  const long cycle = compute_cycle(p.dp, issue_pc + cfg.lat_mul);
  const auto r = sysc::cosimulate<Vdpsc_x11>(p.dp, p.raw, sysc::Fault{sysc::Fault::Kind::UnitResult, cycle, 0, 1u, nullptr});
  EXPECT_GT(r.mismatches, 0);
  EXPECT_EQ(r.first_mismatch_cycle, cycle) << (r.messages.empty() ? "" : r.messages[0]);
}

// Streaming: a register write corrupted in steady state (every stage valid, overlapped set points) is caught in that
// cycle. Loop cycle c of the stream bench is model cycle c + 1 (one edge after reset before start); kernel word
// (c - 1) mod P executes in loop cycle c >= 1.
TEST(cosim_fault, StreamCorruptedRegisterWriteIsCaught) {
  const auto cfg = dptest::config_s22();
  const hw::Design d = dptest::stream_design(cfg, "puma560", true);
  const hw::Datapath dp = hw::fit(d.dp, cfg);
  const auto [pc, u] = find_writeback(dp, 0);
  ASSERT_GE(pc, 0);
  const long P = static_cast<long>(dp.program.size());
  const long loop_cycle = 1 + P * dp.stream.stages + pc;
  const long cycle = loop_cycle + 1;
  const std::string dir = std::string(NEACCEL_TEST_OUT) + "/dp/cosim_stream/fault";
  hw::write_hex(dp, dir);
  const std::string plusarg = "+neaccel_hex=" + dir;
  const char* argv[] = {"dp_cosim_tests", plusarg.c_str()};
  Verilated::commandArgs(2, argv);
  std::mt19937_64 rng(5);
  std::vector<std::vector<std::uint32_t>> raw;
  for (int k = 0; k < 20; ++k) raw.push_back(hw::encode(cfg.format, hw::random_state(d, rng)));
  ASSERT_LT(loop_cycle, 20L * dp.stream.ii);  // still streaming
  const auto r = sysc::cosimulate<Vdpsc_s22>(dp, raw, sysc::Fault{sysc::Fault::Kind::RegWrite, cycle, u, 1u << 20, nullptr});
  EXPECT_GT(r.mismatches, 0);
  EXPECT_EQ(r.first_mismatch_cycle, cycle) << (r.messages.empty() ? "" : r.messages[0]);
}

}  // namespace
}  // namespace neaccel

int sc_main(int argc, char** argv) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
