// Co-simulation bench: a Verilated nea_datapath (SystemC mode, any PREFIX) and the SystemC model (DatapathModel)
// side by side on one clock, fed the same stimulus, compared every cycle at the falling edge: unit result buses,
// register writes (enable, address, data) of every unit and of the input load, and the stream/status outputs.
// Header-only template (the Verilated class differs per configuration); include after the Verilated header.
#pragma once

#include "model.hpp"
#include "stream_book.hpp"

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace neaccel::sysc {

struct CosimResult {
  std::vector<std::vector<std::uint32_t>> rtl_out, model_out;  // per state, tau1..taun
  std::vector<long> cycles;                                    // per state, start to DONE (RTL)
  long compared_cycles = 0;
  long mismatches = 0;                                         // cycles with at least one difference
  long first_mismatch_cycle = -1;                              // model cycle (since reset) of the first one
  std::vector<std::string> messages;                           // the first few differences
  // Streaming datapaths: one run over all states (rtl_out/model_out/cycles hold its results too: cycles = II
  // measured between successive results).
  rtlsim::StreamResult rtl_stream, model_stream;
};

namespace detail {
inline std::uint64_t bits_of(bool v, int lo, int w) { return (static_cast<std::uint64_t>(v) >> lo) & ((1ull << w) - 1); }
inline std::uint64_t bits_of(std::uint32_t v, int lo, int w) { return (std::uint64_t{v} >> lo) & ((1ull << w) - 1); }
inline std::uint64_t bits_of(std::uint64_t v, int lo, int w) {
  return (v >> lo) & (w >= 64 ? ~0ull : ((1ull << w) - 1));
}
template <int N>
std::uint64_t bits_of(const sc_dt::sc_bv<N>& v, int lo, int w) {
  return v.range(lo + w - 1, lo).to_uint64();
}
}  // namespace detail

template <class Rtl>
SC_MODULE(CosimBench) {
  template <class P>
  using sig = sc_core::sc_signal<typename std::remove_reference_t<P>::data_type>;

  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n", false}, start{"start", false}, in_valid{"in_valid", false},
      out_ready{"out_ready", false};
  sc_core::sc_signal<std::uint32_t> in_data{"in_data", 0};
  // RTL outputs and the model's outputs.
  sc_core::sc_signal<bool> r_in_ready{"r_in_ready"}, r_out_valid{"r_out_valid"}, r_busy{"r_busy"}, r_done{"r_done"};
  sc_core::sc_signal<std::uint32_t> r_out_data{"r_out_data"};
  sc_core::sc_signal<bool> m_in_ready{"m_in_ready"}, m_out_valid{"m_out_valid"}, m_busy{"m_busy"}, m_done{"m_done"};
  sc_core::sc_signal<std::uint32_t> m_out_data{"m_out_data"};
  sig<decltype(Rtl::dbg_unit_valid_o)> d_unit_valid{"d_unit_valid"};
  sig<decltype(Rtl::dbg_unit_result_o)> d_unit_result{"d_unit_result"};
  sig<decltype(Rtl::dbg_wr_en_o)> d_wr_en{"d_wr_en"};
  sig<decltype(Rtl::dbg_wr_addr_o)> d_wr_addr{"d_wr_addr"};
  sig<decltype(Rtl::dbg_load_en_o)> d_load_en{"d_load_en"};
  sig<decltype(Rtl::dbg_load_addr_o)> d_load_addr{"d_load_addr"};

  Rtl rtl{"rtl"};
  DatapathModel model;
  const hw::Datapath& dp;
  std::vector<std::vector<std::uint32_t>> states;
  int gap_every = 0, gap_len = 0;  // streaming: bubbles in the input stream (StreamBook)
  CosimResult result;

  SC_HAS_PROCESS(CosimBench);
  CosimBench(sc_core::sc_module_name name, const hw::Datapath& datapath,
             std::vector<std::vector<std::uint32_t>> inputs)
      : sc_core::sc_module(name), model("model", datapath), dp(datapath), states(std::move(inputs)) {
    rtl.clk_i(clk);
    rtl.rst_ni(rst_n);
    rtl.start_i(start);
    rtl.in_valid_i(in_valid);
    rtl.in_data_i(in_data);
    rtl.out_ready_i(out_ready);
    rtl.in_ready_o(r_in_ready);
    rtl.out_valid_o(r_out_valid);
    rtl.out_data_o(r_out_data);
    rtl.busy_o(r_busy);
    rtl.done_o(r_done);
    rtl.dbg_unit_valid_o(d_unit_valid);
    rtl.dbg_unit_result_o(d_unit_result);
    rtl.dbg_wr_en_o(d_wr_en);
    rtl.dbg_wr_addr_o(d_wr_addr);
    rtl.dbg_load_en_o(d_load_en);
    rtl.dbg_load_addr_o(d_load_addr);
    model.clk_i(clk);
    model.rst_ni(rst_n);
    model.start_i(start);
    model.in_valid_i(in_valid);
    model.in_data_i(in_data);
    model.out_ready_i(out_ready);
    model.in_ready_o(m_in_ready);
    model.out_valid_o(m_out_valid);
    model.out_data_o(m_out_data);
    model.busy_o(m_busy);
    model.done_o(m_done);
    SC_THREAD(stimulus);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

 private:
  void mismatch(const std::string& what) {
    if (result.messages.size() < 8)
      result.messages.push_back("cycle " + std::to_string(model.core().cycle()) + ": " + what);
  }

  // Compares the current cycle; returns true when everything agrees.
  bool compare() {
    const auto& f = dp.config.format;
    const int U = dp.config.num_units(), W = f.width(), RA = dp.config.reg_addr_bits();
    const CycleView v = model.core().view(in_valid.read(), in_data.read());
    const std::size_t before = result.messages.size();
    bool ok = true;
    auto check = [&](bool cond, const std::string& what) {
      if (!cond) {
        ok = false;
        mismatch(what);
      }
    };
    for (int u = 0; u < U; ++u) {
      const bool rv = detail::bits_of(d_unit_valid.read(), u, 1);
      const auto rr = static_cast<std::uint32_t>(detail::bits_of(d_unit_result.read(), u * W, W));
      check(rv == v.unit_valid[u], "unit " + std::to_string(u) + " valid");
      if (rv && v.unit_valid[u]) check(hw::same(f, rr, v.unit_result[u]), "unit " + std::to_string(u) + " result");
      const bool we = detail::bits_of(d_wr_en.read(), u, 1);
      check(we == v.wr_en[u], "unit " + std::to_string(u) + " register write enable");
      if (we && v.wr_en[u]) {
        check(static_cast<int>(detail::bits_of(d_wr_addr.read(), u * RA, RA)) == v.wr_addr[u],
              "unit " + std::to_string(u) + " register write address");
        check(hw::same(f, rr, v.wr_data[u]), "unit " + std::to_string(u) + " register write data");
      }
    }
    check(detail::bits_of(d_load_en.read(), 0, 1) == v.load_en, "load enable");
    if (v.load_en) check(static_cast<int>(detail::bits_of(d_load_addr.read(), 0, RA)) == v.load_addr, "load address");
    check(r_in_ready.read() == v.in_ready && r_out_valid.read() == v.out_valid && r_done.read() == v.done &&
              r_busy.read() == v.busy,
          "stream/status outputs");
    if (v.out_valid) check(hw::same(f, r_out_data.read(), v.out_data), "out_data");
    (void)before;
    return ok;
  }

  // Compares this cycle and counts it (and the first cycle that differs).
  void check_cycle() {
    ++result.compared_cycles;
    if (compare()) return;
    if (result.first_mismatch_cycle < 0) result.first_mismatch_cycle = model.core().cycle();
    ++result.mismatches;
  }

  // Streaming: every state in one run, in_valid held high until all words are taken; both sides book-kept.
  void stream_stimulus() {
    rtlsim::StreamBook rb(states, dp.output_names.size(), gap_every, gap_len),
        mb(states, dp.output_names.size(), gap_every, gap_len);
    for (long c = 0;; ++c) {
      check_cycle();
      if (c > 0 && r_done.read()) {
        rb.r.cycles = mb.r.cycles = c;
        break;
      }
      if (c > 100000000) {
        mismatch("no done_o");
        break;
      }
      start.write(c == 0);  // this cycle's inputs first (the words offered), then the handshakes
      in_valid.write(rb.in_valid());
      out_ready.write(true);  // the prebuilt configurations have no output FIFO (no back-pressure)
      in_data.write(rb.in_data());
      rb.cycle(c, r_in_ready.read(), r_out_valid.read(), r_out_data.read());
      mb.cycle(c, m_in_ready.read(), m_out_valid.read(), m_out_data.read());
      wait();
    }
    result.rtl_stream = rb.r;
    result.model_stream = mb.r;
    result.rtl_out = rb.r.out;
    result.model_out = mb.r.out;
    for (std::size_t k = 1; k < rb.r.first_out.size(); ++k) result.cycles.push_back(rb.r.first_out[k] - rb.r.first_out[k - 1]);
    start.write(false);
    in_valid.write(false);
    wait();
    sc_core::sc_stop();
  }

  void stimulus() {
    wait();
    wait();
    rst_n.write(true);
    wait();
    if (dp.streaming()) return stream_stimulus();
    for (const auto& in : states) {
      std::vector<std::uint32_t> rout, mout;
      std::size_t k = 0;
      for (long c = 0;; ++c) {
        check_cycle();
        if (c > 0 && r_done.read()) {
          result.cycles.push_back(c);
          break;
        }
        if (c > 5000000) {
          mismatch("no done_o");
          break;
        }
        if (r_out_valid.read()) rout.push_back(r_out_data.read());
        if (m_out_valid.read()) mout.push_back(m_out_data.read());
        start.write(c == 0);
        in_valid.write(true);
        out_ready.write(true);
        in_data.write(k < in.size() ? in[k] : 0);
        if (r_in_ready.read()) ++k;
        wait();
      }
      result.rtl_out.push_back(rout);
      result.model_out.push_back(mout);
      start.write(false);
      wait();  // DONE -> IDLE
    }
    sc_core::sc_stop();
  }
};

// Runs one co-simulation (one per process: SystemC elaborates once). `rtl_dp` is what the RTL's .hex files were
// written from (the fault tests corrupt it); the model executes `dp`.
template <class Rtl>
CosimResult cosimulate(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states,
                       const Fault& fault = {}, int gap_every = 0, int gap_len = 0) {
  auto bench = std::make_unique<CosimBench<Rtl>>("bench", dp, states);
  bench->model.core().inject(fault);
  bench->gap_every = gap_every;
  bench->gap_len = gap_len;
  sc_core::sc_start();
  return bench->result;
}

}  // namespace neaccel::sysc
