// verify(): checks a schedule against its problem, written independently of every algorithm (it does not use
// the algorithms' adjacency or bounds, only the graph and the slots).
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <set>
#include <utility>

namespace neaccel::sched {
using dfg::is_operation;
namespace {

using dfg::NodeId;

struct Checker {
  const Problem& p;
  const Schedule& s;
  std::size_t max_messages;
  std::vector<std::string> out;
  std::size_t omitted = 0;

  void add(std::string msg) {
    if (out.size() < max_messages) out.push_back(std::move(msg));
    else ++omitted;
  }
  const dfg::Node& node(std::size_t v) const { return p.graph->nodes[v]; }
  bool slot_ok(std::size_t v) const {  // op with a usable class
    return s.slots[v].cls >= 0 && s.slots[v].cls < static_cast<int>(p.classes.size());
  }
  int ready(std::size_t v) const {  // cycle the node's value is usable
    if (node(v).op == dfg::Op::Input) return input_release(p, node(v).input);  // loaded while the recursion runs
    if (!is_operation(node(v).op)) return 0;
    return s.slots[v].start + (slot_ok(v) ? p.classes[s.slots[v].cls].latency : 0);
  }
  // Cycle -> congruence class when ii > 0.
  int fold(int c) const { return s.ii > 0 ? ((c % s.ii) + s.ii) % s.ii : c; }

  void placement() {
    for (std::size_t v = 0; v < s.slots.size(); ++v) {
      const auto& sl = s.slots[v];
      const auto op = node(v).op;
      if (!is_operation(op)) {
        if (sl.cls != -1 || sl.start != 0)
          add(fmt::format("placement: node {} ({}) must have cls -1 and start 0", v, dfg::op_name(op)));
        continue;
      }
      if (sl.start < 0) add(fmt::format("placement: node {} ({}) starts at negative cycle {}", v, dfg::op_name(op), sl.start));
      if (!slot_ok(v)) {
        add(fmt::format("binding: node {} ({}) has no valid class (cls {})", v, dfg::op_name(op), sl.cls));
        continue;
      }
      const auto& u = p.classes[sl.cls];
      if (std::find(u.ops.begin(), u.ops.end(), op) == u.ops.end())
        add(fmt::format("binding: node {} ({}) bound to class '{}' which does not execute it", v, dfg::op_name(op), u.name));
      if (sl.instance < 0 || sl.instance >= u.count)
        add(fmt::format("binding: node {} bound to instance {} of class '{}' (count {})", v, sl.instance, u.name, u.count));
    }
  }

  void dependences() {
    for (std::size_t v = 0; v < s.slots.size(); ++v) {
      if (!is_operation(node(v).op)) continue;
      for (int k = 0; k < dfg::arity(node(v).op); ++k) {
        const NodeId a = node(v).arg[k];
        if (ready(a) > s.slots[v].start)
          add(fmt::format("dependence: node {} ({}) starts at {} but operand node {} {} at {}", v,
                          dfg::op_name(node(v).op), s.slots[v].start, a,
                          node(a).op == dfg::Op::Input ? fmt::format("(input '{}') arrives", p.graph->inputs[node(a).input])
                                                       : std::string("is ready"),
                          ready(a)));
      }
    }
  }

  void unit_use() {
    // (class, instance, cycle or congruence class) -> the op occupying it. Hashed: starts may be anything.
    std::unordered_map<std::uint64_t, std::size_t> busy;
    busy.reserve(s.slots.size() * 2);
    for (std::size_t v = 0; v < s.slots.size(); ++v) {
      if (!is_operation(node(v).op) || !slot_ok(v)) continue;
      const auto& sl = s.slots[v];
      const auto& u = p.classes[sl.cls];
      if (sl.instance < 0 || sl.instance >= u.count || sl.start < 0) continue;  // reported by placement()
      if (s.ii > 0 && u.occupancy > s.ii)
        add(fmt::format("unit use: node {} occupies class '{}' for {} cycles, more than ii = {}", v, u.name, u.occupancy, s.ii));
      for (int k = 0; k < std::min(u.occupancy, s.ii > 0 ? s.ii : u.occupancy); ++k) {
        const int at = fold(sl.start + k);
        const std::uint64_t key = (static_cast<std::uint64_t>(sl.cls) << 56) ^
                                  (static_cast<std::uint64_t>(sl.instance) << 32) ^ static_cast<std::uint32_t>(at);
        const auto [it, fresh] = busy.emplace(key, v);
        if (!fresh)
          add(fmt::format("unit use: nodes {} and {} both use instance {} of class '{}' at {} {}", it->second, v,
                          sl.instance, u.name, s.ii > 0 ? "congruence class" : "cycle", at));
      }
    }
  }

