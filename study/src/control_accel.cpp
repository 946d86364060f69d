// The accelerator in the loop of `neaccel control` and the command's control run (neaccel/study/control_accel.hpp).
#include "neaccel/study/control_accel.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/control/scenario.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/process.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/schedule.hpp"
#include "neaccel/cost/timing.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace neaccel::study {

namespace {

template <class T>
ref::control::FeedforwardFn graph_feedforward(const ref::Robot& model, const dfg::Arithmetic<T>& ar) {
  // The robot outlives the function: keep a copy (the graph binding reads its parameters).
  auto robot = std::make_shared<const ref::Robot>(model);
  auto graph = std::make_shared<const dfg::Graph>(
      dfg::customise(dfg::trace(*robot, dfg::Form::ModifiedNE, dfg::Flavour::Custom)));
  return [robot, graph, ar](const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd) {
    const std::vector<double> in = dfg::robot_input_vector(*graph, *robot, q, qd, qdd);
    const std::vector<T> out = dfg::evaluate<T>(*graph, dfg::convert_inputs<T>(in, ar), ar);
    Eigen::VectorXd tau(robot->dof());
    for (int i = 0; i < robot->dof(); ++i) tau[i] = ar.to_double(out[static_cast<std::size_t>(i)]);
    return tau;
  };
}

}  // namespace

ref::control::FeedforwardFn format_feedforward(const ref::Robot& model, const std::string& format) {
  if (format == "double") return nullptr;
  if (format == "fp32") return graph_feedforward<float>(model, dfg::Arithmetic<float>{});
  if (format.rfind("fixed:", 0) == 0) {
    dfg::Arithmetic<dfg::Fixed> ar;
    try {
      ar.format = dfg::parse_fixed_format(format);
    } catch (const Error& e) {
      throw Error(std::string("--format: ") + e.what());
    }
    return graph_feedforward<dfg::Fixed>(model, ar);
  }
  throw Error("--format: unknown format '" + format + "' (expected double, fp32 or fixed:I.F)");
}

namespace {

// Evaluates a graph in one format and returns its outputs by name.
using GraphEval = std::function<std::map<std::string, double>(const dfg::Graph&, const std::vector<double>&)>;

template <class T>
GraphEval graph_eval(const dfg::Arithmetic<T>& ar) {
  return [ar](const dfg::Graph& g, const std::vector<double>& in) {
    const std::vector<T> out = dfg::evaluate<T>(g, dfg::convert_inputs<T>(in, ar), ar);
    std::map<std::string, double> m;
    for (std::size_t k = 0; k < g.outputs.size(); ++k) m[g.outputs[k].name] = ar.to_double(out[k]);
    return m;
  };
}

}  // namespace

ref::control::LinearizeFn format_linearize(const ref::Robot& model, const std::string& format) {
  if (format == "double") return nullptr;
  GraphEval eval;
  if (format == "fp32") {
    eval = graph_eval<float>(dfg::Arithmetic<float>{});
  } else if (format.rfind("fixed:", 0) == 0) {
    dfg::Arithmetic<dfg::Fixed> ar;
    try {
      ar.format = dfg::parse_fixed_format(format);
    } catch (const Error& e) {
      throw Error(std::string("--lin-format: ") + e.what());
    }
    eval = graph_eval<dfg::Fixed>(ar);
  } else {
    throw Error("--lin-format: unknown format '" + format + "' (expected double, fp32 or fixed:I.F)");
  }
  auto robot = std::make_shared<const ref::Robot>(model);
  const auto trace = [&](dfg::Function f) {
    return std::make_shared<const dfg::Graph>(
        dfg::customise(dfg::trace_function(*robot, f, dfg::Form::ModifiedNE, dfg::Flavour::Custom)));
  };
  auto dtau = trace(dfg::Function::Dtau);
  auto mass = trace(dfg::Function::Mass);
  return [robot, dtau, mass, eval, format](const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                           const Eigen::VectorXd& qdd) {
    const int n = robot->dof();
    const auto get = [&](const std::map<std::string, double>& m, const std::string& name) {
      const auto it = m.find(name);
      if (it == m.end()) throw Error("--lin-format: graph output " + name + " missing");
      return it->second;
    };
    const std::map<std::string, double> d = eval(*dtau, dfg::function_input_vector(*dtau, *robot, q, qd, qdd));
    const std::map<std::string, double> mm = eval(*mass, dfg::function_input_vector(*mass, *robot, q, qd, qdd));
    ref::control::Linearization lin;
    lin.M.resize(n, n);
    lin.dtau_dq.resize(n, n);
    lin.dtau_dqd.resize(n, n);
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j) {
        lin.dtau_dq(i - 1, j - 1) = get(d, fmt::format("dtau{}_dq{}", i, j));
        lin.dtau_dqd(i - 1, j - 1) = get(d, fmt::format("dtau{}_dqd{}", i, j));
        lin.M(i - 1, j - 1) = get(mm, i >= j ? fmt::format("M{}_{}", i, j) : fmt::format("M{}_{}", j, i));
      }
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(lin.M);
    if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || (ldlt.vectorD().array() <= 0.0).any())
      throw Error("linearisation in " + format + " (--lin-format): the inertia matrix from the mass graph is not positive definite");
    const Eigen::MatrixXd Minv = ldlt.solve(Eigen::MatrixXd::Identity(n, n));
    lin.A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
    lin.A.topRightCorner(n, n).setIdentity();
    lin.A.bottomLeftCorner(n, n) = -Minv * lin.dtau_dq;
    lin.A.bottomRightCorner(n, n) = -Minv * lin.dtau_dqd;
    lin.B = Eigen::MatrixXd::Zero(2 * n, n);
    lin.B.bottomRows(n) = Minv;
    return lin;
  };
}

