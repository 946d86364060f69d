// Double-valued entry points to every formulation in ref/forms/ (for the CLI, the benchmarks and users).
// The templated algorithms are in the other headers of this folder; these wrap them for S = double.
#pragma once

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

// "strobe" (M by strobing the modified N-E, h by one N-E run, Eigen LDLT: seed 000 section 9),
// "recursive" (= "nasser", seed 001), "khalil" (seed 003 section 9.7.2).
std::vector<std::string> forward_method_names();

// Joint accelerations by the named forward method. Throws neaccel::Error for an unknown method.
Eigen::VectorXd forward_accelerations(const Robot& robot, const std::string& method, const Eigen::VectorXd& q,
                                      const Eigen::VectorXd& qd, const Eigen::VectorXd& tau);

}  // namespace neaccel::ref::forms
