// The hardware configurations verilated at build time (rtl/datapath/CMakeLists.txt NEACCEL_DP_CFG_*,
// NEACCEL_DP_CAPACITY): used by the tests, the benchmark and `neaccel sim --engine cosim`.
#pragma once

#include "neaccel/hw/datapath.hpp"

namespace neaccel::sysc {

inline hw::Config prebuilt_capacity(hw::Config c) {
  c.max_regs = 512;
  c.max_consts = 256;
  c.max_prog = 2048;
  c.max_in = 512;
  c.max_out = 8;
  return c;
}

// "f22": binary32, 2 multipliers (latency 3), 2 adders (latency 2), pipelined.
inline hw::Config config_f22() {
  hw::Config c;
  c.num_mul = 2, c.num_add = 2, c.lat_mul = 3, c.lat_add = 2;
  return prebuilt_capacity(c);
}

// "x11": fixed:12.20, 1 multiplier, 1 adder, latency 1, pipelined.
inline hw::Config config_x11() {
  hw::Config c;
  c.format = hw::NumberFormat::parse("fixed:12.20");
  c.num_mul = 1, c.num_add = 1, c.lat_mul = 1, c.lat_add = 1;
  return prebuilt_capacity(c);
}

// Streaming configurations (nea_stream; NEACCEL_DP_STREAM_CAPACITY).
inline hw::Config prebuilt_stream_capacity(hw::Config c) {
  c.stream = true;
  c.max_regs = 1024;
  c.max_consts = 256;
  c.max_prog = 2048;
  c.max_stages = 8;
  c.max_in = c.max_out = 1;
  return c;
}

// "s22": the unit mix of f22, streaming.
inline hw::Config config_s22() { return prebuilt_stream_capacity(config_f22()); }

// "sx11": the unit mix of x11, streaming.
inline hw::Config config_sx11() { return prebuilt_stream_capacity(config_x11()); }

// Whether `dp` runs on configuration `c` (same unit mix, latencies, format; fits the capacities).
inline bool runs_on(const hw::Datapath& dp, const hw::Config& c) {
  try {
    hw::fit(dp, c);
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace neaccel::sysc
