#include "neaccel/hw/datapath.hpp"

#include "datapath_internal.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace neaccel::hw {
namespace {

int clog2(long n) {  // ceil(log2(n)), as Verilog's $clog2
  int b = 0;
  while ((1L << b) < n) ++b;
  return b;
}

bool all_ops_in(const sched::UnitClass& c, std::initializer_list<dfg::Op> ops) {
  return !c.ops.empty() && std::all_of(c.ops.begin(), c.ops.end(), [&](dfg::Op op) {
    return std::find(ops.begin(), ops.end(), op) != ops.end();
  });
}

UnitKind class_kind(const sched::UnitClass& c, std::size_t idx) {
  if (all_ops_in(c, {dfg::Op::Mul})) return UnitKind::Mul;
  if (all_ops_in(c, {dfg::Op::Add, dfg::Op::Sub, dfg::Op::Neg, dfg::Op::Cmp})) return UnitKind::Add;  // no Cmp node reaches build()
  if (all_ops_in(c, {dfg::Op::Div})) return UnitKind::Div;
  if (all_ops_in(c, {dfg::Op::Fma})) return UnitKind::Fma;
  throw Error(fmt::format("problem.classes[{}] ('{}'): a datapath unit executes either mul, add/sub/neg, div or fma",
                          idx, c.name));
}

}  // namespace

namespace detail {

// Units (multipliers first) and the unit index of every (class, instance); fills the unit part of the config.
std::vector<std::vector<int>> make_units(const sched::Problem& p, Datapath& dp) {
  std::vector<std::vector<int>> unit_of(p.classes.size());
  for (UnitKind kind : {UnitKind::Mul, UnitKind::Add, UnitKind::Div, UnitKind::Fma}) {
    int lat = -1, occ = -1;
    for (std::size_t k = 0; k < p.classes.size(); ++k) {
      const auto& c = p.classes[k];
      if (c.count <= 0 || class_kind(c, k) != kind) continue;
      if (lat >= 0 && (c.latency != lat || c.occupancy != occ))
        throw Error(fmt::format("problem.classes[{}]: all {} classes of a datapath need one latency and occupancy", k,
                                unit_kind_name(kind)));
      if (c.latency < 1 || (c.occupancy != 1 && c.occupancy != c.latency))
        throw Error(fmt::format("problem.classes[{}]: latency >= 1 and occupancy 1 or latency required", k));
      lat = c.latency;
      occ = c.occupancy;
      unit_of[k].resize(c.count);
      for (int i = 0; i < c.count; ++i) {
        unit_of[k][i] = static_cast<int>(dp.units.size());
        dp.units.push_back(Unit{kind, static_cast<int>(k), i, c.latency, c.occupancy == 1});
      }
      auto& cfg = dp.config;
      const int ki = static_cast<int>(kind);
      int* num[] = {&cfg.num_mul, &cfg.num_add, &cfg.num_div, &cfg.num_fma};
      int* lat[] = {&cfg.lat_mul, &cfg.lat_add, &cfg.lat_div, &cfg.lat_fma};
      bool* pipe[] = {&cfg.pipe_mul, &cfg.pipe_add, &cfg.pipe_div, &cfg.pipe_fma};
      *num[ki] += c.count;
      *lat[ki] = c.latency;
      *pipe[ki] = c.occupancy == 1;
    }
  }
  return unit_of;
}

std::vector<int> make_const_rom(const dfg::Graph& g, Datapath& dp) {
  std::map<std::uint64_t, int> const_index;  // by the bits of the double: one entry per distinct value
  std::vector<int> const_of(g.nodes.size(), -1);
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    if (g.nodes[v].op != dfg::Op::Const) continue;
    std::uint64_t key;
    std::memcpy(&key, &g.nodes[v].value, sizeof key);
    auto [it, fresh] = const_index.emplace(key, static_cast<int>(dp.const_values.size()));
    if (fresh) {
      dp.const_values.push_back(g.nodes[v].value);
      dp.consts.push_back(encode(dp.config.format, g.nodes[v].value));
    }
    const_of[v] = it->second;
  }
  return const_of;
}

std::vector<int> split_inputs(const dfg::Graph& g, const sched::Problem& p, Datapath& dp) {
  std::vector<int> param_of(g.inputs.size(), -1);
  dp.input_names.clear();
  dp.input_graph.clear();
  dp.param_names.clear();
  dp.param_graph.clear();
  for (std::size_t i = 0; i < g.inputs.size(); ++i) {
    if (sched::is_resident(p, static_cast<std::uint32_t>(i))) {
      param_of[i] = static_cast<int>(dp.param_names.size());
      dp.param_names.push_back(g.inputs[i]);
      dp.param_graph.push_back(static_cast<int>(i));
    } else {
      dp.input_names.push_back(g.inputs[i]);
      dp.input_graph.push_back(static_cast<int>(i));
    }
  }
  dp.config.max_params = static_cast<int>(dp.param_names.size());
  return param_of;
}

}  // namespace detail

