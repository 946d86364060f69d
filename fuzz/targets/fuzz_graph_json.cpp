// Graph JSON import (lossless and generic forms, docs/dfg.md): dfg::graph_from_json_text, what read_graph_file
// calls for .json. A graph that loads is written back (lossless) and read again.
#include "fuzz_common.hpp"
#include "neaccel/dfg/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return neaccel::fuzz::run_one([&] {
    const auto g = neaccel::dfg::graph_from_json_text(neaccel::fuzz::text_of(data, size), "fuzz.json");
    (void)neaccel::dfg::graph_from_json_text(neaccel::dfg::to_json_text(g), "fuzz-roundtrip.json");
  });
}
