// `neaccel counts`: multiplications and additions of the three Newton-Euler forms for a general n-link revolute
// arm, n = 1..nmax, measured with the Counted scalar, beside the seed papers' formulas. docs/counts.md.
// `neaccel counts --dfg --robot R`: the traced dataflow graphs of one robot (every form; general, customised and
// base-parameter flavours) beside seed 000 Table 8.5 and seed 003 Tables 9.5/9.6. docs/dfg.md.
// The tables are ref's (neaccel/ref/count_tables.hpp) and, for the graphs, dfg's (neaccel/dfg/count_tables.hpp).
#include "command.hpp"
#include "forms_report.hpp"
#include "validate.hpp"

#include "neaccel/dfg/count_tables.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/ref/count_tables.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace {

using namespace neaccel;

struct Options {
  int nmax = 12;
  bool json = false, friction = false, per_quantity = false, control = false, dfg = false;
  std::string robot;  // --dfg only (default puma560)
  std::string function = "id";  // --dfg only: dfg/functions.hpp
  std::string dh = "standard";
  std::string out;  // directory for the formulation plot (formulation-counts.svg) and data
  bool dh_given = false;
};

// Prints a table as text, or as JSON (indent 2) with --json.
void print(const ref::CountTable& t, bool json) {
  if (json)
    std::cout << t.json.dump(2) << "\n";
  else
    fmt::print("{}", t.text);
}

void run(const Options& o) {
  if (o.nmax < 1 || o.nmax > 100) throw Error("--nmax: must be in 1..100");
  if (o.control && o.dfg) throw Error("counts: --control and --dfg exclude each other");
  // Options of the N-E form tables only: with --control or --dfg they would be ignored.
  if (o.control || o.dfg) {
    const char* mode = o.control ? "--control" : "--dfg";
    if (o.dh_given) throw cli::UsageError(fmt::format("--dh: not used with {}", mode));
    if (o.friction) throw cli::UsageError(fmt::format("--friction: not used with {}", mode));
    if (o.per_quantity) throw cli::UsageError(fmt::format("--per-quantity: not used with {}", mode));
    if (!o.out.empty()) throw cli::UsageError(fmt::format("--out: not used with {}", mode));
  }
  if (o.control && !o.robot.empty()) throw cli::UsageError("--robot: not used with --control");
  // --control: the control computation of seed 004 section 4 (ref/control/counts.hpp), docs/control.md.
  if (o.control) return print(ref::control_count_table(o.nmax), o.json);
  const dfg::Function fn = dfg::function_from_name(o.function);
  if (fn != dfg::Function::Id && !o.dfg) throw Error("counts: --function needs --dfg");
  const std::string robot = o.robot.empty() ? "puma560" : o.robot;
  if (o.dfg && fn != dfg::Function::Id) return print(dfg::function_graph_count_table(robot, fn, o.nmax), o.json);
  if (o.dfg) return print(dfg::form_graph_count_table(robot), o.json);
  if (!o.robot.empty()) throw Error("counts: --robot needs --dfg");
  ref::CountOptions opt;
  if (o.dh == "modified") {
    opt.convention = ref::DhConvention::Modified;
  } else if (o.dh != "standard") {
    throw Error("--dh: unknown convention '" + o.dh + "' (expected standard or modified)");
  }
  opt.friction = o.friction;
  const ref::CountTable rows = ref::form_count_table(o.nmax, opt, o.dh, o.per_quantity);
  if (!o.json) fmt::print("{}", rows.text);
  // One row per formulation of ref/forms (general revolute arm, standard DH, no friction: the papers' case).
  std::vector<int> ns;
  for (int n = 1; n <= o.nmax; ++n) ns.push_back(n);
  const auto forms = ref::forms::formulation_counts(ns);
  if (!o.out.empty()) cli::write_forms_outputs(o.out, forms);
  if (o.json)
    std::cout << nlohmann::json{{"dh", o.dh}, {"friction", o.friction}, {"rows", rows.json},
                                {"formulations", ref::forms::count_rows_json(forms)}}
                     .dump(2)
              << "\n";
  else
    fmt::print("{}", ref::forms::count_grid_text(forms, o.nmax));
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("counts", "mul/add counts of the N-E forms, n = 1..nmax, beside the papers'");
  cmd->add_option("--nmax", o->nmax, "largest n (default 12)");
  auto* dh = cmd->add_option("--dh", o->dh, "standard | modified (default standard, as seed 000)");
  cmd->add_flag("--friction", o->friction, "include friction and rotor inertia");
  cmd->add_flag("--per-quantity", o->per_quantity, "JSON: counts per quantity (seed 000 Table 8.4/8.5 rows)");
  cmd->add_flag("--control", o->control, "the control computation of seed 004 (feedforward, A and B update)");
  cmd->add_flag("--dfg", o->dfg, "the traced dataflow graphs of --robot (every form and flavour) beside the papers");
  cmd->add_option("--robot", o->robot, "with --dfg: robot name or file (default puma560)");
  cmd->add_option("--function", o->function, "with --dfg: id | fd | fd-khalil | fd-strobe | mass | dtau (default id)");
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->add_option("--out", o->out, "directory for formulation-counts.{json,dat,gp,svg} (plot of mul against n)");
  cmd->callback([o, dh] {
    o->dh_given = dh->count() > 0;
    run(*o);
  });
}

}  // namespace

NEACCEL_COMMAND(counts, 23, setup)
