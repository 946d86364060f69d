#include "control_accel.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/explore.hpp"
#include "neaccel/sched/schedule.hpp"
#include "neaccel/study/timing.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>

#include <map>
#include <memory>

namespace neaccel::cli {

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
      throw Error("--lin-format " + format + ": the inertia matrix from the mass graph is not positive definite");
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
  const study::PointTiming t = study::point_timing(r, study::graph_shape(g), format);
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

}  // namespace neaccel::cli