std::vector<std::uint32_t> port_words(const Datapath& dp, const std::vector<std::uint32_t>& graph_words) {
  if (dp.input_graph.empty() && dp.param_graph.empty()) return graph_words;  // a datapath built without the split
  std::vector<std::uint32_t> out;
  for (int i : dp.input_graph) out.push_back(graph_words.at(i));
  return out;
}

std::vector<std::uint32_t> param_words(const Datapath& dp, const std::vector<std::uint32_t>& graph_words) {
  std::vector<std::uint32_t> out;
  for (int i : dp.param_graph) out.push_back(graph_words.at(i));
  return out;
}

std::vector<Segment> segments(const Datapath& dp, const std::vector<std::vector<std::uint32_t>>& graph_words) {
  std::vector<Segment> out;
  for (std::size_t k = 0; k < graph_words.size(); ++k) {
    std::vector<std::uint32_t> par = param_words(dp, graph_words[k]);
    if (out.empty() || (dp.has_params() && par != out.back().params)) {
      out.emplace_back();
      out.back().params = std::move(par);
      out.back().first = k;
    }
    out.back().points.push_back(port_words(dp, graph_words[k]));
  }
  return out;
}

namespace {
using detail::make_const_rom;
using detail::make_units;

struct Timing {
  std::vector<int> arrival;   // cycle the value is available: -1 inputs (loaded), start + latency for ops
  std::vector<int> last_use;  // last cycle it is read; INT_MAX for outputs (read during the unload)
  std::vector<bool> needs_reg;
};

Timing timing(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s) {  // resident inputs: no register
  const std::size_t n = g.nodes.size();
  Timing t{std::vector<int>(n, -1), std::vector<int>(n, INT_MIN), std::vector<bool>(n, false)};
  // A port input with a release time (loaded while the recursion runs) arrives in the cycle before it: the port's
  // word is written into its register at the end of that cycle (no bypass from the port).
  for (std::size_t v = 0; v < n; ++v)
    if (g.nodes[v].op == dfg::Op::Input && !sched::is_resident(p, g.nodes[v].input))
      t.arrival[v] = sched::input_release(p, g.nodes[v].input) - 1;
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (node.op == dfg::Op::Input || node.op == dfg::Op::Const) continue;
    const auto& slot = s.slots[v];
    if (slot.cls < 0 || slot.cls >= static_cast<int>(p.classes.size()))
      throw Error(fmt::format("schedule.slots[{}].cls: {} is not a class of the problem", v, slot.cls));
    t.arrival[v] = slot.start + p.classes[slot.cls].latency;
    for (int k = 0; k < dfg::arity(node.op); ++k) {
      const auto a = node.arg[k];
      if (g.nodes[a].op != dfg::Op::Const && t.arrival[a] > slot.start)
        throw Error(fmt::format("schedule.slots[{}].start: operand {} arrives at {} after the issue at {}", v, a,
                                t.arrival[a], slot.start));
      if (g.nodes[a].op == dfg::Op::Input && t.arrival[a] >= slot.start)  // an input is read from its register
        throw Error(fmt::format("schedule.slots[{}].start: input '{}' is taken from the port in cycle {}, in its "
                                "register from {}, after the issue at {}", v, g.inputs[g.nodes[a].input], t.arrival[a],
                                t.arrival[a] + 1, slot.start));
      t.last_use[a] = std::max(t.last_use[a], slot.start);
    }
  }
  for (const auto& o : g.outputs) t.last_use[o.node] = INT_MAX;
  for (std::size_t v = 0; v < n; ++v)
    t.needs_reg[v] = g.nodes[v].op != dfg::Op::Const && t.last_use[v] > t.arrival[v] &&
                     !(g.nodes[v].op == dfg::Op::Input && sched::is_resident(p, g.nodes[v].input));
  return t;
}

// Values that share a register must not overlap: a value occupies its register from the end of its arrival cycle
// until its last read, so the next one may arrive in the cycle of that last read (read before write).
void check_registers(const dfg::Graph& g, const sched::Schedule& s, const Timing& t, Datapath& dp) {
  if (s.reg.size() != g.nodes.size())
    throw Error(fmt::format("schedule.reg: {} entries for {} nodes (register assignment missing)", s.reg.size(),
                            g.nodes.size()));
  std::map<int, std::vector<std::size_t>> by_reg;
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    if (!t.needs_reg[v]) continue;
    if (s.reg[v] < 0) throw Error(fmt::format("schedule.reg[{}]: value read after its arrival has no register", v));
    by_reg[s.reg[v]].push_back(v);
    dp.num_regs = std::max(dp.num_regs, s.reg[v] + 1);
  }
  for (auto& [r, vals] : by_reg) {
    std::sort(vals.begin(), vals.end(), [&](auto a, auto b) { return t.arrival[a] < t.arrival[b]; });
    for (std::size_t k = 1; k < vals.size(); ++k) {
      const auto a = vals[k - 1], b = vals[k];
      if (t.arrival[b] == t.arrival[a] || t.arrival[b] < t.last_use[a])
        throw Error(fmt::format("schedule.reg[{}]: register {} still holds node {} (live {}..{}) when node {} "
                                "arrives at {}", b, r, a, t.arrival[a], t.last_use[a], b, t.arrival[b]));
    }
  }
}

}  // namespace

