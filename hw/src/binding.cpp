// Binding for interconnect (docs/binding.md): simulated annealing over unit instances, registers and port order
// for a fixed schedule, on the exact multiplexer-input count of hw::interconnect, evaluated incrementally.
#include "neaccel/hw/binding.hpp"

#include "datapath_internal.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>
#include <tuple>

namespace neaccel::hw {

Binding parse_binding(const std::string& name, const std::string& field) {
  if (name == "left-edge") return Binding::LeftEdge;
  if (name == "interconnect") return Binding::Interconnect;
  throw Error(fmt::format("{}: '{}' (left-edge or interconnect)", field, name));
}

const char* binding_name(Binding b) { return b == Binding::LeftEdge ? "left-edge" : "interconnect"; }

namespace {

using dfg::NodeId;
using dfg::Op;

bool commutative(Op op) { return op == Op::Add || op == Op::Mul; }

// Multiplexer cost of a port with d distinct sources (hw::Interconnect::mux_inputs: muxes of >= 2 inputs).
int mux_cost(int d) { return d >= 2 ? d : 0; }

// The binding state and its interconnect, kept up to date incrementally.
//
// Ports: unit u port a/b/c = 3u, 3u + 1, 3u + 2 (c: FMA addend); register r's write port = 3U + r; the output port = 3U + R.
// Sources: unit u's result bus = u; register r = U + r; constant c = U + R + c; the input load = U + R + C; graph
// input i held in the parameter memory = U + R + C + 1 + i.
// An "item" is one routing the datapath needs: a read (op v, operand k), the write-back of value x, or output o.
class Binder {
 public:
  Binder(const dfg::Graph& g, const sched::Problem& p, const sched::Schedule& s, int reg_limit)
      : g_(g), p_(p), s_(s), n_(g.nodes.size()) {
    Datapath scratch;
    unit_of_ = detail::make_units(p, scratch);
    U_ = static_cast<int>(scratch.units.size());
    unit_inst_.assign(U_, -1);
    for (std::size_t c = 0; c < unit_of_.size(); ++c)
      for (std::size_t i = 0; i < unit_of_[c].size(); ++i) unit_inst_[unit_of_[c][i]] = static_cast<int>(i);
    const_of_ = detail::make_const_rom(g, scratch);
    C_ = static_cast<int>(scratch.consts.size());
    R_ = std::max(reg_limit, s.num_registers);

    // Timing as hw::build sees it: arrival, readers, which values are written back.
    arrival_.assign(n_, -1);
    start_.assign(n_, 0);
    readers_.assign(n_, {});
    std::vector<int> last_use(n_, INT_MIN);
    for (std::size_t v = 0; v < n_; ++v) {
      const auto& node = g.nodes[v];
      if (!dfg::is_operation(node.op)) continue;
      ops_.push_back(static_cast<NodeId>(v));
      start_[v] = s.slots[v].start;
      arrival_[v] = start_[v] + p.classes[s.slots[v].cls].latency;
      for (int k = 0; k < dfg::arity(node.op); ++k) {
        readers_[node.arg[k]].push_back({static_cast<NodeId>(v), k});
        last_use[node.arg[k]] = std::max(last_use[node.arg[k]], start_[v]);
      }
    }
    out_of_.assign(n_, {});
    for (std::size_t o = 0; o < g.outputs.size(); ++o) {
      out_of_[g.outputs[o].node].push_back(static_cast<int>(o));
      last_use[g.outputs[o].node] = INT_MAX;
    }
    needs_wb_.assign(n_, 0);
    for (std::size_t v = 0; v < n_; ++v)
      needs_wb_[v] = g.nodes[v].op != Op::Const && !resident(static_cast<NodeId>(v)) && last_use[v] > arrival_[v];

    // Lifetimes under the scheduler's rule (sched::lifetimes, what sched::verify checks; at least as strict as
    // hw::build's): every value with one gets a register.
    begin_.assign(n_, 0);
    end_.assign(n_, 0);
    same_writer_.assign(p.classes.size() + 1, {});
    for (const auto& lt : sched::lifetimes(p, s)) {
      values_.push_back(lt.node);
      same_writer_[dfg::is_operation(g.nodes[lt.node].op) ? s.slots[lt.node].cls + 1 : 0].push_back(lt.node);
      begin_[lt.node] = lt.begin;
      end_[lt.node] = lt.end;
    }

    // Initial state: the input binding.
    unit_.assign(n_, -1);
    reg_.assign(n_, -1);
    swap_.assign(n_, 0);
    const int horizon = s.length + 1;
    busy_.assign(U_, std::vector<NodeId>(static_cast<std::size_t>(horizon), dfg::kNoNode));
    for (NodeId v : ops_) {
      const auto& sl = s.slots[v];
      unit_[v] = unit_of_.at(sl.cls).at(sl.instance);
      for (int c = start_[v]; c < start_[v] + occupancy(v); ++c) busy_[unit_[v]][c] = v;
      if (commutative(g.nodes[v].op) && g.nodes[v].arg[0] != g.nodes[v].arg[1]) swappable_.push_back(v);
      if (p.classes[sl.cls].count > 1) movable_.push_back(v);
    }
    in_reg_.assign(R_, {});
    for (NodeId x : values_) {
      reg_[x] = s.reg.at(x);
      in_reg_.at(reg_[x]).push_back(x);
    }

    NP_ = 3 * U_ + R_ + 1;
    NS_ = U_ + R_ + C_ + 1 + static_cast<int>(g.inputs.size());  // then one source per parameter memory word
    count_.assign(static_cast<std::size_t>(NP_) * NS_, 0);
    distinct_.assign(NP_, 0);
    std::vector<Item> all;
    for (NodeId v : ops_)
      for (int k = 0; k < dfg::arity(g.nodes[v].op); ++k) all.push_back(read_item(v, k));
    for (std::size_t x = 0; x < n_; ++x)
      if (needs_wb_[x]) all.push_back(Item{Item::Write, static_cast<NodeId>(x), 0});
    for (std::size_t o = 0; o < g.outputs.size(); ++o) all.push_back(Item{Item::Out, g.outputs[o].node, static_cast<int>(o)});
    route(all, +1);
  }

