// Robot YAML (docs/robot-format.md): ref::robot_from_yaml, the parser under load_robot("x.yaml"); a robot that
// loads is written back with to_yaml and must read back (the CLI's `robot` export path).
#include "fuzz_common.hpp"
#include "neaccel/ref/io.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return neaccel::fuzz::run_one([&] {
    const auto robot = neaccel::ref::robot_from_yaml(neaccel::fuzz::text_of(data, size), "fuzz.yaml");
    const auto again = neaccel::ref::robot_from_yaml(neaccel::ref::to_yaml(robot), "fuzz-roundtrip.yaml");
    if (again.links.size() != robot.links.size()) std::abort();
  });
}
