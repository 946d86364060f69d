// Bookkeeping of one streaming run (nea_stream, docs/datapath.md "Streaming"): feeds every set point's words in
// order with in_valid high until all are taken, collects the result words in order and the cycles at which each set
// point's first input word is taken and its first and last result words leave. Shared by the Verilator driver
// (driver.hpp), the cycle-core runner of the tests and the SystemC benches. No Verilator or SystemC dependency.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace neaccel::rtlsim {

// A streaming run (nea_stream): every set point's words in order, in_valid_i high until all are taken.
struct StreamResult {
  std::vector<std::vector<std::uint32_t>> out;  // per set point (in the order results leave), tau1..taun
  std::vector<long> first_in;                   // per set point: cycle (since start) its first input word is taken
  std::vector<long> first_out, last_out;        // per set point: cycles of its first and last output word
  long cycles = 0;                              // start to DONE
};

// Shared by the Verilator driver, the cycle core runner and the SystemC benches: bookkeeping of one streaming run.
class StreamBook {
 public:
  // gap_every > 0: after every gap_every set points the source withholds in_valid for gap_len cycles (bubbles).
  StreamBook(const std::vector<std::vector<std::uint32_t>>& states, std::size_t n_out, int gap_every = 0,
             int gap_len = 0)
      : n_out_(n_out), gap_every_(gap_every), gap_len_(gap_len) {
    for (const auto& s : states) {
      n_in_ = s.size();
      words_.insert(words_.end(), s.begin(), s.end());
    }
  }
  // An input port of k words per cycle: every set point's words are padded to a multiple of k and k
  // words move per handshake (in_data(lane)). Call before the run.
  void set_in_words(int k) {
    if (k <= 1 || n_in_ == 0) return;
    const std::size_t per = (n_in_ + k - 1) / k * k;
    std::vector<std::uint32_t> padded;
    for (std::size_t at = 0; at < words_.size(); at += n_in_) {
      padded.insert(padded.end(), words_.begin() + at, words_.begin() + at + n_in_);
      padded.resize(padded.size() + per - n_in_, 0);
    }
    words_ = std::move(padded);
    n_in_ = per;
    step_ = static_cast<std::size_t>(k);
  }
  // A sink that stalls (back-pressure designs only): out_ready low for `len` of every `every` cycles (0: never).
  void sink_stalls(int every, int len) { stall_every_ = every, stall_len_ = len; }
  bool out_ready(long c) const { return stall_every_ <= 0 || c % stall_every_ < stall_every_ - stall_len_; }
  bool in_valid() const { return k_ < words_.size() && hold_ == 0; }
  std::uint32_t in_data(std::size_t lane = 0) const { return k_ + lane < words_.size() ? words_[k_ + lane] : 0; }
  std::size_t in_words() const { return step_; }
  // Call once per cycle before the clock edge, after the cycle's in_valid/in_data/out_ready are driven from
  // in_valid(), in_data() and out_ready(c), with the cycle's handshake outputs. A result word moves when out_valid
  // and out_ready are both high.
  void cycle(long c, bool in_ready, bool out_valid, std::uint32_t out_data) {
    out_valid = out_valid && out_ready(c);
    const bool offered = in_valid();
    if (!offered && hold_ > 0) --hold_;
    if (in_ready && offered) {
      if (n_in_ && k_ % n_in_ == 0) r.first_in.push_back(c);
      k_ += step_;
      if (gap_every_ > 0 && n_in_ && k_ % (n_in_ * static_cast<std::size_t>(gap_every_)) == 0) hold_ = gap_len_;
    }
    if (out_valid) {
      if (q_ % n_out_ == 0) {
        r.out.emplace_back();
        r.first_out.push_back(c);
        r.last_out.push_back(c);
      }
      r.out.back().push_back(out_data);
      r.last_out.back() = c;
      ++q_;
    }
  }
  StreamResult r;

 private:
  std::vector<std::uint32_t> words_;
  std::size_t n_in_ = 0, n_out_ = 1, k_ = 0, q_ = 0, step_ = 1;
  int gap_every_ = 0, gap_len_ = 0, hold_ = 0, stall_every_ = 0, stall_len_ = 0;
};

}  // namespace neaccel::rtlsim
