#include "neaccel/hw/design.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/modified_ne.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <map>

namespace neaccel::hw {
namespace {

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

}  // namespace

Design make_design(const DesignSpec& spec) {
  if (spec.mul < 1 || spec.add < 1) throw Error("--mul/--add: at least one unit of each kind");
  if (spec.lat_mul < 1 || spec.lat_add < 1) throw Error("--lat-mul/--lat-add: latency >= 1");
  Design d;
  d.spec = spec;
  d.robot = ref::load_robot(spec.robot);
  auto algo = [](const auto& m, const auto& in) { return ref::modified_ne(m, in); };
  const auto flavour = spec.custom ? dfg::Flavour::Custom : dfg::Flavour::General;
  d.graph = std::make_unique<dfg::Graph>(dfg::customise(dfg::trace_algorithm(d.robot, flavour, {}, algo)));
  d.problem.graph = d.graph.get();
  d.problem.classes.push_back({"mul", {dfg::Op::Mul}, spec.mul, spec.lat_mul, spec.pipelined ? 1 : spec.lat_mul});
  d.problem.classes.push_back(
      {"add", {dfg::Op::Add, dfg::Op::Sub, dfg::Op::Neg}, spec.add, spec.lat_add, spec.pipelined ? 1 : spec.lat_add});
  d.schedule = interim_schedule(d.problem);
  d.dp = build(*d.graph, d.problem, d.schedule, spec.format);
  return d;
}

std::vector<double> bind_state(const Design& d, const std::vector<double>& q, const std::vector<double>& qd,
                               const std::vector<double>& qdd) {
  const int n = d.robot.dof();
  const Eigen::VectorXd Q = Eigen::Map<const Eigen::VectorXd>(q.data(), n);
  const Eigen::VectorXd QD = Eigen::Map<const Eigen::VectorXd>(qd.data(), n);
  const Eigen::VectorXd QDD = Eigen::Map<const Eigen::VectorXd>(qdd.data(), n);
  const auto in = ref::joint_inputs(d.robot, Q, QD, QDD);
  std::map<std::string, double> m;
  for (int i = 0; i < n; ++i) {
    const std::string k = std::to_string(i + 1);
    m["s" + k] = in.s[i];
    m["c" + k] = in.c[i];
    m["q" + k] = in.q[i];
    m["qd" + k] = in.qd[i];
    m["qdd" + k] = in.qdd[i];
    m["sgn_qd" + k] = in.sgn_qd[i];
  }
  ref::cast_model<double>(d.robot, [&](int, const std::string& name, double v) { return m[name] = v; });
  return dfg::bind_inputs(*d.graph, m);
}

std::vector<double> random_state(const Design& d, std::mt19937_64& rng) {
  const int n = d.robot.dof();
  std::vector<double> q(n), qd(n), qdd(n);
  for (int i = 0; i < n; ++i) {
    q[i] = uniform(rng, -M_PI, M_PI);
    qd[i] = uniform(rng, -1, 1);
    qdd[i] = uniform(rng, -1, 1);
  }
  return bind_state(d, q, qd, qdd);
}

std::vector<std::uint32_t> golden_raw(const dfg::Graph& g, const NumberFormat& f, const std::vector<double>& in) {
  std::vector<std::uint32_t> out;
  if (!f.fixed) {
    for (float x : dfg::evaluate<float>(g, dfg::convert_inputs<float>(in))) {
      std::uint32_t raw;
      std::memcpy(&raw, &x, sizeof raw);
      out.push_back(std::isnan(x) ? kQuietNaN : raw);
    }
    return out;
  }
  dfg::Arithmetic<dfg::Fixed> ar;
  ar.format = dfg::FixedFormat{f.int_bits, f.frac_bits};
  const std::uint32_t mask = f.width() == 32 ? 0xFFFFFFFFu : ((1u << f.width()) - 1u);
  for (const auto& x : dfg::evaluate<dfg::Fixed>(g, dfg::convert_inputs<dfg::Fixed>(in, ar), ar))
    out.push_back(static_cast<std::uint32_t>(x.raw) & mask);
  return out;
}

std::vector<double> reference(const dfg::Graph& g, const std::vector<double>& in) {
  return dfg::evaluate<double>(g, in);
}

sched::Schedule interim_schedule(const sched::Problem& p) {
  const auto& g = *p.graph;
  const std::size_t n = g.nodes.size();
  sched::Schedule s;
  s.slots.resize(n);
  s.algorithm = "hw/interim-list";
  std::vector<int> ready_at(n, 0);
  std::vector<std::vector<std::vector<char>>> busy(p.classes.size());
  for (std::size_t k = 0; k < p.classes.size(); ++k) busy[k].resize(p.classes[k].count);
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (node.op == dfg::Op::Input || node.op == dfg::Op::Const) continue;
    int ready = 0;
    for (int a = 0; a < dfg::arity(node.op); ++a) ready = std::max(ready, ready_at[node.arg[a]]);
    int cls = -1;
    for (std::size_t k = 0; k < p.classes.size() && cls < 0; ++k)
      if (std::count(p.classes[k].ops.begin(), p.classes[k].ops.end(), node.op)) cls = static_cast<int>(k);
    if (cls < 0) throw Error(std::string("problem.classes: no class executes '") + dfg::op_name(node.op) + "'");
    const auto& c = p.classes[cls];
    for (int t = ready;; ++t) {
      int inst = -1;
      for (int i = 0; i < c.count && inst < 0; ++i) {
        auto& b = busy[cls][i];
        if (static_cast<int>(b.size()) < t + c.occupancy) b.resize(2 * (t + c.occupancy) + 16, 0);
        bool free = true;
        for (int o = 0; o < c.occupancy; ++o) free = free && !b[t + o];
        if (free) inst = i;
      }
      if (inst < 0) continue;
      for (int o = 0; o < c.occupancy; ++o) busy[cls][inst][t + o] = 1;
      s.slots[v] = {t, cls, inst};
      ready_at[v] = t + c.latency;
      s.length = std::max(s.length, ready_at[v]);
      break;
    }
  }
  // Left-edge registers: a value lives from its arrival (-1 for inputs) to its last read (outputs: forever).
  std::vector<int> arr(n, -1), last(n, INT_MIN);
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (node.op != dfg::Op::Input && node.op != dfg::Op::Const) arr[v] = ready_at[v];
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

}  // namespace neaccel::hw
