// The fault campaign's runner (sysc/datapath/faults.hpp): run_core steps DatapathCore directly, so it must give what
// run_model (the SystemC model in the SystemC kernel) gives cycle for cycle: the same cycle-log lines, results and
// cycle counts, with and without an injected fault (each TEST runs in its own process: one SystemC elaboration).
// And faults are drawn deterministically from a seed, each kind applicable.
#include "faults.hpp"
#include "neaccel/hw/design.hpp"
#include "run.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

namespace {

using namespace neaccel;

hw::Design design(const char* robot, const char* format, int ii, bool backpressure) {
  hw::DesignSpec s;
  s.robot = robot;
  s.custom = true;
  s.format = hw::NumberFormat::parse(format);
  s.mul = 1, s.add = 2, s.lat_mul = 2, s.lat_add = 1;
  s.ii = ii;
  s.backpressure = backpressure;
  return hw::make_design(s);
}

std::vector<std::vector<std::uint32_t>> states(const hw::Design& d, int n) {
  std::mt19937_64 rng(7);
  std::vector<std::vector<std::uint32_t>> raw;
  for (int k = 0; k < n; ++k) raw.push_back(hw::encode(d.spec.format, hw::random_state(d, rng)));
  return raw;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// A fault of kind k drawn from the fault-free run's sites with a fixed seed.
sysc::Fault some_fault(const hw::Design& d, const std::vector<std::vector<std::uint32_t>>& raw, sysc::SiteKind k,
                       int stall_every = 0, int stall_len = 0) {
  sysc::FaultSites sites;
  sysc::run_core(d.dp, raw, {}, 1000000, stall_every, stall_len, &sites);
  std::mt19937_64 rng(3);
  return sysc::draw_fault(k, d.dp, sites, rng, nullptr);
}

void expect_same(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& raw, const sysc::Fault& f,
                 int stall_every = 0, int stall_len = 0) {
  ASSERT_NE(f.kind, sysc::Fault::Kind::None);
  std::ostringstream log;
  const sysc::ModelRun m = sysc::run_model(dp, raw, {&log, f, stall_every, stall_len});
  const sysc::CoreRun c = sysc::run_core(dp, raw, f, 1000000, stall_every, stall_len);
  EXPECT_FALSE(c.timeout);
  EXPECT_EQ(c.log, lines(log.str()));
  EXPECT_EQ(c.out, m.out);
  EXPECT_EQ(c.cycles, m.cycles);
  EXPECT_EQ(c.total_cycles, m.total_cycles);
  EXPECT_EQ(c.stream.first_out, m.stream.first_out);
}

TEST(faults, RunCoreIsRunModelLatencyUnitResult) {
  const auto d = design("planar2", "fp32", 0, false);
  const auto raw = states(d, 2);
  expect_same(d.dp, raw, some_fault(d, raw, sysc::SiteKind::UnitResult));
}

TEST(faults, RunCoreIsRunModelLatencyControl) {
  const auto d = design("planar2", "fixed:12.20", 0, false);
  const auto raw = states(d, 2);
  expect_same(d.dp, raw, some_fault(d, raw, sysc::SiteKind::Control));
}

TEST(faults, RunCoreIsRunModelStreamConst) {
  const auto d = design("planar2", "fp32", hw::kStreamMinII, false);
  const auto raw = states(d, 4);
  expect_same(d.dp, raw, some_fault(d, raw, sysc::SiteKind::Const));
}

TEST(faults, RunCoreIsRunModelBackpressureFifo) {
  const auto d = design("planar2", "fixed:12.20", hw::kStreamMinII, true);
  const auto raw = states(d, 4);
  expect_same(d.dp, raw, some_fault(d, raw, sysc::SiteKind::FifoWord, 5, 2), 5, 2);
}

TEST(faults, RunCoreIsRunModelFaultFree) {
  const auto d = design("planar2", "fixed:12.20", hw::kStreamMinII, true);
  const auto raw = states(d, 4);
  sysc::Fault none;
  std::ostringstream log;
  const sysc::ModelRun m = sysc::run_model(d.dp, raw, {&log, none, 5, 2});
  const sysc::CoreRun c = sysc::run_core(d.dp, raw, none, 1000000, 5, 2);
  EXPECT_EQ(c.log, lines(log.str()));
  EXPECT_EQ(c.out, m.out);
  EXPECT_FALSE(c.log.empty());
}

// Same seed, same faults; every kind the design has gives an applicable fault, and a flipped control word differs
// from the program's word.
TEST(faults, DrawIsDeterministicAndApplicable) {
  const auto d = design("planar2", "fixed:12.20", hw::kStreamMinII, true);
  const auto raw = states(d, 4);
  sysc::FaultSites sites;
  sysc::run_core(d.dp, raw, {}, 1000000, 5, 2, &sites);
  const auto kinds = sysc::site_kinds(d.dp);
  ASSERT_EQ(kinds.size(), 5u);  // back-pressure design with constants: every kind
  std::mt19937_64 a(11), b(11);
  for (int i = 0; i < 200; ++i) {
    const auto k = kinds[i % kinds.size()];
    std::string wa, wb;
    const sysc::Fault fa = sysc::draw_fault(k, d.dp, sites, a, &wa), fb = sysc::draw_fault(k, d.dp, sites, b, &wb);
    ASSERT_NE(fa.kind, sysc::Fault::Kind::None) << sysc::site_name(k);
    EXPECT_EQ(wa, wb);
    EXPECT_EQ(fa.cycle, fb.cycle);
    EXPECT_EQ(fa.mask, fb.mask);
    if (k != sysc::SiteKind::Control) {
      EXPECT_EQ(__builtin_popcount(fa.mask), 1);
    }
    EXPECT_GE(fa.cycle, 1);
    EXPECT_LT(fa.cycle, sites.cycles);
  }
}

}  // namespace
