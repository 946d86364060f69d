// Streaming datapath from a modulo schedule (docs/datapath.md "Streaming"): modulo variable expansion of the
// registers, a kernel of K * II microcode words with stage predicates, and verify_stream(), the independent check.
#include "datapath_internal.hpp"
#include "neaccel/hw/datapath.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

namespace neaccel::hw {
namespace {

// Local timing of one set point (cycle 0 = its first input word). A value is written at the end of its arrival
// cycle and occupies its register during cycles arrival + 1 .. last read (inclusive); a value read only in its
// arrival cycle (bypass from the unit's result bus) needs none.
struct LocalTiming {
  int n_in = 0, n_out = 0, ii = 0, in_words = 1;
  int offset = 0;             // D: op v issues at D + start(v), the earliest at which every input it reads is in
  std::vector<int> arrival;   // inputs: load cycle j; ops: D + start + latency
  std::vector<int> last_use;  // INT_MIN: never read
  std::vector<bool> needs_reg;
  std::vector<dfg::NodeId> input_node;  // per port input: its node (kNoNode: no node reads it)
  std::vector<int> port_of;             // per graph input: its position on the input port, -1 = parameter memory
  int max_life = 0;
};

bool is_param_node(const sched::Problem& p, const dfg::Node& node) {
  return node.op == dfg::Op::Input && sched::is_resident(p, node.input);
}

LocalTiming local_timing(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s, int in_words) {
  const std::size_t n = g.nodes.size();
  LocalTiming t;
  t.in_words = in_words;
  t.port_of.assign(g.inputs.size(), -1);
  for (std::size_t i = 0; i < g.inputs.size(); ++i)
    if (!sched::is_resident(p, static_cast<std::uint32_t>(i))) t.port_of[i] = t.n_in++;
  t.n_out = static_cast<int>(g.outputs.size());
  t.ii = s.ii;
  t.arrival.assign(n, INT_MIN);
  t.last_use.assign(n, INT_MIN);
  t.needs_reg.assign(n, false);
  t.input_node.assign(t.n_in, dfg::kNoNode);
  // D: input j is written at the end of load cycle j, so a reader issued at D + start must have D + start >= j + 1;
  // an output read directly from input j is unloaded at D + length + o >= j + 1.
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (!dfg::is_operation(node.op)) continue;
    for (int k = 0; k < dfg::arity(node.op); ++k) {
      const auto& a = g.nodes[node.arg[k]];
      if (a.op == dfg::Op::Input && !is_param_node(p, a))
        t.offset = std::max(t.offset, t.port_of.at(a.input) / in_words + 1 - s.slots[v].start);
    }
  }
  for (int o = 0; o < t.n_out; ++o) {
    const auto& a = g.nodes[g.outputs[o].node];
    if (a.op == dfg::Op::Input && !is_param_node(p, a))
      t.offset = std::max(t.offset, t.port_of.at(a.input) / in_words + 1 - s.length - o);
  }
  for (std::size_t v = 0; v < n; ++v) {
    const auto& node = g.nodes[v];
    if (node.op == dfg::Op::Const) continue;
    if (node.op == dfg::Op::Input) {
      if (node.input >= g.inputs.size()) throw Error(fmt::format("graph.nodes[{}]: bad input index", v));
      if (is_param_node(p, node)) continue;  // parameter memory: always available, no register
      const int j = t.port_of[node.input];
      if (t.input_node[j] != dfg::kNoNode) throw Error(fmt::format("graph.nodes[{}]: input loaded twice", v));
      t.input_node[j] = static_cast<dfg::NodeId>(v);
      t.arrival[v] = j / in_words;  // the beat that carries it
      continue;
    }
    const auto& slot = s.slots[v];
    if (slot.cls < 0 || slot.cls >= static_cast<int>(p.classes.size()))
      throw Error(fmt::format("schedule.slots[{}].cls: {} is not a class of the problem", v, slot.cls));
    if (slot.start < 0) throw Error(fmt::format("schedule.slots[{}].start: negative", v));
    const int issue = t.offset + slot.start;
    t.arrival[v] = issue + p.classes[slot.cls].latency;
    for (int k = 0; k < dfg::arity(node.op); ++k) {
      const auto a = node.arg[k];
      if (g.nodes[a].op == dfg::Op::Const || is_param_node(p, g.nodes[a])) continue;
      if (t.arrival[a] > issue)
        throw Error(fmt::format("schedule.slots[{}].start: operand {} arrives at {} after the issue at {}", v, a,
                                t.arrival[a] - t.offset, slot.start));
      t.last_use[a] = std::max(t.last_use[a], issue);
    }
  }
  for (int o = 0; o < t.n_out; ++o) {
    const auto v = g.outputs[o].node;
    if (g.nodes[v].op != dfg::Op::Const && !is_param_node(p, g.nodes[v])) t.last_use[v] = std::max(t.last_use[v], t.offset + s.length + o);
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (g.nodes[v].op == dfg::Op::Const || t.last_use[v] == INT_MIN) continue;
    t.needs_reg[v] = t.last_use[v] > t.arrival[v];
    if (t.needs_reg[v]) t.max_life = std::max(t.max_life, t.last_use[v] - t.arrival[v]);
  }
  return t;
}

void check_stream_schedule(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s, int in_words) {
  if (in_words < 1) throw Error(fmt::format("in_words: {} (need >= 1)", in_words));
  if (s.ii <= 0) throw Error("schedule.ii: a streaming datapath needs a modulo schedule (ii > 0)");
  if (s.slots.size() != g.nodes.size())
    throw Error(fmt::format("schedule.slots: {} entries for {} nodes", s.slots.size(), g.nodes.size()));
  std::size_t n_in = 0;
  for (std::size_t i = 0; i < g.inputs.size(); ++i) n_in += !sched::is_resident(p, static_cast<std::uint32_t>(i));
  if (n_in == 0) throw Error("graph.inputs: a streaming datapath needs at least one input through the port");
  const std::size_t beats = (n_in + in_words - 1) / in_words;
  if (static_cast<int>(std::max(beats, g.outputs.size())) > s.ii)
    throw Error(fmt::format("schedule.ii: {} is below the I/O bound max(ceil(n_in / {}), n_out) = {} (one input and "
                            "one output port)", s.ii, in_words, std::max(beats, g.outputs.size())));
}

StreamRegisters allocate(const LocalTiming& t) {
  StreamRegisters r;
  r.copies = std::max(1, (t.max_life + t.ii - 1) / t.ii);
  const int period = r.copies * t.ii;
  r.reg.assign(t.arrival.size(), std::vector<int>(r.copies, -1));
  // Circular intervals on the kernel of `period` cycles: (value, copy) occupies cycles arrival + 1 + copy * II ..
  // last_use + copy * II (mod period). First fit in order of the first occupied cycle (then node, copy).
  std::vector<std::tuple<int, dfg::NodeId, int>> order;
  for (std::size_t v = 0; v < t.arrival.size(); ++v)
    if (t.needs_reg[v])
      for (int k = 0; k < r.copies; ++k) order.emplace_back(t.arrival[v] + 1 + k * t.ii, static_cast<dfg::NodeId>(v), k);
  std::sort(order.begin(), order.end());
  std::vector<std::vector<char>> used;  // register -> kernel cycles held
  for (const auto& [begin, v, k] : order) {
    const int life = t.last_use[v] - t.arrival[v];
    auto fits = [&](const std::vector<char>& m) {
      for (int c = 0; c < life; ++c)
        if (m[(begin + c) % period]) return false;
      return true;
    };
    std::size_t reg = 0;
    while (reg < used.size() && !fits(used[reg])) ++reg;
    if (reg == used.size()) used.emplace_back(period, 0);
    for (int c = 0; c < life; ++c) used[reg][(begin + c) % period] = 1;
    r.reg[v][k] = static_cast<int>(reg);
  }
  r.num_regs = static_cast<int>(used.size());
  return r;
}

}  // namespace

