#include "neaccel/ref/control/controller.hpp"

#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"

#include <cmath>
#include <string>

namespace neaccel::ref::control {

AdaptiveParams default_params(int dof, double T) {
  AdaptiveParams p;
  p.eps0 = 2e-4;
  p.eps1 = 2e-3;
  p.eps2 = 0.5;
  p.a = Eigen::VectorXd::Ones(2 * dof);
  p.a.tail(dof).setConstant(0.1);
  p.Q0 = Eigen::VectorXd::Ones(2 * dof);
  p.Q0.head(dof).setConstant(1.0 / (T * T));
  return p;
}

void check_params(const AdaptiveParams& p, int dof) {
  if (p.a.size() != 2 * dof) throw Error("control: norm weights a need " + std::to_string(2 * dof) + " entries");
  if (p.Q0.size() != 2 * dof) throw Error("control: Q0 needs " + std::to_string(2 * dof) + " entries");
  if (!(p.a.array() > 0.0).all() || !p.a.allFinite()) throw Error("control: norm weights a must be positive");
  if (!(p.Q0.array() > 0.0).all() || !p.Q0.allFinite()) throw Error("control: Q0 must be positive");
  if (!(0.0 <= p.eps0 && p.eps0 < p.eps1 && p.eps1 < p.eps2) || !std::isfinite(p.eps2))
    throw Error("control: thresholds must satisfy 0 <= eps0 < eps1 < eps2 (seed 004 section 2.3)");
}

GainUpdate gain_at(const Robot& robot, const DesiredTrajectory& d, std::size_t k, const Eigen::VectorXd& q_diag) {
  const Linearization lin = linearize(robot, d.q[k], d.qd[k], d.qdd[k]);
  GainUpdate g;
  g.model = discretize(lin.A, lin.B, d.T);
  g.K = feedback_gain(g.model, q_diag);
  return g;
}

namespace {

void check_setup(const ControlSetup& s) {
  const int n = s.model.dof();
  if (s.plant.dof() != n) throw Error("control: model and plant have different numbers of joints");
  const DesiredTrajectory& d = s.desired;
  if (d.t.size() < 2 || d.q.size() != d.t.size() || d.qd.size() != d.t.size() || d.qdd.size() != d.t.size() ||
      d.ee.size() != d.t.size())
    throw Error("control: desired trajectory needs at least two samples of q, qd, qdd and ee");
  if (!(d.T > 0.0)) throw Error("control: desired trajectory has no sampling period");
  if (s.disturbance.size() != n) throw Error("control: disturbance needs " + std::to_string(n) + " entries");
  if (s.substeps < 1) throw Error("control: substeps must be at least 1");
  if (s.feedback) check_params(s.params, n);
}

// Q_ii = Q0_ii (1 + |x_i|max / max over the block of |x_j|max).
Eigen::VectorXd adapt_q(const Eigen::VectorXd& Q0, const Eigen::VectorXd& xmax, int n) {
  Eigen::VectorXd Q = Q0;
  for (int block = 0; block < 2; ++block) {
    const double m = xmax.segment(block * n, n).maxCoeff();
    if (m > 0.0) Q.segment(block * n, n).array() *= 1.0 + xmax.segment(block * n, n).array() / m;
  }
  return Q;
}

}  // namespace

ControlRun run_control(const ControlSetup& s) {
  check_setup(s);
  const int n = s.model.dof();
  const DesiredTrajectory& d = s.desired;
  const double T = d.T;
  const FeedforwardFn ff = s.feedforward ? s.feedforward
                                          : FeedforwardFn([&](const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                                              const Eigen::VectorXd& qdd) {
                                              return inverse_dynamics(s.model, q, qd, qdd);
                                            });
  ControlRun run;
  Eigen::VectorXd q = d.q[0], qd = d.qd[0];
  Eigen::VectorXd xmax = Eigen::VectorXd::Zero(2 * n);
  Eigen::MatrixXd K;
  auto update = [&](std::size_t k) {
    const Eigen::VectorXd Q = adapt_q(s.params.Q0, xmax, n);
    if (s.linearize) {
      const Linearization lin = s.linearize(d.q[k], d.qd[k], d.qdd[k]);
      K = feedback_gain(discretize(lin.A, lin.B, T), Q);
    } else {
      K = gain_at(s.model, d, k, Q).K;
    }
    // Section 2.3.1: Phi^c with the actual plant's Phi, Gamma.
    const Linearization lp = linearize(s.plant, d.q[k], d.qd[k], d.qdd[k]);
    run.max_rho = std::max(run.max_rho, spectral_radius(closed_loop(discretize(lp.A, lp.B, T), K)));
    xmax.setZero();
    ++run.updates;
  };
  if (s.feedback) update(0);
  for (std::size_t k = 0; k < d.t.size(); ++k) {
    Eigen::VectorXd x(2 * n);
    x << q - d.q[k], qd - d.qd[k];
    const double norm = s.feedback ? s.params.a.dot(x.cwiseAbs()) : x.cwiseAbs().sum();
    run.t.push_back(d.t[k]);
    run.q.push_back(q);
    run.qd.push_back(qd);
    run.ee.push_back(end_effector(s.plant, q));
    run.norm_x.push_back(norm);
    run.max_joint_error = std::max(run.max_joint_error, x.head(n).cwiseAbs().maxCoeff());
    run.max_ee_error = std::max(run.max_ee_error, (run.ee.back() - d.ee[k]).norm());
    const Eigen::VectorXd tau_ff = ff(d.q[k], d.qd[k], d.qdd[k]);
    Eigen::VectorXd u = Eigen::VectorXd::Zero(n);
    int action = 0;
    if (!x.allFinite() || (s.feedback && norm > s.params.eps2)) {  // excessive error: terminate
      run.aborted = true;
      run.abort_time = d.t[k];
      run.tau_ff.push_back(tau_ff);
      run.u.push_back(u);
      run.action.push_back(action);
      break;
    }
    if (s.feedback) {
      xmax = xmax.cwiseMax(x.cwiseAbs());
      if (norm < s.params.eps0) {
        ++run.skips;
      } else {
        action = 1;
        if (norm > s.params.eps1) {
          update(k);
          action = 2;
        }
        u = -K * x;  // seed 004 eq 9
      }
    }
    run.tau_ff.push_back(tau_ff);
    run.u.push_back(u);
    run.action.push_back(action);
    if (k + 1 == d.t.size()) break;
    const Eigen::VectorXd tau = tau_ff + u + s.disturbance.cwiseProduct(tau_ff);
    const Trajectory step = simulate(
        s.plant, q, qd, [&](double, const Eigen::VectorXd&, const Eigen::VectorXd&) { return tau; },
        T / s.substeps, T);
    q = step.q.back();
    qd = step.qd.back();
  }
  return run;
}

}  // namespace neaccel::ref::control
