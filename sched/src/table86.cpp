#include "neaccel/sched/table86.hpp"

#include "neaccel/dfg/lookahead.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace neaccel::sched {

ref::Robot general_arm(int n) {
  if (n < 1) throw Error(fmt::format("general arm: n = {} (need >= 1)", n));
  const ref::Robot puma = ref::load_robot("puma560");
  ref::Robot r = puma;
  r.name = fmt::format("general{}", n);
  r.source = fmt::format("general_arm({})", n);
  r.payload.reset();
  r.links.clear();
  for (int i = 0; i < n; ++i) {
    ref::Link l = puma.links[static_cast<std::size_t>(i % puma.dof())];
    l.parent = i - 1;
    l.name = fmt::format("link{}", i + 1);
    l.Ia = l.Fv = l.Fc = 0;
    r.links.push_back(l);
  }
  return r;
}

StepAccount table86_accounting(const dfg::Graph& g, int n) {
  std::map<std::pair<std::string, int>, std::pair<int, int>> c;  // (quantity, link) -> (mul, add)
  for (const auto& node : g.nodes) {
    const bool mul = node.op == dfg::Op::Mul, add = node.op == dfg::Op::Add || node.op == dfg::Op::Sub;
    if (!mul && !add) continue;
    const auto& p = g.provenance[node.prov];
    auto& e = c[{p.quantity, p.link}];
    (mul ? e.first : e.second) += 1;
  }
  auto get = [&](const char* q, int link, bool mul) {
    const auto it = c.find({q, link});
    return it == c.end() ? 0 : (mul ? it->second.first : it->second.second);
  };
  const char* known[] = {"omega", "alpha", "A", "a", "m abar", "Tr{A K Q}", "m(r+rbar) x abar", "f", "add n", "r x R f", "R n"};
  StepAccount s;
  for (const auto& [k, v] : c) {
    const bool in_table = std::any_of(std::begin(known), std::end(known), [&](const char* q) { return k.first == q; });
    if (!in_table || k.second < 1) {
      s.other_mul += v.first;
      s.other_add += v.second;
    }
  }
  for (bool mul : {true, false}) {
    int steps = get("omega", 1, mul) + get("alpha", 1, mul) + get("A", 1, mul) + get("omega", 2, mul) + get("alpha", 2, mul);
    for (int i = 1; i <= n; ++i) {
      steps += std::max({get("omega", i + 2, mul), get("alpha", i + 2, mul), get("A", i + 1, mul), get("a", i, mul),
                         get("m abar", i, mul), get("Tr{A K Q}", i, mul), get("m(r+rbar) x abar", i - 1, mul)});
      steps += std::max({get("f", i, mul), get("add n", i, mul), get("r x R f", i, mul), get("R n", i, mul)});
    }
    (mul ? s.mul_steps : s.add_steps) = steps;
  }
  return s;
}

namespace {
std::pair<int, int> schedule_on(const dfg::Graph& g, int lat_mul, int lat_add) {
  Problem p;
  p.graph = &g;
  p.classes = default_classes(7, 7, lat_mul, lat_add);
  check(p);
  ListOptions o;
  o.restarts = 16;
  auto s = list_schedule(p, o);
  verify_or_throw(p, s);
  return {s.length, s.lower_bound};
}
}  // namespace

