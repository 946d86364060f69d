#include "neaccel/hw/design.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/hw/binding.hpp"
#include "neaccel/num/fixed.hpp"
#include "neaccel/num/fp32.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace neaccel::hw {
namespace {

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return lo + (hi - lo) * (static_cast<double>(rng() >> 11) * 0x1.0p-53);
}

}  // namespace

std::string arch_name(Arch a) { return a == Arch::Hardwired ? "hardwired" : "microcoded"; }

Arch parse_arch(const std::string& name, const std::string& what) {
  if (name == "microcoded") return Arch::Microcoded;
  if (name == "hardwired") return Arch::Hardwired;
  throw Error(fmt::format("{}: '{}' (microcoded, hardwired)", what, name));
}

sched::Schedule schedule_with_registers(const sched::Problem& p) {
  sched::check(p);
  sched::Schedule s = sched::list_schedule(p);
  sched::allocate_registers(p, s);
  sched::verify_or_throw(p, s);
  return s;
}

MinII min_ii(const sched::Problem& p) {
  sched::check(p);
  sched::Problem q = p;
  q.ii = 0;
  MinII m;
  sched::ModuloOptions only_ii;  // the II only: no latency minimisation (stream_datapath does it at the II chosen)
  only_ii.list = false;
  only_ii.exact = false;
  m.sched = sched::modulo_schedule(q, only_ii).ii;
  m.res_mii = sched::res_mii(q);
  m.io = static_cast<int>(std::max(p.graph->inputs.size(), p.graph->outputs.size()));
  return m;
}

Datapath stream_datapath(const dfg::Graph& g, sched::Problem& p, sched::Schedule& s, const NumberFormat& f, int ii,
                         int max_registers) {
  const MinII m = min_ii(p);
  if (ii != kStreamMinII && ii < m.value())
    throw Error(fmt::format("--ii {}: below the minimum initiation interval {} (modulo scheduler {} from ResMII {}, "
                            "I/O bound {} = max(inputs, outputs) words through one port)",
                            ii, m.value(), m.sched, m.res_mii, m.io));
  p.ii = ii == kStreamMinII ? m.value() : ii;
  if (max_registers > 0) {
    sched::Problem q = p;
    q.max_registers = max_registers;
    auto regs = [&g](const sched::Problem& pr, const sched::Schedule& c) { return stream_registers(g, pr, c).num_regs; };
    try {
      s = sched::modulo_register_schedule(q, sched::ModuloOptions{}, regs);
    } catch (const Error& e) {
      throw Error(fmt::format("--max-registers: {} (streaming datapath registers after modulo variable expansion)",
                              e.what()));
    }
    p.ii = s.ii;
    sched::verify_or_throw(p, s);
    Datapath dp = build_stream(g, p, s, f);
    if (dp.num_regs > max_registers)
      throw Error(fmt::format("--max-registers {}: the streaming datapath has {} registers", max_registers, dp.num_regs));
    dp.stream.ii_sched = m.sched;
    const auto v = verify_stream(g, dp);
    if (!v.empty())
      throw Error(fmt::format("streaming datapath fails verify_stream: {}{}", v.front(),
                              v.size() > 1 ? fmt::format(" (and {} more)", v.size() - 1) : std::string()));
    return dp;
  }
  s = sched::modulo_schedule(p);
  p.ii = s.ii;  // the scheduler may go above the request (never below it)
  sched::verify_or_throw(p, s);
  // The latency of a set point grows with the schedule length, which Rau's scheduler does not minimise: a modulo
  // list schedule at the same II is usually much shorter. Keep the shorter (both verified).
  try {
    sched::Schedule l = sched::modulo_list_schedule(p);
    sched::verify_or_throw(p, l);
    if (l.length < s.length) s = std::move(l);
  } catch (const Error&) {
    // fragmented reservation table (non-pipelined units): keep Rau's schedule
  }
  Datapath dp = build_stream(g, p, s, f);
  dp.stream.ii_sched = m.sched;
  const auto v = verify_stream(g, dp);
  if (!v.empty())
    throw Error(fmt::format("streaming datapath fails verify_stream: {}{}", v.front(),
                            v.size() > 1 ? fmt::format(" (and {} more)", v.size() - 1) : std::string()));
  return dp;
}

namespace {
Design make_design_ff(const DesignSpec& spec, Binding binding);
}  // namespace