std::uint8_t detail::op_code(dfg::Op op, std::size_t v) {
  switch (op) {
    case dfg::Op::Mul:
    case dfg::Op::Div:
    case dfg::Op::Fma:
    case dfg::Op::Add: return kOpAdd;
    case dfg::Op::Sub: return kOpSub;
    case dfg::Op::Neg: return kOpNeg;
    default: throw Error(fmt::format("graph.nodes[{}]: op '{}' has no datapath unit", v, dfg::op_name(op)));
  }
}

namespace {
using detail::op_code;

// Bit-packed word written as hex, most significant digit first.
struct Bits {
  std::vector<bool> bits;
  explicit Bits(int n) : bits(n, false) {}
  void put(int& pos, std::uint64_t value, int width) {
    for (int i = 0; i < width; ++i) bits[pos + i] = (value >> i) & 1u;
    pos += width;
  }
  std::string hex() const {
    const int digits = std::max<int>(1, (static_cast<int>(bits.size()) + 3) / 4);
    std::string s;
    for (int d = digits - 1; d >= 0; --d) {
      int v = 0;
      for (int i = 0; i < 4; ++i)
        if (4 * d + i < static_cast<int>(bits.size()) && bits[4 * d + i]) v |= 1 << i;
      s += "0123456789abcdef"[v];
    }
    return s;
  }
};

std::vector<std::string> pad(std::vector<std::string> lines, int width) {
  if (lines.empty()) lines.push_back(Bits(width).hex());  // $readmemh wants at least one word
  return lines;
}

}  // namespace

int Config::reg_addr_bits() const { return std::max(1, clog2(max_regs)); }
int Config::op_addr_bits() const { return std::max(1, clog2(num_units() + max_regs + max_consts + max_params)); }
int Config::stage_bits() const { return std::max(1, clog2(max_stages)); }
const char* unit_kind_name(UnitKind k) {
  switch (k) {
    case UnitKind::Mul: return "mul";
    case UnitKind::Add: return "add";
    case UnitKind::Div: return "div";
    case UnitKind::Fma: return "fma";
  }
  return "?";
}

int Config::word_bits() const {
  if (stream)  // per unit {valid, op, stage, a, b}, per unit {wb, stage, dest}, launch, load, out, per FMA unit {c}
    return num_units() * (3 + stage_bits() + 2 * op_addr_bits()) + num_units() * (1 + stage_bits() + reg_addr_bits()) +
           1 + (1 + in_words * (1 + reg_addr_bits())) + (1 + stage_bits() + op_addr_bits()) + num_fma * op_addr_bits();
  // + per FMA unit {src_c} (nothing for mul/add designs)
  return num_units() * (3 + 2 * op_addr_bits()) + num_units() * (1 + reg_addr_bits()) + num_fma * op_addr_bits();
}

int Datapath::load_beats() const {
  const int n = static_cast<int>(input_names.size()), k = std::max(1, config.in_words);
  return (n + k - 1) / k;
}
int Datapath::io_overhead() const {
  if (overlapped()) return cycles() - length;
  return (streaming() ? static_cast<int>(input_names.size()) : load_beats()) + static_cast<int>(output_names.size()) + 2;
}
int Datapath::cycles() const {
  if (overlapped()) return static_cast<int>(program.size()) + 1;  // IDLE, the program words, DONE
  return length + io_overhead();
}
int Datapath::cycles_per_set_point() const { return streaming() ? stream.ii : cycles(); }
int Datapath::latency() const {
  if (overlapped()) {  // first input beat (word 0) to the last output word
    int last = -1;
    for (std::size_t c = 0; c < program.size(); ++c)
      if (program[c].out.valid) last = static_cast<int>(c);
    return std::max(last, load_beats() - 1) + 1;
  }
  return streaming() ? stream.span + (backpressure() ? 1 : 0) : cycles();
}

std::vector<int> Datapath::output_order() const {
  std::vector<int> order;
  if (!overlapped()) {
    for (std::size_t o = 0; o < output_names.size(); ++o) order.push_back(static_cast<int>(o));
    return order;
  }
  for (const Word& w : program)
    if (w.out.valid) order.push_back(w.out.output);
  return order;
}

std::vector<std::uint32_t> graph_outputs(const Datapath& dp, const std::vector<std::uint32_t>& port_words) {
  const std::vector<int> order = dp.output_order();
  if (port_words.size() != order.size())
    throw Error(fmt::format("output port: {} words for {} outputs", port_words.size(), order.size()));
  std::vector<std::uint32_t> out(order.size(), 0);
  for (std::size_t k = 0; k < order.size(); ++k) out.at(static_cast<std::size_t>(order[k])) = port_words[k];
  return out;
}

