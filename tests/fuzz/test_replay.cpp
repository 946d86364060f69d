// Replays every seed (fuzz/corpus/<target>/) and every input a fuzzer once crashed on (fuzz/regressions/<target>/)
// through the fuzz targets' own code, compiled here with the main build's compiler: each must end in a result or a
// neaccel::Error (the target's run_one lets any other exception through, which fails the test; an abort or a
// sanitizer report under ./run test --sanitize does too).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#define LLVMFuzzerTestOneInput fuzz_robot_yaml_one
#include "fuzz_robot_yaml.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_urdf_one
#include "fuzz_urdf.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_graph_dot_one
#include "fuzz_graph_dot.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_graph_json_one
#include "fuzz_graph_json.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_schedule_json_one
#include "fuzz_schedule_json.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_testfloat_one
#include "fuzz_testfloat.cpp"
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput fuzz_cli_values_one
#include "fuzz_cli_values.cpp"
#undef LLVMFuzzerTestOneInput

namespace {

namespace fs = std::filesystem;
using Target = int (*)(const uint8_t*, size_t);

// Runs every file of fuzz/<kind>/<name>/ through the target; returns how many there were.
int replay(const std::string& kind, const std::string& name, Target target) {
  const fs::path dir = fs::path(NEACCEL_FUZZ_DIR) / kind / name;
  if (!fs::is_directory(dir)) return 0;
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    SCOPED_TRACE(e.path().string());
    EXPECT_EQ(target(reinterpret_cast<const uint8_t*>(data.data()), data.size()), 0);
    ++n;
  }
  return n;
}

struct Case {
  const char* name;
  Target target;
};
const Case kCases[] = {{"robot_yaml", fuzz_robot_yaml_one},   {"urdf", fuzz_urdf_one},
                       {"graph_dot", fuzz_graph_dot_one},     {"graph_json", fuzz_graph_json_one},
                       {"schedule_json", fuzz_schedule_json_one}, {"testfloat", fuzz_testfloat_one},
                       {"cli_values", fuzz_cli_values_one}};

TEST(FuzzReplay, SeedsOfEveryTarget) {
  for (const auto& c : kCases) EXPECT_GT(replay("corpus", c.name, c.target), 0) << c.name << ": no seed";
}

TEST(FuzzReplay, Regressions) {
  int n = 0;
  for (const auto& c : kCases) n += replay("regressions", c.name, c.target);
  EXPECT_GE(n, 3);  // the inputs kept so far (fuzz/README.md lists them)
}

}  // namespace

namespace {

// Inputs nested 10^5 deep (about 0.2-1.3 MB): each reader refuses them with a one-line error instead of
// overflowing the stack (DOT, schedule JSON) or running for minutes (URDF); docs/limits.md.
TEST(FuzzReplay, DeepNesting) {
  const int d = 100000;
  const auto rep = [](const std::string& s, int n) {
    std::string out;
    for (int k = 0; k < n; ++k) out += s;
    return out;
  };
  const std::string inputs[][2] = {
      {"robot_yaml", "links: " + rep("[", d) + rep("]", d) + "\n"},
      {"graph_json", "{\"nodes\": " + rep("[", d) + rep("]", d) + "}"},
      {"schedule_json", "{\"format\":\"neaccel-schedule\",\"version\":1,\"graph\":" + rep("[", d) + rep("]", d) + "}"},
      {"graph_dot", "digraph { " + rep("subgraph { ", d) + rep("}", d) + " }"},
      {"urdf", "<robot name=\"r\">" + rep("<a>", d) + rep("</a>", d) + "</robot>"}};
  for (const auto& [name, text] : inputs) {
    SCOPED_TRACE(name);
    for (const auto& c : kCases) {
      if (name == c.name) {
        EXPECT_EQ(c.target(reinterpret_cast<const uint8_t*>(text.data()), text.size()), 0);
      }
    }
  }
}

// The readers' own messages for those inputs (the replay above only checks that they end in neaccel::Error).
TEST(FuzzReplay, DeepNestingMessages) {
  std::string nested = "digraph {\n";
  for (int k = 0; k < 300; ++k) nested += "subgraph {";
  for (int k = 0; k < 300; ++k) nested += "}";
  nested += "}";
  try {
    (void)neaccel::dfg::graph_from_dot(nested, "deep.dot");
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    EXPECT_STREQ(e.what(), "deep.dot:2: syntax error: subgraphs nested deeper than 256");
  }
}

}  // namespace
