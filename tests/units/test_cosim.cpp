// SystemC co-simulation: a Verilated SystemC-mode unit and its SystemC model (sc_unit.hpp) on the same
// clock, reset and input signals, compared every cycle (valid_o always; result and flags when valid). A
// deliberately broken RTL variant (TestTruncate = 1) must be caught. SystemC elaborates once per process:
// ctest runs each TEST in its own process (gtest_discover_tests); run this binary with a --gtest_filter
// naming one test.
#include "harness.hpp"

#include "neaccel/units/fp32.hpp"
#include "neaccel/units/sc_unit.hpp"

#include "Vfp32_add_l2_np_sc.h"
#include "Vfp32_div_l3_np_sc.h"
#include "Vfp32_fma_l4_sc.h"
#include "Vfx_div_l3_w32f16_sc.h"
#include "Vfx_fma_l2_w32f16_sc.h"
#include "Vfp32_add_l3_sc.h"
#include "Vfp32_add_l3_trunc_sc.h"
#include "Vfp32_mul_l2_np_sc.h"
#include "Vfp32_mul_l3_sc.h"
#include "Vfp32_mul_l3_trunc_sc.h"
#include "Vfx_add_l2_np_w32f16_sc.h"
#include "Vfx_mul_l2_w32f16_sc.h"
#include "Vfx_mul_l2_w32f16_trunc_sc.h"

#include <gtest/gtest.h>
#include <systemc>

#include <random>

using namespace neaccel::units;
using namespace sc_core;

namespace {

template <class V>
auto bind_op(V& v, sc_signal<uint32_t>& s, int) -> decltype(v.op_i(s), void()) {
  v.op_i(s);
}
template <class V>
void bind_op(V&, sc_signal<uint32_t>&, long) {}
template <class V>
auto bind_c(V& v, sc_signal<uint32_t>& s, int) -> decltype(v.c_i(s), void()) {
  v.c_i(s);
}
template <class V>
void bind_c(V&, sc_signal<uint32_t>&, long) {}
template <class V>
auto bind_flags(V& v, sc_signal<uint32_t>& s, int) -> decltype(v.flags_o(s), void()) {
  v.flags_o(s);
}
template <class V>
void bind_flags(V&, sc_signal<uint32_t>&, long) {}

struct CosimReport {
  size_t cycles = 0, compared = 0, mismatches = 0;
  std::string first;
};

template <class V>
CosimReport cosim(const UnitConfig& cfg, const std::vector<test::Operation>& ops) {
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  // Rising edges at 5 + 10k ns; inputs change at 10k ns, outputs are read at 10k + 10 ns.
  sc_clock clk("clk", sc_time(10, SC_NS), 0.5, sc_time(5, SC_NS), true);
  sc_signal<bool> rst_n{"rst_n", false}, valid{"valid", false};
  sc_signal<uint32_t> op{"op", 0}, a{"a", 0}, b{"b", 0}, c{"c", 0};
  sc_signal<bool> v_rtl{"v_rtl"}, v_mod{"v_mod"};
  sc_signal<uint32_t> r_rtl{"r_rtl"}, r_mod{"r_mod"}, f_rtl{"f_rtl", 0}, f_mod{"f_mod"};

  V dut("dut");
  dut.clk_i(clk);
  dut.rst_ni(rst_n);
  dut.valid_i(valid);
  dut.a_i(a);
  dut.b_i(b);
  bind_op(dut, op, 0);
  bind_c(dut, c, 0);
  dut.valid_o(v_rtl);
  dut.result_o(r_rtl);
  bind_flags(dut, f_rtl, 0);

  ScUnit model("model", cfg);
  model.clk_i(clk);
  model.rst_ni(rst_n);
  model.valid_i(valid);
  model.op_i(op);
  model.a_i(a);
  model.b_i(b);
  model.c_i(c);
  model.valid_o(v_mod);
  model.result_o(r_mod);
  model.flags_o(f_mod);

  CosimReport rep;
  const bool fixed = is_fixed(cfg.kind);
  auto compare = [&] {
    ++rep.cycles;
    bool ok = v_rtl.read() == v_mod.read();
    if (ok && v_rtl.read()) {
      ++rep.compared;
      ok = fixed ? r_rtl.read() == r_mod.read()
                 : fp32::same_result(r_rtl.read(), r_mod.read()) && f_rtl.read() == f_mod.read();
    }
    if (!ok && rep.mismatches++ == 0) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "cycle %zu: rtl valid %d %08X flags %02X, model valid %d %08X flags %02X",
                    rep.cycles, int(v_rtl.read()), r_rtl.read(), f_rtl.read(), int(v_mod.read()), r_mod.read(),
                    f_mod.read());
      rep.first = buf;
    }
  };
  sc_start(sc_time(20, SC_NS));  // two edges in reset
  rst_n.write(true);
  std::mt19937_64 rng(11);
  size_t next = 0;
  long since_issue = 1000;
  while (next < ops.size() || since_issue <= cfg.latency) {
    bool issue = next < ops.size() && (cfg.pipelined ? rng() % 8 != 0 : since_issue >= cfg.latency);
    valid.write(issue);
    if (issue) {
      op.write(ops[next].op);
      a.write(ops[next].a);
      b.write(ops[next].b);
      c.write(ops[next].c);
      ++next;
      since_issue = 0;
    } else {
      a.write(static_cast<uint32_t>(rng()));  // inputs change while idle: must not matter
    }
    sc_start(sc_time(10, SC_NS));
    ++since_issue;
    compare();
  }
  sc_stop();
  return rep;
}