void overlap_io(Datapath& dp, const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s, int in_words,
                const std::vector<int>& input_order) {
  if (dp.streaming()) throw Error("--io overlap: implemented for the latency datapath (not with --ii)");
  if (in_words < 1) throw Error(fmt::format("--in-words: {} (need >= 1)", in_words));
  const std::size_t ni = g.inputs.size(), n = g.nodes.size();
  // The port inputs in load order: position j arrives in cycle j / in_words, usable from the next.
  std::vector<int> pos(ni, -1);
  for (std::size_t k = 0; k < dp.input_graph.size(); ++k) pos.at(static_cast<std::size_t>(dp.input_graph[k])) = static_cast<int>(k);
  if (input_order.size() != dp.input_graph.size())
    throw Error(fmt::format("--io overlap: a load order of {} inputs for {} port inputs", input_order.size(),
                            dp.input_graph.size()));
  std::vector<std::string> names;
  std::vector<int> graph_of, reg_of, arrive(ni, -1);
  for (std::size_t j = 0; j < input_order.size(); ++j) {
    const int i = input_order[j];
    if (i < 0 || static_cast<std::size_t>(i) >= ni || pos[static_cast<std::size_t>(i)] < 0)
      throw Error(fmt::format("--io overlap: load order entry {} ({}) is not a port input, or twice", j, i));
    const auto k = static_cast<std::size_t>(pos[static_cast<std::size_t>(i)]);
    names.push_back(dp.input_names[k]);
    graph_of.push_back(i);
    reg_of.push_back(dp.input_reg[k]);
    pos[static_cast<std::size_t>(i)] = -1;
    arrive[static_cast<std::size_t>(i)] = static_cast<int>(j) / in_words;
    if (sched::input_release(p, static_cast<std::uint32_t>(i)) != arrive[static_cast<std::size_t>(i)] + 1)
      throw Error(fmt::format("problem.release[{}]: {} but input '{}' is taken in cycle {} (usable from {})", i,
                              sched::input_release(p, static_cast<std::uint32_t>(i)), g.inputs[static_cast<std::size_t>(i)],
                              arrive[static_cast<std::size_t>(i)], arrive[static_cast<std::size_t>(i)] + 1));
  }
  // Every op reads its inputs from their registers: from the cycle after the beat that brings them.
  std::vector<int> unit_of(n, -1), arrival(n, -1);
  for (std::size_t c = 0; c < dp.program.size(); ++c)
    for (std::size_t u = 0; u < dp.program[c].issue.size(); ++u) {
      const Issue& is = dp.program[c].issue[u];
      if (!is.valid) continue;
      unit_of.at(is.node) = static_cast<int>(u);
      arrival.at(is.node) = static_cast<int>(c) + dp.units[u].latency;
    }
  for (std::size_t v = 0; v < n; ++v) {
    const auto& nd = g.nodes[v];
    if (!dfg::is_operation(nd.op)) continue;
    for (int k = 0; k < dfg::arity(nd.op); ++k) {
      const auto& a = g.nodes[nd.arg[k]];
      if (a.op != dfg::Op::Input || arrive[a.input] < 0) continue;
      if (s.slots[v].start <= arrive[a.input])
        throw Error(fmt::format("schedule.slots[{}].start: {} reads input '{}' before it is in its register (taken "
                                "from the port in cycle {}, usable from {})", v, s.slots[v].start, g.inputs[a.input],
                                arrive[a.input], arrive[a.input] + 1));
    }
  }
  dp.input_names = std::move(names);
  dp.input_graph = std::move(graph_of);
  dp.input_reg = std::move(reg_of);
  dp.config.in_words = in_words;
  dp.config.io_overlap = true;
  // Outputs: in the order they are computed, each in the first free cycle from then on, one word per cycle.
  const std::size_t no = g.outputs.size();
  std::vector<int> ready(no, 0), order(no);
  for (std::size_t o = 0; o < no; ++o) {
    const auto v = g.outputs[o].node;
    const auto& nd = g.nodes[v];
    ready[o] = dfg::is_operation(nd.op) ? arrival.at(v) : nd.op == dfg::Op::Input && arrive[nd.input] >= 0 ? arrive[nd.input] + 1 : 0;
    order[o] = static_cast<int>(o);
  }
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ready[static_cast<std::size_t>(a)] < ready[static_cast<std::size_t>(b)]; });
  std::vector<int> word(no, 0);
  int last = -1;
  for (int o : order) word[static_cast<std::size_t>(o)] = last = std::max(last + 1, ready[static_cast<std::size_t>(o)]);
  const std::size_t words = static_cast<std::size_t>(std::max({static_cast<int>(dp.program.size()), last + 1, dp.load_beats()}));
  const std::size_t U = dp.units.size();
  while (dp.program.size() < words) dp.program.push_back(Word{std::vector<Issue>(U), std::vector<WriteBack>(U), false, {}, {}});
  for (std::size_t o = 0; o < no; ++o) {
    // A value leaving in the cycle it is computed comes from its unit's result bus; later, from its register (an
    // output holds its register through the schedule's length and nothing is written after it).
    Operand src = dp.output_src[o];
    const auto v = g.outputs[o].node;
    if (src.kind == Operand::Kind::Reg && dfg::is_operation(g.nodes[v].op) && arrival[v] == word[o])
      src = Operand{Operand::Kind::Unit, unit_of[v]};
    dp.output_src[o] = src;
    dp.program[static_cast<std::size_t>(word[o])].out = OutField{true, 0, src, static_cast<int>(o)};
  }
  dp.config.max_prog = static_cast<int>(dp.program.size());
}

