#include "neaccel/hw/design.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/hw/binding.hpp"
#include "neaccel/hw/hardwired.hpp"
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

bool is_joint_input(const std::string& name) {
  static const char* const wrench[] = {"fex", "fey", "fez", "nex", "ney", "nez"};
  for (const char* w : wrench)
    if (name == w) return true;
  for (const char* prefix : {"sgn_qd", "qdd", "qd", "q", "s", "c"}) {
    const std::string p(prefix);
    if (name.size() > p.size() && name.compare(0, p.size(), p) == 0 &&
        std::all_of(name.begin() + p.size(), name.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
      return true;
  }
  return false;
}

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

MinII min_ii(const sched::Problem& p, int in_words) {
  sched::check(p);
  sched::Problem q = p;
  q.ii = 0;
  MinII m;
  sched::ModuloOptions only_ii;  // the II only: no latency minimisation (stream_datapath does it at the II chosen)
  only_ii.list = false;
  only_ii.exact = false;
  m.sched = sched::modulo_schedule(q, only_ii).ii;
  m.res_mii = sched::res_mii(q);
  std::size_t n_in = 0;
  for (std::size_t i = 0; i < p.graph->inputs.size(); ++i) n_in += !sched::is_resident(p, static_cast<std::uint32_t>(i));
  const std::size_t k = static_cast<std::size_t>(std::max(1, in_words));
  m.io = static_cast<int>(std::max((n_in + k - 1) / k, p.graph->outputs.size()));
  return m;
}

// The streaming datapath of a verified modulo schedule, checked by verify_stream (neaccel::Error naming the first
// violation); ii_sched is the scheduler's minimum II, recorded beside the II built.
Datapath checked_stream(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s, const NumberFormat& f,
                        int in_words, int ii_sched) {
  Datapath dp = build_stream(g, p, s, f, nullptr, in_words);
  dp.stream.ii_sched = ii_sched;
  const auto v = verify_stream(g, dp);
  if (!v.empty())
    throw Error(fmt::format("streaming datapath fails verify_stream: {}{}", v.front(),
                            v.size() > 1 ? fmt::format(" (and {} more)", v.size() - 1) : std::string()));
  return dp;
}

Datapath stream_datapath(const dfg::Graph& g, sched::Problem& p, sched::Schedule& s, const NumberFormat& f, int ii,
                         int in_words, int max_registers) {
  const MinII m = min_ii(p, in_words);
  if (ii != kStreamMinII && ii < m.value())
    throw Error(fmt::format("--ii {}: below the minimum initiation interval {} (modulo scheduler {} from ResMII {}, "
                            "I/O bound {} = max(inputs{}, outputs) words through one port)",
                            ii, m.value(), m.sched, m.res_mii, m.io,
                            in_words > 1 ? fmt::format(" / {} per cycle", in_words) : std::string()));
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
    Datapath dp = checked_stream(g, p, s, f, in_words, m.sched);
    if (dp.num_regs > max_registers)
      throw Error(fmt::format("--max-registers {}: the streaming datapath has {} registers", max_registers, dp.num_regs));
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
  return checked_stream(g, p, s, f, in_words, m.sched);
}

namespace {
Design make_design_ff(const DesignSpec& spec, Binding binding);
}  // namespace

int least_unit_latency(const DesignSpec& spec) {
  int least = std::min(spec.lat_mul, spec.lat_add);
  if (spec.div > 0) least = std::min(least, spec.lat_div);
  if (spec.fma > 0) least = std::min(least, spec.lat_fma);
  return least;
}

HardwiredOptions hardwired_options(const DesignSpec& spec) {
  return {parse_decode(spec.decode, "--decode"), spec.operand_regs};
}

Design make_design(const DesignSpec& spec) {
  if (spec.mul < 1 || spec.add < 1) throw Error("--mul/--add: at least one unit of each kind");
  if (spec.lat_mul < 1 || spec.lat_add < 1) throw Error("--lat-mul/--lat-add: latency >= 1");
  if (spec.arch == Arch::Hardwired && spec.backpressure)
    throw Error("--arch hardwired: back-pressure (--backpressure) is not implemented; use --arch microcoded");
  const Binding binding = parse_binding(spec.binding);
  const HardwiredOptions hw_options = hardwired_options(spec);
  if (hw_options.decode != Decode::Combinational && (spec.arch != Arch::Hardwired || spec.ii != 0))
    throw Error(fmt::format("--decode {}: implemented for the hardwired latency datapath (--arch hardwired, without --ii)",
                            decode_name(hw_options.decode)));
  if (spec.operand_regs) {
    if (spec.arch != Arch::Hardwired) throw Error("--operand-regs: implemented for the hardwired datapath (--arch hardwired)");
    const int least = least_unit_latency(spec);
    if (least < 2)
      throw Error(fmt::format("--operand-regs: a unit latency of {} (the operand register is the first of a unit's "
                              "cycles: every latency >= 2)", least));
  }
  if (spec.units != "standard" && spec.units != "deep")
    throw Error(fmt::format("--units: '{}' (standard, deep)", spec.units));
  if (spec.units == "deep" && spec.arch != Arch::Hardwired)
    throw Error("--units deep: implemented for the hardwired datapath (--arch hardwired)");
  if (spec.units == "deep" && !spec.pipelined)
    throw Error("--units deep: the deep units are always pipelined (not with --not-pipelined)");
  if (spec.regfile != "ff" && spec.regfile != "mem") throw Error(fmt::format("--regfile: '{}' (ff, mem)", spec.regfile));
  if (spec.regfile == "mem" && spec.arch == Arch::Hardwired)
    throw Error("--regfile mem: the hardwired datapath has no register file (individual registers); use --arch microcoded");
  try {
    dfg::function_from_name(spec.function);
  } catch (const Error& e) {
    throw OptionError(e.what());
  }
  if (spec.fma < 0) throw OptionError(fmt::format("--fma: {} (need >= 0)", spec.fma));
  if (spec.fma > 0 && spec.lat_fma < 1) throw OptionError("--fma: needs --lat-fma >= 1");
  if (spec.fma == 0 && spec.lat_fma != 0) throw OptionError("--lat-fma: only with --fma N (N >= 1)");
  if (spec.div < 0) throw OptionError(fmt::format("--div: {} (need >= 0)", spec.div));
  if (spec.lat_div < 1) throw OptionError(fmt::format("--lat-div: {} (need >= 1)", spec.lat_div));
  if (spec.fma > 0 && spec.regfile == "mem")
    throw OptionError("--regfile mem: not with FMA units (no third read port per unit); use --regfile ff");
  if (spec.params != "stream" && spec.params != "load")
    throw Error(fmt::format("--params: '{}' (stream, load)", spec.params));
  if (spec.in_words < 1 || spec.in_words > 64) throw Error(fmt::format("--in-words: {} (1 .. 64)", spec.in_words));
  // A wider input port: the microcoded streaming datapath (its loads are microcode fields per lane) and the hardwired
  // latency datapath (its LOAD phase takes a beat of in_words words per cycle); not the microcoded latency datapath,
  // whose input ROM gives one register per cycle, nor the hardwired streaming one.
  const bool wide_stream = spec.ii != 0 && spec.arch == Arch::Microcoded && spec.regfile == "ff" && !spec.backpressure;
  const bool wide_latency = spec.ii == 0 && spec.arch == Arch::Hardwired;
  if (spec.in_words > 1 && !wide_stream && !wide_latency)
    throw Error("--in-words: a wider input port is implemented for the hardwired latency datapath and for the "
                "microcoded streaming datapath (--ii) with the flip-flop register file, without back-pressure");
  if (spec.io != "phases" && spec.io != "overlap") throw Error(fmt::format("--io: '{}' (phases, overlap)", spec.io));
  if (spec.io == "overlap" && (spec.arch != Arch::Hardwired || spec.ii != 0))
    throw Error("--io overlap: implemented for the hardwired latency datapath (--arch hardwired, without --ii)");
  // Local sequencers start three words into the compute phase and load through registers a cycle late; with
  // overlapped I/O the inputs arrive during those words, so the two are not combined (not built).
  if (spec.io == "overlap" && spec.decode == "local")
    throw Error("--decode local: not with --io overlap (its loads land a cycle late, after ops the overlapped schedule "
                "starts; not built); use --decode registered");
  if (spec.params == "load" && spec.custom)
    throw Error("--params load: a custom-flavour design has no parameter inputs (the robot's parameters are folded into "
                "constants); use --flavour general");
  Design d = make_design_ff(spec, binding);
  d.dp.config.regfile_mem = spec.regfile == "mem";
  d.dp.config.deep_units = spec.units == "deep";
  if (!d.dp.streaming()) {
    const int port_inputs = static_cast<int>(d.dp.input_names.size());
    if (spec.in_words > 1 && spec.in_words > port_inputs)
      throw Error(fmt::format("--in-words: {} words per cycle for {} port inputs (at most {})", spec.in_words,
                              port_inputs, port_inputs));
    d.dp.config.in_words = spec.in_words;  // the LOAD phase: ceil(inputs / in_words) beats
  }
  return d;
}

namespace {

// The design with the schedule, binding and program (the register file kind is set by make_design).
Design make_design_ff(const DesignSpec& spec, Binding binding) {
  Design d;
  d.spec = spec;
  d.robot = ref::load_robot(spec.robot);
  dfg::DepthSetting depth;
  depth.on = spec.depth;
  depth.lat = {spec.lat_mul, spec.lat_add, spec.fma > 0 ? spec.lat_fma : 0};
  depth.lookahead = spec.lookahead;
  d.problem.classes =
      sched::default_classes(spec.mul, spec.add, spec.lat_mul, spec.lat_add, spec.pipelined, spec.pipelined);
  if (spec.fma > 0)
    d.problem.classes.push_back(
        sched::UnitClass{"fma", {dfg::Op::Fma}, spec.fma, spec.lat_fma, spec.pipelined ? 1 : spec.lat_fma});
  const dfg::Function fn = dfg::function_from_name(spec.function);
  if (spec.depth && spec.lookahead != 0 && fn != dfg::Function::Id)
    throw OptionError(fmt::format("--depth lookahead: inverse dynamics only (not --function {})", spec.function));
  const dfg::Graph traced =
      fn == dfg::Function::Id
          ? dfg::robot_graph(spec.robot, !spec.custom)
          : dfg::customise(dfg::trace_function(d.robot, fn, dfg::Form::ModifiedNE,
                                               spec.custom ? dfg::Flavour::Custom : dfg::Flavour::General));
  const int divisions = dfg::count_ops(traced).of(dfg::Op::Div);
  if (divisions > 0 && spec.div < 1)
    throw OptionError(fmt::format("--function {}: the graph has {} division{}; give --div N (>= 1) and --lat-div L",
                            spec.function, divisions, divisions == 1 ? "" : "s"));
  if (divisions == 0 && spec.div > 0)
    throw OptionError(fmt::format("--div {}: the graph of --function {} has no division", spec.div, spec.function));
  if (spec.div > 0)
    d.problem.classes.push_back(
        sched::UnitClass{"div", {dfg::Op::Div}, spec.div, spec.lat_div, spec.div_pipelined ? 1 : spec.lat_div});
  d.graph = std::make_unique<dfg::Graph>(
      spec.depth && spec.lookahead != 0
          ? sched::robot_depth_graph(spec.robot, spec.custom ? "custom" : "general", depth, d.problem.classes)
          : sched::apply_depth(traced, depth, d.problem.classes));
  d.problem.graph = d.graph.get();
  if (spec.params == "load" && !spec.custom) {  // robot parameters: resident in the parameter memory
    d.problem.resident.assign(d.graph->inputs.size(), 0);
    for (std::size_t i = 0; i < d.graph->inputs.size(); ++i) d.problem.resident[i] = !is_joint_input(d.graph->inputs[i]);
  }
  if (spec.max_registers < 0) throw Error(fmt::format("--max-registers: {} (need >= 0)", spec.max_registers));
  d.problem.max_registers = spec.ii != 0 ? 0 : spec.max_registers;  // streaming: the limit is on build_stream's file
  if (spec.read_ports < 0 || spec.write_ports < 0)
    throw Error(fmt::format("--read-ports/--write-ports: {}/{} (need >= 0)", spec.read_ports, spec.write_ports));
  d.problem.read_ports = spec.read_ports;
  d.problem.write_ports = spec.write_ports;
  if (spec.ii != 0) {
    if (binding != Binding::LeftEdge) throw Error("--binding interconnect: latency datapaths only (not with --ii)");
    if (spec.ii < 0 && spec.ii != kStreamMinII) throw Error(fmt::format("--ii: {} (need >= 1)", spec.ii));
    d.dp = stream_datapath(*d.graph, d.problem, d.schedule, spec.format, spec.ii, spec.in_words, spec.max_registers);
    if (spec.backpressure) enable_backpressure(d.dp);
    return d;
  }
  if (spec.backpressure) throw Error("--backpressure: only for a streaming datapath (--ii)");
  // Overlapped I/O: the port inputs arrive in io_overlap's load order, in_words per cycle; no op starts before the
  // words it reads are in their registers (input release times, which the list scheduler honours and verify checks).
  sched::IoOverlap io;
  if (spec.io == "overlap") {
    io = sched::io_overlap(d.problem, spec.in_words);
    d.problem.release = io.release;
  }
  d.schedule = schedule_with_registers(d.problem);
  if (spec.decode == "local") {
    // Local sequencers start in the third compute word (hw/hardwired.hpp Decode::Local): the same schedule, every
    // operation kLocalLead cycles later, so that the program's first words are empty. Register lifetimes move with
    // their ops (inputs are in their registers from cycle 0 either way), so the schedule is verified again.
    for (sched::Slot& slot : d.schedule.slots)
      if (slot.cls >= 0) slot.start += kLocalLead;
    d.schedule.length += kLocalLead;
    d.schedule.lower_bound = 0;
    d.schedule.proven_optimal = false;
    sched::verify_or_throw(d.problem, d.schedule);
  }
  if (binding == Binding::Interconnect) {  // same schedule, rebound for interconnect
    const BoundSchedule bound = bind_for_interconnect(*d.graph, d.problem, d.schedule);
    d.schedule = bound.schedule;
    d.dp = build_bound(*d.graph, d.problem, bound, spec.format);
  } else {
    d.dp = build(*d.graph, d.problem, d.schedule, spec.format);
  }
  if (spec.io == "overlap") overlap_io(d.dp, *d.graph, d.problem, d.schedule, spec.in_words, io.input_order);
  return d;
}

}  // namespace

std::vector<double> bind_state(const Design& d, const std::vector<double>& q, const std::vector<double>& qd,
                               const std::vector<double>& qdd) {
  const int n = d.robot.dof();
  const Eigen::VectorXd Q = Eigen::Map<const Eigen::VectorXd>(q.data(), n);
  const Eigen::VectorXd QD = Eigen::Map<const Eigen::VectorXd>(qd.data(), n);
  const Eigen::VectorXd QDD = Eigen::Map<const Eigen::VectorXd>(qdd.data(), n);
  if (d.spec.function != "id") return dfg::function_input_vector(*d.graph, d.robot, Q, QD, QDD);  // QDD: u
  return dfg::robot_input_vector(*d.graph, d.robot, Q, QD, QDD);
}

std::vector<double> random_state(const Design& d, std::mt19937_64& rng) {
  const int n = d.robot.dof();
  std::vector<double> q(n), qd(n), qdd(n);  // qdd: u (tau for the forward functions)
  const bool forward = d.spec.function == "fd" || d.spec.function == "fd-khalil" || d.spec.function == "fd-strobe";
  for (int i = 0; i < n; ++i) {
    q[i] = uniform(rng, -M_PI, M_PI);
    qd[i] = uniform(rng, -1, 1);
    qdd[i] = forward ? uniform(rng, -5, 5) : uniform(rng, -1, 1);
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
