// Double-valued entry points to every formulation in ref/forms/ (for the CLI, the benchmarks and users).
// The templated algorithms are in the other headers of this folder; these wrap them for S = double.
#pragma once

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace neaccel::ref::forms {

// "lagrange", "recursive-lagrange", "gibbs-appell", "dalembert", "spatial-ne" (the inverse formulations).
std::vector<std::string> inverse_formulation_names();

// Joint torques by the named inverse formulation (same torque model as ref::inverse_dynamics). Throws
// neaccel::Error for an unknown name or vectors of the wrong length.
Eigen::VectorXd inverse_torques(const Robot& robot, const std::string& formulation, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd);

// "crba" (ref::forward_dynamics: composite rigid bodies + LDLT), "strobe" (M by strobing the modified N-E, h by one N-E run, Eigen LDLT: seed 000 section 9),
// "recursive" (= "nasser", seed 001), "khalil" (seed 003 section 9.7.2).
std::vector<std::string> forward_method_names();

// Joint accelerations by the named forward method. Throws neaccel::Error for an unknown method.
Eigen::VectorXd forward_accelerations(const Robot& robot, const std::string& method, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& qd, const Eigen::VectorXd& tau);

// ref::simulate (fixed-step RK4, same steps and samples) with the accelerations of the named forward method
// ("crba" = ref::forward_dynamics, or any name of forward_method_names()).
Trajectory simulate_with_method(const Robot& robot, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                                const TorqueFn& torque, double dt, double t_end, const std::string& method);

}  // namespace neaccel::ref::forms