Datapath build(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s, const NumberFormat& format) {
  if (s.ii != 0 || p.ii != 0) throw Error("schedule.ii: streaming (modulo) datapaths are not implemented");
  if (s.slots.size() != g.nodes.size())
    throw Error(fmt::format("schedule.slots: {} entries for {} nodes", s.slots.size(), g.nodes.size()));
  Datapath dp;
  dp.config = Config{};
  dp.config.format = format;
  dp.config.num_mul = dp.config.num_add = 0;
  const auto unit_of = make_units(p, dp);
  const Timing t = timing(g, p, s);
  check_registers(g, s, t, dp);

  dp.length = s.length;
  for (std::size_t v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].op != dfg::Op::Input && g.nodes[v].op != dfg::Op::Const && t.arrival[v] > dp.length)
      throw Error(fmt::format("schedule.length: {} is before node {} finishes at {}", dp.length, v, t.arrival[v]));

  const std::vector<int> const_of = make_const_rom(g, dp);
  const std::vector<int> param_of = detail::split_inputs(g, p, dp);
  auto unit_index = [&](std::size_t v) { return unit_of[s.slots[v].cls].at(s.slots[v].instance); };
  auto operand = [&](dfg::NodeId v, int cycle) {
    if (g.nodes[v].op == dfg::Op::Const) return Operand{Operand::Kind::Const, const_of[v]};
    if (g.nodes[v].op == dfg::Op::Input && param_of.at(g.nodes[v].input) >= 0)
      return Operand{Operand::Kind::Param, param_of[g.nodes[v].input]};
    if (g.nodes[v].op != dfg::Op::Input && t.arrival[v] == cycle)
      return Operand{Operand::Kind::Unit, unit_index(v)};  // bypass: the result arrives this cycle
    return Operand{Operand::Kind::Reg, s.reg[v]};
  };

  // Inputs: one load slot per port input, into the register of its node.
  std::vector<int> port_of(g.inputs.size(), -1);
  for (std::size_t k = 0; k < dp.input_graph.size(); ++k) port_of[dp.input_graph[k]] = static_cast<int>(k);
  dp.input_reg.assign(dp.input_names.size(), -1);
  for (std::size_t v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].op == dfg::Op::Input && t.needs_reg[v]) {
      auto& r = dp.input_reg.at(port_of.at(g.nodes[v].input));
      if (r >= 0 && r != s.reg[v]) throw Error(fmt::format("graph.nodes[{}]: input loaded twice", v));
      r = s.reg[v];
    }

  // Microcode.
  const int U = static_cast<int>(dp.units.size());
  dp.program.assign(dp.length + 1, Word{std::vector<Issue>(U), std::vector<WriteBack>(U), false, {}, {}});
  std::vector<std::vector<bool>> busy(U, std::vector<bool>(dp.length + 1, false));
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    const auto& node = g.nodes[v];
    if (node.op == dfg::Op::Input || node.op == dfg::Op::Const) continue;
    const int u = unit_index(v), start = s.slots[v].start;
    const Unit& unit = dp.units[u];
    const UnitKind need = node.op == dfg::Op::Mul   ? UnitKind::Mul
                          : node.op == dfg::Op::Div ? UnitKind::Div
                          : node.op == dfg::Op::Fma ? UnitKind::Fma
                                                    : UnitKind::Add;
    if (need != unit.kind)
      throw Error(fmt::format("schedule.slots[{}].cls: class cannot execute '{}'", v, dfg::op_name(node.op)));
    if (start < 0) throw Error(fmt::format("schedule.slots[{}].start: negative", v));
    for (int c = start; c < start + (unit.pipelined ? 1 : unit.latency); ++c) {
      if (busy[u][c]) throw Error(fmt::format("schedule.slots[{}]: unit instance busy in cycle {}", v, c));
      busy[u][c] = true;
    }
    Issue& is = dp.program[start].issue[u];
    is.valid = true;
    is.op = op_code(node.op, v);
    is.node = static_cast<dfg::NodeId>(v);
    if (node.op == dfg::Op::Neg) {
      is.b = operand(node.arg[0], start);
    } else {
      is.a = operand(node.arg[0], start);
      is.b = operand(node.arg[1], start);
      if (node.op == dfg::Op::Fma) is.c = operand(node.arg[2], start);
    }
    if (t.needs_reg[v]) dp.program[t.arrival[v]].wb[u] = WriteBack{true, s.reg[v], 0};
  }
  for (const auto& o : g.outputs) {
    dp.output_names.push_back(o.name);
    dp.output_src.push_back(operand(o.node, INT_MIN));
  }

  auto& c = dp.config;
  c.max_regs = std::max(1, dp.num_regs);
  c.max_consts = std::max<int>(1, dp.consts.size());
  c.max_prog = dp.length + 1;
  c.max_in = std::max<int>(1, dp.input_names.size());
  c.max_out = std::max<int>(1, dp.output_names.size());
  return dp;
}

