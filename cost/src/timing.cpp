#include "neaccel/cost/timing.hpp"

#include "neaccel/cost/area.hpp"
#include "neaccel/cost/pnr.hpp"
#include "neaccel/cost/routability.hpp"
#include "neaccel/cost/target.hpp"

#include "neaccel/hw/datapath.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/hw/interconnect.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace neaccel::cost {

GraphShape graph_shape(const dfg::Graph& g) {
  std::set<double> consts;
  for (const auto& n : g.nodes)
    if (n.op == dfg::Op::Const) consts.insert(n.value);
  return {static_cast<int>(g.inputs.size()), static_cast<int>(g.outputs.size()), static_cast<int>(consts.size())};
}

namespace {
// hw::interconnect of a datapath: its multiplexer inputs, as two-input multiplexers, and the widest unit port.
struct MuxFigures {
  int inputs = 0, mux2_equivalent = 0, max_port_sources = 0;
};
MuxFigures mux_figures(const hw::Datapath& dp) {
  const hw::Interconnect ic = hw::interconnect(dp);
  MuxFigures m{ic.mux_inputs(), ic.mux2_equivalent(), 0};
  for (const auto& ports : ic.unit_sources)
    for (const auto& v : ports) m.max_port_sources = std::max(m.max_port_sources, static_cast<int>(v.size()));
  return m;
}
}  // namespace

void attach_interconnect(const sched::Problem& p, const sched::Schedule& s, sched::PointResult& r) {
  const MuxFigures m = mux_figures(hw::build(*p.graph, p, s, hw::NumberFormat::parse("fp32")));
  r.mux_inputs = m.inputs;
  r.mux2_equivalent = m.mux2_equivalent;
  r.max_port_sources = m.max_port_sources;
}

void attach_generated_binding(const hw::Datapath& dp, sched::PointResult& r) {
  if (dp.streaming()) throw Error(fmt::format("cost: {}: a streaming datapath is not a latency datapath's binding",
                                              sched::point_key(r.point)));
  if (dp.length != r.length)
    throw Error(fmt::format("cost: {}: the generated design's schedule is {} cycles, the explored one {}",
                            sched::point_key(r.point), dp.length, r.length));
  const MuxFigures m = mux_figures(dp);
  r.mux_inputs = m.inputs;
  r.mux2_equivalent = m.mux2_equivalent;
  r.max_port_sources = m.max_port_sources;
  r.registers = dp.config.max_regs;
}

void attach_stream(const sched::Problem& p, const sched::Schedule&, sched::PointResult& r) {
  // As `neaccel rtl --ii min` builds it (hw::make_design): the scheduler's minimum II raised to the I/O bound, the
  // shorter of Rau's and the modulo list schedule there, left-edge binding. The sweep's own modulo schedule is not
  // used: the design is rescheduled from the problem, so that it is the design the study generates.
  sched::Problem q = p;
  q.ii = 0;
  q.max_registers = 0;
  sched::Schedule s;
  hw::Datapath dp;
  try {
    dp = hw::stream_datapath(*p.graph, q, s, hw::NumberFormat::parse("fp32"), hw::kStreamMinII, 1,
                             r.point.max_registers);
  } catch (const Error&) {
    // A register limit no streaming datapath meets up to twice the II: none is built, and the point's streaming
    // datapath stays an estimate (point_timing). Without a limit a failure is a fault, and the sweep reports it.
    if (r.point.max_registers <= 0) throw;
    return;
  }
  sched::BuiltStream b;
  b.ii = dp.stream.ii;
  b.registers = dp.config.max_regs;
  b.program_words = dp.config.max_prog;
  b.stages = dp.config.max_stages;
  const MuxFigures m = mux_figures(dp);
  b.mux_inputs = m.inputs;
  b.mux2_equivalent = m.mux2_equivalent;
  b.max_port_sources = m.max_port_sources;
  r.stream = b;
}

