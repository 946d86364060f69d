// Test support for the datapath tests: random graphs and problems, random inputs, running the cycle core.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/hw/datapath.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/sched/schedule.hpp"
#include "stream_book.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace neaccel::dptest {

// A random graph: n_in inputs, a few constants, n_ops mul/add/sub/neg over earlier nodes, n_out outputs.
dfg::Graph random_graph(std::uint32_t seed, int n_in, int n_ops, int n_out);

// A design point of the parameterised tests: robot, flavour, number format, unit mix.
struct DesignPoint {
  const char* robot;
  bool custom;
  const char* format;
  int mul, add, lat_mul, lat_add;
  bool pipelined;
  hw::DesignSpec spec() const;  // a latency datapath; set ii for streaming
  std::string name() const;     // "puma560_custom_fp32_m2a2_l32p" (test names: alphanumerics and '_')
};

// Problem with one mul class and one add/sub/neg class.
sched::Problem make_problem(const dfg::Graph& g, int mul, int add, int lat_mul, int lat_add, bool pipelined = true);

// Random input vector (uniform in [-lo_hi, lo_hi]).
std::vector<double> random_inputs(std::mt19937& rng, std::size_t n, double lo_hi = 2.0);

// Runs the cycle core on one input vector with in_valid/out_ready held high; returns outputs and the cycle
// count from start (sampled in IDLE) to the DONE cycle.
struct Run {
  std::vector<std::uint32_t> out;
  long cycles = 0;
};
Run run_core(const hw::Datapath& dp, const std::vector<std::uint32_t>& in);

// Streams every state through the cycle core of a streaming datapath in one run (in_valid high until all words
// are taken; gap_every/gap_len: bubbles, stall_every/stall_len: a sink holding out_ready low, see StreamBook),
// start to DONE.
rtlsim::StreamResult run_core_stream(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states,
                                     int gap_every = 0, int gap_len = 0, int stall_every = 0, int stall_len = 0);

}  // namespace neaccel::dptest
