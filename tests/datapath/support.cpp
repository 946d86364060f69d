#include "support.hpp"

#include "core.hpp"

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
  p.classes.push_back({"mul", {dfg::Op::Mul}, mul, lat_mul, pipelined ? 1 : lat_mul});
  p.classes.push_back({"add", {dfg::Op::Add, dfg::Op::Sub, dfg::Op::Neg}, add, lat_add, pipelined ? 1 : lat_add});
  return p;
}

sched::Schedule mini_schedule(const sched::Problem& p) {
  const auto& g = *p.graph;
  const std::size_t n = g.nodes.size();
  sched::Schedule s;
  s.slots.resize(n);
  s.algorithm = "test/mini";
  std::vector<int> arrival(n, 0);
  std::vector<std::vector<std::vector<bool>>> busy(p.classes.size());
  for (std::size_t k = 0; k < p.classes.size(); ++k) busy[k].resize(p.classes[k].count);
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (node.op == dfg::Op::Input || node.op == dfg::Op::Const) {
      arrival[v] = 0;
      continue;
    }
    int ready = 0;
    for (int a = 0; a < dfg::arity(node.op); ++a) ready = std::max(ready, arrival[node.arg[a]]);
    int cls = -1;
    for (std::size_t k = 0; k < p.classes.size(); ++k)
      if (std::count(p.classes[k].ops.begin(), p.classes[k].ops.end(), node.op)) cls = static_cast<int>(k);
    if (cls < 0) throw std::runtime_error("mini_schedule: no class");
    const auto& c = p.classes[cls];
    for (int t = ready;; ++t) {
      int inst = -1;
      for (int i = 0; i < c.count && inst < 0; ++i) {
        auto& b = busy[cls][i];
        if (static_cast<int>(b.size()) < t + c.occupancy) b.resize(t + c.occupancy + 16, false);
        bool free = true;
        for (int o = 0; o < c.occupancy; ++o) free = free && !b[t + o];
        if (free) inst = i;
      }
      if (inst < 0) continue;
      for (int o = 0; o < c.occupancy; ++o) busy[cls][inst][t + o] = true;
      s.slots[v] = {t, cls, inst};
      arrival[v] = t + c.latency;
      s.length = std::max(s.length, arrival[v]);
      break;
    }
  }
  // Left-edge registers with the datapath's semantics (hw/datapath.hpp).
  std::vector<int> arr(n, -1), last(n, INT_MIN);
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (node.op != dfg::Op::Input && node.op != dfg::Op::Const) arr[v] = arrival[v];
    for (int a = 0; a < dfg::arity(node.op); ++a) last[node.arg[a]] = std::max(last[node.arg[a]], s.slots[v].start);
  }
  for (const auto& o : g.outputs) last[o.node] = INT_MAX;
  std::vector<std::size_t> vals;
  for (std::size_t v = 0; v < n; ++v)
    if (g.nodes[v].op != dfg::Op::Const && last[v] > arr[v]) vals.push_back(v);
  std::stable_sort(vals.begin(), vals.end(), [&](auto a, auto b) { return arr[a] < arr[b]; });
  s.reg.assign(n, -1);
  std::vector<int> free_at, last_arrival;
  for (auto v : vals) {
    int r = -1;
    for (std::size_t k = 0; k < free_at.size() && r < 0; ++k)
      if (free_at[k] <= arr[v] && last_arrival[k] < arr[v]) r = static_cast<int>(k);
    if (r < 0) {
      r = static_cast<int>(free_at.size());
      free_at.push_back(0);
      last_arrival.push_back(INT_MIN);
    }
    free_at[r] = last[v];
    last_arrival[r] = arr[v];
    s.reg[v] = r;
  }
  s.num_registers = static_cast<int>(free_at.size());
  return s;
}