Design make_design(const DesignSpec& spec) {
  if (spec.mul < 1 || spec.add < 1) throw Error("--mul/--add: at least one unit of each kind");
  if (spec.lat_mul < 1 || spec.lat_add < 1) throw Error("--lat-mul/--lat-add: latency >= 1");
  if (spec.arch == Arch::Hardwired && spec.backpressure)
    throw Error("--arch hardwired: back-pressure (--backpressure) is not implemented; use --arch microcoded");
  const Binding binding = parse_binding(spec.binding);
  if (spec.regfile != "ff" && spec.regfile != "mem") throw Error(fmt::format("--regfile: '{}' (ff, mem)", spec.regfile));
  if (spec.regfile == "mem" && spec.arch == Arch::Hardwired)
    throw Error("--regfile mem: the hardwired datapath has no register file (individual registers); use --arch microcoded");
  Design d = make_design_ff(spec, binding);
  d.dp.config.regfile_mem = spec.regfile == "mem";
  return d;
}

namespace {

// The design with the schedule, binding and program (the register file kind is set by make_design).
Design make_design_ff(const DesignSpec& spec, Binding binding) {
  Design d;
  d.spec = spec;
  d.robot = ref::load_robot(spec.robot);
  sched::DepthSetting depth;
  depth.on = spec.depth;
  depth.lat = {spec.lat_mul, spec.lat_add, 0};
  d.problem.classes =
      sched::default_classes(spec.mul, spec.add, spec.lat_mul, spec.lat_add, spec.pipelined, spec.pipelined);
  d.graph = std::make_unique<dfg::Graph>(
      sched::apply_depth(sched::robot_graph(spec.robot, !spec.custom), depth, d.problem.classes));
  d.problem.graph = d.graph.get();
  if (spec.max_registers < 0) throw Error(fmt::format("--max-registers: {} (need >= 0)", spec.max_registers));
  d.problem.max_registers = spec.ii != 0 ? 0 : spec.max_registers;  // streaming: the limit is on build_stream's file
  if (spec.ii != 0) {
    if (binding != Binding::LeftEdge) throw Error("--binding interconnect: latency datapaths only (not with --ii)");
    if (spec.ii < 0 && spec.ii != kStreamMinII) throw Error(fmt::format("--ii: {} (need >= 1)", spec.ii));
    d.dp = stream_datapath(*d.graph, d.problem, d.schedule, spec.format, spec.ii, spec.max_registers);
    if (spec.backpressure) enable_backpressure(d.dp);
    return d;
  }
  if (spec.backpressure) throw Error("--backpressure: only for a streaming datapath (--ii)");
  d.schedule = schedule_with_registers(d.problem);
  if (binding == Binding::Interconnect) {  // issue 20: same schedule, rebound for interconnect
    const BoundSchedule bound = bind_for_interconnect(*d.graph, d.problem, d.schedule);
    d.schedule = bound.schedule;
    d.dp = build_bound(*d.graph, d.problem, bound, spec.format);
    return d;
  }
  d.dp = build(*d.graph, d.problem, d.schedule, spec.format);
  return d;
}

}  // namespace

std::vector<double> bind_state(const Design& d, const std::vector<double>& q, const std::vector<double>& qd,
                               const std::vector<double>& qdd) {
  const int n = d.robot.dof();
  const Eigen::VectorXd Q = Eigen::Map<const Eigen::VectorXd>(q.data(), n);
  const Eigen::VectorXd QD = Eigen::Map<const Eigen::VectorXd>(qd.data(), n);
  const Eigen::VectorXd QDD = Eigen::Map<const Eigen::VectorXd>(qdd.data(), n);
  return dfg::robot_input_vector(*d.graph, d.robot, Q, QD, QDD);
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
    for (float x : dfg::evaluate<float>(g, dfg::convert_inputs<float>(in)))
      out.push_back(num::fp32::canonical(num::fp32::to_bits(x)));
    return out;
  }
  dfg::Arithmetic<dfg::Fixed> ar;
  ar.format = dfg::FixedFormat{f.int_bits, f.frac_bits};
  for (const auto& x : dfg::evaluate<dfg::Fixed>(g, dfg::convert_inputs<dfg::Fixed>(in, ar), ar))
    out.push_back(num::fixed::to_bits(x.raw, ar.format.to_num()));
  return out;
}

std::vector<double> reference(const dfg::Graph& g, const std::vector<double>& in) {
  return dfg::evaluate<double>(g, in);
}

}  // namespace neaccel::hw
