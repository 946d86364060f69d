// `neaccel counts`: multiplications and additions of the three Newton-Euler forms for a general n-link revolute
// arm, n = 1..nmax, measured with the Counted scalar, beside the seed papers' formulas. docs/counts.md.
// `neaccel counts --dfg --robot R`: the traced dataflow graphs of one robot (every form; general, customised and
// base-parameter flavours) beside seed 000 Table 8.5 and seed 003 Tables 9.5/9.6. docs/dfg.md.
#include "command.hpp"
#include "forms_report.hpp"

#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/control/counts.hpp"
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

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
};

nlohmann::json counts_json(const ref::OpCounts& c) { return {{"mul", c.mul}, {"add", c.add}, {"neg", c.neg}}; }

// --control: the control computation of seed 004 section 4 (ref/control/counts.hpp), docs/control.md.
void run_control_counts(const Options& o) {
  nlohmann::json rows = nlohmann::json::array();
  if (!o.json)
    fmt::print("Control computation (seed 004 sec 4), general n-link revolute arm: ours (mul/add) and seed 004's\n");
  for (int n = 1; n <= o.nmax; ++n) {
    for (const ref::control::ControlCountRow& r : ref::control::control_counts(n)) {
      rows.push_back({{"n", n}, {"what", r.what}, {"method", r.method}, {"ours", counts_json(r.ours)},
                      {"paper", r.paper}, {"paper_mul", r.paper_mul}, {"paper_add", r.paper_add}});
      if (!o.json)
        fmt::print("{:>3} {:<18} {:>13}  {}\n", n, r.what, fmt::format("{}/{}", r.ours.mul, r.ours.add),
                   r.paper.empty() ? r.method : r.paper);
    }
  }
  if (o.json) std::cout << nlohmann::json{{"control", rows}}.dump(2) << "\n";
}

// --dfg: one robot's traced graphs. Columns: the general graph (every parameter an input) untouched and after
// fold/CSE/DCE, the customised graph (parameters folded), and the customised graph in base parameters (forms linear
// in the parameters only: khalil, khalil-k, khalil-mix).
nlohmann::json dfg_counts_json(const dfg::Graph& g) {
  const dfg::OpCounts k = dfg::count_ops(g);
  return {{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}};
}

std::string mul_add(const nlohmann::json& j) {
  return j.is_null() ? "-" : fmt::format("{}/{}", j["mul"].get<long>(), j["add"].get<long>());
}

// The papers' counts that apply to this robot: Table 8.5 (general modified N-E hardware), Khalil 87b's base-
// parameter formula (Table 9.5, n > 2), and Table 9.6 when the robot is the RX-90 (general or simplified inertia).
nlohmann::json dfg_paper_rows(const std::string& robot, int n) {
  nlohmann::json rows = nlohmann::json::array();
  rows.push_back({{"source", "seed 000 Table 8.5 (90n-27 / 88n-24), general"}, {"column", "general"},
                  {"mul", 90 * n - 27}, {"add", 88 * n - 24}});
  if (n > 2)
    rows.push_back({{"source", "seed 003 Table 9.5, Khalil 87b (92n-127 / 81n-117), base"}, {"column", "base"},
                    {"mul", 92 * n - 127}, {"add", 81 * n - 117}});
  if (robot == "rx90") {
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 general inertia, standard"}, {"column", "custom"},
                    {"mul", 294}, {"add", 283}});
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 general inertia, base"}, {"column", "base"},
                    {"mul", 253}, {"add", 238}});
  } else if (robot == "rx90-simplified") {
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 simplified inertia, standard"}, {"column", "custom"},
                    {"mul", 202}, {"add", 153}});
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 simplified inertia, base"}, {"column", "base"},
                    {"mul", 160}, {"add", 113}});
  }
  return rows;
}

