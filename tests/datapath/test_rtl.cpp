// dp.rtl.*: the Verilated RTL (C++ mode, the fast harness of rtl/datapath/harness/driver.hpp) runs design points
// loaded at run time from .hex files: outputs bit-identical to the graph in the format and to the cycle core,
// cycle count = schedule length + n_in + n_out + 2.
#include "dp_configs.hpp"
#include "driver.hpp"
#include "support.hpp"

#include "Vdp_f22.h"
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
    std::vector<std::uint32_t> raw;
    for (double v : x) raw.push_back(hw::encode(cfg.format, v));
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

}  // namespace
}  // namespace neaccel