Table86Row table86_row(int n, bool depth, bool lookahead) {
  const ref::Robot robot = general_arm(n);
  const dfg::Graph g = dfg::customise(dfg::trace_algorithm(
      robot, dfg::Flavour::General, dfg::TraceOptions{}, [](const auto& m, const auto& in) { return ref::modified_ne(m, in); }));
  Table86Row r;
  r.n = n;
  r.paper_mul_steps = 27 * n + 42;
  r.paper_add_steps = 27 * n + 41;
  r.ours = table86_accounting(g, n);
  const auto counts = dfg::count_ops(g);
  r.mul_ops = counts.mul();
  r.add_ops = counts.add();
  // The depth pass at several operation budgets; each candidate is scheduled and the shortest schedule kept
  // (ties: fewer operations). The long chains of large n pay for more operations; the table reports them.
  struct Best {
    int cycles = 0, bound = 0, ops = 0, lookahead = 1, project = 0;
    bool dense = false;
  };
  // With lookahead, the lookahead forms of the recursion (dfg/lookahead.hpp) are candidates too, at the same
  // budgets: the torques of the first P = 2, 3 links projected over the links up to P + 1 (a few operations take
  // the backward chain's tail off the path), and the chains stepped by the dense rotation matrices (one product and
  // two sums per link instead of two rotations, the twist being an input) with P = 0, 2, 3. Lookahead over K >= 2
  // links costs more operations than 7 + 7 units absorb at these sizes (docs/scheduling.md) and is not tried.
  struct Shape {
    int K, project;
    bool dense;
    dfg::Graph g;
  };
  std::vector<Shape> shapes{{1, 0, false, g}};
  if (depth && lookahead) {
    auto add = [&](int K, int P, bool dense) {
      shapes.push_back({K, P, dense, dfg::customise(dfg::trace_lookahead(robot, dfg::Flavour::General, K, {}, 31, P, dense))});
    };
    for (int P : {2, 3})
      if (P < n) add(1, P, false);
    for (int P : {0, 2, 3})
      if (P < n) add(1, P, true);
  }
  auto best_of = [&](int lat_mul, int lat_add) {
    Best best;
    for (const Shape& shape : shapes)
      for (double budget : {0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.45, 0.6}) {
        dfg::DepthSetting d;
        d.on = depth;
        d.lat = {lat_mul, lat_add, 0};
        d.budget = budget;
        const dfg::Graph c = apply_depth(shape.g, d);
        const auto [cycles, bound] = schedule_on(c, lat_mul, lat_add);
        const int ops = dfg::count_ops(c).operations();
        if (best.ops == 0 || cycles < best.cycles || (cycles == best.cycles && ops < best.ops))
          best = {cycles, bound, ops, shape.K, shape.project, shape.dense};
        if (!depth) break;
      }
    return best;
  };
  const Best unit = best_of(1, 1), pipe = best_of(3, 2);
  r.depth = depth;
  r.unit_ops = unit.ops;
  r.pipe_ops = pipe.ops;
  r.unit_lookahead = unit.lookahead;
  r.pipe_lookahead = pipe.lookahead;
  r.unit_project = unit.project;
  r.pipe_project = pipe.project;
  r.unit_dense = unit.dense;
  r.pipe_dense = pipe.dense;
  std::tie(r.unit_cycles, r.unit_bound) = std::make_pair(unit.cycles, unit.bound);
  std::tie(r.pipe_cycles, r.pipe_bound) = std::make_pair(pipe.cycles, pipe.bound);
  r.pipe_cycles_traced = depth ? schedule_on(g, 3, 2).first : r.pipe_cycles;
  r.unit_cycles_traced = depth ? schedule_on(g, 1, 1).first : r.unit_cycles;
  r.rahman_meyer = 69 + 12 * n;
  r.hashimoto_kimura = 60 * n + 193;
  return r;
}

std::string table86_markdown(const std::vector<Table86Row>& rows) {
  std::string t =
      "| n | paper mul/add steps (27n+42 / 27n+41) | our accounting mul/add steps | graph mul/add ops (paper 90n-27 / "
      "88n-24) | 7+7 units lat 1: cycles (bound) | 7+7 pipelined lat 3/2: cycles (bound) | Rahman-Meyer 69+12n | "
      "Hashimoto-Kimura 60n+193 | depth pass: ops scheduled lat 1/1, 3/2 | lat 3/2 cycles without the pass |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& r : rows)
    t += fmt::format("| {} | {} / {} | {} / {} | {} / {} ({} / {}) | {} ({}) | {} ({}) | {} | {} | {} | {} |\n", r.n,
                     r.paper_mul_steps, r.paper_add_steps, r.ours.mul_steps, r.ours.add_steps, r.mul_ops, r.add_ops,
                     90 * r.n - 27, 88 * r.n - 24, r.unit_cycles, r.unit_bound, r.pipe_cycles, r.pipe_bound,
                     r.rahman_meyer, r.hashimoto_kimura,
                     r.depth ? fmt::format("on: {}, {}", r.unit_ops, r.pipe_ops) : std::string("off"),
                     r.pipe_cycles_traced);
  return t;
}

}  // namespace neaccel::sched
