#include "support.hpp"

#include "core.hpp"

#include <cctype>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace neaccel::dptest {

dfg::Graph random_graph(std::uint32_t seed, int n_in, int n_ops, int n_out) {
  std::mt19937 rng(seed);
  dfg::Graph g;
  for (int i = 0; i < n_in; ++i) {
    g.inputs.push_back("x" + std::to_string(i + 1));
    dfg::Node n;
    n.op = dfg::Op::Input;
    n.input = i;
    g.nodes.push_back(n);
  }
  for (double c : {0.5, -1.25, 3.0}) {
    dfg::Node n;
    n.op = dfg::Op::Const;
    n.value = c;
    g.nodes.push_back(n);
  }
  const dfg::Op ops[] = {dfg::Op::Mul, dfg::Op::Add, dfg::Op::Sub, dfg::Op::Neg, dfg::Op::Mul, dfg::Op::Add};
  for (int k = 0; k < n_ops; ++k) {
    dfg::Node n;
    n.op = ops[rng() % 6];
    const auto size = static_cast<std::uint32_t>(g.nodes.size());
    // Prefer recent nodes so that the graph has depth.
    auto pick = [&] { return size - 1 - std::min<std::uint32_t>(size - 1, rng() % std::min<std::uint32_t>(size, 8)); };
    n.arg[0] = pick();
    if (dfg::arity(n.op) == 2) n.arg[1] = pick();
    g.nodes.push_back(n);
  }
  for (int o = 0; o < n_out; ++o)
    g.outputs.push_back({"tau" + std::to_string(o + 1), static_cast<dfg::NodeId>(g.nodes.size() - 1 - o)});
  return g;
}

sched::Problem make_problem(const dfg::Graph& g, int mul, int add, int lat_mul, int lat_add, bool pipelined) {
  sched::Problem p;
  p.graph = &g;
  p.classes = sched::default_classes(mul, add, lat_mul, lat_add, pipelined, pipelined);
  return p;
}

std::vector<double> random_inputs(std::mt19937& rng, std::size_t n, double lo_hi) {
  std::uniform_real_distribution<double> d(-lo_hi, lo_hi);
  std::vector<double> x(n);
  for (auto& e : x) e = d(rng);
  return x;
}

Run run_core(const hw::Datapath& dp, const std::vector<std::uint32_t>& in) {
  sysc::DatapathCore core(dp);
  Run r;
  bool started = false;
  std::size_t k = 0;
  for (long guard = 0; guard < 1000000; ++guard) {
    if (started) ++r.cycles;
    if (core.done()) return r;
    if (core.out_valid()) r.out.push_back(core.out_data());
    const std::uint32_t data = k < in.size() ? in[k] : 0;
    if (core.in_ready()) ++k;
    started = true;
    core.step(guard == 0, true, data, true);
  }
  throw std::runtime_error("run_core: no done");
}

hw::DesignSpec DesignPoint::spec() const {
  hw::DesignSpec s;
  s.robot = robot;
  s.custom = custom;
  s.format = hw::NumberFormat::parse(format);
  s.mul = mul, s.add = add, s.lat_mul = lat_mul, s.lat_add = lat_add;
  s.pipelined = pipelined;
  return s;
}

std::string DesignPoint::name() const {
  std::string s = std::string(robot) + (custom ? "_custom_" : "_general_") + format + "_m" + std::to_string(mul) + "a" +
                  std::to_string(add) + "_l" + std::to_string(lat_mul) + std::to_string(lat_add) + (pipelined ? "p" : "n");
  for (auto& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

rtlsim::StreamResult run_core_stream(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states,
                                     int gap_every, int gap_len, int stall_every, int stall_len) {
  sysc::DatapathCore core(dp);
  rtlsim::StreamBook book(states, dp.output_names.size(), gap_every, gap_len);
  book.sink_stalls(stall_every, stall_len);
  for (long c = 0; c < 100000000; ++c) {
    if (c > 0 && core.done()) {
      book.r.cycles = c;
      return book.r;
    }
    const bool valid = book.in_valid();
    const std::uint32_t data = book.in_data();
    book.cycle(c, core.in_ready(), core.out_valid(), core.out_data());
    core.step(c == 0, valid, data, book.out_ready(c));
  }
  throw std::runtime_error("run_core_stream: no done");
}

}  // namespace neaccel::dptest