Datapath fit(const Datapath& dp, const Config& hw) {
  const Config& c = dp.config;
  if (!(hw.format == c.format) || hw.num_mul != c.num_mul || hw.num_add != c.num_add || hw.num_div != c.num_div ||
      hw.num_fma != c.num_fma || (c.num_mul && (hw.lat_mul != c.lat_mul || hw.pipe_mul != c.pipe_mul)) ||
      (c.num_add && (hw.lat_add != c.lat_add || hw.pipe_add != c.pipe_add)) ||
      (c.num_div && (hw.lat_div != c.lat_div || hw.pipe_div != c.pipe_div)) ||
      (c.num_fma && (hw.lat_fma != c.lat_fma || hw.pipe_fma != c.pipe_fma)))
    throw Error("hardware configuration: unit mix, latencies or format differ from the schedule's");
  if (hw.stream != c.stream)
    throw Error(std::string("hardware configuration: the program needs a ") + (c.stream ? "streaming" : "latency") +
                " datapath");
  if ((hw.out_fifo > 0) != (c.out_fifo > 0))
    throw Error(std::string("hardware configuration: the program ") + (c.out_fifo > 0 ? "needs" : "has no use for") +
                " an output FIFO (back-pressure)");
  if (hw.in_words != c.in_words) throw Error("hardware configuration: the input port width (words per cycle) differs");
  if (hw.io_overlap != c.io_overlap) throw Error("hardware configuration: overlapped I/O (--io overlap) differs");
  if (hw.max_params < c.max_params)
    throw Error(fmt::format("hardware configuration: too small (needs a parameter memory of {} words)", c.max_params));
  if (hw.max_regs < c.max_regs || hw.max_consts < c.max_consts || hw.max_prog < c.max_prog || hw.out_fifo < c.out_fifo ||
      (!c.stream && (hw.max_in < c.max_in || hw.max_out < c.max_out)) || (c.stream && hw.max_stages < c.max_stages))
    throw Error(fmt::format("hardware configuration: too small (needs regs {}, consts {}, program {}, in {}, out {}, "
                            "stages {})", c.max_regs, c.max_consts, c.max_prog, c.max_in, c.max_out, c.max_stages));
  Datapath out = dp;
  out.config = hw;
  return out;
}

std::uint32_t operand_address(const Config& c, const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::Unit: return o.index;
    case Operand::Kind::Reg: return c.num_units() + o.index;
    case Operand::Kind::Const: return c.num_units() + c.max_regs + o.index;
    case Operand::Kind::Param: return c.num_units() + c.max_regs + c.max_consts + o.index;
  }
  return 0;
}

std::vector<std::string> microcode_hex(const Datapath& dp) {
  const Config& c = dp.config;
  const int U = c.num_units(), OA = c.op_addr_bits(), RA = c.reg_addr_bits();
  const int SB = c.stream ? c.stage_bits() : 0;
  std::vector<std::string> lines;
  for (const Word& w : dp.program) {
    Bits bits(c.word_bits());
    int pos = 0;
    for (int u = 0; u < U; ++u) {
      const Issue& is = w.issue[u];
      bits.put(pos, is.valid, 1);
      bits.put(pos, is.valid ? is.op : 0, 2);
      if (c.stream) bits.put(pos, is.valid ? is.stage : 0, SB);
      bits.put(pos, is.valid ? operand_address(c, is.a) : 0, OA);
      bits.put(pos, is.valid ? operand_address(c, is.b) : 0, OA);
    }
    for (int u = 0; u < U; ++u) {
      bits.put(pos, w.wb[u].valid, 1);
      if (c.stream) bits.put(pos, w.wb[u].valid ? w.wb[u].stage : 0, SB);
      bits.put(pos, w.wb[u].valid ? w.wb[u].dest : 0, RA);
    }
    if (c.stream) {  // {launch}, {take, write, dest}, {out valid, stage, src}
      bits.put(pos, w.launch, 1);
      bits.put(pos, w.load.take, 1);
      bits.put(pos, w.load.take && w.load.write, 1);
      bits.put(pos, w.load.take && w.load.write ? w.load.dest : 0, RA);
      for (int l = 1; l < c.in_words; ++l) {  // lanes of a wider input port: {write, dest} each
        const bool wr = w.load.take && l - 1 < static_cast<int>(w.load.lanes.size()) && w.load.lanes[l - 1].write;
        bits.put(pos, wr, 1);
        bits.put(pos, wr ? w.load.lanes[l - 1].dest : 0, RA);
      }
      bits.put(pos, w.out.valid, 1);
      bits.put(pos, w.out.valid ? w.out.stage : 0, SB);
      bits.put(pos, w.out.valid ? operand_address(c, w.out.src) : 0, OA);
    }
    for (int u = U - c.num_fma; u < U; ++u)  // FMA units: {src_c}
      bits.put(pos, w.issue[u].valid ? operand_address(c, w.issue[u].c) : 0, OA);
    lines.push_back(bits.hex());
  }
  return lines;
}

