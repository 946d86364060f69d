// Feedforward + adaptive least-squares feedback (seed 004 sections 2.1-2.3) around a simulated plant.
//
// Every control period T, with x = (q - q_d, qd - qd_d) measured at t_k (seed 004 section 2.3):
//   ||x|| = sum_i a_i |x_i|
//   ||x|| <  eps0: skip the torque feedback (u = 0)
//   ||x|| >  eps1: update Phi, Gamma (linearised at the current desired point, eqs 5-7), Q and K (eq 10)
//   ||x|| >  eps2: excessive error, terminate
//   otherwise:     u = -K x with the current K
// Q update: Q_ii = Q0_ii (1 + |x_i|max / max_j |x_j|max), |x|max over the samples since the last update, the max
// over the same block (positions or velocities): the diagonal grows in proportion to the largest state errors.
// The torque tau = tau_ff(t_k) + u + disturbance is held over the period (zero-order hold); the plant integrates
// with RK4 (ref::simulate) in `substeps` steps per period. Stability (section 2.3.1): at every update the
// spectral radius of Phi^c = Phi_plant - Gamma_plant K is recorded (Phi, Gamma of the actual plant).
#pragma once

#include "neaccel/ref/control/discrete.hpp"
#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/control/trajectory.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace neaccel::ref::control {

struct AdaptiveParams {
  double eps0 = 0.0, eps1 = 0.0, eps2 = 0.0;  // thresholds on ||x||, eps0 < eps1 < eps2
  Eigen::VectorXd a;                          // norm weights (2n, positive)
  Eigen::VectorXd Q0;                         // base diagonal of Q (2n, positive)
};

// Defaults for period T: a_i = 1 (positions, rad or m), 0.1 s (velocities); Q0 = 1/T^2 (positions), 1
// (velocities), which places the closed-loop pole of a double integrator at 0.6 (docs/control.md); eps0 = 2e-4,
// eps1 = 2e-3, eps2 = 0.5.
AdaptiveParams default_params(int dof, double T);

// Checks sizes, positivity and eps0 < eps1 < eps2; throws neaccel::Error naming the field.
void check_params(const AdaptiveParams& p, int dof);

// Feedforward torques at a desired point (the computed-torque inverse dynamics of the model, seed 004 eq 1).
using FeedforwardFn = std::function<Eigen::VectorXd(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                                    const Eigen::VectorXd& qdd)>;

// The linearisation at a desired point (M, dtau/dq, dtau/dqd, A, B as ref::control::linearize returns them).
using LinearizeFn = std::function<Linearization(const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                                const Eigen::VectorXd& qdd)>;

struct ControlSetup {
  Robot model;                 // what the controller believes (feedforward, A, B)
  Robot plant;                 // what is simulated
  DesiredTrajectory desired;   // sampled at the control period desired.T
  Eigen::VectorXd disturbance; // relative input disturbance per joint: tau_plant = tau + disturbance .* tau_ff
  bool feedback = true;
  AdaptiveParams params;
  int substeps = 5;            // RK4 steps per control period
  FeedforwardFn feedforward;   // empty: ref::inverse_dynamics(model, ...)
  LinearizeFn linearize;       // the gain updates' linearisation; empty: ref::control::linearize(model, ...)
};

struct ControlRun {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, qd;          // actual joint state at t_k
  std::vector<Eigen::VectorXd> tau_ff, u;      // feedforward and feedback torques applied over [t_k, t_k+1)
  std::vector<Eigen::Vector3d> ee;             // actual end effector (plant kinematics)
  std::vector<double> norm_x;                  // ||x|| at t_k
  std::vector<int> action;                     // 0 skip, 1 feedback with the current K, 2 update + feedback
  int updates = 0, skips = 0;
  bool aborted = false;
  double abort_time = 0.0;
  double max_joint_error = 0.0;                // max_k max_i |q_i - q_d,i|
  double max_ee_error = 0.0;                   // max_k |ee - ee_d| (m)
  double max_rho = 0.0;                        // max spectral radius of Phi^c over the updates
};

// Runs the loop over the whole desired trajectory (or until eps2 aborts it). The plant starts at the desired
// initial state. Throws neaccel::Error for inconsistent inputs (dof mismatch, bad parameters).
ControlRun run_control(const ControlSetup& setup);

// One gain update at desired point k: Phi, Gamma from the model, K for weights q_diag (eq 10).
struct GainUpdate {
  DiscreteModel model;
  Eigen::MatrixXd K;
};
GainUpdate gain_at(const Robot& robot, const DesiredTrajectory& d, std::size_t k, const Eigen::VectorXd& q_diag);

}  // namespace neaccel::ref::control
