// URDF import: ref::robot_from_urdf, the parser under load_robot("x.urdf"), with the CLI's default options
// (warnings are collected instead of printed, so that the fuzzer's output stays readable).
#include "fuzz_common.hpp"
#include "neaccel/ref/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  neaccel::ref::UrdfOptions options;
  options.warn = [](const std::string&) {};
  return neaccel::fuzz::run_one(
      [&] { (void)neaccel::ref::robot_from_urdf(neaccel::fuzz::text_of(data, size), "fuzz.urdf", options); });
}
