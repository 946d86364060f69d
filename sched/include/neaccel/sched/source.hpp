// Where scheduling graphs come from: a robot (traced modified Newton-Euler, general or customised), a built-in
// HLS benchmark, or a JSON file.
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <string>

namespace neaccel::sched {

// The modified Newton-Euler graph (seed 000 section 7) of a robot spec (ref::load_robot: built-in name, file,
// random:N:SEED). general = robot parameters are run-time inputs (seed 000's general hardware); else they are
// folded in (customised, seed 003 sec 9.6). Both are cleaned by dfg::customise (constant folding, CSE, dead
// code), which never turns an input into a constant.
dfg::Graph robot_graph(const std::string& robot_spec, bool general);

// "bench:NAME" (hls_graphs.hpp builtin_graph) or a JSON file holding a graph ({"inputs", "nodes", ...}) or a
// schedule file (its "graph" section). Throws neaccel::Error naming the file.
dfg::Graph load_graph(const std::string& spec);

}  // namespace neaccel::sched