PointTiming point_timing(const sched::PointResult& r, const GraphShape& g, const std::string& format,
                         const std::string& arch, const std::string& target) {
  const sched::Point& p = r.point;
  CostPoint c;
  c.target = target;
  c.arch = arch;
  if (arch == "hardwired") {
    if (r.mux2_equivalent < 0)
      throw Error(fmt::format("cost: {} has no multiplexer inputs for the hardwired architecture", sched::point_key(p)));
    c.mux_inputs = r.mux_inputs;
    c.mux2_equivalent = r.mux2_equivalent;
    c.max_port_sources = r.max_port_sources;
  } else if (arch != "microcoded") {
    throw Error(fmt::format("cost: architecture '{}' (microcoded, hardwired)", arch));
  }
  c.format = format;
  c.mul = p.mul;
  c.add = p.add;
  c.lat_mul = p.lat_mul;
  c.lat_add = p.lat_add;
  c.pipelined = p.pipelined;
  // Dividers and FMA units: the model counts their unit cells, their operand ports and stages.
  c.div = p.div;
  c.lat_div = p.lat_div;
  c.div_pipelined = p.div_pipelined;
  c.fma = p.fma;
  c.lat_fma = p.lat_fma;
  c.registers = std::max(r.registers, 1);
  c.consts = g.consts;
  c.program_words = r.length + 1;
  c.inputs = g.inputs;
  c.outputs = g.outputs;
  PointTiming t;
  t.arch = arch;
  t.latency_cost = estimate_cost(c);
  if (!(t.latency_cost.period_ns > 0))
    throw Error(fmt::format("cost: no clock period for {} (estimate_cost gave {})", sched::point_key(p), t.latency_cost.period_ns));
  t.io_cycles = g.inputs + g.outputs + 2;
  t.eval_cycles = r.length + t.io_cycles;
  t.latency_ns = t.eval_cycles * t.latency_cost.period_ns;
  t.streaming = r.ii > 0;
  if (t.streaming) {
    CostPoint s = c;
    s.streaming = true;
    if (r.stream.known()) {
      // The streaming datapath as built (attach_stream): its own II, registers, kernel, stages and multiplexers.
      t.stream_built = true;
      s.ii = r.stream.ii;
      s.registers = std::max(r.stream.registers, 1);
      s.program_words = r.stream.program_words;
      s.stages = r.stream.stages;
      if (c.mux2_equivalent >= 0) {
        if (r.stream.mux2_equivalent < 0)
          throw Error(fmt::format("cost: the streaming datapath of {} was built without its multiplexer inputs",
                                  sched::point_key(p)));
        s.mux_inputs = r.stream.mux_inputs;
        s.mux2_equivalent = r.stream.mux2_equivalent;
        s.max_port_sources = r.stream.max_port_sources;
      }
    } else {
      // Not built: II raised to the I/O bound; its registers (modulo variable expansion: K copies on a circle of
      // K x II cycles) and kernel (K x II words) estimated with K = the modulo schedule's stages, the registers and
      // the multiplexer inputs as the list schedule's times K. Pessimistic: for puma560 customised, 6+6 units at
      // 5/3, 270 registers estimated, 212 built; hardwired 4+4 at 3/2, 56,459 LUT4 estimated, 29,198 built.
      const int copies = std::max(1, r.stages);
      s.ii = std::max({r.ii, g.inputs, g.outputs});
      s.registers = c.registers * copies;
      s.program_words = copies * s.ii;
      if (c.mux2_equivalent >= 0) {
        s.mux_inputs = c.mux_inputs * copies;
        s.mux2_equivalent = c.mux2_equivalent * copies;
        s.max_port_sources = c.max_port_sources * copies;
      }
    }
    t.set_point_cycles = s.ii;
    t.throughput_cost = estimate_cost(s);
    if (!(t.throughput_cost.period_ns > 0))
      throw Error(fmt::format("cost: no clock period for the streaming datapath of {}", sched::point_key(p)));
    if (has_routability(target)) {
      const TargetFit fit = target_fit(t.throughput_cost);
      if (!fit.routable || !fit.modelled) {
        t.streaming = false;
        t.streaming_left_out = !fit.fits      ? "does not fit the " + fit.part + " (" + fit.overflow + ")"
                               : !fit.routable ? fit.unroutable
                                               : fit.unmodelled;
      }
    }
  }
  if (!t.streaming) {
    t.set_point_cycles = t.eval_cycles;
    t.throughput_cost = t.latency_cost;
  }
  t.throughput_per_s = 1e9 / (t.set_point_cycles * t.throughput_cost.period_ns);
  return t;
}

