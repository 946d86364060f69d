#include "control_accel.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/schedule.hpp"

#include <fmt/format.h>

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
  const double clock_hz = 100e6;
  const dfg::Graph g = dfg::customise(dfg::trace(model, dfg::Form::ModifiedNE, dfg::Flavour::Custom));
  sched::Problem p;
  p.graph = &g;
  p.classes = sched::default_classes(mul, add, lat, lat);
  sched::check(p);
  const sched::Schedule s = sched::list_schedule(p);
  sched::verify_or_throw(p, s);
  const double t = s.length / clock_hz;
  return {{"design", fmt::format("{} mul + {} add, pipelined, latency {} cycles ({}), modified N-E customised graph",
                                 mul, add, lat, fp ? "fp32 units" : "fixed-point units")},
          {"cycles", s.length},
          {"lower_bound_cycles", s.lower_bound},
          {"clock_mhz", clock_hz / 1e6},
          {"time_us", t * 1e6},
          {"update_rate_khz", 1e-3 / t},
          {"fits_control_period", t <= period_s}};
}

}  // namespace neaccel::cli
