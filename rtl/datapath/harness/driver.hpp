// Drives a Verilated nea_datapath (C++ mode, any PREFIX) through the start / load / compute / unload protocol of
// docs/datapath.md with in_valid_i and out_ready_i held high. Header-only so that the tests, the benchmark and the
// standalone harness (main.cpp, built by `neaccel sim --engine verilator`) share it.
#pragma once

#include <verilated.h>
#if VM_TRACE
#include <verilated_vcd_c.h>
#endif

#include "stream_book.hpp"

#include <cstdint>
#include <functional>
#include <type_traits>
#include <stdexcept>
#include <vector>

namespace neaccel::rtlsim {

// Sets bits [lo, lo + w) (w <= 32) of a Verilated input port: an integer (up to 64 bits) or a VlWide (wider ports).
template <class T>
void set_port_bits(T& v, int lo, int w, std::uint32_t value) {
  const std::uint64_t mask = (w >= 32 ? 0xFFFFFFFFull : ((std::uint64_t{1} << w) - 1));
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    U x = static_cast<U>(v);
    x = static_cast<U>(x & ~static_cast<U>(mask << lo)) | static_cast<U>((value & mask) << lo);
    v = static_cast<T>(x);
  } else {
    for (int i = 0; i < w; ++i) {
      const int b = lo + i;
      auto& word = v.data()[b / 32];
      const std::uint32_t bit = std::uint32_t{1} << (b % 32);
      word = ((value >> i) & 1u) ? (word | bit) : (word & ~bit);
    }
  }
}

struct RunResult {
  std::vector<std::uint32_t> out;  // unloaded words, tau1..taun
  long cycles = 0;                 // from the cycle start_i is sampled to the DONE cycle
};

template <class Model>
class Driver {
 public:
  explicit Driver(Model& m) : m_(m) {}
  // An input port of `words` words of `width` bits per cycle (nea_stream InWords).
  void set_in_words(int words, int width) { in_words_ = words, width_ = width; }
#if VM_TRACE
  void trace(VerilatedVcdC* vcd) { vcd_ = vcd; }
#endif

  // Holds reset for two cycles.
  void reset() {
    m_.rst_ni = 0;
    m_.start_i = 0;
    m_.in_valid_i = 0;
    m_.out_ready_i = 0;
    set_in(0, 0);
    tick();
    tick();
    m_.rst_ni = 1;
    m_.eval();
  }

  // One rising edge (inputs already set), then the falling edge.
  void tick() {
    m_.clk_i = 1;
    m_.eval();
    dump();
    m_.clk_i = 0;
    m_.eval();
    dump();
    ++cycles_;
  }

  // One set point, start to DONE: `in` on the input port, a beat of in_words words per accepted cycle.
  RunResult run(const std::vector<std::uint32_t>& in, long max_cycles = 10000000) { return run_beats(in, in_words_, max_cycles); }
  // The configuration phase (a parameter memory): the parameter words one per cycle on lane 0.
  RunResult configure(const std::vector<std::uint32_t>& params) { return run_beats(params, 1, 10000000); }

  // Streams `states` through a streaming datapath (nea_stream) in one run, start to DONE.
  // gap_every/gap_len: bubbles in the input stream (StreamBook).
  // stall_every/stall_len: a sink holding out_ready_i low (StreamBook::sink_stalls; back-pressure designs).
  StreamResult run_stream(const std::vector<std::vector<std::uint32_t>>& states, std::size_t n_out, int gap_every = 0,
                          int gap_len = 0, int stall_every = 0, int stall_len = 0, long max_cycles = 100000000) {
    StreamBook book(states, n_out, gap_every, gap_len);
    book.sink_stalls(stall_every, stall_len);
    book.set_in_words(in_words_);
    for (long c = 0; c < max_cycles; ++c) {
      if (on_cycle) on_cycle();
      if (c > 0 && m_.done_o) {
        book.r.cycles = c;
        m_.start_i = 0;
        m_.in_valid_i = 0;
        tick();
        return book.r;
      }
      m_.start_i = c == 0;
      m_.in_valid_i = book.in_valid();
      m_.out_ready_i = book.out_ready(c);
      for (int l = 0; l < in_words_; ++l) set_in(l, book.in_data(static_cast<std::size_t>(l)));
      m_.eval();  // in_ready_o does not depend on in_valid_i, but settle anyway
      book.cycle(c, m_.in_ready_o, m_.out_valid_o, static_cast<std::uint32_t>(m_.out_data_o));
      tick();
    }
    throw std::runtime_error("nea_stream: no done_o within the cycle limit");
  }

  long total_cycles() const { return cycles_; }

  // Called once per cycle of run() and run_stream(), before that cycle's stimulus is set: the point at which the
  // co-simulation compares (cycle_log.hpp).
  std::function<void()> on_cycle;

 private:
  // One phase from start to DONE: `in` in beats of `beat` words (lane l of a beat: in[k + l]).
  RunResult run_beats(const std::vector<std::uint32_t>& in, int beat, long max_cycles) {
    RunResult r;
    std::size_t k = 0;
    for (long c = 0; c < max_cycles; ++c) {
      if (on_cycle) on_cycle();
      if (c > 0 && m_.done_o) {
        r.cycles = c;
        m_.start_i = 0;
        tick();  // DONE -> IDLE, ready for the next start
        return r;
      }
      if (m_.out_valid_o) r.out.push_back(static_cast<std::uint32_t>(m_.out_data_o));
      m_.start_i = c == 0;
      m_.in_valid_i = 1;
      m_.out_ready_i = 1;
      // One word per cycle (lane 0); a wider port (set_in_words, the hardwired latency datapath) takes a beat of
      // in_words words, input k + l on lane l.
      set_in(0, k < in.size() ? in[k] : 0);
      for (int l = 1; l < beat; ++l) {
        const std::size_t j = k + static_cast<std::size_t>(l);
        set_in(l, j < in.size() ? in[j] : 0);
      }
      if (m_.in_ready_o) k += static_cast<std::size_t>(beat);
      tick();
    }
    throw std::runtime_error("nea_datapath: no done_o within the cycle limit");
  }

  void set_in(int lane, std::uint32_t value) {
    if (in_words_ == 1) {
      if constexpr (std::is_integral_v<std::decay_t<decltype(m_.in_data_i)>>) {
        m_.in_data_i = value;
        return;
      }
    }
    if (lane == 0)
      for (int l = 1; l < in_words_; ++l) set_port_bits(m_.in_data_i, l * width_, width_, 0);
    set_port_bits(m_.in_data_i, lane * width_, width_, value);
  }
  int in_words_ = 1, width_ = 32;
  void dump() {
#if VM_TRACE
    if (vcd_) vcd_->dump(static_cast<std::uint64_t>(time_));
#endif
    time_ += 5;
  }
  Model& m_;
  long cycles_ = 0;
  long time_ = 0;
#if VM_TRACE
  VerilatedVcdC* vcd_ = nullptr;
#endif
};

}  // namespace neaccel::rtlsim
