// Cycle logs (rtl/datapath/harness/cycle_log.hpp): the line format and the comparison `neaccel sim --engine cosim`
// uses for unit mixes without a prebuilt lockstep bench. The end-to-end runs are dp.cli.sim_cosim_logs*.
#include "cycle_log.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace neaccel::rtlsim {
namespace {

CycleSample two_units() {
  CycleSample s;
  s.in_ready = true, s.busy = true;
  s.unit_valid = {true, false};
  s.unit_result = {0x3f800000u, 0xdeadbeefu};  // unit 1's bus is not valid: not written
  s.wr_en = {true, false};
  s.wr_addr = {7, 3};
  s.load_en = true, s.load_addr = 12;
  return s;
}

TEST(CycleLog, LineHasOnlyValidValues) {
  EXPECT_EQ(cycle_line(4, two_units(), true), "4 1010 o=- u0=3f800000/7 u1=-/- l=12");
  CycleSample s = two_units();
  s.out_valid = true, s.out_data = 0x12u, s.load_en = false;
  EXPECT_EQ(cycle_line(5, s, false), "5 1110 o=00000012 u0=3f800000/7 u1=-/- l=-");
}

TEST(CycleLog, Binary32NaNsCompareAsAClass) {
  CycleSample a = two_units(), b = two_units();
  a.unit_result[0] = 0x7fc00000u, b.unit_result[0] = 0xffc00001u;
  EXPECT_EQ(cycle_line(0, a, true), cycle_line(0, b, true));
  EXPECT_NE(cycle_line(0, a, false), cycle_line(0, b, false));  // fixed point: every bit counts
}

TEST(CycleLog, ComparisonCountsDifferingAndSurplusLines) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("neaccel_cycle_log_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string a = (dir / "a.log").string(), b = (dir / "b.log").string();
  auto write = [](const std::string& p, const std::vector<std::string>& lines) {
    std::ofstream f(p);
    for (const auto& l : lines) f << l << '\n';
  };
  write(a, {"0 0000 o=- l=-", "1 1010 o=- l=0", "2 0010 o=- l=-"});
  write(b, {"0 0000 o=- l=-", "1 1010 o=- l=0", "2 0010 o=- l=-"});
  CycleLogDiff d = compare_cycle_logs(a, b);
  EXPECT_EQ(d.lines, 3);
  EXPECT_EQ(d.differing, 0);
  write(b, {"0 0000 o=- l=-", "1 1010 o=- l=1", "2 0010 o=- l=-", "3 0000 o=- l=-"});
  d = compare_cycle_logs(a, b);
  EXPECT_EQ(d.lines, 3);
  EXPECT_EQ(d.differing, 2);  // line 2 differs, line 4 only in b
  ASSERT_EQ(d.messages.size(), 2u);
  EXPECT_EQ(d.messages[0], "model '1 1010 o=- l=0' vs RTL '1 1010 o=- l=1'");
  d = compare_cycle_logs(a, (dir / "missing.log").string());
  EXPECT_EQ(d.differing, 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace neaccel::rtlsim