  void length() {
    int len = 0;
    for (std::size_t v = 0; v < s.slots.size(); ++v)
      if (is_operation(node(v).op)) len = std::max(len, ready(v));
    if (len != s.length) add(fmt::format("length: reported {} but max over ops of start + latency is {}", s.length, len));
    for (const auto& o : p.graph->outputs)
      if (o.node < s.slots.size() && is_operation(node(o.node).op) && ready(o.node) > s.length)
        add(fmt::format("length: output '{}' (node {}) ready at {} after the reported length {}", o.name, o.node,
                        ready(o.node), s.length));
  }

  void registers(const std::vector<Lifetime>& lts) {
    if (s.reg.size() != s.slots.size()) {
      add(fmt::format("registers: reg has {} entries for {} nodes", s.reg.size(), s.slots.size()));
      return;
    }
    if (p.max_registers > 0 && s.num_registers > p.max_registers)
      add(fmt::format("registers: {} registers used, limit {}", s.num_registers, p.max_registers));
    std::unordered_map<std::uint64_t, NodeId> held;  // ii > 0: (register, congruence class) -> value
    std::vector<std::tuple<int, int, int, NodeId>> spans;  // ii == 0: (register, begin, end, value)
    for (const auto& lt : lts) {
      const int r = s.reg[lt.node];
      if (r < 0 || r >= s.num_registers) {
        add(fmt::format("registers: node {} needs a register over [{}, {}) but has reg {} (num_registers {})", lt.node,
                        lt.begin, lt.end, r, s.num_registers));
        continue;
      }
      if (s.ii > 0 && lt.end - lt.begin > s.ii)
        add(fmt::format("registers: node {} lives {} cycles in register {}, longer than ii = {} (overwritten by the next "
                        "evaluation)", lt.node, lt.end - lt.begin, r, s.ii));
      if (s.ii == 0) {
        spans.emplace_back(r, lt.begin, lt.end, lt.node);
        continue;
      }
      for (int c = lt.begin; c < lt.begin + std::min(lt.end - lt.begin, s.ii); ++c) {
        const int at = fold(c);
        const auto [it, fresh] =
            held.emplace((static_cast<std::uint64_t>(r) << 32) ^ static_cast<std::uint32_t>(at), lt.node);
        if (!fresh) {
          add(fmt::format("registers: nodes {} and {} overlap in register {} at {} {}", it->second, lt.node, r,
                          s.ii > 0 ? "congruence class" : "cycle", at));
          break;
        }
      }
    }
    std::sort(spans.begin(), spans.end());  // by register, then begin: neighbours must not overlap
    for (std::size_t k = 1; k < spans.size(); ++k) {
      const auto& [r0, b0, e0, v0] = spans[k - 1];
      const auto& [r1, b1, e1, v1] = spans[k];
      if (r0 == r1 && b1 < e0)
        add(fmt::format("registers: nodes {} and {} overlap in register {} at cycle {}", v0, v1, r1, b1));
      (void)b0;
      (void)e1;
    }
  }