std::vector<std::string> const_hex(const Datapath& dp) {
  std::vector<std::string> lines;
  for (auto raw : dp.consts) {
    Bits b(dp.config.format.width());
    int pos = 0;
    b.put(pos, raw, dp.config.format.width());
    lines.push_back(b.hex());
  }
  return pad(lines, dp.config.format.width());
}

std::vector<std::string> input_hex(const Datapath& dp) {
  const int RA = dp.config.reg_addr_bits();
  std::vector<std::string> lines;
  for (int r : dp.input_reg) {
    Bits b(RA + 1);
    int pos = 0;
    b.put(pos, r >= 0 ? r : 0, RA);
    b.put(pos, r >= 0, 1);
    lines.push_back(b.hex());
  }
  return pad(lines, RA + 1);
}

std::vector<std::string> output_hex(const Datapath& dp) {
  std::vector<std::string> lines;
  for (const auto& o : dp.output_src) {
    Bits b(dp.config.op_addr_bits());
    int pos = 0;
    b.put(pos, operand_address(dp.config, o), dp.config.op_addr_bits());
    lines.push_back(b.hex());
  }
  return pad(lines, dp.config.op_addr_bits());
}

std::vector<std::string> meta_hex(const Datapath& dp) {
  std::vector<std::string> m{fmt::format("{:04x}", dp.input_names.size()), fmt::format("{:04x}", dp.program.size()),
                             fmt::format("{:04x}", dp.output_names.size())};
  if (dp.streaming()) {
    m.push_back(fmt::format("{:04x}", dp.stream.stages));
    m.push_back(fmt::format("{:04x}", dp.stream.credits));
  }
  if (dp.config.max_params > 0) m.push_back(fmt::format("{:04x}", dp.param_names.size()));  // parameter words
  return m;
}

void write_hex(const Datapath& dp, const std::string& dir) {
  std::filesystem::create_directories(dir);
  auto put = [&](const std::string& name, const std::vector<std::string>& lines) {
    const std::string path = dir + "/" + name;
    std::ofstream f(path, std::ios::binary);
    for (const auto& l : lines) f << l << '\n';
    if (!f) throw Error(path + ": cannot write");
  };
  put("ucode.hex", microcode_hex(dp));
  put("const.hex", const_hex(dp));
  put("meta.hex", meta_hex(dp));
  if (dp.streaming()) return;  // the streaming RTL drives its ports from the microcode (no input/output ROMs)
  put("in.hex", input_hex(dp));
  put("out.hex", output_hex(dp));
}

namespace {
std::vector<std::pair<std::string, long>> rtl_parameters_base(const Config& c);
}  // namespace

std::vector<std::pair<std::string, long>> rtl_parameters(const Config& c) {
  auto p = rtl_parameters_base(c);
  if (c.regfile_mem) p.emplace_back("RegFile", 1);  // only when set: flip-flop designs keep their wrapper text
  if (c.num_div > 0) {  // only when present: mul/add designs keep their wrapper text
    p.emplace_back("NumDiv", c.num_div);
    p.emplace_back("LatDiv", c.lat_div);
    p.emplace_back("PipeDiv", c.pipe_div);
  }
  if (c.num_fma > 0) {
    p.emplace_back("NumFma", c.num_fma);
    p.emplace_back("LatFma", c.lat_fma);
    p.emplace_back("PipeFma", c.pipe_fma);
  }
  if (c.max_params > 0) p.emplace_back("MaxParams", c.max_params);  // likewise designs without a parameter memory
  if (c.in_words > 1) p.emplace_back("InWords", c.in_words);
  return p;
}

