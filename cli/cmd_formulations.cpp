// `neaccel formulations counts [--n N | --n-max N] [--json] [--out DIR]`: operation counts of every formulation
//   (ref/forms/counts.hpp) beside the papers' figures; with --out, a JSON file, the data and a gnuplot SVG of
//   multiplications against n on log axes.
// `neaccel formulations torque ROBOT [--q ..] [--qd ..] [--qdd ..] [--json]`: the torques of every inverse
//   formulation and their largest relative difference from the Newton-Euler reference.
// `neaccel formulations forward ROBOT [--q ..] [--qd ..] [--tau ..] [--json]`: qdd by every forward method.
#include "command.hpp"
#include "forms_report.hpp"
#include "validate.hpp"

#include "neaccel/ref/count_tables.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/counts.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace {

namespace forms = neaccel::ref::forms;
using neaccel::Error;
using neaccel::ref::Robot;

struct Options {
  int n = 0;  // 0: --n not given
  int n_max = 12;
  bool n_max_given = false;
  bool json = false;
  std::string out;
  std::string robot;
  std::string q, qd, qdd, tau;  // "v1,...,vn" (checked by cli::real_list; the count against the robot here)
};

void run_counts(const Options& o) {
  // The ranges are the validators' (1..64 each: the Lagrange tables grow as n^4, 5 s and 77 MB at n = 64).
  if (o.n > 0 && o.n_max_given) throw neaccel::cli::UsageError("--n and --n-max exclude each other");
  std::vector<int> ns;
  if (o.n > 0)
    ns.push_back(o.n);
  else
    for (int n = 1; n <= o.n_max; ++n) ns.push_back(n);
  const auto by_n = forms::formulation_counts(ns);
  if (!o.out.empty()) neaccel::cli::write_forms_outputs(o.out, by_n);
  if (!o.json) {
    fmt::print("{}", forms::count_rows_text(by_n));
    return;
  }
  std::cout << forms::count_rows_json(by_n).dump(2) << "\n";
}

Eigen::VectorXd vec_or_zero(const std::string& text, const Robot& r, const char* what) {
  if (text.empty()) return Eigen::VectorXd::Zero(r.dof());
  std::vector<double> v;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    v.push_back(std::strtod(text.c_str() + start, nullptr));  // each entry already checked by cli::real_list
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (static_cast<int>(v.size()) != r.dof())
    throw Error(fmt::format("{}: expected {} values (robot {} has {} joints), got {}", what, r.dof(), r.name,
                            r.dof(), v.size()));
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

std::vector<double> to_std(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

double rel(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}

void run_torque(const Options& o) {
  const Robot r = neaccel::ref::load_robot(o.robot);
  const Eigen::VectorXd q = vec_or_zero(o.q, r, "--q"), qd = vec_or_zero(o.qd, r, "--qd");
  const Eigen::VectorXd qdd = vec_or_zero(o.qdd, r, "--qdd");
  const Eigen::VectorXd ref = neaccel::ref::inverse_dynamics(r, q, qd, qdd, neaccel::ref::Form::NewtonEuler);
  nlohmann::json j = {{"robot", r.name}, {"reference", to_std(ref)}, {"formulations", nlohmann::json::array()}};
  if (!o.json) fmt::print("{:<20} {}  (max rel. diff from N-E)\n", "newton-euler", fmt::join(to_std(ref), " "));
  for (const std::string& name : forms::inverse_formulation_names()) {
    const Eigen::VectorXd t = forms::inverse_torques(r, name, q, qd, qdd);
    j["formulations"].push_back({{"name", name}, {"tau", to_std(t)}, {"max_rel_diff", rel(t, ref)}});
    if (!o.json) fmt::print("{:<20} {}  ({:.2e})\n", name, fmt::join(to_std(t), " "), rel(t, ref));
  }
  if (o.json) std::cout << j.dump(2) << "\n";
}

void run_forward(const Options& o) {
  const Robot r = neaccel::ref::load_robot(o.robot);
  const Eigen::VectorXd q = vec_or_zero(o.q, r, "--q"), qd = vec_or_zero(o.qd, r, "--qd");
  const Eigen::VectorXd tau = vec_or_zero(o.tau, r, "--tau");
  const Eigen::VectorXd ref = forms::forward_accelerations(r, "strobe", q, qd, tau);
  nlohmann::json j = {{"robot", r.name}, {"methods", nlohmann::json::array()}};
  for (const char* name : {"strobe", "recursive", "khalil"}) {
    const Eigen::VectorXd a = forms::forward_accelerations(r, name, q, qd, tau);
    j["methods"].push_back({{"name", name}, {"qdd", to_std(a)}, {"max_rel_diff", rel(a, ref)}});
    if (!o.json) fmt::print("{:<10} {}  ({:.2e})\n", name, fmt::join(to_std(a), " "), rel(a, ref));
  }
  if (o.json) std::cout << j.dump(2) << "\n";
}

void setup(CLI::App& app) {
  auto* cmd = app.add_subcommand("formulations", "every dynamics formulation of the papers: counts, torques, qdd");
  cmd->require_subcommand(1);
  auto o = std::make_shared<Options>();
  auto* counts = cmd->add_subcommand("counts", "operation counts (Counted) beside the papers' figures");
  counts->add_option("--n", o->n, "a single n (default: 1..--n-max)")
      ->check(neaccel::cli::int_in(1, neaccel::cli::kMaxFormulationN));
  auto* n_max = counts->add_option("--n-max", o->n_max, "largest n (default 12)")
                    ->check(neaccel::cli::int_in(1, neaccel::cli::kMaxFormulationN));
  counts->add_option("--out", o->out, "directory for formulation-counts.{json,dat,gp,svg}");
  counts->add_flag("--json", o->json, "machine-readable output");
  counts->callback([o, n_max] {
    o->n_max_given = n_max->count() > 0;
    run_counts(*o);
  });
  const std::string robot_help = "built-in name, random:N:SEED, randomtree:N:SEED, or a .yaml/.yml/.urdf file";
  auto* torque = cmd->add_subcommand("torque", "tau by every inverse formulation beside Newton-Euler");
  torque->add_option("robot", o->robot, robot_help)->required();
  torque->add_option("--q", o->q, "joint positions (default 0)")->check(neaccel::cli::real_list());
  torque->add_option("--qd", o->qd, "joint velocities (default 0)")->check(neaccel::cli::real_list());
  torque->add_option("--qdd", o->qdd, "joint accelerations (default 0)")->check(neaccel::cli::real_list());
  torque->add_flag("--json", o->json, "machine-readable output");
  torque->callback([o] { run_torque(*o); });
  auto* forward = cmd->add_subcommand("forward", "qdd by strobing + LDLT and both recursive methods");
  forward->add_option("robot", o->robot, robot_help)->required();
  forward->add_option("--q", o->q, "joint positions (default 0)")->check(neaccel::cli::real_list());
  forward->add_option("--qd", o->qd, "joint velocities (default 0)")->check(neaccel::cli::real_list());
  forward->add_option("--tau", o->tau, "joint torques (default 0)")->check(neaccel::cli::real_list());
  forward->add_flag("--json", o->json, "machine-readable output");
  forward->callback([o] { run_forward(*o); });
}

}  // namespace

NEACCEL_COMMAND(formulations, 40, setup)
