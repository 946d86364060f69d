// dp.rtl.*: the Verilated RTL (C++ mode, the fast harness of rtl/datapath/harness/driver.hpp) runs design points
// loaded at run time from .hex files: outputs bit-identical to the graph in the format and to the cycle core,
// cycle count = schedule length + n_in + n_out + 2. dp.rtl_stream.*: the streaming RTL (nea_stream) streams 100 set
// points per design point: results in order, bit-identical to the graph and to the cycle core, the measured II
// (cycles between successive results) and latency equal to the claimed ones.
#include "dp_configs.hpp"
#include "driver.hpp"
#include "support.hpp"

#include "Vdp_f22.h"
#include "Vdp_s22.h"
#include "Vdp_sx11.h"
#include "Vdp_x11.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

namespace neaccel {
namespace {

template <class Model>
void check_point(const hw::Config& cfg, const std::string& robot, bool custom, int states) {
  const hw::Design d = hw::make_design(dptest::spec_for(cfg, robot, custom));
  const hw::Datapath dp = hw::fit(d.dp, cfg);
  std::string name = robot + (custom ? "_custom" : "_general");
  for (auto& ch : name)
    if (ch == ':') ch = '_';
  const std::string dir = std::string(NEACCEL_TEST_OUT) + "/dp/rtl/" + name + "_" + cfg.format.name().substr(0, 5);
  hw::write_hex(dp, dir);
  auto ctx = std::make_unique<VerilatedContext>();
  const std::string plusarg = "+neaccel_hex=" + dir;
  const char* argv[] = {"dp_rtl_tests", plusarg.c_str()};
  ctx->commandArgs(2, argv);
  auto model = std::make_unique<Model>(ctx.get(), "dp");
  rtlsim::Driver<Model> drv(*model);
  drv.reset();
  std::mt19937_64 rng(99);
  const long expected = d.schedule.length + static_cast<long>(d.graph->inputs.size() + d.graph->outputs.size()) + 2;
  for (int k = 0; k < states; ++k) {
    const auto x = hw::random_state(d, rng);
    const std::vector<std::uint32_t> raw = hw::encode(cfg.format, x);
    const auto got = drv.run(raw);
    const auto want = hw::golden_raw(*d.graph, cfg.format, x);
    const auto core = dptest::run_core(dp, raw);
    ASSERT_EQ(got.cycles, expected) << name;
    ASSERT_EQ(got.out.size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o) {
      ASSERT_TRUE(hw::same(cfg.format, got.out[o], want[o])) << name << " state " << k << " tau" << o + 1;
      ASSERT_EQ(got.out[o], core.out[o]) << name << " state " << k << " tau" << o + 1;
    }
  }
  model->final();
}

TEST(rtl, Fp32TwoByTwoPuma560General) { check_point<Vdp_f22>(dptest::config_f22(), "puma560", false, 100); }
TEST(rtl, Fp32TwoByTwoStanfordCustom) { check_point<Vdp_f22>(dptest::config_f22(), "stanford", true, 100); }
TEST(rtl, Fp32TwoByTwoRandomArms) {
  for (int n = 1; n <= 8; n += 3) check_point<Vdp_f22>(dptest::config_f22(), "random:" + std::to_string(n) + ":11", n % 2, 100);
}
TEST(rtl, FixedOneByOneRx90General) { check_point<Vdp_x11>(dptest::config_x11(), "rx90", false, 100); }
TEST(rtl, FixedOneByOnePuma560Custom) { check_point<Vdp_x11>(dptest::config_x11(), "puma560", true, 100); }

template <class Model>
void check_stream_point(const hw::Config& cfg, const dfg::Graph& g, const hw::Datapath& dp_in,
                        const std::vector<std::vector<double>>& x, const std::string& name) {
  const hw::Datapath dp = hw::fit(dp_in, cfg);
  const std::string dir = std::string(NEACCEL_TEST_OUT) + "/dp/rtl_stream/" + name;
  hw::write_hex(dp, dir);
  auto ctx = std::make_unique<VerilatedContext>();
  const std::string plusarg = "+neaccel_hex=" + dir;
  const char* argv[] = {"dp_rtl_tests", plusarg.c_str()};
  ctx->commandArgs(2, argv);
  auto model = std::make_unique<Model>(ctx.get(), "dp");
  rtlsim::Driver<Model> drv(*model);
  drv.reset();
  std::vector<std::vector<std::uint32_t>> raw;
  for (const auto& s : x) raw.push_back(hw::encode(cfg.format, s));
  const auto got = drv.run_stream(raw, g.outputs.size());
  const auto core = dptest::run_core_stream(dp, raw);
  ASSERT_EQ(got.out.size(), x.size()) << name;
  EXPECT_EQ(got.cycles, core.cycles) << name;
  for (std::size_t k = 0; k < x.size(); ++k) {
    const auto want = hw::golden_raw(g, cfg.format, x[k]);
    ASSERT_EQ(got.out[k].size(), want.size());
    for (std::size_t o = 0; o < want.size(); ++o) {
      ASSERT_TRUE(hw::same(cfg.format, got.out[k][o], want[o])) << name << " set point " << k << " tau" << o + 1;
      ASSERT_EQ(got.out[k][o], core.out[k][o]) << name << " set point " << k << " tau" << o + 1;
    }
    ASSERT_EQ(got.last_out[k] - got.first_in[k] + 1, dp.latency()) << name << " set point " << k;
    if (k > 0) {
      ASSERT_EQ(got.first_out[k] - got.first_out[k - 1], dp.stream.ii) << name << " set point " << k;
    }
  }
  std::printf("%s: II %d (measured over %zu results), latency %d, %ld cycles for %zu set points, %d registers\n",
              name.c_str(), dp.stream.ii, x.size(), dp.latency(), got.cycles, x.size(), dp_in.num_regs);
  model->final();
}

template <class Model>
void check_stream_robot(const hw::Config& cfg, const std::string& robot, bool custom) {
  const hw::Design d = dptest::stream_design(cfg, robot, custom);
  std::mt19937_64 rng(77);
  std::vector<std::vector<double>> x;
  for (int k = 0; k < 100; ++k) x.push_back(hw::random_state(d, rng));
  std::string name = robot + (custom ? "_custom_" : "_general_") + cfg.format.name().substr(0, 5);
  for (auto& ch : name)
    if (ch == ':') ch = '_';
  check_stream_point<Model>(cfg, *d.graph, d.dp, x, name);
}

TEST(rtl_stream, Fp32TwoByTwoPuma560Custom) { check_stream_robot<Vdp_s22>(dptest::config_s22(), "puma560", true); }
TEST(rtl_stream, Fp32TwoByTwoPuma560GeneralIoBound) {
  check_stream_robot<Vdp_s22>(dptest::config_s22(), "puma560", false);
}
TEST(rtl_stream, Fp32TwoByTwoRandomArm6Custom) { check_stream_robot<Vdp_s22>(dptest::config_s22(), "random:6:3", true); }
TEST(rtl_stream, FixedOneByOnePuma560Custom) { check_stream_robot<Vdp_sx11>(dptest::config_sx11(), "puma560", true); }
TEST(rtl_stream, FixedOneByOneStanfordGeneral) {
  check_stream_robot<Vdp_sx11>(dptest::config_sx11(), "stanford", false);
}
// Bubbles in the input stream (a launch word missed after every third set point): same results as the cycle core.
TEST(rtl_stream, Fp32Puma560CustomWithBubbles) {
  const auto cfg = dptest::config_s22();
  const hw::Design d = dptest::stream_design(cfg, "puma560", true);
  const hw::Datapath dp = hw::fit(d.dp, cfg);
  const std::string dir = std::string(NEACCEL_TEST_OUT) + "/dp/rtl_stream/bubbles";
  hw::write_hex(dp, dir);
  auto ctx = std::make_unique<VerilatedContext>();
  const std::string plusarg = "+neaccel_hex=" + dir;
  const char* argv[] = {"dp_rtl_tests", plusarg.c_str()};
  ctx->commandArgs(2, argv);
  auto model = std::make_unique<Vdp_s22>(ctx.get(), "dp");
  rtlsim::Driver<Vdp_s22> drv(*model);
  drv.reset();
  std::mt19937_64 rng(9);
  std::vector<std::vector<double>> x;
  std::vector<std::vector<std::uint32_t>> raw;
  for (int k = 0; k < 100; ++k) {
    x.push_back(hw::random_state(d, rng));
    raw.push_back(hw::encode(cfg.format, x.back()));
  }
  const int gap = dp.stream.ii + 5;
  const auto got = drv.run_stream(raw, d.graph->outputs.size(), 3, gap);
  const auto core = dptest::run_core_stream(dp, raw, 3, gap);
  ASSERT_EQ(got.out.size(), x.size());
  EXPECT_EQ(got.cycles, core.cycles);
  EXPECT_EQ(got.first_out, core.first_out);
  for (std::size_t k = 0; k < x.size(); ++k)
    ASSERT_EQ(got.out[k], hw::golden_raw(*d.graph, cfg.format, x[k])) << "set point " << k;
  model->final();
}

TEST(rtl_stream, Fp32TwoByTwoRandomGraph) {
  const auto g = dptest::random_graph(21, 8, 120, 4);
  auto p = dptest::make_problem(g, 2, 2, 3, 2);
  sched::Schedule s;
  const auto dp = hw::stream_datapath(g, p, s, hw::NumberFormat{}, hw::kStreamMinII);
  std::mt19937 rng(5);
  std::vector<std::vector<double>> x;
  for (int k = 0; k < 100; ++k) x.push_back(dptest::random_inputs(rng, g.inputs.size()));
  check_stream_point<Vdp_s22>(dptest::config_s22(), g, dp, x, "random_graph_21");
}

}  // namespace
}  // namespace neaccel
