// Internals shared by the robot I/O sources (not installed, not part of the API).
#pragma once

#include "neaccel/ref/robot.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace neaccel::ref::detail {

// One robot file embedded at build time (generated from data/robots/*.yaml by ref/CMakeLists.txt).
struct EmbeddedRobot {
  const char* name;
  const char* yaml;
};
extern const EmbeddedRobot kEmbeddedRobots[];
extern const std::size_t kEmbeddedRobotCount;

// Where a field came from, e.g. "robot.yaml:12" for "links[2].mass"; an empty result means "the source".
using Locate = std::function<std::string(const std::string& field)>;

// validate() with error locations from the caller (the YAML reader gives line numbers).
void validate_located(const Robot& robot, const Locate& locate);

// Reads a whole file; throws neaccel::Error "<path>: cannot read file (...)".
std::string read_text_file(const std::string& path);

}  // namespace neaccel::ref::detail
