// `neaccel counts`: multiplications and additions of the three Newton-Euler forms for a general n-link revolute
// arm, n = 1..nmax, measured with the Counted scalar, beside the seed papers' formulas. docs/counts.md.
#include "command.hpp"
#include "forms_report.hpp"

#include "neaccel/ref/control/counts.hpp"
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace {

using namespace neaccel;

struct Options {
  int nmax = 12;
  bool json = false, friction = false, per_quantity = false, control = false;
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

void run(const Options& o) {
  if (o.nmax < 1 || o.nmax > 100) throw Error("--nmax: must be in 1..100");
  if (o.control) return run_control_counts(o);
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
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->add_option("--out", o->out, "directory for formulation-counts.{json,dat,gp,svg} (plot of mul against n)");
  cmd->callback([o] { run(*o); });
}

}  // namespace

NEACCEL_COMMAND(counts, 23, setup)
