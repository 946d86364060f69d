// Discrete-time model and least-squares feedback gain (seed 004 sections 2.2.1-2.3.1, 4.1).
//
//   x(k+1) = Phi x(k) + Gamma u(k),  Phi = e^{A T},  Gamma = int_0^T e^{A b} db B               (seed 004 eq 7)
//   K = (Gamma^T Q Gamma)^-1 Gamma^T Q Phi, u(k) = -K x(k)                                      (eqs 9, 10)
// realisable iff rank(Gamma^T Q Gamma) = n (eq 11); for a positive definite Q iff rank(Gamma) = n (eq 12).
// K minimises the one-step cost [Phi x + Gamma u]^T Q [Phi x + Gamma u] (eq 8) over u.
#pragma once

#include <Eigen/Core>

namespace neaccel::ref::control {

struct DiscreteModel {
  Eigen::MatrixXd Phi;    // state transition matrix (2n x 2n)
  Eigen::MatrixXd Gamma;  // input gain matrix (2n x n)
};

// Exact zero-order-hold discretisation with Eigen's matrix exponential (unsupported/Eigen/MatrixFunctions) of
// the augmented matrix [[A, B], [0, 0]] T, whose exponential is [[Phi, Gamma], [0, I]]. T > 0 or Error.
DiscreteModel discretize(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double T);

// The truncated series of seed 004 section 4.1: Phi = sum_{k=0}^{m} A^k T^k / k! (eq 13),
// Gamma = [sum_{k=0}^{m} A^k T^{k+1} / (k+1)!] B (eq 14), m = order >= 0.
DiscreteModel discretize_series(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double T, int order);

// K = (Gamma^T Q Gamma)^-1 Gamma^T Q Phi with Q = diag(q_diag) (eq 10). Throws neaccel::Error when a weight is not
// positive and finite, or when rank(Gamma^T Q Gamma) < n (eq 11; with Q positive definite this is rank(Gamma) < n,
// eq 12), naming the rank found.
Eigen::MatrixXd feedback_gain(const DiscreteModel& model, const Eigen::VectorXd& q_diag);

// Closed-loop transition matrix Phi^c = Phi - Gamma K (section 2.3.1: Phi, Gamma of the actual plant, K from the
// model) and its spectral radius (stable iff < 1).
Eigen::MatrixXd closed_loop(const DiscreteModel& plant, const Eigen::MatrixXd& K);
double spectral_radius(const Eigen::MatrixXd& m);

}  // namespace neaccel::ref::control
