// Stage 3: the dataflow graphs of the robot, general and customised, beside the papers' counts.
#include "context.hpp"

#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
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

// The cleaned graph of the study's function for one flavour, as `neaccel explore/rtl --function` trace
// it (id: dfg::robot_graph, the modified Newton-Euler recursion).
dfg::Graph function_graph(const Context& ctx, bool general) {
  const dfg::Function fn = dfg::function_from_name(ctx.opt.function);
  if (fn == dfg::Function::Id) return dfg::robot_graph(ctx.opt.robot, general);
  return dfg::customise(dfg::trace_function(ctx.robot, fn, dfg::Form::ModifiedNE,
                                            general ? dfg::Flavour::General : dfg::Flavour::Custom));
}

// The papers' counts of the function at this robot's n (docs/functions.md), two rows (source, mul, add).
json paper_counts(const std::string& function, int n) {
  if (function == "fd" || function == "fd-khalil")
    return {{"table85", {{"source", "seed 001, O(n) forward dynamics (258n-119 / 191n-83)"}, {"mul", 258 * n - 119},
                         {"add", 191 * n - 83}}},
            {"khalil", {{"source", "(seed 001's count is for the general arm)"}, {"mul", nullptr}, {"add", nullptr}}}};
  if (function == "fd-strobe" || function == "mass")
    return {{"table85", {{"source", "seed 000 section 9, M by strobing (36n(n+1) / 26n(n+1))"},
                         {"mul", 36 * n * (n + 1)}, {"add", 26 * n * (n + 1)}}},
            {"khalil", {{"source", function == "mass" ? "(M alone)" : "(strobing only: h and the LDL^T solve add to it)"},
                        {"mul", nullptr}, {"add", nullptr}}}};
  if (function == "dtau")
    return {{"table85", {{"source", "(no paper count of tau with its derivatives; docs/functions.md)"}, {"mul", nullptr},
                         {"add", nullptr}}},
            {"khalil", {{"source", "seed 000 Table 8.5 for tau alone (90n-27 / 88n-24)"}, {"mul", 90 * n - 27},
                        {"add", 88 * n - 24}}}};
  return {{"table85", {{"source", "seed 000 Table 8.5 (90n-27 / 88n-24)"}, {"mul", 90 * n - 27}, {"add", 88 * n - 24}}},
          {"khalil", {{"source", "seed 003 Table 9.5, Khalil 87b (92n-127 / 81n-117)"},
                      {"mul", 92 * n - 127}, {"add", 81 * n - 117}}}};
}
}  // namespace

void stage_graphs(Context& ctx) {
  ctx.progress.stage("Dataflow graphs");
  const int n = ctx.robot.dof();
  ctx.graphs["general"] = function_graph(ctx, true);
  ctx.graphs["custom"] = function_graph(ctx, false);
  json graphs = json::object();
  for (const auto& [name, g] : ctx.graphs) graphs[name] = counts_json(g);
  // Seed 000 Table 8.5 (modified N-E, general hardware) and seed 003 Table 9.5 (Khalil 87b, customised with base
  // parameters; n > 2) at this robot's n.
  // Other functions: the papers' formulas docs/functions.md cites for them.
  json papers = paper_counts(ctx.opt.function, n);
  json data = {{"robot", ctx.robot.name}, {"n", n}, {"graphs", graphs}, {"papers", papers}};
  if (ctx.opt.function != "id") {
    data["function"] = ctx.opt.function;
    for (const auto& [name, g] : ctx.graphs) data["graphs"][name]["div"] = dfg::count_ops(g).of(dfg::Op::Div);
  }
  ctx.data.put("graphs", data);

  Report& r = ctx.report;
  r.heading(2, "3. Dataflow graphs" + function_suffix(ctx.opt.function));
  if (ctx.opt.function != "id")
    r.para("Function `{}` (docs/functions.md): traced from the same templated recursions the reference uses, with the "
           "graph scalar; {} divisions in the general graph, {} in the customised one. The rows below the graphs are "
           "the papers' counts docs/functions.md compares with.",
           {r.num("graphs", "/function"), r.num("graphs", "/graphs/general/div"), r.num("graphs", "/graphs/custom/div")});
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
