// Hardware configurations verilated for the tests (mirror of DP_CFG_* / DP_CAPACITY in CMakeLists.txt).
#pragma once

#include "neaccel/hw/datapath.hpp"
#include "neaccel/hw/design.hpp"

#include <string>

namespace neaccel::dptest {

inline hw::Config capacity(hw::Config c) {
  c.max_regs = 512;
  c.max_consts = 256;
  c.max_prog = 2048;
  c.max_in = 512;
  c.max_out = 8;
  return c;
}

// fp32, 2 multipliers (latency 3), 2 adders (latency 2), pipelined.
inline hw::Config config_f22() {
  hw::Config c;
  c.num_mul = 2, c.num_add = 2, c.lat_mul = 3, c.lat_add = 2;
  return capacity(c);
}

// fixed:12.20, 1 multiplier, 1 adder, latency 1, pipelined.
inline hw::Config config_x11() {
  hw::Config c;
  c.format = hw::NumberFormat::parse("fixed:12.20");
  c.num_mul = 1, c.num_add = 1, c.lat_mul = 1, c.lat_add = 1;
  return capacity(c);
}

// A design spec with the unit mix of a configuration.
inline hw::DesignSpec spec_for(const hw::Config& c, const std::string& robot, bool custom) {
  hw::DesignSpec s;
  s.robot = robot;
  s.custom = custom;
  s.format = c.format;
  s.mul = c.num_mul, s.add = c.num_add, s.lat_mul = c.lat_mul, s.lat_add = c.lat_add;
  s.pipelined = c.pipe_mul;
  return s;
}

}  // namespace neaccel::dptest
