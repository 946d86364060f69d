// Cycle logs: one text line per clock cycle with everything the lockstep co-simulation (sysc/datapath/cosim.hpp)
// compares: status outputs, out_data, every unit's result bus and register write, the input load. The Verilator
// harness (main.cpp) and the SystemC model runner (sysc/datapath/run.cpp) write them at the same point of each
// cycle (the falling edge, before the stimulus changes), so `neaccel sim --engine cosim` can check any unit mix cycle
// by cycle, not only the ones verilated at build time, by comparing the two files. No Verilator or SystemC
// dependency.
//
// Line: "<n> <in_ready><out_valid><busy><done> o=<out_data|-> u<k>=<result|->/<write address|-> ... l=<load address|->"
// (hex data, decimal addresses; a value is written only when it is valid). With nan_class, a binary32 NaN is written
// as 7fc00000: NaNs compare as a class (contract 5).
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace neaccel::rtlsim {

struct CycleSample {
  bool in_ready = false, out_valid = false, busy = false, done = false;
  std::uint32_t out_data = 0;
  std::vector<bool> unit_valid, wr_en;  // per unit
  std::vector<std::uint32_t> unit_result;
  std::vector<int> wr_addr;
  bool load_en = false;
  int load_addr = 0;
};

inline std::string cycle_word(std::uint32_t v, bool nan_class) {
  if (nan_class && (v & 0x7F800000u) == 0x7F800000u && (v & 0x007FFFFFu) != 0) v = 0x7FC00000u;
  static const char* hex = "0123456789abcdef";
  std::string s(8, '0');
  for (int i = 7; i >= 0; --i, v >>= 4) s[static_cast<std::size_t>(i)] = hex[v & 15];
  return s;
}

inline std::string cycle_line(long n, const CycleSample& s, bool nan_class) {
  std::string line = std::to_string(n) + ' ';
  for (bool b : {s.in_ready, s.out_valid, s.busy, s.done}) line += b ? '1' : '0';
  line += " o=" + (s.out_valid ? cycle_word(s.out_data, nan_class) : std::string("-"));
  for (std::size_t u = 0; u < s.unit_valid.size(); ++u) {
    line += " u" + std::to_string(u) + '=' + (s.unit_valid[u] ? cycle_word(s.unit_result[u], nan_class) : "-");
    line += '/' + (s.wr_en[u] ? std::to_string(s.wr_addr[u]) : std::string("-"));
  }
  line += " l=" + (s.load_en ? std::to_string(s.load_addr) : std::string("-"));
  return line;
}

struct CycleLogDiff {
  long lines = 0;       // cycles compared (lines present in both)
  long differing = 0;   // cycles that differ, plus any surplus lines of the longer log
  std::vector<std::string> messages;  // the first few differences
};

// Compares two cycle logs line by line (a = the model's, b = the RTL's).
inline CycleLogDiff compare_cycle_logs(const std::string& a_path, const std::string& b_path, std::size_t max_messages = 4) {
  std::ifstream a(a_path), b(b_path);
  CycleLogDiff d;
  if (!a || !b) {
    d.differing = 1;
    d.messages.push_back("cannot read " + (!a ? a_path : b_path));
    return d;
  }
  std::string la, lb;
  for (;;) {
    const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) break;
    if (ga != gb) {
      ++d.differing;
      if (d.messages.size() < max_messages)
        d.messages.push_back("line " + std::to_string(d.lines + 1) + ": only in " + (ga ? a_path : b_path));
      continue;
    }
    ++d.lines;
    if (la != lb) {
      ++d.differing;
      if (d.messages.size() < max_messages) d.messages.push_back("model '" + la + "' vs RTL '" + lb + "'");
    }
  }
  return d;
}

}  // namespace neaccel::rtlsim