nlohmann::json format_effect(const ref::control::ControlRun& run, const ref::control::ControlRun& reference) {
  double dtau = 0.0, dq = 0.0;
  const std::size_t n = std::min(run.t.size(), reference.t.size());
  for (std::size_t k = 0; k < n; ++k) {
    dtau = std::max(dtau, (run.tau_ff[k] - reference.tau_ff[k]).cwiseAbs().maxCoeff());
    dq = std::max(dq, (run.q[k] - reference.q[k]).cwiseAbs().maxCoeff());
  }
  return {{"max_tau_ff_diff", dtau},
          {"max_q_diff_rad", dq},
          {"max_joint_error_rad", run.max_joint_error},
          {"reference_max_joint_error_rad", reference.max_joint_error},
          {"max_ee_error_m", run.max_ee_error},
          {"reference_max_ee_error_m", reference.max_ee_error}};
}

nlohmann::json accelerator_timing(const ref::Robot& model, const std::string& format, double period_s) {
  if (format == "double") return nlohmann::json::object();
  const bool fp = format == "fp32";
  const int mul = 2, add = 2, lat = fp ? 3 : 1;
  const dfg::Graph g = dfg::customise(dfg::trace(model, dfg::Form::ModifiedNE, dfg::Flavour::Custom));
  sched::Problem p;
  p.graph = &g;
  p.classes = sched::default_classes(mul, add, lat, lat);
  sched::check(p);
  sched::Schedule s = sched::list_schedule(p);
  sched::allocate_registers(p, s);
  sched::verify_or_throw(p, s);
  // The design's clock and its cycles per evaluation (schedule + I/O) from the cost model, as the study's.
  sched::PointResult r;
  r.point = sched::Point{model.name, "custom", mul, add, lat, lat, true};
  r.length = s.length;
  r.lower_bound = s.lower_bound;
  r.registers = s.num_registers;
  const cost::PointTiming t = cost::point_timing(r, cost::graph_shape(g), format);
  const double time_s = t.latency_ns * 1e-9;
  return {{"design", fmt::format("{} mul + {} add, pipelined, latency {} cycles ({}), modified N-E customised graph",
                                 mul, add, lat, fp ? "fp32 units" : "fixed-point units")},
          {"cycles", s.length},
          {"lower_bound_cycles", s.lower_bound},
          {"io_cycles", t.io_cycles},
          {"eval_cycles", t.eval_cycles},
          {"period_ns", t.latency_cost.period_ns},
          {"clock_mhz", t.latency_cost.fmax_mhz()},
          {"clock_source", "estimated by the cost model (estimate_cost; critical path: " + t.latency_cost.critical + ")"},
          {"area_cells", t.latency_cost.area_cells},
          {"time_us", time_s * 1e6},
          {"update_rate_khz", 1e-3 / time_s},
          {"fits_control_period", time_s <= period_s}};
}

