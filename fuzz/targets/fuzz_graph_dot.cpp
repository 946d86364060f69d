// Graphviz DOT import (docs/dfg.md): dfg::graph_from_dot, what read_graph_file / sched::load_graph call for .dot.
// A graph that loads is exported to DOT and imported again.
#include "fuzz_common.hpp"
#include "neaccel/dfg/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return neaccel::fuzz::run_one([&] {
    const auto g = neaccel::dfg::graph_from_dot(neaccel::fuzz::text_of(data, size), "fuzz.dot");
    (void)neaccel::dfg::graph_from_dot(neaccel::dfg::to_dot(g), "fuzz-roundtrip.dot");
  });
}