nlohmann::json timing_json(const PointTiming& t, long budget_lut, long budget_dsp) {
  nlohmann::json j = {{"arch", t.arch},
          {"area", t.latency_cost.area_cells},
          {"area_units", t.latency_cost.unit_cells},
          {"area_registers", t.latency_cost.register_cells},
          {"area_routing", t.latency_cost.routing_cells},
          {"area_control", t.latency_cost.control_cells},
          {"period_ns", t.latency_cost.period_ns},
          {"fmax_mhz", t.latency_cost.fmax_mhz()},
          {"critical", t.latency_cost.critical},
          {"unit_period_ns", t.latency_cost.unit_period_ns},
          {"io_cycles", t.io_cycles},
          {"eval_cycles", t.eval_cycles},
          {"latency_ns", t.latency_ns},
          {"throughput_mode", t.streaming ? "streaming" : "latency datapath"},
          {"set_point_cycles", t.set_point_cycles},
          {"throughput_area", t.throughput_cost.area_cells},
          {"throughput_period_ns", t.throughput_cost.period_ns},
          {"throughput_per_s", t.throughput_per_s},
          {"throughput_per_s_per_cell", t.throughput_per_cell()}};
  if (!t.streaming_left_out.empty()) j["streaming_left_out"] = t.streaming_left_out;
  if (t.streaming) j["streaming_design"] = t.stream_built ? "built" : "estimated";
  if (target(t.latency_cost.target).has_device_model()) {
    const TargetFit latency = target_fit(t.latency_cost), throughput = target_fit(t.throughput_cost);
    j["target"] = {{"latency", latency.to_json()}, {"throughput", throughput.to_json()},
                   {"within_budget", latency.within(budget_lut, budget_dsp)},
                   {"fits_budget", latency.fits_budget(budget_lut, budget_dsp)},
                   {"throughput_within_budget", throughput.within(budget_lut, budget_dsp)},
                   {"throughput_fits_budget", throughput.fits_budget(budget_lut, budget_dsp)},
                   {"throughput_per_s_per_lut", throughput.lut > 0 ? t.throughput_per_s / throughput.lut : 0.0}};
  }
  return j;
}

std::string timing_csv_header() {
  return "area_cells,period_ns,critical,eval_cycles,latency_ns,throughput_mode,set_point_cycles,throughput_area_cells,"
         "throughput_period_ns,throughput_per_s";
}

std::string timing_csv_row(const PointTiming& t) {
  std::string critical = t.latency_cost.critical;
  std::replace(critical.begin(), critical.end(), ',', ';');
  return fmt::format("{:.1f},{:.4f},{},{},{:.4f},{},{},{:.1f},{:.4f},{:.6e}", t.latency_cost.area_cells,
                     t.latency_cost.period_ns, critical, t.eval_cycles, t.latency_ns,
                     t.streaming ? "streaming" : "latency", t.set_point_cycles, t.throughput_cost.area_cells,
                     t.throughput_cost.period_ns, t.throughput_per_s);
}

nlohmann::json DeviceFit::to_json() const {
  return {{"device", device}, {"device_logic_cells", logic_cells}, {"est_logic_cells", est_logic_cells},
          {"est_logic_cells_source", "cost model area x the largest logic-cells-per-generic-cell ratio of the placed designs (conservative)"}, {"fits", fits}};
}

DeviceFit device_fit(const CostEstimate& e) { return device_fit_cells(e.area_cells); }

DeviceFit device_fit_cells(double area_cells) {
  DeviceFit d;
  d.est_logic_cells = area_cells * ice40_logic_cells_per_cell();
  d.fits = d.est_logic_cells <= d.logic_cells;
  return d;
}