namespace {

namespace ctl = ref::control;

// Largest distance of the desired end effector from the base origin: the scale of "position error in %".
double path_scale(const ctl::DesiredTrajectory& d) {
  double m = 0.0;
  for (const Eigen::Vector3d& p : d.ee) m = std::max(m, p.norm());
  return m;
}

void write_csv(const std::string& path, const ctl::ControlSetup& s, const ctl::ControlRun& r) {
  std::ofstream f(path);
  if (!f) throw Error("--out: cannot write " + path);
  const int n = s.model.dof();
  f << "t";
  for (int i = 1; i <= n; ++i) f << fmt::format(",q_des{0},q{0},qd_des{0},qd{0},tau_ff{0},u{0}", i);
  f << ",ee_des_x,ee_des_y,ee_des_z,ee_x,ee_y,ee_z,norm_x,action\n";
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    f << fmt::format("{:.6f}", r.t[k]);
    for (int i = 0; i < n; ++i)
      f << fmt::format(",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", s.desired.q[k][i], r.q[k][i], s.desired.qd[k][i],
                       r.qd[k][i], r.tau_ff[k][i], r.u[k][i]);
    const Eigen::Vector3d& e = s.desired.ee[k];
    f << fmt::format(",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{}\n", e.x(), e.y(), e.z(), r.ee[k].x(),
                     r.ee[k].y(), r.ee[k].z(), r.norm_x[k], r.action[k]);
  }
}

// `text` made safe inside a gnuplot single-quoted string: a quote doubled, a line break a space. Single quotes also
// keep gnuplot from running a backquoted command or expanding an @macro in the text (a robot's name is the user's).
std::string gp_text(const std::string& text) {
  std::string s;
  for (char c : text) s += c == '\'' ? std::string("''") : c == '\n' || c == '\r' ? std::string(" ") : std::string(1, c);
  return s;
}

// gnuplot script for the three figures of seed 004 (Figs 3.1-3.3): end-effector path, joints, x/y against time.
// Every file it names is relative: gnuplot runs in the output directory.
std::string plot_script(int n, bool with_ff, const std::string& raw_title) {
  const std::string title = gp_text(raw_title);
  const int ee = 1 + 6 * n;  // column of ee_des_x (1-based gnuplot columns: t is 1)
  const std::string ff = with_ff ? "'control_ff.csv'" : "";
  std::string s = "set datafile separator ','\nset key autotitle columnhead\nset grid\n";
  s += "set terminal svg size 640,560 dynamic font 'sans,11'\nset output 'path.svg'\n";
  s += fmt::format("set title 'End-effector path ({})'\nset xlabel 'x (m)'\nset ylabel 'y (m)'\nset size ratio -1\n", title);
  s += fmt::format("plot 'control.csv' using {0}:{1} with lines lw 2 title 'desired', 'control.csv' using {2}:{3} "
                   "with lines title 'actual'",
                   ee + 1, ee + 2, ee + 4, ee + 5);
  if (with_ff) s += fmt::format(", {} using {}:{} with lines dt 2 title 'feedforward only'", ff, ee + 4, ee + 5);
  s += "\nset size noratio\nunset title\n";
  s += fmt::format("set terminal svg size 720,{} dynamic font 'sans,10'\nset output 'joints.svg'\n", 220 * n);
  s += fmt::format("set multiplot layout {},1 title 'Joint trajectories ({})'\nset xlabel 't (s)'\n", n, title);
  for (int i = 0; i < n; ++i) {
    const int c = 2 + 6 * i;
    s += fmt::format("set ylabel 'q{} (rad or m)'\nplot 'control.csv' using 1:{} with lines lw 2 title 'desired', "
                     "'control.csv' using 1:{} with lines title 'actual'",
                     i + 1, c, c + 1);
    if (with_ff) s += fmt::format(", {} using 1:{} with lines dt 2 title 'feedforward only'", ff, c + 1);
    s += "\n";
  }
  s += "unset multiplot\nset terminal svg size 720,480 dynamic font 'sans,10'\nset output 'xy.svg'\n";
  s += fmt::format("set multiplot layout 2,1 title 'End-effector x and y against time ({})'\n", title);
  for (int a = 0; a < 2; ++a) {
    s += fmt::format("set ylabel '{} (m)'\nplot 'control.csv' using 1:{} with lines lw 2 title 'desired', "
                     "'control.csv' using 1:{} with lines title 'actual'",
                     a == 0 ? "x" : "y", ee + a, ee + 3 + a);
    if (with_ff) s += fmt::format(", {} using 1:{} with lines dt 2 title 'feedforward only'", ff, ee + 3 + a);
    s += "\n";
  }
  return s + "unset multiplot\n";
}