void run_dfg_counts(const Options& o) {
  const std::string name = o.robot.empty() ? "puma560" : o.robot;
  const ref::Robot robot = ref::load_robot(name);
  const dfg::BaseParameters bp = dfg::base_parameters(robot);
  nlohmann::json forms = nlohmann::json::array();
  for (const char* name : {"modified-ne", "ne", "khalil", "khalil-k", "khalil-mix"}) {
    const dfg::Form form = dfg::form_from_name(name);
    const dfg::Graph general = dfg::trace(robot, form, dfg::Flavour::General);
    nlohmann::json row{{"form", name},
                       {"general_untouched", dfg_counts_json(general)},
                       {"general", dfg_counts_json(dfg::customise(general))},
                       {"custom", dfg_counts_json(dfg::customise(dfg::trace(robot, form, dfg::Flavour::Custom)))},
                       {"base", nullptr}};
    if (form == dfg::Form::Khalil || form == dfg::Form::KhalilK || form == dfg::Form::KhalilMix)
      row["base"] = dfg_counts_json(dfg::customise(dfg::trace_base(robot, bp, form)));
    forms.push_back(row);
  }
  const nlohmann::json papers = dfg_paper_rows(name, robot.dof());
  if (o.json) {
    const nlohmann::json j{{"robot", name},   {"n", robot.dof()},     {"base_parameters", bp.rank},
                           {"forms", forms}, {"papers", papers}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  fmt::print("Dataflow-graph counts (mul/add; negations not counted) of {} (n = {}, {} base parameters)\n", name,
             robot.dof(), bp.rank);
  fmt::print("{:<12} {:>17} {:>17} {:>11} {:>11}\n", "form", "general untouched", "general passes", "custom", "base");
  for (const auto& r : forms)
    fmt::print("{:<12} {:>17} {:>17} {:>11} {:>11}\n", r["form"].get<std::string>(), mul_add(r["general_untouched"]),
               mul_add(r["general"]), mul_add(r["custom"]), mul_add(r["base"]));
  fmt::print("Papers:\n");
  for (const auto& p : papers)
    fmt::print("  {:<58} {:>7} {:>9}\n", p["source"].get<std::string>(), p["column"].get<std::string>(),
               mul_add(p));
}

// --dfg --function F (not id): F's graphs of one robot (general untouched, general after the passes, customised,
// customised in base parameters) beside the papers' figures that apply, and F on the papers' general n-link arm
// for n = 1..nmax beside the paper's formula. Divisions are listed after the additions (mul/add/div); the papers
// count a division as a multiplication. docs/functions.md.
std::string mad(const dfg::OpCounts& k) {
  const int d = k.of(dfg::Op::Div);
  return d ? fmt::format("{}/{}/{}", k.mul(), k.add(), d) : fmt::format("{}/{}", k.mul(), k.add());
}
nlohmann::json fn_counts_json(const dfg::OpCounts& k) {
  return {{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}, {"div", k.of(dfg::Op::Div)}};
}

// The papers' formula for F on a general n-link arm: {source, mul, add} or empty.
nlohmann::json fn_paper_general(dfg::Function f, int n) {
  if (f == dfg::Function::Fd || f == dfg::Function::FdKhalil)
    return {{"source", "seed 001 (258N - 119 / 191N - 83, divisions counted as mul)"}, {"mul", 258 * n - 119},
            {"add", 191 * n - 83}};
  if (f == dfg::Function::Mass)
    return {{"source", "seed 000 section 8 (36n(n+1) / 26n(n+1))"}, {"mul", 36 * n * (n + 1)}, {"add", 26 * n * (n + 1)}};
  return nullptr;
}

void run_function_counts(const Options& o, dfg::Function f) {
  const std::string name = o.robot.empty() ? "puma560" : o.robot;
  const ref::Robot robot = ref::load_robot(name);
  const dfg::Form form = dfg::Form::ModifiedNE;
  const dfg::Graph general = dfg::trace_function(robot, f, form, dfg::Flavour::General);
  const dfg::OpCounts gu = dfg::count_ops(general), gp = dfg::count_ops(dfg::customise(general));
  const dfg::OpCounts cu = dfg::count_ops(dfg::customise(dfg::trace_function(robot, f, form, dfg::Flavour::Custom)));
  const dfg::OpCounts bu = dfg::count_ops(dfg::customise(dfg::trace_function_base(robot, f, dfg::Form::KhalilK)));
  nlohmann::json papers = nlohmann::json::array();
  if (const nlohmann::json p = fn_paper_general(f, robot.dof()); !p.is_null()) papers.push_back(p);
  if (f == dfg::Function::Fd || f == dfg::Function::FdKhalil) {
    if (name == "rx90")
      papers.push_back({{"source", "seed 003 section 9.7, RX-90, base parameters, customised [Khalil 97]"},
                        {"mul", 889}, {"add", 653}});
    if (name == "rx90-simplified")
      papers.push_back({{"source", "seed 003 section 9.7, RX-90, simplified parameters (Table 9.4)"}, {"mul", 637},
                        {"add", 423}});
  }
  nlohmann::json table = nlohmann::json::array();
  for (int n = 1; n <= o.nmax; ++n) {
    auto arm = [&](ref::DhConvention c) {
      return fn_counts_json(
          dfg::count_ops(dfg::customise(dfg::trace_function(dfg::general_arm(n, c), f, form, dfg::general_arm_params()))));
    };
    table.push_back({{"n", n},
                     {"ours", arm(ref::DhConvention::Standard)},
                     {"ours_modified_dh", arm(ref::DhConvention::Modified)},
                     {"paper", fn_paper_general(f, n)}});
  }
  if (o.json) {
    std::cout << nlohmann::json{{"robot", name},
                                {"n", robot.dof()},
                                {"function", dfg::function_name(f)},
                                {"general_untouched", fn_counts_json(gu)},
                                {"general", fn_counts_json(gp)},
                                {"custom", fn_counts_json(cu)},
                                {"base", fn_counts_json(bu)},
                                {"papers", papers},
                                {"general_arm", table}}
                     .dump(2)
              << "\n";
    return;
  }
  fmt::print("Dataflow-graph counts (mul/add[/div]; negations not counted) of {} {} (n = {})\n", name,
             dfg::function_name(f), robot.dof());
  fmt::print("{:<10} {:>17} {:>17} {:>15} {:>15}\n", "function", "general untouched", "general passes", "custom", "base");
  fmt::print("{:<10} {:>17} {:>17} {:>15} {:>15}\n", dfg::function_name(f), mad(gu), mad(gp), mad(cu), mad(bu));
  fmt::print("Papers:\n");
  for (const auto& p : papers)
    fmt::print("  {:<72} {}/{}\n", p["source"].get<std::string>(), p["mul"].get<long>(), p["add"].get<long>());
  fmt::print("General n-link arm (every parameter an input; after the passes), mul/add/div, standard and modified "
             "DH, beside the paper\n(percent: modified DH, mul + div against the paper's mul):\n");
  fmt::print("{:>3} {:>17} {:>17} {:>11}\n", "n", "standard DH", "modified DH", "paper");
  auto text = [](const nlohmann::json& k) {
    return fmt::format("{}/{}/{}", k["mul"].get<long>(), k["add"].get<long>(), k["div"].get<long>());
  };
  for (const auto& r : table) {
    const auto& k = r["ours_modified_dh"];
    std::string paper = "-";
    if (!r["paper"].is_null()) {
      const long pm = r["paper"]["mul"].get<long>(), pa = r["paper"]["add"].get<long>();
      const long om = k["mul"].get<long>() + k["div"].get<long>(), oa = k["add"].get<long>();
      paper = fmt::format("{:>11}  ({:+.1f} % / {:+.1f} %)", fmt::format("{}/{}", pm, pa), 100.0 * (om - pm) / pm,
                          100.0 * (oa - pa) / pa);
    }
    fmt::print("{:>3} {:>17} {:>17} {}\n", r["n"].get<int>(), text(r["ours"]), text(k), paper);
  }
}

void run(const Options& o) {
  if (o.nmax < 1 || o.nmax > 100) throw Error("--nmax: must be in 1..100");
  if (o.control && o.dfg) throw Error("counts: --control and --dfg exclude each other");
  if (o.control) return run_control_counts(o);
  const dfg::Function fn = dfg::function_from_name(o.function);
  if (fn != dfg::Function::Id && !o.dfg) throw Error("counts: --function needs --dfg");
  if (o.dfg && fn != dfg::Function::Id) return run_function_counts(o, fn);
  if (o.dfg) return run_dfg_counts(o);
  if (!o.robot.empty()) throw Error("counts: --robot needs --dfg");
  ref::CountOptions opt;
  if (o.dh == "modified") {
    opt.convention = ref::DhConvention::Modified;
  } else if (o.dh != "standard") {
    throw Error("--dh: unknown convention '" + o.dh + "' (expected standard or modified)");
  }
  opt.friction = o.friction;
  nlohmann::json rows = nlohmann::json::array();
  if (!o.json) {
    fmt::print("Operation counts (mul/add), general n-link revolute arm, {} DH{}; paper formulas beside ours.\n", o.dh,
               o.friction ? ", friction and rotor inertia" : "");
    fmt::print("{:>3} | {:>11} {:>11} {:>11} | {:>11} {:>11} | {:>11} {:>11}\n", "n", "ne", "seed000", "Luh80b",
               "modified-ne", "seed000", "khalil", "Luh-Kl.");
  }
  for (int n = 1; n <= o.nmax; ++n) {
    nlohmann::json row{{"n", n}};
    std::string line = fmt::format("{:>3} |", n);
    for (ref::Form f : ref::all_forms()) {
      const ref::FormCounts c = ref::count_ops(f, n, opt);
      nlohmann::json jf{{"ours", counts_json(c.total)}, {"papers", nlohmann::json::array()}};
      if (o.per_quantity) {
        for (const auto& [q, v] : c.per_quantity) jf["per_quantity"][q] = counts_json(v);
      }
      line += fmt::format(" {:>11}", fmt::format("{}/{}", c.total.mul, c.total.add));
      for (const ref::PaperCount& p : ref::paper_counts(f, n)) {
        jf["papers"].push_back({{"source", p.source}, {"mul_formula", p.mul_formula}, {"add_formula", p.add_formula},
                                {"mul", p.mul}, {"add", p.add}});
        line += fmt::format(" {:>11}", fmt::format("{:g}/{:g}", p.mul, p.add));
      }
      line += f == ref::Form::Khalil ? "" : " |";
      row[ref::form_name(f)] = jf;
    }
    rows.push_back(row);
    if (!o.json) fmt::print("{}\n", line);
  }
  // One row per formulation of ref/forms (general revolute arm, standard DH, no friction: the papers' case).
  std::vector<int> ns;
  for (int n = 1; n <= o.nmax; ++n) ns.push_back(n);
  const auto forms = cli::forms_counts(ns);
  if (!o.out.empty()) cli::write_forms_outputs(o.out, forms);
  if (o.json) {
    nlohmann::json jf = nlohmann::json::array();
    for (const auto& per_n : forms)
      for (const auto& r : per_n) jf.push_back(cli::forms_row_json(r));
    std::cout << nlohmann::json{{"dh", o.dh}, {"friction", o.friction}, {"rows", rows}, {"formulations", jf}}.dump(2)
              << "\n";
  } else {
    fmt::print("\nEvery other formulation (ref/forms, docs/formulations.md), mul/add[/div] for n = 1..{}:\n", o.nmax);
    std::string head = fmt::format("{:<22}", "formulation");
    for (int n : ns) head += fmt::format(" {:>13}", fmt::format("n={}", n));
    fmt::print("{}\n", head);
    for (std::size_t f = 0; f < forms.front().size(); ++f) {
      std::string line = fmt::format("{:<22}", forms.front()[f].formulation);
      for (const auto& per_n : forms) {
        const auto& r = per_n[f];
        line += fmt::format(" {:>13}", r.div ? fmt::format("{}/{}/{}", r.ours.mul, r.ours.add, r.div)
                                             : fmt::format("{}/{}", r.ours.mul, r.ours.add));
      }
      fmt::print("{}\n", line);
    }
    fmt::print("Negations (sign flips) are counted separately and not included; docs/counts.md explains the "
               "differences.\n");
  }
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("counts", "mul/add counts of the N-E forms, n = 1..nmax, beside the papers'");
  cmd->add_option("--nmax", o->nmax, "largest n (default 12)");
  cmd->add_option("--dh", o->dh, "standard | modified (default standard, as seed 000)");
  cmd->add_flag("--friction", o->friction, "include friction and rotor inertia");
  cmd->add_flag("--per-quantity", o->per_quantity, "JSON: counts per quantity (seed 000 Table 8.4/8.5 rows)");
  cmd->add_flag("--control", o->control, "the control computation of seed 004 (feedforward, A and B update)");
  cmd->add_flag("--dfg", o->dfg, "the traced dataflow graphs of --robot (every form and flavour) beside the papers");
  cmd->add_option("--robot", o->robot, "with --dfg: robot name or file (default puma560)");
  cmd->add_option("--function", o->function, "with --dfg: id | fd | fd-khalil | fd-strobe | mass | dtau (default id)");
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->add_option("--out", o->out, "directory for formulation-counts.{json,dat,gp,svg} (plot of mul against n)");
  cmd->callback([o] { run(*o); });
}

}  // namespace

NEACCEL_COMMAND(counts, 23, setup)
