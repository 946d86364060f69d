// `neaccel dynamics`: joint torques (inverse dynamics) or accelerations (--forward) of a robot at one state;
// `neaccel mass`: the inertia matrix M(q). docs/dynamics.md.
#include "command.hpp"
#include "dyn_args.hpp"
#include "validate.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace {

using namespace neaccel;

struct DynOptions {
  std::string robot, q, qd, qdd, tau, form = "modified-ne", method;
  bool forward = false, json = false, form_given = false;
};

void run_dynamics(const DynOptions& o) {
  // The forward methods other than crba have no N-E form to choose: --form would be ignored.
  if (o.form_given && o.forward && !o.method.empty() && o.method != "crba")
    throw cli::UsageError("--form: not used by --method " + o.method + " (only by crba and inverse dynamics)");
  const ref::Form form = ref::parse_form(o.form);
  const ref::Robot robot = ref::load_robot(o.robot);
  const int n = robot.dof();
  const Eigen::VectorXd q = cli::parse_vector(o.q, n, "--q");
  const Eigen::VectorXd qd = cli::parse_vector(o.qd, n, "--qd");
  nlohmann::json j{{"robot", robot.name}, {"form", ref::form_name(form)}, {"q", cli::vector_json(q)},
                   {"qd", cli::vector_json(qd)}};
  Eigen::VectorXd result;
  if (o.forward) {
    if (o.tau.empty()) throw Error("--tau: required with --forward");
    if (!o.qdd.empty()) throw Error("--qdd: not allowed with --forward (accelerations are the result)");
    const Eigen::VectorXd tau = cli::parse_vector(o.tau, n, "--tau");
    // --method: crba (default) | strobe | recursive | khalil (docs/formulations.md)
    if (o.method.empty() || o.method == "crba")
      result = ref::forward_dynamics(robot, q, qd, tau, form);
    else
      result = ref::forms::forward_accelerations(robot, o.method, q, qd, tau);
    j["method"] = o.method.empty() ? "crba" : o.method;
    j["tau"] = cli::vector_json(tau);
    j["qdd"] = cli::vector_json(result);
  } else {
    if (!o.tau.empty()) throw Error("--tau: only with --forward");
    if (!o.method.empty()) throw Error("--method: only with --forward");
    const Eigen::VectorXd qdd = cli::parse_vector(o.qdd, n, "--qdd");
    result = ref::inverse_dynamics(robot, q, qd, qdd, form);
    j["qdd"] = cli::vector_json(qdd);
    j["tau"] = cli::vector_json(result);
  }
  if (o.json) {
    std::cout << j.dump(2) << "\n";
  } else {
    fmt::print("{} {}: {}\n", o.forward ? "qdd" : "tau", robot.name, cli::vector_text(result));
  }
}

struct MassOptions {
  std::string robot, q, method = "crba", form = "modified-ne";
  bool json = false, form_given = false;
};

void run_mass(const MassOptions& o) {
  // Before any work: --form is the N-E form of the strobing method only; elsewhere it would be ignored.
  if (o.method != "crba" && o.method != "strobing")
    throw Error("--method: unknown method '" + o.method + "' (expected crba or strobing)");
  if (o.form_given && o.method != "strobing") throw cli::UsageError("--form: only with --method strobing");
  const ref::Form form = ref::parse_form(o.form);
  const ref::Robot robot = ref::load_robot(o.robot);
  const Eigen::VectorXd q = cli::parse_vector(o.q, robot.dof(), "--q");
  Eigen::MatrixXd M;
  if (o.method == "crba") {
    M = ref::mass_matrix_crba(robot, q);
  } else if (o.method == "strobing") {
    M = ref::mass_matrix_strobing(robot, q, form);
  }
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index i = 0; i < M.rows(); ++i) rows.push_back(cli::vector_json(M.row(i).transpose()));
    std::cout << nlohmann::json{{"robot", robot.name}, {"method", o.method}, {"q", cli::vector_json(q)}, {"M", rows}}
                     .dump(2)
              << "\n";
    return;
  }
  fmt::print("M(q) of {} ({}):\n", robot.name, o.method);
  for (Eigen::Index i = 0; i < M.rows(); ++i) {
    for (Eigen::Index k = 0; k < M.cols(); ++k) fmt::print("{:>14.8g}", M(i, k));
    fmt::print("\n");
  }
}

const char* kRobotHelp = "robot: built-in name, random:N:SEED, randomtree:N:SEED, or a .yaml/.urdf file";

void setup_dynamics(CLI::App& app) {
  auto o = std::make_shared<DynOptions>();
  auto* cmd = app.add_subcommand("dynamics", "joint torques tau(q, qd, qdd), or accelerations with --forward");
  cmd->add_option("--robot", o->robot, kRobotHelp)->required();
  cmd->add_option("--q", o->q, "joint positions, comma-separated (rad, m); default zeros")->check(cli::real_list());
  cmd->add_option("--qd", o->qd, "joint velocities, comma-separated; default zeros")->check(cli::real_list());
  cmd->add_option("--qdd", o->qdd, "joint accelerations, comma-separated; default zeros")->check(cli::real_list());
  auto* form = cmd->add_option("--form", o->form, "ne | modified-ne | khalil (default modified-ne)");
  cmd->add_flag("--forward", o->forward, "forward dynamics: print qdd = M^-1 (tau - h) for --tau");
  cmd->add_option("--tau", o->tau, "joint torques, comma-separated (with --forward)")->check(cli::real_list());
  cmd->add_option("--method", o->method,
                  "forward method: crba (default, CRBA + LDLT) | strobe (strobed M + LDLT) | recursive (Nasser O(n)) "
                  "| khalil (Khalil O(n))");
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->callback([o, form] {
    o->form_given = form->count() > 0;
    run_dynamics(*o);
  });
}

void setup_mass(CLI::App& app) {
  auto o = std::make_shared<MassOptions>();
  auto* cmd = app.add_subcommand("mass", "inertia matrix M(q) (composite rigid bodies or N-E strobing)");
  cmd->add_option("--robot", o->robot, kRobotHelp)->required();
  cmd->add_option("--q", o->q, "joint positions, comma-separated; default zeros")->check(cli::real_list());
  cmd->add_option("--method", o->method, "crba | strobing (default crba)");
  auto* form = cmd->add_option("--form", o->form, "N-E form used by strobing (default modified-ne)");
  cmd->add_flag("--json", o->json, "JSON output");
  cmd->callback([o, form] {
    o->form_given = form->count() > 0;
    run_mass(*o);
  });
}

}  // namespace

NEACCEL_COMMAND(dynamics, 20, setup_dynamics)
NEACCEL_COMMAND(mass, 21, setup_mass)
