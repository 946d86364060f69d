// `neaccel simulate`: fixed-step RK4 simulation of a robot driven by a torque table or passive (zero torque).
// Output: CSV with columns t, q1..qn, qd1..qdn, tau1..taun, energy (or JSON with --json). docs/dynamics.md.
#include "command.hpp"
#include "dyn_args.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace {

using namespace neaccel;

struct SimOptions {
  std::string robot, tau_file, q0, qd0, out, form = "modified-ne", method = "crba";
  bool zero_torque = false, json = false;
  double dt = 1e-3, t = 1.0;
};

// A torque table: rows "t,tau1,...,taun" with increasing t; '#' lines and one header line starting with a letter
// are skipped. Zero-order hold: at time t the last row with t_k <= t applies (the first row before it).
struct TorqueTable {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> tau;
  Eigen::VectorXd at(double time) const {
    const auto it = std::upper_bound(t.begin(), t.end(), time);
    const std::size_t k = it == t.begin() ? 0 : static_cast<std::size_t>(it - t.begin()) - 1;
    return tau[k];
  }
};

TorqueTable read_table(const std::string& path, int n) {
  std::ifstream in(path);
  if (!in) throw Error(path + ": cannot read torque file");
  TorqueTable table;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (table.t.empty() && std::isalpha(static_cast<unsigned char>(line[0]))) continue;  // header
    const std::string where = fmt::format("{}:{}", path, lineno);
    const Eigen::VectorXd row = cli::parse_vector(line, n + 1, where);
    if (!table.t.empty() && !(row[0] > table.t.back())) throw Error(where + ": times must increase");
    table.t.push_back(row[0]);
    table.tau.push_back(row.tail(n));
  }
  if (table.t.empty()) throw Error(path + ": no torque rows (expected lines t,tau1,...,tau" + std::to_string(n) + ")");
  return table;
}

void run_simulate(const SimOptions& o) {
  if (o.zero_torque == !o.tau_file.empty()) throw Error("--tau-file/--zero-torque: give exactly one of them");
  if (!(o.dt > 0) || !std::isfinite(o.dt)) throw Error("--dt: time step must be positive and finite");
  if (!(o.t >= 0) || !std::isfinite(o.t)) throw Error("--t: duration must be non-negative and finite");
  if (o.t / o.dt > 1e7) throw Error("--t/--dt: more than 1e7 steps");
  const ref::Form form = ref::parse_form(o.form);
  const ref::Robot robot = ref::load_robot(o.robot);
  const int n = robot.dof();
  const Eigen::VectorXd q0 = cli::parse_vector(o.q0, n, "--q0");
  const Eigen::VectorXd qd0 = cli::parse_vector(o.qd0, n, "--qd0");
  ref::TorqueFn torque;
  if (o.zero_torque) {
    torque = [n](double, const Eigen::VectorXd&, const Eigen::VectorXd&) { return Eigen::VectorXd::Zero(n).eval(); };
  } else {
    auto table = std::make_shared<TorqueTable>(read_table(o.tau_file, n));
    torque = [table](double t, const Eigen::VectorXd&, const Eigen::VectorXd&) { return table->at(t); };
  }
  const ref::Trajectory tr = o.method == "crba" ? ref::simulate(robot, q0, qd0, torque, o.dt, o.t, form)
                                                : ref::forms::simulate_with_method(robot, q0, qd0, torque, o.dt, o.t,
                                                                                   o.method);
  std::ostringstream text;
  if (o.json) {
    nlohmann::json j{{"robot", robot.name}, {"dt", o.dt}, {"form", ref::form_name(form)}};
    nlohmann::json t = nlohmann::json::array(), q = t, qd = t, tau = t, e = t;
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      t.push_back(tr.t[k]);
      q.push_back(cli::vector_json(tr.q[k]));
      qd.push_back(cli::vector_json(tr.qd[k]));
      tau.push_back(cli::vector_json(tr.tau[k]));
      e.push_back(ref::total_energy(robot, tr.q[k], tr.qd[k]));
    }
    j["t"] = t, j["q"] = q, j["qd"] = qd, j["tau"] = tau, j["energy"] = e;
    text << j.dump(1) << "\n";
  } else {
    text << "t";
    for (const char* p : {"q", "qd", "tau"})
      for (int i = 1; i <= n; ++i) text << "," << p << i;
    text << ",energy\n";
    for (std::size_t k = 0; k < tr.t.size(); ++k) {
      text << fmt::format("{:.10g}", tr.t[k]);
      for (const Eigen::VectorXd* v : {&tr.q[k], &tr.qd[k], &tr.tau[k]})
        for (int i = 0; i < n; ++i) text << fmt::format(",{:.12g}", (*v)[i]);
      text << fmt::format(",{:.12g}\n", ref::total_energy(robot, tr.q[k], tr.qd[k]));
    }
  }
  if (o.out.empty() || o.out == "-") {
    std::cout << text.str();
    return;
  }
  const std::filesystem::path p(o.out);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream f(o.out, std::ios::binary);
  if (!f || !(f << text.str()) || !f.flush()) throw Error(o.out + ": cannot write file");
}

void setup(CLI::App& app) {
  auto o = std::make_shared<SimOptions>();
  auto* cmd = app.add_subcommand("simulate", "RK4 simulation (seed 000 section 9); CSV t, q, qd, tau, energy");
  cmd->add_option("--robot", o->robot, "built-in name, random:N:SEED, randomtree:N:SEED, or a .yaml/.urdf file")
      ->required();
  cmd->add_option("--tau-file", o->tau_file, "CSV rows t,tau1..taun (zero-order hold)");
  cmd->add_flag("--zero-torque", o->zero_torque, "passive arm: tau = 0");
  cmd->add_option("--dt", o->dt, "time step in s (default 0.001)");
  cmd->add_option("--t", o->t, "duration in s (default 1)");
  cmd->add_option("--q0", o->q0, "initial joint positions, comma-separated; default zeros");
  cmd->add_option("--qd0", o->qd0, "initial joint velocities, comma-separated; default zeros");
  cmd->add_option("--form", o->form, "N-E form for h(q, qd) (default modified-ne)");
  cmd->add_option("--method", o->method,
                  "forward dynamics: crba (default) | strobe | recursive (Nasser O(n)) | khalil (Khalil O(n))");
  cmd->add_option("--out", o->out, "output file (default: standard output)");
  cmd->add_flag("--json", o->json, "JSON output instead of CSV");
  cmd->callback([o] { run_simulate(*o); });
}

}  // namespace

NEACCEL_COMMAND(simulate, 22, setup)
