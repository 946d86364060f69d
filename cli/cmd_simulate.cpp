// `neaccel simulate`: fixed-step RK4 simulation of a robot driven by a torque table or passive (zero torque).
// Output: CSV with columns t, q1..qn, qd1..qdn, tau1..taun, energy (or JSON with --json). docs/dynamics.md.
#include "command.hpp"
#include "dyn_args.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace {

using namespace neaccel;

struct SimOptions {
  std::string robot, tau_file, q0, qd0, out, form = "modified-ne", method = "crba", accelerator, function = "fd";
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
  check_file_size(path);
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

// The forward dynamics an accelerator computes: the robot's customised `function` graph (fd, fd-khalil or
// fd-strobe, docs/functions.md) evaluated in `format` (double, fp32 / float, fixed:I.F) by the golden models.
ref::ForwardFn accelerator_forward(const ref::Robot& robot, const std::string& function, const std::string& format) {
  const dfg::Function fn = dfg::function_from_name(function);
  if (fn != dfg::Function::Fd && fn != dfg::Function::FdKhalil && fn != dfg::Function::FdStrobe)
    throw Error("--function: '" + function + "' is not a forward-dynamics function (fd, fd-khalil, fd-strobe)");
  auto g = std::make_shared<dfg::Graph>(
      dfg::customise(dfg::trace_function(robot, fn, dfg::Form::ModifiedNE, dfg::Flavour::Custom)));
  const int n = robot.dof();
  auto index = std::make_shared<std::vector<int>>(static_cast<std::size_t>(n), -1);
  for (std::size_t k = 0; k < g->outputs.size(); ++k) {
    const std::string& name = g->outputs[k].name;
    if (name.rfind("qdd", 0) == 0) (*index)[static_cast<std::size_t>(std::stoi(name.substr(3)) - 1)] = static_cast<int>(k);
  }
  for (int i : *index)
    if (i < 0) throw Error("--function: the graph lacks an output qdd<i>");
  std::function<std::vector<double>(const std::vector<double>&)> eval;
  if (format == "double") {
    eval = [g](const std::vector<double>& in) { return dfg::evaluate<double>(*g, in); };
  } else if (format == "fp32" || format == "float") {
    eval = [g](const std::vector<double>& in) {
      const std::vector<float> y = dfg::evaluate<float>(*g, dfg::convert_inputs<float>(in));
      return std::vector<double>(y.begin(), y.end());
    };
  } else if (format.rfind("fixed:", 0) == 0) {
    dfg::FixedFormat ff;
    try {
      ff = dfg::parse_fixed_format(format);
    } catch (const Error& e) {
      throw Error(std::string("--accelerator: ") + e.what());
    }
    const dfg::Arithmetic<dfg::Fixed> ar{ff};
    eval = [g, ar](const std::vector<double>& in) {
      std::vector<double> y;
      for (const dfg::Fixed& x : dfg::evaluate<dfg::Fixed>(*g, dfg::convert_inputs(in, ar), ar)) y.push_back(ar.to_double(x));
      return y;
    };
  } else {
    throw Error("--accelerator: unknown format '" + format + "' (double, fp32, fixed:I.F)");
  }
  return [g, index, eval, &robot, n](const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) {
    const std::vector<double> y = eval(dfg::function_input_vector(*g, robot, q, qd, tau));
    Eigen::VectorXd qdd(n);
    for (int i = 0; i < n; ++i) qdd[i] = y[static_cast<std::size_t>((*index)[static_cast<std::size_t>(i)])];
    return qdd;
  };
}

// --accelerator: the double simulation (o.method) beside the same RK4 with the accelerator's forward dynamics.
// Writes DIR/drift.csv (t, energy and drift of both, max |q - q_double|), DIR/summary.json, DIR/drift.svg
// (gnuplot, skipped when it is missing); prints the summary. docs/functions.md "Simulation on the accelerator".
void run_accelerated(const SimOptions& o, const ref::Robot& robot, const ref::Trajectory& ref_tr,
                     const ref::TorqueFn& torque, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0) {
  if (o.out.empty() || o.out == "-") throw Error("--accelerator: give --out DIR (the comparison is a directory)");
  const ref::Trajectory tr =
      ref::simulate_rk4(robot, q0, qd0, torque, accelerator_forward(robot, o.function, o.accelerator), o.dt, o.t);
  const std::filesystem::path dir(o.out);
  std::filesystem::create_directories(dir);
  const double e0 = ref::total_energy(robot, q0, qd0);
  double drift_ref = 0, drift_acc = 0, dq = 0;
  bool finite = true;
  std::ostringstream csv;
  csv << "t,energy_double,energy_accel,drift_double,drift_accel,max_abs_dq\n";
  for (std::size_t k = 0; k < tr.t.size(); ++k) {
    const double er = ref::total_energy(robot, ref_tr.q[k], ref_tr.qd[k]);
    const double ea = ref::total_energy(robot, tr.q[k], tr.qd[k]);
    const double d = (tr.q[k] - ref_tr.q[k]).cwiseAbs().maxCoeff();
    finite = finite && std::isfinite(ea) && std::isfinite(d);
    drift_ref = std::max(drift_ref, std::abs(er - e0));
    drift_acc = std::max(drift_acc, std::abs(ea - e0));
    dq = std::max(dq, d);
    csv << fmt::format("{:.10g},{:.12g},{:.12g},{:.6e},{:.6e},{:.6e}\n", tr.t[k], er, ea, er - e0, ea - e0, d);
  }
  std::ofstream(dir / "drift.csv", std::ios::binary) << csv.str();
  nlohmann::json j{{"robot", robot.name}, {"function", o.function}, {"format", o.accelerator}, {"method", o.method},
                   {"dt", o.dt}, {"t", o.t}, {"steps", tr.t.size() - 1}, {"energy0_J", e0},
                   {"max_drift_double_J", drift_ref}, {"max_drift_accel_J", drift_acc}, {"max_abs_dq_rad", dq},
                   {"finite", finite}};
  // The title goes into a gnuplot single-quoted string (no backquote command or @macro runs there): a quote is
  // doubled, a line break is a space. The script names its files without a directory: gnuplot runs in DIR.
  std::string title;
  for (char c : fmt::format("{} passive, {} {} vs double", robot.name, o.function, o.accelerator))
    title += c == '\'' ? std::string("''") : c == '\n' || c == '\r' ? std::string(" ") : std::string(1, c);
  const std::string gp = "set datafile separator ','\nset key autotitle columnhead\nset grid\n"
                         "set terminal svg size 720,480 dynamic font 'sans,10'\nset output 'drift.svg'\n"
                         "set title '" + title + "'\nset xlabel 't (s)'\nset ylabel 'E(t) - E(0) (J)'\n"
                         "plot 'drift.csv' using 1:4 with lines lw 2 title 'double', "
                         "'drift.csv' using 1:5 with lines title 'accelerator'\n";
  std::ofstream(dir / "drift.gp") << gp;
  j["plot"] = proc::run_quiet({"gnuplot", "drift.gp"}, dir);
  std::ofstream(dir / "summary.json", std::ios::binary) << j.dump(1) << "\n";
  if (o.json) {
    std::cout << j.dump(1) << "\n";
  } else {
    std::cout << fmt::format("{} {} {}: {} steps of {} s; energy drift max |E - E0|: double {:.3e} J, accelerator "
                             "{:.3e} J; max |q - q_double| {:.3e} rad{}\n",
                             robot.name, o.function, o.accelerator, tr.t.size() - 1, o.dt, drift_ref, drift_acc, dq,
                             finite ? "" : " (non-finite)");
    std::cout << "wrote " << (dir / "drift.csv").string() << ", summary.json" << (j["plot"].get<bool>() ? ", drift.svg" : "") << "\n";
  }
}

void run_simulate(const SimOptions& o) {
  if (o.zero_torque == !o.tau_file.empty()) throw Error("--tau-file/--zero-torque: give exactly one of them");
  if (!(o.dt > 0) || !std::isfinite(o.dt)) throw Error("--dt: time step must be positive and finite");
  if (!(o.t > 0) || !std::isfinite(o.t)) throw Error("--t: duration must be positive and finite");
  if (o.dt > o.t) throw Error("--dt: a step longer than the duration --t (no step would be taken)");
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
  if (!o.accelerator.empty()) {
    run_accelerated(o, robot, tr, torque, q0, qd0);
    return;
  }
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
  cmd->add_option("--out", o->out, "output file (default: standard output); with --accelerator a directory");
  cmd->add_option("--accelerator", o->accelerator,
                  "also simulate with the forward-dynamics graph in this format (double | fp32 | fixed:I.F)");
  cmd->add_option("--function", o->function, "graph for --accelerator: fd (default) | fd-khalil | fd-strobe");
  cmd->add_flag("--json", o->json, "JSON output instead of CSV");
  cmd->callback([o] { run_simulate(*o); });
}

}  // namespace

NEACCEL_COMMAND(simulate, 22, setup)
