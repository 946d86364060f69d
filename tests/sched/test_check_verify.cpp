// check() rejects bad problems; verify() catches every violated rule (one test per rule).
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace neaccel::sched {
namespace {

using dfg::Op;

// A hand-made valid schedule of HAL on 2 multipliers + 1 ALU (unit latency): the 5-cycle schedule derived in
// test_algorithms.cpp. Node ids: 0..4 inputs x y u dx a, 5 const 3, 6 m1, 7 m2, 8 m3, 9 m4, 10 x1, 11 m5, 12 m6,
// 13 s1, 14 u1, 15 y1, 16 c.
struct Hal : ::testing::Test {
  dfg::Graph g = hal_diffeq();
  Problem p;
  Schedule s;
  void SetUp() override {
    p.graph = &g;
    p.classes = default_classes(2, 1, 1, 1);
    s.slots.resize(g.nodes.size());
    auto put = [&](int v, int t, int c, int i) { s.slots[v] = Slot{t, c, i}; };
    put(6, 0, 0, 0); put(7, 0, 0, 1); put(10, 0, 1, 0);
    put(8, 1, 0, 0); put(9, 1, 0, 1); put(16, 1, 1, 0);
    put(11, 2, 0, 0); put(12, 2, 0, 1); put(15, 2, 1, 0);
    put(13, 3, 1, 0);
    put(14, 4, 1, 0);
    s.length = 5;
    s.algorithm = "hand";
  }
  bool has(const std::vector<std::string>& v, const std::string& what) {
    return std::any_of(v.begin(), v.end(), [&](const std::string& m) { return m.rfind(what, 0) == 0; });
  }
};

TEST_F(Hal, CheckAcceptsValidProblem) { EXPECT_NO_THROW(check(p)); }

TEST_F(Hal, CheckRejectsBadClasses) {
  auto expect_error = [&](Problem q, const char* field) {
    try {
      check(q);
      ADD_FAILURE() << "no error for " << field;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  Problem q = p;
  q.classes[0].count = 0;
  expect_error(q, "count");
  q = p;
  q.classes[1].latency = 0;
  expect_error(q, "latency");
  q = p;
  q.classes[0].occupancy = 2;  // > latency 1
  expect_error(q, "occupancy");
  q = p;
  q.classes[1].ops = {Op::Add, Op::Sub};  // nobody executes cmp
  expect_error(q, "no unit class executes op 'cmp'");
  q = p;
  q.ii = -1;
  expect_error(q, "ii");
  q = p;
  q.graph = nullptr;
  expect_error(q, "graph");
  q = p;
  q.classes[1].name = "mul";
  expect_error(q, "duplicate");
}

TEST_F(Hal, VerifyAcceptsHandSchedule) {
  EXPECT_TRUE(verify(p, s).empty()) << verify(p, s).front();
  allocate_registers(p, s);
  EXPECT_TRUE(verify(p, s).empty()) << verify(p, s).front();
}

TEST_F(Hal, VerifyCatchesDependence) {
  s.slots[14].start = 3;  // u1 = s1 - m6 in the same cycle as s1 (and the ALU is taken)
  EXPECT_TRUE(has(verify(p, s), "dependence"));
}

TEST_F(Hal, VerifyCatchesLatency) {
  p.classes[0].latency = 2;  // the hand schedule assumed latency 1
  p.classes[0].occupancy = 1;
  EXPECT_TRUE(has(verify(p, s), "dependence"));
}

TEST_F(Hal, VerifyCatchesUnitOveruse) {
  s.slots[9].instance = 0;  // m3 and m4 both on multiplier 0 at cycle 1
  EXPECT_TRUE(has(verify(p, s), "unit use"));
}

TEST_F(Hal, VerifyCatchesOccupancy) {
  p.classes[0].latency = 2;
  p.classes[0].occupancy = 2;  // non-pipelined: m1 at 0 still busy at 1 when m3 issues on instance 0
  const auto v = verify(p, s);
  EXPECT_TRUE(has(v, "unit use"));
}

TEST_F(Hal, VerifyCatchesModuloOveruse) {
  p.ii = 2;
  s.ii = 2;  // cycles 0 and 2 fold onto the same congruence class: multiplier 0 is used twice
  EXPECT_TRUE(has(verify(p, s), "unit use"));
}

TEST_F(Hal, VerifyCatchesIllegalBinding) {
  s.slots[10].cls = 0;  // x1 (add) on a multiplier
  EXPECT_TRUE(has(verify(p, s), "binding"));
}

TEST_F(Hal, VerifyCatchesMissingInstance) {
  s.slots[6].instance = 2;  // only instances 0 and 1 exist
  EXPECT_TRUE(has(verify(p, s), "binding"));
}

TEST_F(Hal, VerifyCatchesWrongLength) {
  s.length = 4;
  EXPECT_TRUE(has(verify(p, s), "length"));
  s.length = 6;
  EXPECT_TRUE(has(verify(p, s), "length"));
}

TEST_F(Hal, VerifyCatchesBadInputPlacement) {
  s.slots[0].start = 3;
  EXPECT_TRUE(has(verify(p, s), "placement"));
}

TEST_F(Hal, VerifyCatchesSlotCount) {
  s.slots.pop_back();
  EXPECT_TRUE(has(verify(p, s), "slots"));
}

TEST_F(Hal, VerifyCatchesRegisterOverlap) {
  allocate_registers(p, s);
  // m1 (node 6) lives [1, 3) (read by m5 at 2); m2 (node 7) the same: sharing a register is an overlap.
  s.reg[7] = s.reg[6];
  EXPECT_TRUE(has(verify(p, s), "registers"));
}

TEST_F(Hal, VerifyCatchesMissingRegister) {
  allocate_registers(p, s);
  s.reg[14] = -1;  // output u1 needs a register
  EXPECT_TRUE(has(verify(p, s), "registers"));
}

TEST_F(Hal, VerifyCatchesRegisterLimit) {
  allocate_registers(p, s);
  p.max_registers = s.num_registers - 1;
  EXPECT_TRUE(has(verify(p, s), "registers"));
}

TEST_F(Hal, VerifyCatchesReadPorts) {
  // Distinct register values read per cycle (constants come from the ROM): cycle 0 x, u, dx (3); cycle 1 y, u,
  // dx, x1, a (5); cycle 2 m1, m2, m3, dx, y, m4 (6); cycles 3 and 4: 2 each.
  p.read_ports = 5;
  EXPECT_TRUE(has(verify(p, s), "ports"));
  p.read_ports = 6;
  EXPECT_FALSE(has(verify(p, s), "ports"));
}

TEST_F(Hal, VerifyCatchesWritePorts) {
  p.write_ports = 2;  // cycle 1 writes m1, m2 and x1
  EXPECT_TRUE(has(verify(p, s), "ports"));
  p.write_ports = 3;
  EXPECT_FALSE(has(verify(p, s), "ports"));
}

TEST_F(Hal, VerifyCatchesIiMismatch) {
  s.ii = 3;
  EXPECT_TRUE(has(verify(p, s), "ii"));
}

TEST_F(Hal, LifetimesFollowTheConvention) {
  const auto lts = lifetimes(p, s);
  int seen = 0;  // both nodes below must have a lifetime: a missing one must fail the test
  for (const auto& lt : lts) {
    if (lt.node == 6) {
      ++seen;  // m1 issued at 0, latency 1, read by m5 at 2
      EXPECT_EQ(lt.begin, 1);
      EXPECT_EQ(lt.end, 3);
    }
    if (lt.node == 14) {  // output u1 issued at 4: held through cycle length = 5
      ++seen;
      EXPECT_EQ(lt.begin, 5);
      EXPECT_EQ(lt.end, 6);
    }
    EXPECT_NE(lt.node, 5u) << "constants need no register";
  }
  EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace neaccel::sched