void enable_backpressure(Datapath& dp) {
  if (!dp.streaming()) throw Error("back-pressure: only for a streaming datapath (--ii)");
  // A set point's last result is written into the FIFO at local cycle span - 1 and leaves it one cycle later, so
  // its credit returns at most stages * II + 2 cycles after its admission: stages + 1 credits cover every set point
  // a sink taking every word can have in flight (II >= 2; at II = 1 one more is needed).
  dp.stream.credits = dp.stream.stages + (dp.stream.ii >= 2 ? 1 : 2);
  dp.config.out_fifo = dp.stream.credits * static_cast<int>(dp.output_names.size());
}

StreamRegisters stream_registers(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s) {
  check_stream_schedule(g, p, s, 1);
  return allocate(local_timing(g, p, s, 1));
}

Datapath build_stream(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s,
                      const NumberFormat& format, const StreamRegisters* regs_in, int in_words) {
  check_stream_schedule(g, p, s, in_words);
  Datapath dp;
  dp.config = Config{};
  dp.config.format = format;
  dp.config.stream = true;
  dp.config.num_mul = dp.config.num_add = 0;
  const auto unit_of = detail::make_units(p, dp);
  dp.config.in_words = in_words;
  const LocalTiming t = local_timing(g, p, s, in_words);
  const StreamRegisters regs = regs_in ? *regs_in : allocate(t);
  if (regs.copies < 1 || regs.reg.size() != g.nodes.size())
    throw Error("stream registers: copies < 1 or one entry per node missing");
  const int ii = s.ii, K = regs.copies, P = K * ii;
  dp.length = s.length;
  dp.num_regs = regs.num_regs;
  auto& st = dp.stream;
  st.ii = ii;
  st.ii_io = std::max((t.n_in + in_words - 1) / in_words, t.n_out);
  st.copies = K;
  st.offset = t.offset;
  st.span = t.offset + s.length + t.n_out;
  st.stages = (st.span + ii - 1) / ii;
  st.max_lifetime = t.max_life;

  const std::vector<int> const_of = detail::make_const_rom(g, dp);
  const std::vector<int> param_of = detail::split_inputs(g, p, dp);
  auto unit_index = [&](std::size_t v) { return unit_of[s.slots[v].cls].at(s.slots[v].instance); };
  auto reg_of = [&](dfg::NodeId v, int k) {
    const int r = regs.reg[v].size() > static_cast<std::size_t>(k) ? regs.reg[v][k] : -1;
    if (r < 0 || (regs_in == nullptr && r >= regs.num_regs))
      throw Error(fmt::format("stream registers: node {} copy {} has no register", v, k));
    return r;
  };
  auto operand = [&](dfg::NodeId v, int local, int k) {
    if (g.nodes[v].op == dfg::Op::Const) return Operand{Operand::Kind::Const, const_of[v]};
    if (is_param_node(p, g.nodes[v])) return Operand{Operand::Kind::Param, param_of[g.nodes[v].input]};
    if (g.nodes[v].op != dfg::Op::Input && t.arrival[v] == local) return Operand{Operand::Kind::Unit, unit_index(v)};
    return Operand{Operand::Kind::Reg, reg_of(v, k)};
  };

  const int U = static_cast<int>(dp.units.size());
  dp.program.assign(P, Word{std::vector<Issue>(U), std::vector<WriteBack>(U), false, {}, {}});
  // Copy k is the set point launched at kernel word k * II; its event at local cycle c sits in word
  // (k * II + c) mod P, stage c / II.
  auto word = [&](int k, int local) -> Word& { return dp.program[(k * ii + local) % P]; };
  for (int w = 0; w < P; w += ii) dp.program[w].launch = true;
  for (int k = 0; k < K; ++k) {
    for (int j = 0; j < t.n_in; ++j) {
      const int beat = j / in_words, lane = j % in_words;
      LoadField& ld = word(k, beat).load;
      if (ld.take && lane == 0)
        throw Error(fmt::format("stream: input port used twice in kernel word {}", (k * ii + beat) % P));
      ld.take = true;
      ld.lanes.resize(in_words - 1);
      LoadLane l;
      l.input = j;
      const auto v = t.input_node[j];
      if (v != dfg::kNoNode && t.needs_reg[v]) {
        l.write = true;
        l.dest = reg_of(v, k);
      }
      if (lane == 0) {
        ld.write = l.write, ld.dest = l.dest, ld.input = l.input;
      } else {
        ld.lanes[lane - 1] = l;
      }
    }
    for (std::size_t v = 0; v < g.nodes.size(); ++v) {
      const auto& node = g.nodes[v];
      if (node.op == dfg::Op::Input || node.op == dfg::Op::Const) continue;
      const int u = unit_index(v), issue = t.offset + s.slots[v].start;
      const Unit& unit = dp.units[u];
      const UnitKind need = node.op == dfg::Op::Mul   ? UnitKind::Mul
                            : node.op == dfg::Op::Div ? UnitKind::Div
                            : node.op == dfg::Op::Fma ? UnitKind::Fma
                                                      : UnitKind::Add;
      if (need != unit.kind)
        throw Error(fmt::format("schedule.slots[{}].cls: class cannot execute '{}'", v, dfg::op_name(node.op)));
      Issue& is = word(k, issue).issue[u];
      if (is.valid)
        throw Error(fmt::format("schedule.slots[{}]: unit instance busy in kernel word {} (node {})", v,
                                (k * ii + issue) % P, is.node));
      is.valid = true;
      is.op = detail::op_code(node.op, v);
      is.stage = issue / ii;
      is.node = static_cast<dfg::NodeId>(v);
      if (node.op == dfg::Op::Neg) {
        is.b = operand(node.arg[0], issue, k);
      } else {
        is.a = operand(node.arg[0], issue, k);
        is.b = operand(node.arg[1], issue, k);
        if (node.op == dfg::Op::Fma) is.c = operand(node.arg[2], issue, k);
      }
      if (t.needs_reg[v]) {
        WriteBack& wb = word(k, t.arrival[v]).wb[u];
        if (wb.valid) throw Error(fmt::format("schedule.slots[{}]: two results of unit {} arrive in one cycle", v, u));
        wb = WriteBack{true, reg_of(static_cast<dfg::NodeId>(v), k), t.arrival[v] / ii};
      }
    }
    for (int o = 0; o < t.n_out; ++o) {
      const int local = t.offset + s.length + o;
      OutField& out = word(k, local).out;
      if (out.valid) throw Error(fmt::format("stream: output port used twice in kernel word {}", (k * ii + local) % P));
      out = OutField{true, local / ii, operand(g.outputs[o].node, local, k), o};
    }
  }
  for (const auto& o : g.outputs) dp.output_names.push_back(o.name);

  // Steady-state register pressure (every stage valid): values alive per kernel cycle.
  std::vector<int> live(P, 0);
  for (std::size_t v = 0; v < g.nodes.size(); ++v)
    if (t.needs_reg[v])
      for (int k = 0; k < K; ++k)
        for (int c = t.arrival[v] + 1; c <= t.last_use[v]; ++c) ++live[(k * ii + c) % P];
  st.max_live = *std::max_element(live.begin(), live.end());

  auto& c = dp.config;
  c.max_regs = std::max(1, dp.num_regs);
  c.max_consts = std::max<int>(1, dp.consts.size());
  c.max_prog = P;
  c.max_in = c.max_out = 1;
  c.max_stages = std::max(1, st.stages);
  return dp;
}

