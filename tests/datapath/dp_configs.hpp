// Hardware configurations verilated for the tests (sysc/datapath/prebuilt.hpp) and design specs matching them.
#pragma once

#include "neaccel/hw/datapath.hpp"
#include "neaccel/hw/design.hpp"
#include "prebuilt.hpp"

#include <string>

namespace neaccel::dptest {

using sysc::config_f22;
using sysc::config_s22;
using sysc::config_sx11;
using sysc::config_x11;

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

// The streaming design at the minimum II with the unit mix of a configuration.
inline hw::Design stream_design(const hw::Config& c, const std::string& robot, bool custom) {
  hw::DesignSpec s = spec_for(c, robot, custom);
  s.ii = hw::kStreamMinII;
  return hw::make_design(s);
}

}  // namespace neaccel::dptest