// Runs gnuplot in `dir`; returns false (plots skipped) when gnuplot is missing or fails.
bool run_gnuplot(const std::filesystem::path& dir, const std::string& script) {
  const std::filesystem::path gp = dir / "plots.gp";
  std::ofstream(gp) << script;
  return proc::run_quiet({"gnuplot", "plots.gp"}, dir);
}

nlohmann::json run_json(const ctl::ControlRun& r, double scale) {
  return {{"max_joint_error_rad", r.max_joint_error},
          {"max_ee_error_m", r.max_ee_error},
          {"max_ee_error_percent", 100.0 * r.max_ee_error / scale},
          {"gain_updates", r.updates},
          {"feedback_skips", r.skips},
          {"aborted", r.aborted},
          {"abort_time_s", r.abort_time},
          {"max_closed_loop_spectral_radius", r.max_rho}};
}

}  // namespace

nlohmann::json run_control_scenario(const ControlOptions& o) {
  if (o.feedback != "on" && o.feedback != "off") throw Error("--feedback: expected on or off, got '" + o.feedback + "'");
  const ctl::Scenario scenario = ctl::parse_scenario(o.scenario);
  const ref::Robot robot = ref::load_robot(o.robot);
  ctl::ScenarioOptions so;
  so.seed = o.seed;
  ctl::ControlSetup setup = ctl::make_setup(robot, scenario, o.feedback == "on", so);
  setup.feedforward = format_feedforward(setup.model, o.format);  // throws on a bad --format
  setup.linearize = format_linearize(setup.model, o.lin_format);  // throws on a bad --lin-format
  const std::filesystem::path dir(o.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("--out: cannot create directory " + o.out + ": " + ec.message());
  const ctl::ControlRun r = ctl::run_control(setup);
  write_csv((dir / "control.csv").string(), setup, r);
  const double scale = path_scale(setup.desired);
  nlohmann::json j{{"robot", robot.name},     {"scenario", o.scenario}, {"feedback", o.feedback},
                   {"format", o.format},      {"seed", o.seed},         {"period_s", setup.desired.T},
                   {"samples", static_cast<int>(setup.desired.t.size())}, {"path_scale_m", scale},
                   {"run", run_json(r, scale)}, {"out", o.out}};
  const bool with_ff = setup.feedback;
  if (with_ff) {
    ctl::ControlSetup ff = setup;
    ff.feedback = false;
    const ctl::ControlRun rf = ctl::run_control(ff);
    write_csv((dir / "control_ff.csv").string(), ff, rf);
    j["feedforward_only"] = run_json(rf, scale);
  }
  if (o.format != "double") {
    ctl::ControlSetup reference = setup;
    reference.feedforward = nullptr;
    const ctl::ControlRun rd = ctl::run_control(reference);
    j["format_effect"] = format_effect(r, rd);
    j["accelerator"] = accelerator_timing(setup.model, o.format, setup.desired.T);
  }
  j["lin_format"] = o.lin_format;
  if (o.lin_format != "double" && setup.feedback) {
    ctl::ControlSetup reference = setup;
    reference.linearize = nullptr;
    const ctl::ControlRun rd = ctl::run_control(reference);
    j["linearisation_effect"] = format_effect(r, rd);
    j["linearisation_effect"]["reference_gain_updates"] = rd.updates;
    j["linearisation_effect"]["gain_updates"] = r.updates;
  }
  const std::string title = fmt::format("{}, {}, feedback {}", robot.name, o.scenario, o.feedback);
  j["plots"] = run_gnuplot(dir, plot_script(robot.dof(), with_ff, title))
                   ? nlohmann::json{"path.svg", "joints.svg", "xy.svg"}
                   : nlohmann::json::array();
  std::ofstream(dir / "summary.json") << j.dump(2) << "\n";
  return j;
}

}  // namespace neaccel::study
