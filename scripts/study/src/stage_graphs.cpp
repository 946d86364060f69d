// Stage 3: the dataflow graphs of the robot, general and customised, beside the papers' counts.
#include "context.hpp"

#include "neaccel/sched/source.hpp"

#include <fmt/format.h>

namespace neaccel::study {

namespace {
using nlohmann::json;

json counts_json(const dfg::Graph& g) {
  const dfg::OpCounts c = dfg::count_ops(g);
  json by_quantity = json::object();
  for (const auto& [q, k] : dfg::count_by_quantity(g))
    by_quantity[q.empty() ? "(none)" : q] = {{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}};
  return {{"inputs", g.inputs.size()}, {"nodes", g.nodes.size()}, {"operations", c.operations()}, {"mul", c.mul()},
          {"add", c.add()}, {"neg", c.neg()}, {"by_quantity", by_quantity}};
}
}  // namespace

void stage_graphs(Context& ctx) {
  ctx.progress.stage("Dataflow graphs");
  const int n = ctx.robot.dof();
  ctx.graphs["general"] = sched::robot_graph(ctx.opt.robot, true);
  ctx.graphs["custom"] = sched::robot_graph(ctx.opt.robot, false);
  json graphs = json::object();
  for (const auto& [name, g] : ctx.graphs) graphs[name] = counts_json(g);
  // Seed 000 Table 8.5 (modified N-E, general hardware) and seed 003 Table 9.5 (Khalil 87b, customised with base
  // parameters; n > 2) at this robot's n.
  json papers = {{"table85", {{"source", "seed 000 Table 8.5 (90n-27 / 88n-24)"}, {"mul", 90 * n - 27}, {"add", 88 * n - 24}}},
                 {"khalil", {{"source", "seed 003 Table 9.5, Khalil 87b (92n-127 / 81n-117)"},
                             {"mul", 92 * n - 127}, {"add", 81 * n - 117}}}};
  ctx.data.put("graphs", {{"robot", ctx.robot.name}, {"n", n}, {"graphs", graphs}, {"papers", papers}});

  Report& r = ctx.report;
  r.heading(2, "3. Dataflow graphs");
  r.para("The modified Newton-Euler recursion is traced with the graph scalar (`dfg::Value`) from the same templated "
         "code the reference runs, then cleaned by constant folding, common-subexpression elimination and dead-code "
         "elimination to a fixpoint. General: every robot parameter is a run-time input (one datapath for every "
         "robot of this shape). Customised: the parameters of `{}` are folded in.",
         {r.num("graphs", "/robot")});
  r.table({"graph", "inputs", "operations", "mul", "add", "neg"},
          {{Report::label("general"), r.num("graphs", "/graphs/general/inputs"), r.num("graphs", "/graphs/general/operations"),
            r.num("graphs", "/graphs/general/mul"), r.num("graphs", "/graphs/general/add"), r.num("graphs", "/graphs/general/neg")},
           {Report::label("customised"), r.num("graphs", "/graphs/custom/inputs"), r.num("graphs", "/graphs/custom/operations"),
            r.num("graphs", "/graphs/custom/mul"), r.num("graphs", "/graphs/custom/add"), r.num("graphs", "/graphs/custom/neg")},
           {r.num("graphs", "/papers/table85/source"), Report::label(""), Report::label(""),
            r.num("graphs", "/papers/table85/mul"), r.num("graphs", "/papers/table85/add"), Report::label("")},
           {r.num("graphs", "/papers/khalil/source"), Report::label(""), Report::label(""),
            r.num("graphs", "/papers/khalil/mul"), r.num("graphs", "/papers/khalil/add"), Report::label("")}});
  const auto& gc = graphs["general"];
  const auto& cc = graphs["custom"];
  ctx.progress.done(fmt::format("general {} mul / {} add, customised {} / {}", gc["mul"].get<int>(),
                                gc["add"].get<int>(), cc["mul"].get<int>(), cc["add"].get<int>()));
}

}  // namespace neaccel::study