TargetFit target_fit(const CostEstimate& e) {
  const Target& t = target(e.target);
  TargetFit f;
  f.target = t.name;
  f.part = t.part;
  f.lut = e.lut;
  f.dsp = e.dsp;
  f.device_lut = t.lut;
  f.device_dsp = t.dsp;
  // As place and route says it (pnr.hpp: resource_overflow), the estimate rounded to whole cells.
  if (f.lut > static_cast<double>(t.lut))
    f.overflow = resource_overflow(t.family == "ice40" ? "logic cells" : "LUT4", std::lround(f.lut), t.lut);
  else if (f.dsp > static_cast<double>(t.dsp))
    f.overflow = resource_overflow("DSP blocks", std::lround(f.dsp), t.dsp);
  f.fits = f.overflow.empty();
  if (f.fits && has_routability(t.name)) {
    const auto env = routed_envelope(t.name, e.arch);
    if (!env)
      f.unroutable = fmt::format("no {} design has been measured to route on the {}", e.arch, t.part);
    else if (env->bounds_lut && f.lut > static_cast<double>(env->lut))
      f.unroutable = fmt::format("{} LUT4 by the model, more than the largest {} design measured to route on the {} "
                                 "({} LUT4, {:.1f} %: {})",
                                 std::lround(f.lut), e.arch, t.part, env->lut, env->lut_percent, env->lut_design);
    else if (env->bounds_ports && e.port_sources > env->port_sources)
      f.unroutable = fmt::format("operand multiplexers of {} inputs, wider than any {} design measured to route on "
                                 "the {} ({} inputs: {})",
                                 std::lround(e.port_sources), e.arch, t.part, std::lround(env->port_sources),
                                 env->port_design);
    // The model's range, from the same envelope (routability.hpp).
    if (env && env->bounds_model_ports && e.port_sources > env->model_port_sources) {
      f.modelled = false;
      f.unmodelled = fmt::format(
          "operand multiplexers of {} inputs, wider than any {} design the {} model is fitted or checked on ({} "
          "inputs: {}); beyond that, routed designs were measured {:+.1f} % in period ({}) and {:+.1f} % in LUT4 ({}) "
          "by the model",
          std::lround(e.port_sources), e.arch, t.part, std::lround(env->model_port_sources), env->model_port_design,
          env->beyond_period_error, env->beyond_period_design, env->beyond_lut_error, env->beyond_lut_design);
    } else if (const auto* c = env ? (e.streaming ? &env->streaming_class : &env->latency_class) : nullptr;
               c && c->bounds) {
      f.modelled = false;
      f.unmodelled = fmt::format(
          "{} {} datapaths are not modelled on the {}: of the {} the model is fitted or checked on, {} is {:+.1f} % "
          "in LUT4 and {} {:+.1f} % in period by it (tolerance {:.0f} % and {:.0f} %)",
          e.arch, e.streaming ? "streaming" : "latency", t.part, c->designs, c->lut_design, c->lut_error,
          c->period_design, c->period_error, env->tolerance_lut, env->tolerance_period);
    }
  }
  f.routable = f.fits && f.unroutable.empty();
  return f;
}

bool TargetFit::within(long budget_lut, long budget_dsp) const {
  return routable && modelled && fits_budget(budget_lut, budget_dsp);
}

bool TargetFit::fits_budget(long budget_lut, long budget_dsp) const {
  return fits && (budget_lut <= 0 || lut <= static_cast<double>(budget_lut)) &&
         (budget_dsp <= 0 || dsp <= static_cast<double>(budget_dsp));
}

nlohmann::json TargetFit::to_json() const {
  nlohmann::json j{{"target", target}, {"part", part}, {"lut", lut}, {"dsp", dsp}, {"device_lut", device_lut},
                   {"device_dsp", device_dsp}, {"fits", fits}};
  if (!fits) j["overflow"] = overflow;
  j["routable"] = routable;
  if (!unroutable.empty()) j["unroutable"] = unroutable;
  j["modelled"] = modelled;
  if (!unmodelled.empty()) j["unmodelled"] = unmodelled;
  return j;
}

}  // namespace neaccel::cost
