#include "neaccel/ref/control/discrete.hpp"

#include "neaccel/ref/error.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/QR>
#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <string>

namespace neaccel::ref::control {

namespace {
void check_shapes(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double T) {
  if (!(T > 0.0) || !std::isfinite(T)) throw Error("discretize: sampling period T must be positive and finite");
  if (A.rows() != A.cols() || B.rows() != A.rows())
    throw Error("discretize: A must be square and B must have as many rows as A");
  if (!A.allFinite() || !B.allFinite()) throw Error("discretize: A or B has a non-finite entry");
}
}  // namespace

DiscreteModel discretize(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double T) {
  check_shapes(A, B, T);
  const Eigen::Index s = A.rows(), m = B.cols();
  Eigen::MatrixXd aug = Eigen::MatrixXd::Zero(s + m, s + m);
  aug.topLeftCorner(s, s) = A * T;
  aug.topRightCorner(s, m) = B * T;
  const Eigen::MatrixXd E = aug.exp();
  return {E.topLeftCorner(s, s), E.topRightCorner(s, m)};
}

DiscreteModel discretize_series(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double T, int order) {
  check_shapes(A, B, T);
  if (order < 0) throw Error("discretize_series: order must be >= 0");
  const Eigen::Index s = A.rows();
  Eigen::MatrixXd term = Eigen::MatrixXd::Identity(s, s);  // A^k T^k / k!
  Eigen::MatrixXd Phi = term;
  Eigen::MatrixXd G = term * T;  // sum A^k T^{k+1} / (k+1)!
  for (int k = 1; k <= order; ++k) {
    term = term * A * (T / k);
    Phi += term;
    G += term * (T / (k + 1));
  }
  return {Phi, G * B};
}

Eigen::MatrixXd feedback_gain(const DiscreteModel& model, const Eigen::VectorXd& q_diag) {
  const Eigen::MatrixXd& G = model.Gamma;
  if (q_diag.size() != G.rows())
    throw Error("feedback gain: Q needs " + std::to_string(G.rows()) + " diagonal weights, got " +
                std::to_string(q_diag.size()));
  for (Eigen::Index i = 0; i < q_diag.size(); ++i)
    if (!(q_diag[i] > 0.0) || !std::isfinite(q_diag[i]))
      throw Error("feedback gain: Q weight " + std::to_string(i + 1) + " must be positive and finite");
  // K = (Gamma^T Q Gamma)^-1 Gamma^T Q Phi is the least-squares solution of Q^1/2 Gamma K = Q^1/2 Phi; solving
  // that with a column-pivoting QR avoids squaring the condition number (the PUMA 560's inertia matrix alone has
  // a condition number near 1e5, its wrist inertias are 1e-4 of the base's). rank(Gamma^T Q Gamma) =
  // rank(Q^1/2 Gamma) (eqs 11-12).
  const Eigen::VectorXd sq = q_diag.cwiseSqrt();
  const Eigen::MatrixXd Gs = sq.asDiagonal() * G;
  Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(Gs);
  qr.setThreshold(1e-10);  // relative to the largest pivot; Gamma is accurate to ~1e-15 relative
  if (qr.rank() < G.cols())
    throw Error("feedback gain: rank(Gamma^T Q Gamma) = " + std::to_string(qr.rank()) + " < n = " +
                std::to_string(G.cols()) + " (seed 004 eq 11): some joint torque does not move the state (eq 12)");
  return qr.solve(Eigen::MatrixXd(sq.asDiagonal() * model.Phi));
}

Eigen::MatrixXd closed_loop(const DiscreteModel& plant, const Eigen::MatrixXd& K) {
  return plant.Phi - plant.Gamma * K;
}

double spectral_radius(const Eigen::MatrixXd& m) {
  return Eigen::EigenSolver<Eigen::MatrixXd>(m, false).eigenvalues().cwiseAbs().maxCoeff();
}

}  // namespace neaccel::ref::control