namespace {

std::uint32_t float_bits(float f) {
  if (std::isnan(f)) return hw::kQuietNaN;
  std::uint32_t r;
  std::memcpy(&r, &f, 4);
  return r;
}

// Contract 4, written out with plain integers (independent of hw/number.cpp).
struct Fixed {
  int W, F;
  std::int64_t sat(std::int64_t v) const {
    const std::int64_t hi = (std::int64_t{1} << (W - 1)) - 1, lo = -(std::int64_t{1} << (W - 1));
    return v > hi ? hi : (v < lo ? lo : v);
  }
  std::int64_t from(double x) const {
    const double s = x * std::pow(2.0, F);
    std::int64_t q = static_cast<std::int64_t>(std::floor(s));
    const double frac = s - std::floor(s);
    if (frac > 0.5 || (frac == 0.5 && (q % 2 != 0))) ++q;
    return sat(q);
  }
  std::int64_t mul(std::int64_t a, std::int64_t b) const {
    const std::int64_t p = a * b;
    const std::int64_t div = std::int64_t{1} << F;
    std::int64_t q = p >= 0 ? p / div : -((-p + div - 1) / div);  // floor
    const std::int64_t rem = p - q * div;
    if (2 * rem > div || (2 * rem == div && (q % 2 != 0))) ++q;
    return sat(q);
  }
  std::uint32_t raw(std::int64_t v) const {
    return static_cast<std::uint32_t>(static_cast<std::uint64_t>(v) & ((std::uint64_t{1} << W) - 1));
  }
};

}  // namespace

std::vector<std::uint32_t> golden(const dfg::Graph& g, const hw::NumberFormat& f, const std::vector<double>& in) {
  std::vector<std::uint32_t> out;
  if (!f.fixed) {
    std::vector<float> v(g.nodes.size());
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const auto& n = g.nodes[i];
      const float a = n.arg[0] != dfg::kNoNode ? v[n.arg[0]] : 0.f, b = n.arg[1] != dfg::kNoNode ? v[n.arg[1]] : 0.f;
      switch (n.op) {
        case dfg::Op::Input: v[i] = static_cast<float>(in[n.input]); break;
        case dfg::Op::Const: v[i] = static_cast<float>(n.value); break;
        case dfg::Op::Add: v[i] = a + b; break;
        case dfg::Op::Sub: v[i] = a - b; break;
        case dfg::Op::Mul: v[i] = a * b; break;
        case dfg::Op::Neg: v[i] = -a; break;
        default: throw std::runtime_error("golden: op");
      }
    }
    for (const auto& o : g.outputs) out.push_back(float_bits(v[o.node]));
    return out;
  }
  const Fixed fx{f.width(), f.frac_bits};
  std::vector<std::int64_t> v(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    const std::int64_t a = n.arg[0] != dfg::kNoNode ? v[n.arg[0]] : 0, b = n.arg[1] != dfg::kNoNode ? v[n.arg[1]] : 0;
    switch (n.op) {
      case dfg::Op::Input: v[i] = fx.from(in[n.input]); break;
      case dfg::Op::Const: v[i] = fx.from(n.value); break;
      case dfg::Op::Add: v[i] = fx.sat(a + b); break;
      case dfg::Op::Sub: v[i] = fx.sat(a - b); break;
      case dfg::Op::Mul: v[i] = fx.mul(a, b); break;
      case dfg::Op::Neg: v[i] = fx.sat(-a); break;
      default: throw std::runtime_error("golden: op");
    }
  }
  for (const auto& o : g.outputs) out.push_back(fx.raw(v[o.node]));
  return out;
}

std::vector<double> reference(const dfg::Graph& g, const std::vector<double>& in) {
  std::vector<double> v(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const auto& n = g.nodes[i];
    const double a = n.arg[0] != dfg::kNoNode ? v[n.arg[0]] : 0, b = n.arg[1] != dfg::kNoNode ? v[n.arg[1]] : 0;
    switch (n.op) {
      case dfg::Op::Input: v[i] = in[n.input]; break;
      case dfg::Op::Const: v[i] = n.value; break;
      case dfg::Op::Add: v[i] = a + b; break;
      case dfg::Op::Sub: v[i] = a - b; break;
      case dfg::Op::Mul: v[i] = a * b; break;
      case dfg::Op::Neg: v[i] = -a; break;
      default: throw std::runtime_error("reference: op");
    }
  }
  std::vector<double> out;
  for (const auto& o : g.outputs) out.push_back(v[o.node]);
  return out;
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

}  // namespace neaccel::dptest
