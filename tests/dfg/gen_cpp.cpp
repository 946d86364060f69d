// Build-time generator: writes the C++ source of a robot's customised modified Newton-Euler graph.
//   dfg_gen_cpp ROBOT OUT.cpp FUNCTION [double|float] [cpp|batch|cuda]
// (The same text as `neaccel dfg --robot ROBOT --custom --emit cpp`; a small executable so the tests and the
// benchmark do not depend on the whole CLI.)
#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/kernels.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <cstdio>
#include <fstream>

int main(int argc, char** argv) {
  using namespace neaccel;
  if (argc < 4) {
    std::fprintf(stderr, "usage: dfg_gen_cpp ROBOT OUT.cpp FUNCTION [double|float] [cpp|batch|cuda]\n");
    return 2;
  }
  try {
    const ref::Robot robot = ref::load_robot(argv[1]);
    const dfg::Graph g = dfg::customise(dfg::trace(robot, dfg::Form::ModifiedNE, dfg::Flavour::Custom));
    const std::string kind = argc > 5 ? argv[5] : "cpp";
    const std::string comment = std::string("Customised modified Newton-Euler inverse dynamics of ") + argv[1] + " (neaccel dfg)";
    if (kind == "cpp") {
      dfg::CppOptions opt;
      opt.function = argv[3];
      opt.scalar = argc > 4 ? argv[4] : "double";
      opt.comment = comment;
      std::ofstream(argv[2]) << dfg::to_cpp(g, opt);
    } else {
      dfg::KernelOptions opt;
      opt.function = argv[3];
      opt.scalar = argc > 4 ? argv[4] : "double";
      opt.comment = comment;
      opt.joints = dfg::kernel_joints(robot);
      std::ofstream(argv[2]) << (kind == "cuda" ? dfg::to_cuda(g, opt) : dfg::to_cpp_batch(g, opt));
    }
  } catch (const Error& e) {
    std::fprintf(stderr, "dfg_gen_cpp: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
