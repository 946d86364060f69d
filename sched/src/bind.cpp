// Binding of ops to unit instances and register allocation (left edge).
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace neaccel::sched {
using dfg::is_operation;
namespace {

int fold(int c, int ii) { return ((c % ii) + ii) % ii; }

// Ops of class c ordered by (start, node id).
std::vector<dfg::NodeId> ops_of(const Problem& p, const Schedule& s, int c) {
  std::vector<dfg::NodeId> v;
  for (std::size_t i = 0; i < s.slots.size(); ++i)
    if (is_operation(p.graph->nodes[i].op) && s.slots[i].cls == c) v.push_back(static_cast<dfg::NodeId>(i));
  std::stable_sort(v.begin(), v.end(), [&](auto a, auto b) { return s.slots[a].start < s.slots[b].start; });
  return v;
}

}  // namespace

void bind_units(const Problem& p, Schedule& s) {
  for (std::size_t c = 0; c < p.classes.size(); ++c) {
    const auto& u = p.classes[c];
    const auto ops = ops_of(p, s, static_cast<int>(c));
    if (s.ii == 0) {
      std::vector<int> free_at(u.count, 0);
      for (auto v : ops) {
        auto it = std::find_if(free_at.begin(), free_at.end(), [&](int f) { return f <= s.slots[v].start; });
        if (it == free_at.end())
          throw Error(fmt::format("bind: class '{}' has no free instance at cycle {} (node {})", u.name,
                                  s.slots[v].start, v));
        s.slots[v].instance = static_cast<int>(it - free_at.begin());
        *it = s.slots[v].start + u.occupancy;
      }
      continue;
    }
    if (u.occupancy > s.ii)
      throw Error(fmt::format("bind: class '{}' occupancy {} exceeds ii {}", u.name, u.occupancy, s.ii));
    std::vector<std::vector<char>> mrt(u.count, std::vector<char>(s.ii, 0));
    for (auto v : ops) {
      bool placed = false;
      for (int i = 0; i < u.count && !placed; ++i) {
        bool ok = true;
        for (int k = 0; k < u.occupancy && ok; ++k) ok = !mrt[i][fold(s.slots[v].start + k, s.ii)];
        if (!ok) continue;
        for (int k = 0; k < u.occupancy; ++k) mrt[i][fold(s.slots[v].start + k, s.ii)] = 1;
        s.slots[v].instance = i;
        placed = true;
      }
      if (!placed)
        throw Error(fmt::format("bind: class '{}' has no free instance at congruence class {} (node {})", u.name,
                                fold(s.slots[v].start, s.ii), v));
    }
  }
}

void allocate_registers(const Problem& p, Schedule& s) {
  auto lts = lifetimes(p, s);
  std::stable_sort(lts.begin(), lts.end(), [](const Lifetime& a, const Lifetime& b) { return a.begin < b.begin; });
  s.reg.assign(s.slots.size(), -1);
  int nreg = 0;
  if (s.ii == 0) {
    using Busy = std::pair<int, int>;  // (end, register)
    std::priority_queue<Busy, std::vector<Busy>, std::greater<Busy>> busy;
    std::priority_queue<int, std::vector<int>, std::greater<int>> free_regs;
    for (const auto& lt : lts) {
      while (!busy.empty() && busy.top().first <= lt.begin) {
        free_regs.push(busy.top().second);
        busy.pop();
      }
      int r;
      if (free_regs.empty()) r = nreg++;
      else {
        r = free_regs.top();
        free_regs.pop();
      }
      s.reg[lt.node] = r;
      busy.emplace(lt.end, r);
    }
  } else {
    std::vector<std::vector<char>> used;  // register -> congruence classes held
    for (const auto& lt : lts) {
      if (lt.end - lt.begin > s.ii)
        throw Error(fmt::format("registers: node {} lives {} cycles > ii {} (needs modulo variable expansion, not "
                                "supported)", lt.node, lt.end - lt.begin, s.ii));
      auto fits = [&](const std::vector<char>& m) {
        for (int c = lt.begin; c < lt.end; ++c)
          if (m[fold(c, s.ii)]) return false;
        return true;
      };
      std::size_t r = 0;
      while (r < used.size() && !fits(used[r])) ++r;
      if (r == used.size()) used.emplace_back(s.ii, 0);
      for (int c = lt.begin; c < lt.end; ++c) used[r][fold(c, s.ii)] = 1;
      s.reg[lt.node] = static_cast<int>(r);
    }
    nreg = static_cast<int>(used.size());
  }
  s.num_registers = nreg;
}

int max_live(const Problem& p, const Schedule& s) {
  const auto lts = lifetimes(p, s);
  int horizon = 0;
  for (const auto& lt : lts) horizon = std::max(horizon, lt.end);
  const int period = s.ii > 0 ? s.ii : horizon;
  std::vector<int> live(static_cast<std::size_t>(std::max(period, 1)) + 1, 0);
  for (const auto& lt : lts)
    for (int c = lt.begin; c < lt.end; ++c) ++live[s.ii > 0 ? fold(c, s.ii) : c];
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

}  // namespace neaccel::sched