  int cost() const { return cost_; }

  void anneal(long moves, std::uint64_t seed, bool units, bool registers, bool ports) {
    if (!units) movable_.clear();
    if (!registers) values_moving_ = false;
    if (!ports) swappable_.clear();
    std::mt19937_64 rng(seed);
    auto uniform = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    save_best();
    const double t0 = 1.0, t1 = 0.05;  // a move costing +1 is taken with probability e^-1 at first, ~e^-20 at the end
    for (long m = 0; m < moves; ++m) {
      const double temp = t0 * std::pow(t1 / t0, static_cast<double>(m) / static_cast<double>(moves));
      const int before = cost_;
      Undo undo;
      const double kind = uniform();
      bool made = false;
      if (kind < 0.4 && !movable_.empty()) made = move_unit(movable_[pick(movable_.size())], rng, undo);
      else if (kind < 0.85 && values_moving_ && !values_.empty()) made = move_reg(values_[pick(values_.size())], rng, undo);
      else if (!swappable_.empty()) made = swap_ports(swappable_[pick(swappable_.size())], undo);
      if (!made) continue;
      const int delta = cost_ - before;
      if (delta > 0 && uniform() >= std::exp(-delta / temp)) {
        revert(undo);
        continue;
      }
      if (cost_ < best_cost_) save_best();
    }
    unit_ = best_unit_;
    reg_ = best_reg_;
    swap_ = best_swap_;
    cost_ = best_cost_;
  }

  // The rebound schedule (registers renumbered densely in order of first use) and the port swaps.
  BoundSchedule result(int before) {
    rebuild_registers();
    BoundSchedule b;
    b.schedule = s_;
    for (NodeId v : ops_) b.schedule.slots[v].instance = unit_inst_[unit_[v]];
    std::vector<int> renum(R_, -1);
    int used = 0;
    std::vector<NodeId> order = values_;
    std::stable_sort(order.begin(), order.end(), [&](NodeId a, NodeId c) { return begin_[a] < begin_[c]; });
    // Registers that are written first (the datapath builds registers 0 .. highest written one), then those that
    // only hold values read in their arrival cycle (bypass: never written, not built).
    for (int written : {1, 0})
      for (NodeId x : order) {
        if (renum[reg_[x]] >= 0) continue;
        bool any = false;
        for (NodeId z : in_reg_[reg_[x]]) any = any || needs_wb_[z];
        if (any == (written == 1)) renum[reg_[x]] = used++;
      }
    b.schedule.reg.assign(n_, -1);
    for (NodeId x : values_) b.schedule.reg[x] = renum[reg_[x]];
    b.schedule.num_registers = used;
    b.schedule.algorithm = s_.algorithm + " + interconnect binding";
    b.swap = swap_;
    b.mux_inputs_before = before;
    b.mux_inputs = cost_;
    return b;
  }

