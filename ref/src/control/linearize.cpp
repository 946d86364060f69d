#include "neaccel/ref/control/linearize.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"

#include <Eigen/Cholesky>

namespace neaccel::ref::control {

void tau_jacobians(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                   Eigen::MatrixXd& dtau_dq, Eigen::MatrixXd& dtau_dqd) {
  check_vector(robot, q, "q");
  check_vector(robot, qd, "qd");
  check_vector(robot, qdd, "qdd");
  const ModelT<Dual<double>> model = dual_model(model_of(robot));
  const JointInputs<double> in = joint_inputs(robot, q, qd, qdd);
  const auto n = static_cast<std::size_t>(robot.dof());
  dtau_dq.resize(robot.dof(), robot.dof());
  dtau_dqd.resize(robot.dof(), robot.dof());
  for (std::size_t j = 0; j < n; ++j) {
    const std::vector<double> cq = tau_derivative(model, in, Direction::Q, j);
    const std::vector<double> cqd = tau_derivative(model, in, Direction::Qd, j);
    for (std::size_t i = 0; i < n; ++i) {
      dtau_dq(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = cq[i];
      dtau_dqd(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = cqd[i];
    }
  }
}

Linearization linearize(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qdd) {
  Linearization lin;
  tau_jacobians(robot, q, qd, qdd, lin.dtau_dq, lin.dtau_dqd);
  lin.M = mass_matrix_strobing(robot, q);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(lin.M);
  if (ldlt.info() != Eigen::Success || !ldlt.isPositive() || (ldlt.vectorD().array() <= 0.0).any())
    throw Error("linearize: the inertia matrix of robot '" + robot.name + "' is not positive definite at this q");
  const Eigen::Index n = robot.dof();
  const Eigen::MatrixXd Minv = ldlt.solve(Eigen::MatrixXd::Identity(n, n));
  lin.A = Eigen::MatrixXd::Zero(2 * n, 2 * n);
  lin.A.topRightCorner(n, n).setIdentity();
  lin.A.bottomLeftCorner(n, n) = -Minv * lin.dtau_dq;     // seed 004 eq 5
  lin.A.bottomRightCorner(n, n) = -Minv * lin.dtau_dqd;  // seed 004 eq 5
  lin.B = Eigen::MatrixXd::Zero(2 * n, n);
  lin.B.bottomRows(n) = Minv;  // seed 004 eq 6
  return lin;
}

}  // namespace neaccel::ref::control
