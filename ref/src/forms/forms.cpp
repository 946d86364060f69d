#include "neaccel/ref/forms/forms.hpp"

#include "../finite_checks.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/forward.hpp"
#include "neaccel/ref/forms/gibbs_appell.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/recursive_lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"

#include <Eigen/Cholesky>

#include <algorithm>
#include <cmath>

namespace neaccel::ref::forms {

namespace {
Eigen::VectorXd to_eigen(const std::vector<double>& v) {
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}
}  // namespace

std::vector<std::string> inverse_formulation_names() {
  return {"lagrange", "recursive-lagrange", "gibbs-appell", "dalembert", "spatial-ne"};
}

Eigen::VectorXd inverse_torques(const Robot& robot, const std::string& formulation, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd) {
  check_vector(robot, q, "q");
  check_vector(robot, qd, "qd");
  check_vector(robot, qdd, "qdd");
  const ModelT<double> m = model_of(robot);
  const JointInputs<double> in = joint_inputs(robot, q, qd, qdd);
  // The formulations work per link; mimic joints are coupled around them (model.hpp on_coordinates).
  const auto run = [&](auto&& form) {
    return to_eigen(on_coordinates(m, in, [&](const JointInputs<double>& links) { return form(m, links); }));
  };
  if (formulation == "lagrange") return run([](const auto& mm, const auto& x) { return lagrange(mm, x); });
  if (formulation == "recursive-lagrange")
    return run([](const auto& mm, const auto& x) { return recursive_lagrange(mm, x); });
  if (formulation == "gibbs-appell") return run([](const auto& mm, const auto& x) { return gibbs_appell(mm, x); });
  if (formulation == "dalembert") return run([](const auto& mm, const auto& x) { return dalembert(mm, x); });
  if (formulation == "spatial-ne") return run([](const auto& mm, const auto& x) { return spatial_ne_inverse(mm, x); });
  throw Error("formulation: unknown inverse formulation '" + formulation +
              "' (lagrange, recursive-lagrange, gibbs-appell, dalembert, spatial-ne)");
}

std::vector<std::string> forward_method_names() { return {"crba", "strobe", "recursive", "nasser", "khalil"}; }

Eigen::VectorXd forward_accelerations(const Robot& robot, const std::string& method, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) {
  check_vector(robot, q, "q");
  check_vector(robot, qd, "qd");
  check_vector(robot, tau, "tau");
  if (method == "crba") return forward_dynamics(robot, q, qd, tau);
  const std::string stage = "forward dynamics (" + method + ")";
  if (method == "strobe") {
    const Eigen::VectorXd h = bias_torque(robot, q, qd);
    return internal::solve_mass(robot, mass_matrix_strobing(robot, q), tau - h, stage);
  }
  const ModelT<double> m = model_of(robot);
  const JointInputs<double> in = joint_inputs(robot, q, qd, Eigen::VectorXd::Zero(robot.dof()));
  const std::vector<double> t(tau.data(), tau.data() + tau.size());
  Eigen::VectorXd qdd;
  if (method == "recursive" || method == "nasser") qdd = to_eigen(nasser_forward(m, in, t));
  else if (method == "khalil") qdd = to_eigen(khalil_forward(m, in, t));
  else
    throw Error("--method: unknown forward-dynamics method '" + method + "' (crba, strobe, recursive, nasser, khalil)");
  // The O(n) recursions divide by the articulated inertias: a singular mass matrix shows as nan or inf there, and
  // is named as such; any other non-finite acceleration is named by its index.
  if (!qdd.allFinite()) internal::require_nonsingular(robot, mass_matrix_crba(robot, q), stage);
  internal::require_finite(qdd, stage, "acceleration", "qdd");
  return qdd;
}

Trajectory simulate_with_method(const Robot& robot, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                                const TorqueFn& torque, double dt, double t_end, const std::string& method) {
  if (method == "crba") return simulate(robot, q0, qd0, torque, dt, t_end);
  const std::vector<std::string> names = forward_method_names();
  if (std::find(names.begin(), names.end(), method) == names.end())
    throw Error("--method: unknown forward-dynamics method '" + method + "' (crba, strobe, recursive, nasser, khalil)");
  return simulate_rk4(robot, q0, qd0, torque,
                      [&](const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) {
                        return forward_accelerations(robot, method, q, qd, tau);
                      },
                      dt, t_end);
}

}  // namespace neaccel::ref::forms