namespace {
std::vector<std::pair<std::string, long>> rtl_parameters_base(const Config& c) {
  if (c.stream)
    return {{"IsFixed", c.format.fixed}, {"Width", c.format.width()}, {"Frac", c.format.fixed ? c.format.frac_bits : 0},
            {"NumMul", c.num_mul},       {"NumAdd", c.num_add},       {"LatMul", c.lat_mul},
            {"LatAdd", c.lat_add},       {"PipeMul", c.pipe_mul},     {"PipeAdd", c.pipe_add},
            {"MaxRegs", c.max_regs},     {"MaxConsts", c.max_consts}, {"MaxProg", c.max_prog},
            {"MaxStages", c.max_stages}, {"OutFifo", c.out_fifo}};
  return {{"IsFixed", c.format.fixed}, {"Width", c.format.width()}, {"Frac", c.format.fixed ? c.format.frac_bits : 0},
          {"NumMul", c.num_mul},       {"NumAdd", c.num_add},       {"LatMul", c.lat_mul},
          {"LatAdd", c.lat_add},       {"PipeMul", c.pipe_mul},     {"PipeAdd", c.pipe_add},
          {"MaxRegs", c.max_regs},     {"MaxConsts", c.max_consts}, {"MaxProg", c.max_prog},
          {"MaxIn", c.max_in},         {"MaxOut", c.max_out}};
}
}  // namespace

nlohmann::json to_json(const Config& c) {
  nlohmann::json j;
  j["format"] = c.format.name();
  for (const auto& [k, v] : rtl_parameters(c)) j["parameters"][k] = v;
  j["module"] = c.stream ? "nea_stream" : "nea_datapath";
  j["reg_addr_bits"] = c.reg_addr_bits();
  j["op_addr_bits"] = c.op_addr_bits();
  j["word_bits"] = c.word_bits();
  return j;
}

// The memory register file's organisation (rtl/datapath/nea_regfile.v, docs/datapath.md "Register file as memory").
nlohmann::json regfile_memory_json(const Config& c) {
  const int U = c.num_units();
  // Latency datapath: the input load shares write port 0 and the output unload read port 0 (LOAD and UNLOAD are
  // states of their own); streaming: all overlap, so they have ports of their own.
  const int wr = c.stream ? U + 1 : U, rd = c.stream ? 2 * U + 1 : 2 * U;
  int sel = 0;
  while ((1 << sel) < wr) ++sel;
  return {{"type", "memory"}, {"write_ports", wr}, {"read_ports", rd}, {"banks", wr * rd}, {"depth", c.max_regs},
          {"bank_bits", c.max_regs * c.format.width()}, {"live_value_table_bits", wr > 1 ? c.max_regs * sel : 0},
          {"read", "asynchronous (distributed RAM)"}};
}

nlohmann::json to_json(const Datapath& dp) {
  nlohmann::json j;
  j["config"] = to_json(dp.config);
  j["registers"] = dp.num_regs;
  j["constants"] = dp.consts.size();
  j["inputs"] = dp.input_names;
  j["outputs"] = dp.output_names;
  if (dp.has_params()) {  // parameters written once (docs/datapath.md "Robot parameters loaded once")
    j["params"] = dp.param_names;
    j["config_cycles"] = dp.config_cycles();
  }
  j["schedule_length"] = dp.length;
  j["program_words"] = dp.program.size();
  j["io_overhead"] = dp.io_overhead();
  j["cycles"] = dp.cycles();
  j["mode"] = dp.streaming() ? "streaming" : "latency";
  j["cycles_per_set_point"] = dp.cycles_per_set_point();
  j["latency"] = dp.latency();
  if (dp.streaming()) {
    const auto& st = dp.stream;
    j["cycles"] = nullptr;  // no start-to-done cycle count per evaluation: see cycles_per_set_point and latency
    j["stream"] = {{"ii", st.ii},         {"ii_sched", st.ii_sched},   {"ii_io", st.ii_io},
                   {"copies", st.copies}, {"stages", st.stages},       {"span", st.span}, {"offset", st.offset},
                   {"kernel_words", dp.program.size()}, {"max_live", st.max_live},
                   {"max_lifetime", st.max_lifetime}, {"credits", st.credits},
                   {"backpressure", dp.backpressure()}};
    if (dp.config.in_words > 1) j["stream"]["in_words"] = dp.config.in_words;
  }
  if (dp.overlapped()) {  // what the host needs: the load order of the beats, the order and cycles of the results
    std::vector<std::string> out_names;
    std::vector<int> out_words;
    for (std::size_t c = 0; c < dp.program.size(); ++c)
      if (dp.program[c].out.valid) {
        out_names.push_back(dp.output_names.at(static_cast<std::size_t>(dp.program[c].out.output)));
        out_words.push_back(static_cast<int>(c));
      }
    j["io"] = {{"mode", "overlap"},          {"in_words", dp.config.in_words},   {"load_beats", dp.load_beats()},
               {"load_order", dp.input_names}, {"output_order", out_names},       {"output_cycles", out_words},
               {"latency", dp.latency()}};
  }
  j["register_file"] = {{"read_ports", 2 * dp.config.num_units() + 1},
                        {"write_ports", dp.config.num_units() + 1}};
  if (dp.config.regfile_mem) j["register_file"]["kind"] = regfile_memory_json(dp.config);
  return j;
}

}  // namespace neaccel::hw