// ---------------------------------------------------------------------------------------------------------------
// verify_stream: symbolic execution with (set point, node) tags.
namespace {

struct Tag {
  int point = -1;
  long node = -1;
  bool operator==(const Tag& o) const { return point == o.point && node == o.node; }
};

std::string show(const Tag& t) {
  return t.point < 0 ? std::string("nothing") : fmt::format("node {} of set point {}", t.node, t.point);
}

}  // namespace

std::vector<std::string> verify_stream(const dfg::Graph& g, const Datapath& dp, std::size_t max_messages) {
  std::vector<std::string> out;
  std::size_t omitted = 0;
  auto fail = [&](std::string m) {
    if (out.size() < max_messages) out.push_back(std::move(m));
    else ++omitted;
  };
  const Config& c = dp.config;
  const int P = static_cast<int>(dp.program.size()), U = c.num_units();
  const int n_in = static_cast<int>(dp.input_names.size()), n_out = static_cast<int>(g.outputs.size());
  if (!c.stream || P == 0 || dp.stream.ii <= 0) return {"not a streaming datapath"};
  if (static_cast<int>(dp.units.size()) != U) return {"units: count differs from the configuration"};
  // Graph facts the check relies on (nothing from build_stream).
  // Port inputs and parameter words (the datapath's claim) must partition the graph inputs.
  if (dp.input_graph.size() != dp.input_names.size() || dp.param_graph.size() != dp.param_names.size() ||
      dp.input_graph.size() + dp.param_graph.size() != g.inputs.size())
    return {"inputs: port inputs and parameter words do not cover the graph inputs"};
  std::vector<int> seen(g.inputs.size(), 0);
  for (int i : dp.input_graph) if (i >= 0 && i < static_cast<int>(seen.size())) ++seen[i];
  for (int i : dp.param_graph) if (i >= 0 && i < static_cast<int>(seen.size())) ++seen[i];
  for (int x : seen) if (x != 1) return {"inputs: port inputs and parameter words do not partition the graph inputs"};
  if (static_cast<int>(dp.param_names.size()) > c.max_params)
    fail(fmt::format("parameters: {} words, parameter memory has {}", dp.param_names.size(), c.max_params));
  std::vector<dfg::NodeId> node_of_input(g.inputs.size(), dfg::kNoNode);
  for (std::size_t v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].op == dfg::Op::Input) node_of_input.at(g.nodes[v].input) = static_cast<dfg::NodeId>(v);
  std::vector<dfg::NodeId> input_node(n_in, dfg::kNoNode);
  for (int j = 0; j < n_in; ++j) input_node[j] = node_of_input[dp.input_graph[j]];
  int stages = 0;  // the widest stage the program uses + 1
  for (const Word& w : dp.program) {
    for (const auto& is : w.issue) if (is.valid) stages = std::max(stages, is.stage + 1);
    for (const auto& wb : w.wb) if (wb.valid) stages = std::max(stages, wb.stage + 1);
    if (w.out.valid) stages = std::max(stages, w.out.stage + 1);
  }
  stages = std::max(stages, 1);
  if (stages > c.max_stages) fail(fmt::format("stages: program uses {} stages, hardware has {}", stages, c.max_stages));
  const int points = stages + dp.stream.copies + 2;

  std::vector<Tag> regs(c.max_regs);
  std::vector<std::vector<Tag>> pipes;
  for (const auto& u : dp.units) pipes.emplace_back(std::max(1, u.latency));
  std::vector<char> sv(stages, 0);
  std::vector<std::vector<int>> issued(points, std::vector<int>(g.nodes.size(), 0));
  std::vector<int> loaded(points, 0);
  long launch_no = -1, outputs = 0, last_launch = -1, first_out_prev = -1;  // launch cycles so far - 1
  const long horizon = static_cast<long>(points + stages + 2) * P + P;
  bool active = false;
  for (long cyc = 0; cyc < horizon; ++cyc) {
    const Word& w = dp.program[cyc % P];
    bool admit = false;
    if (w.launch) {
      if (last_launch >= 0 && cyc - last_launch != dp.stream.ii)
        fail(fmt::format("launch: words {} apart, II is {}", cyc - last_launch, dp.stream.ii));
      last_launch = cyc;
      ++launch_no;
      admit = launch_no < points;  // set point m is admitted at launch m
      for (int j = stages - 1; j > 0; --j) sv[j] = sv[j - 1];
      sv[0] = admit;
    }
    const long current = launch_no;  // set point in stage 0 (stage j: current - j)
    auto live = [&](int stage) { return stage >= 0 && stage < stages && sv[stage] && current - stage >= 0; };
    bool any = false;
    for (char b : sv) any = any || b;
    if (any) active = true;
    if (active && !any) break;

    auto tag_of = [&](const Operand& o) -> Tag {
      switch (o.kind) {
        case Operand::Kind::Unit:
          if (o.index < 0 || o.index >= U) return {};
          return pipes[o.index].back();
        case Operand::Kind::Reg:
          if (o.index < 0 || o.index >= c.max_regs) return {};
          return regs[o.index];
        case Operand::Kind::Const: return {-2, o.index};
        case Operand::Kind::Param: return {-3, o.index};  // written in the configuration phase: always there
      }
      return {};
    };
    auto expect = [&](const Operand& o, int point, dfg::NodeId v, const std::string& who) {
      const Tag got = tag_of(o);
      if (g.nodes[v].op == dfg::Op::Const) {
        const bool ok = got.point == -2 && got.node >= 0 && got.node < static_cast<long>(dp.consts.size()) &&
                        dp.consts[got.node] == encode(c.format, g.nodes[v].value);
        if (!ok) fail(fmt::format("cycle {}: {} reads {} instead of constant node {}", cyc, who, show(got), v));
        return;
      }
      if (got.point == -3 || (g.nodes[v].op == dfg::Op::Input && seen.size() && dp.param_graph.size() &&
                              std::find(dp.param_graph.begin(), dp.param_graph.end(),
                                        static_cast<int>(g.nodes[v].input)) != dp.param_graph.end())) {
        const bool ok = got.point == -3 && got.node >= 0 && got.node < static_cast<long>(dp.param_graph.size()) &&
                        g.nodes[v].op == dfg::Op::Input &&
                        dp.param_graph[got.node] == static_cast<int>(g.nodes[v].input);
        if (!ok) fail(fmt::format("cycle {}: {} reads parameter word {} where node {} is expected", cyc, who,
                                  got.point == -3 ? got.node : -1, v));
        return;
      }
      const Tag want{point, static_cast<long>(v)};
      if (!(got == want))
        fail(fmt::format("cycle {}: {} reads {} where {} is expected ({} {}): register conflict or wrong operand", cyc,
                         who, show(got), show(want), o.kind == Operand::Kind::Reg ? "register" : "operand", o.index));
    };

    std::vector<std::pair<int, Tag>> writes;  // applied at the end of the cycle
    // Load.
    if (w.load.take && live(0)) {  // one beat: in_words words, port inputs in order (the last beat may be short)
      const int point = static_cast<int>(current);
      for (int lane = 0; lane < c.in_words; ++lane) {
        const bool write = lane == 0 ? w.load.write
                                     : lane - 1 < static_cast<int>(w.load.lanes.size()) && w.load.lanes[lane - 1].write;
        const int dest = lane == 0 ? w.load.dest : write ? w.load.lanes[lane - 1].dest : 0;
        const int j = loaded[point];
        if (j >= n_in) {
          if (lane == 0) fail(fmt::format("cycle {}: set point {} takes more than {} input words", cyc, point, n_in));
          if (write) fail(fmt::format("cycle {}: lane {} writes a word beyond the set point's inputs", cyc, lane));
          continue;
        }
        ++loaded[point];
        if (write) {
          if (input_node[j] == dfg::kNoNode) fail(fmt::format("cycle {}: input {} has no node", cyc, j));
          writes.emplace_back(dest, Tag{point, static_cast<long>(input_node[j])});
        }
      }
    }
    // Issues.
    std::vector<Tag> entering(U);
    for (int u = 0; u < U; ++u) {
      const Issue& is = w.issue[u];
      if (!is.valid || !live(is.stage)) continue;
      const int point = static_cast<int>(current - is.stage);
      if (is.node == dfg::kNoNode || is.node >= g.nodes.size()) {
        fail(fmt::format("cycle {}: unit {} issues no graph node", cyc, u));
        continue;
      }
      const auto& node = g.nodes[is.node];
      const UnitKind need = node.op == dfg::Op::Mul   ? UnitKind::Mul
                            : node.op == dfg::Op::Div ? UnitKind::Div
                            : node.op == dfg::Op::Fma ? UnitKind::Fma
                                                      : UnitKind::Add;
      if (!dfg::is_operation(node.op) || need != dp.units[u].kind ||
          (need == UnitKind::Add && is.op != detail::op_code(node.op, is.node)))
        fail(fmt::format("cycle {}: unit {} cannot execute node {} ({}) with op {}", cyc, u, is.node,
                         dfg::op_name(node.op), is.op));
      const std::string who = fmt::format("node {} of set point {} on unit {}", is.node, point, u);
      if (node.op == dfg::Op::Neg) {
        expect(is.b, point, node.arg[0], who);
      } else {
        expect(is.a, point, node.arg[0], who);
        expect(is.b, point, node.arg[1], who);
        if (node.op == dfg::Op::Fma) expect(is.c, point, node.arg[2], who);
      }
      ++issued[point][is.node];
      entering[u] = Tag{point, static_cast<long>(is.node)};
    }
    // Write-backs: the unit's result bus into the register.
    for (int u = 0; u < U; ++u) {
      const WriteBack& wb = w.wb[u];
      if (!wb.valid || !live(wb.stage)) continue;
      const Tag bus = pipes[u].back();
      if (bus.point < 0) fail(fmt::format("cycle {}: unit {} writes register {} but no result arrives", cyc, u, wb.dest));
      writes.emplace_back(wb.dest, bus);
    }
    // Output port: set points in order, tau_1 .. tau_n each.
    if (w.out.valid && live(w.out.stage)) {
      const int point = static_cast<int>(current - w.out.stage);
      const long want_point = outputs / n_out;
      const int o = static_cast<int>(outputs % n_out);
      if (point != want_point) fail(fmt::format("cycle {}: output of set point {} where {} is due", cyc, point, want_point));
      expect(w.out.src, static_cast<int>(want_point), g.outputs[o].node,
             fmt::format("output {} of set point {}", o + 1, want_point));
      if (o == 0) {
        if (first_out_prev >= 0 && cyc - first_out_prev != dp.stream.ii)
          fail(fmt::format("cycle {}: results {} cycles apart, II is {}", cyc, cyc - first_out_prev, dp.stream.ii));
        first_out_prev = cyc;
      }
      ++outputs;
    }
    // End of the cycle: register writes (one per register), then the unit pipelines advance.
    std::map<int, int> per_reg;
    for (const auto& [r, tag] : writes) {
      if (r < 0 || r >= c.max_regs) {
        fail(fmt::format("cycle {}: write to register {} outside the file", cyc, r));
        continue;
      }
      if (++per_reg[r] > 1) fail(fmt::format("cycle {}: two writes to register {} in one cycle", cyc, r));
      regs[r] = tag;
    }
    for (int u = 0; u < U; ++u) {
      auto& p = pipes[u];
      for (std::size_t k = p.size() - 1; k > 0; --k) p[k] = p[k - 1];
      p[0] = entering[u];
    }
  }
  for (int m = 0; m < points; ++m) {
    if (loaded[m] != n_in) fail(fmt::format("set point {}: {} input words taken, {} expected", m, loaded[m], n_in));
    for (std::size_t v = 0; v < g.nodes.size(); ++v)
      if (dfg::is_operation(g.nodes[v].op) && issued[m][v] != 1)
        fail(fmt::format("set point {}: node {} issued {} times", m, v, issued[m][v]));
  }
  if (outputs != static_cast<long>(points) * n_out)
    fail(fmt::format("outputs: {} words for {} set points of {}", outputs, points, n_out));
  if (omitted) out.push_back(fmt::format("... and {} more", omitted));
  return out;
}

}  // namespace neaccel::hw