std::vector<test::Operation> ops_for(const UnitConfig& c, size_t n) { return test::random_operations(c, n, 99); }

template <class V>
void expect_equal(const UnitConfig& c, size_t n) {
  const auto ops = ops_for(c, n);
  const CosimReport rep = cosim<V>(c, ops);
  EXPECT_EQ(rep.compared, ops.size());
  EXPECT_EQ(rep.mismatches, 0u) << rep.first;
}

template <class V>
void expect_caught(const UnitConfig& c, size_t n) {
  const auto ops = ops_for(c, n);
  const CosimReport rep = cosim<V>(c, ops);
  EXPECT_EQ(rep.compared, ops.size());
  // Truncation differs from rounding on about half of the inexact results.
  EXPECT_GT(rep.mismatches, n / 10) << "the broken (truncating) unit was not caught";
}

UnitConfig cfg(UnitKind k, int lat, bool pipe = true) { return {k, lat, pipe, 32, 16}; }

}  // namespace

TEST(Cosim, Fp32MulL3) { expect_equal<Vfp32_mul_l3_sc>(cfg(UnitKind::Fp32Mul, 3), 20000); }
TEST(Cosim, Fp32MulL2NonPipelined) { expect_equal<Vfp32_mul_l2_np_sc>(cfg(UnitKind::Fp32Mul, 2, false), 5000); }
TEST(Cosim, Fp32AddL3) { expect_equal<Vfp32_add_l3_sc>(cfg(UnitKind::Fp32Add, 3), 20000); }
TEST(Cosim, Fp32AddL2NonPipelined) { expect_equal<Vfp32_add_l2_np_sc>(cfg(UnitKind::Fp32Add, 2, false), 5000); }
TEST(Cosim, FxMulL2) { expect_equal<Vfx_mul_l2_w32f16_sc>(cfg(UnitKind::FxMul, 2), 20000); }
TEST(Cosim, FxAddL2NonPipelined) { expect_equal<Vfx_add_l2_np_w32f16_sc>(cfg(UnitKind::FxAdd, 2, false), 5000); }
TEST(Cosim, Fp32FmaL4) { expect_equal<Vfp32_fma_l4_sc>(cfg(UnitKind::Fp32Fma, 4), 20000); }
TEST(Cosim, Fp32DivL3NonPipelined) { expect_equal<Vfp32_div_l3_np_sc>(cfg(UnitKind::Fp32Div, 3, false), 5000); }
TEST(Cosim, FxFmaL2) { expect_equal<Vfx_fma_l2_w32f16_sc>(cfg(UnitKind::FxFma, 2), 20000); }
TEST(Cosim, FxDivL3) { expect_equal<Vfx_div_l3_w32f16_sc>(cfg(UnitKind::FxDiv, 3), 20000); }
TEST(CosimBroken, Fp32MulTruncationIsCaught) {
  expect_caught<Vfp32_mul_l3_trunc_sc>(cfg(UnitKind::Fp32Mul, 3), 5000);
}
TEST(CosimBroken, Fp32AddTruncationIsCaught) {
  expect_caught<Vfp32_add_l3_trunc_sc>(cfg(UnitKind::Fp32Add, 3), 5000);
}
TEST(CosimBroken, FxMulTruncationIsCaught) { expect_caught<Vfx_mul_l2_w32f16_trunc_sc>(cfg(UnitKind::FxMul, 2), 5000); }

// libsystemc defines main() and calls sc_main: run GoogleTest from here.
int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