 private:
  struct Item {
    enum Kind { Read, Write, Out } kind;
    NodeId node;  // Read: the op; Write, Out: the value
    int k;        // Read: operand index (graph order); Out: output index
    bool operator<(const Item& o) const {
      return std::tie(kind, node, k) < std::tie(o.kind, o.node, o.k);
    }
    bool operator==(const Item& o) const { return kind == o.kind && node == o.node && k == o.k; }
  };
  struct Undo {
    std::vector<Item> items;
    std::vector<std::pair<NodeId, int>> units, regs;  // (node, old unit / register)
    NodeId swapped = dfg::kNoNode;
  };

  int occupancy(NodeId v) const { return p_.classes[s_.slots[v].cls].occupancy; }
  Item read_item(NodeId v, int k) const { return Item{Item::Read, v, k}; }

  // A graph input held in the parameter memory: no register, read like a constant.
  bool resident(NodeId a) const {
    return g_.nodes[a].op == Op::Input && sched::is_resident(p_, g_.nodes[a].input);
  }
  int source_of(NodeId a, int cycle) const {
    if (g_.nodes[a].op == Op::Const) return U_ + R_ + const_of_[a];
    if (resident(a)) return U_ + R_ + C_ + 1 + static_cast<int>(g_.nodes[a].input);
    if (dfg::is_operation(g_.nodes[a].op) && arrival_[a] == cycle) return unit_[a];
    return U_ + reg_[a];
  }
  std::pair<int, int> port_src(const Item& it) const {
    switch (it.kind) {
      case Item::Read: {
        const auto& node = g_.nodes[it.node];
        const int port = node.op == Op::Neg ? 1 : (swap_[it.node] ? 1 - it.k : it.k);
        return {3 * unit_[it.node] + port, source_of(node.arg[it.k], start_[it.node])};
      }
      case Item::Write:
        return {3 * U_ + reg_[it.node],
                g_.nodes[it.node].op == Op::Input ? U_ + R_ + C_ : unit_[it.node]};
      case Item::Out: return {3 * U_ + R_, source_of(it.node, INT_MIN)};
    }
    return {0, 0};
  }
  void change(int port, int src, int delta) {
    int& c = count_[static_cast<std::size_t>(port) * NS_ + src];
    const int d0 = distinct_[port];
    if (c == 0 && delta > 0) ++distinct_[port];
    c += delta;
    if (c == 0 && delta < 0) --distinct_[port];
    cost_ += mux_cost(distinct_[port]) - mux_cost(d0);
  }
  void route(const std::vector<Item>& items, int delta) {
    for (const Item& it : items) {
      const auto [port, src] = port_src(it);
      change(port, src, delta);
    }
  }
  static void dedupe(std::vector<Item>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  // Items that depend on op v's unit: its reads, its write-back, reads of its result bus.
  void unit_items(NodeId v, std::vector<Item>& out) const {
    for (int k = 0; k < dfg::arity(g_.nodes[v].op); ++k) out.push_back(read_item(v, k));
    if (needs_wb_[v]) out.push_back(Item{Item::Write, v, 0});
    for (const auto& [w, k] : readers_[v])
      if (start_[w] == arrival_[v]) out.push_back(read_item(w, k));
  }
  // Items that depend on value x's register: its write-back, its register reads, the outputs it drives.
  void reg_items(NodeId x, std::vector<Item>& out) const {
    if (needs_wb_[x]) out.push_back(Item{Item::Write, x, 0});
    for (const auto& [w, k] : readers_[x]) out.push_back(read_item(w, k));
    for (int o : out_of_[x]) out.push_back(Item{Item::Out, x, o});
  }

  void set_reg(NodeId x, int r) {
    auto& from = in_reg_[reg_[x]];
    from.erase(std::find(from.begin(), from.end(), x));
    reg_[x] = r;
    in_reg_[r].push_back(x);
  }

  // Exchanges the ops of v's instance and another instance of its class within a window starting at v's issue
  // (one cycle half the time, else up to 16), widened until no op of either instance crosses its edges: always a
  // valid binding (the two instances' busy cycles inside the window trade places).
  bool move_unit(NodeId v, std::mt19937_64& rng, Undo& undo) {
    const auto& insts = unit_of_[s_.slots[v].cls];
    const int u = insts[rng() % insts.size()], u0 = unit_[v];
    if (u == u0) return false;
    const int horizon = static_cast<int>(busy_[u0].size());
    int lo = start_[v], hi = std::min(horizon, lo + ((rng() & 1) ? 1 : 2 + static_cast<int>(rng() % 15)));
    std::vector<NodeId> moving;
    for (bool grew = true; grew;) {
      grew = false;
      moving.clear();
      for (int unit : {u0, u})
        for (int c = lo; c < hi; ++c) {
          const NodeId w = busy_[unit][c];
          if (w == dfg::kNoNode || (!moving.empty() && moving.back() == w)) continue;
          moving.push_back(w);
          if (start_[w] < lo || start_[w] + occupancy(w) > hi) {
            lo = std::min(lo, start_[w]);
            hi = std::max(hi, start_[w] + occupancy(w));
            grew = true;
          }
        }
    }
    if (moving.size() > 32) return false;  // keep moves local
    for (NodeId w : moving) unit_items(w, undo.items);
    dedupe(undo.items);
    route(undo.items, -1);
    for (NodeId w : moving) undo.units.push_back({w, unit_[w]});
    reassign(undo.units, [&](NodeId, int old) { return old == u0 ? u : u0; });
    route(undo.items, +1);
    return true;
  }

  // Sets the unit of every op in `ops` (op, current unit) to to(op, current unit), keeping the busy table.
  template <class F>
  void reassign(const std::vector<std::pair<NodeId, int>>& ops, F to) {
    for (const auto& [w, cur] : ops)
      for (int c = start_[w]; c < start_[w] + occupancy(w); ++c) busy_[unit_[w]][c] = dfg::kNoNode;
    for (const auto& [w, cur] : ops) {
      unit_[w] = to(w, cur);
      for (int c = start_[w]; c < start_[w] + occupancy(w); ++c) busy_[unit_[w]][c] = w;
    }
  }

  // Moves value x to register r (a random one, or half the time the register of a random value written by the same
  // class of units: the moves that can empty a register write multiplexer) by exchanging the contents of x's register
  // r0 and r within the smallest time window around x that no value of either register crosses (an interval-graph
  // exchange: always compatible, since neither register holds anything across the window's edges).
  bool move_reg(NodeId x, std::mt19937_64& rng, Undo& undo) {
    const auto& peers = same_writer_[dfg::is_operation(g_.nodes[x].op) ? s_.slots[x].cls + 1 : 0];
    const int r = (rng() & 1) ? reg_[peers[rng() % peers.size()]] : static_cast<int>(rng() % static_cast<std::uint64_t>(R_));
    const int r0 = reg_[x];
    if (r == r0) return false;
    int lo = begin_[x], hi = end_[x];
    for (bool grew = true; grew;) {
      grew = false;
      for (int reg : {r0, r})
        for (NodeId z : in_reg_[reg])
          if (begin_[z] < hi && lo < end_[z] && (begin_[z] < lo || end_[z] > hi)) {
            lo = std::min(lo, begin_[z]);
            hi = std::max(hi, end_[z]);
            grew = true;
          }
    }
    std::vector<std::pair<NodeId, int>> moving;  // (value, its register now)
    for (int reg : {r0, r})
      for (NodeId z : in_reg_[reg])
        if (begin_[z] < hi && lo < end_[z]) moving.push_back({z, reg});
    if (moving.size() > 24) return false;  // keep moves local
    for (const auto& [z, reg] : moving) reg_items(z, undo.items);
    dedupe(undo.items);
    route(undo.items, -1);
    for (const auto& [z, reg] : moving) {
      undo.regs.push_back({z, reg});
      set_reg(z, reg == r0 ? r : r0);
    }
    route(undo.items, +1);
    return true;
  }

  bool swap_ports(NodeId v, Undo& undo) {
    undo.items = {read_item(v, 0), read_item(v, 1)};
    route(undo.items, -1);
    swap_[v] ^= 1;
    undo.swapped = v;
    route(undo.items, +1);
    return true;
  }

  void revert(const Undo& undo) {
    route(undo.items, -1);
    if (undo.swapped != dfg::kNoNode) swap_[undo.swapped] ^= 1;
    reassign(undo.units, [](NodeId, int old) { return old; });
    for (auto it = undo.regs.rbegin(); it != undo.regs.rend(); ++it) set_reg(it->first, it->second);
    route(undo.items, +1);
  }

  // in_reg_ after the best state was restored.
  void rebuild_registers() {
    for (auto& r : in_reg_) r.clear();
    for (NodeId x : values_) in_reg_[reg_[x]].push_back(x);
  }

  void save_best() {
    best_cost_ = cost_;
    best_unit_ = unit_;
    best_reg_ = reg_;
    best_swap_ = swap_;
  }

  const dfg::Graph& g_;
  const sched::Problem& p_;
  const sched::Schedule& s_;
  std::size_t n_;
  int U_ = 0, R_ = 0, C_ = 0, NP_ = 0, NS_ = 0;
  std::vector<std::vector<int>> unit_of_;
  std::vector<int> unit_inst_, const_of_;
  std::vector<int> arrival_, start_, begin_, end_;
  std::vector<char> needs_wb_;
  std::vector<std::vector<std::pair<NodeId, int>>> readers_;
  std::vector<std::vector<int>> out_of_;
  std::vector<std::vector<NodeId>> same_writer_;  // values by producer: inputs, then per class
  std::vector<NodeId> ops_, values_, swappable_, movable_;
  bool values_moving_ = true;
  std::vector<int> unit_, reg_;
  std::vector<char> swap_;
  std::vector<std::vector<NodeId>> busy_, in_reg_;
  std::vector<int> count_, distinct_;
  int cost_ = 0;
  int best_cost_ = 0;
  std::vector<int> best_unit_, best_reg_;
  std::vector<char> best_swap_;
};

}  // namespace

BoundSchedule bind_for_interconnect(const dfg::Graph& graph, const sched::Problem& problem,
                                    const sched::Schedule& schedule, const BindingOptions& options) {
  if (schedule.ii != 0 || problem.ii != 0)
    throw Error("--binding interconnect: streaming (modulo) schedules are not supported, latency datapaths only");
  if (schedule.reg.size() != graph.nodes.size())
    throw Error("schedule.reg: interconnect binding needs a register assignment to start from");
  if (options.register_slack_pct < 0 || options.moves_per_op < 0)
    throw Error("binding options: register_slack_pct and moves_per_op must be >= 0");
  sched::verify_or_throw(problem, schedule);
  const int live = sched::max_live(problem, schedule);
  const int limit = live + live * options.register_slack_pct / 100;
  Binder b(graph, problem, schedule, limit);
  const int before = b.cost();
  long ops = 0;
  for (const auto& node : graph.nodes) ops += dfg::is_operation(node.op) ? 1 : 0;
  b.anneal(ops * options.moves_per_op, options.seed, options.units, options.registers, options.ports);
  BoundSchedule out = b.result(before);
  sched::verify_or_throw(problem, out.schedule);
  return out;
}

void apply_port_swaps(const dfg::Graph& graph, Datapath& dp, const std::vector<char>& swap) {
  if (swap.empty()) return;
  if (swap.size() != graph.nodes.size())
    throw Error(fmt::format("binding: {} port swaps for {} nodes", swap.size(), graph.nodes.size()));
  std::vector<char> done(swap.size(), 0);
  for (Word& w : dp.program)
    for (Issue& is : w.issue) {
      if (!is.valid || is.node >= swap.size() || !swap[is.node]) continue;
      if (!commutative(graph.nodes[is.node].op))
        throw Error(fmt::format("binding: node {} ('{}') is not commutative; its ports cannot be swapped", is.node,
                                dfg::op_name(graph.nodes[is.node].op)));
      std::swap(is.a, is.b);
      done[is.node] = 1;
    }
  for (std::size_t v = 0; v < swap.size(); ++v)
    if (swap[v] && !done[v]) throw Error(fmt::format("binding: port swap for node {} which issues nowhere", v));
}

Datapath build_bound(const dfg::Graph& graph, const sched::Problem& problem, const BoundSchedule& bound,
                     const NumberFormat& format) {
  Datapath dp = build(graph, problem, bound.schedule, format);
  apply_port_swaps(graph, dp, bound.swap);
  return dp;
}

}  // namespace neaccel::hw