  // A modulo schedule without a register assignment: the values alive in each congruence class, summed over the
  // overlapping evaluations, are the registers modulo variable expansion needs at least; they must fit the limit.
  void modulo_live(const std::vector<Lifetime>& lts) {
    std::vector<int> live(static_cast<std::size_t>(s.ii), 0);
    for (const auto& lt : lts)
      for (int c = lt.begin; c < lt.end; ++c) ++live[static_cast<std::size_t>(fold(c))];
    for (int r = 0; r < s.ii; ++r)
      if (live[static_cast<std::size_t>(r)] > p.max_registers) {
        add(fmt::format("registers: {} values alive at congruence class {} (modulo variable expansion needs as many "
                        "registers), limit {}", live[static_cast<std::size_t>(r)], r, p.max_registers));
        return;
      }
  }

  void ports(const std::vector<Lifetime>& lts) {
    if (p.read_ports > 0) {
      // (cycle or congruence class) -> distinct (value, absolute cycle) pairs read: ops of one evaluation reading a
      // value in the same cycle share the read; with ii > 0 the reads at cycles t and t + k * ii are reads of
      // different evaluations' copies in one physical cycle, so they count apart.
      std::map<int, std::set<std::pair<NodeId, int>>> reads;
      for (std::size_t v = 0; v < s.slots.size(); ++v) {
        if (!is_operation(node(v).op)) continue;
        for (int k = 0; k < dfg::arity(node(v).op); ++k)
          if (node(node(v).arg[k]).op != dfg::Op::Const &&
              !(node(node(v).arg[k]).op == dfg::Op::Input && is_resident(p, node(node(v).arg[k]).input)))
            reads[fold(s.slots[v].start)].emplace(node(v).arg[k], s.slots[v].start);
      }
      for (const auto& [c, vals] : reads)
        if (static_cast<int>(vals.size()) > p.read_ports)
          add(fmt::format("ports: {} register reads at {} {}, limit {}", vals.size(), s.ii > 0 ? "congruence class" : "cycle",
                          c, p.read_ports));
    }
    if (p.write_ports > 0) {
      std::map<int, int> writes;
      for (const auto& lt : lts)
        if (is_operation(node(lt.node).op)) ++writes[fold(lt.begin)];
      for (const auto& [c, k] : writes)
        if (k > p.write_ports)
          add(fmt::format("ports: {} register writes at {} {}, limit {}", k, s.ii > 0 ? "congruence class" : "cycle", c,
                          p.write_ports));
    }
  }

  void run() {
    if (p.graph == nullptr) {
      add("problem: no graph");
      return;
    }
    if (s.slots.size() != p.graph->nodes.size()) {
      add(fmt::format("slots: {} slots for {} graph nodes", s.slots.size(), p.graph->nodes.size()));
      return;
    }
    if (s.ii != p.ii) add(fmt::format("ii: schedule has ii {} but the problem asks for {}", s.ii, p.ii));
    if (s.ii < 0) {
      add(fmt::format("ii: negative ({})", s.ii));
      return;
    }
    placement();
    dependences();
    unit_use();
    length();
    std::vector<Lifetime> lts;
    if (!s.reg.empty() || p.max_registers > 0 || p.read_ports > 0 || p.write_ports > 0) lts = lifetimes(p, s);
    if (s.ii > 0 && s.reg.empty()) {
      if (p.max_registers > 0) modulo_live(lts);  // no assignment (modulo variable expansion): the count it needs
    } else if (!s.reg.empty() || p.max_registers > 0) {
      registers(lts);
    }
    ports(lts);
    if (omitted > 0) out.push_back(fmt::format("... and {} more violations", omitted));
  }
};

}  // namespace

std::vector<std::string> verify(const Problem& problem, const Schedule& schedule, std::size_t max_messages) {
  Checker c{problem, schedule, std::max<std::size_t>(max_messages, 1), {}, 0};
  c.run();
  return c.out;
}

void verify_or_throw(const Problem& problem, const Schedule& schedule) {
  const auto v = verify(problem, schedule, 1000000);
  if (!v.empty())
    throw Error(fmt::format("schedule ({}) fails verification: {}{}", schedule.algorithm, v.front(),
                            v.size() > 1 ? fmt::format(" (and {} more)", v.size() - 1) : std::string()));
}

}  // namespace neaccel::sched
