// Linearisation of the manipulator dynamics about a desired trajectory (seed 004 section 2.2.1, eqs 2-6).
//
// The dynamics M(q) qdd + f(q, qd) = tau (seed 004 eq 1) perturbed about (q_d, qd_d, qdd_d) give
//   M_d dqdd + [qdd_d dM/dq + df/dq]_d dq + [df/dqd]_d dqd = dtau                          (eq 2)
// and with the state x = (dq, dqd), the input u = dtau:  xdot = A x + B u                   (eq 4)
//   A = [[0, I], [-M_d^-1 (qdd_d dM/dq + df/dq), -M_d^-1 df/dqd]],  B = [[0], [M_d^-1]]     (eqs 5, 6)
// (the OCR of eq 5 lost the minus signs and the product with M^-1; they follow from eq 2).
//
// qdd_d dM/dq + df/dq = d tau / d q and df/dqd = d tau / d qd at fixed qdd (seed 004 eq 20). They are computed by
// forward-mode automatic differentiation: the templated modified Newton-Euler recursion (seed 000 section 7) runs
// in the Dual scalar, one pass per direction (2n passes), so the derivatives come from the same source as the
// torques. M_d is the inertia matrix by strobing (seed 000 section 8).
#pragma once

#include "neaccel/ref/control/dual.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <vector>

namespace neaccel::ref::control {

struct Linearization {
  Eigen::MatrixXd M;         // M(q_d) (n x n), rotor inertias included
  Eigen::MatrixXd dtau_dq;   // qdd_d dM/dq + df/dq (n x n), seed 004 eq 20
  Eigen::MatrixXd dtau_dqd;  // df/dqd (n x n)
  Eigen::MatrixXd A;         // 2n x 2n, eq 5
  Eigen::MatrixXd B;         // 2n x n, eq 6
};

// Linearisation of the robot's dynamics at (q, qd, qdd). Throws neaccel::Error for a wrong vector length, a
// non-finite entry or an inertia matrix that is not positive definite.
Linearization linearize(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                        const Eigen::VectorXd& qdd);

// d tau / d q and d tau / d qd only (2n dual passes of the modified Newton-Euler recursion).
void tau_jacobians(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                   Eigen::MatrixXd& dtau_dq, Eigen::MatrixXd& dtau_dqd);

// Which input a dual pass differentiates with respect to.
enum class Direction { Q, Qd };

// The joint inputs in Dual<S> for the derivative along q_j or qd_j (0-based j): d sin(theta)/dq = cos(theta),
// d cos(theta)/dq = -sin(theta) for a revolute joint, dq/dq = 1 for a prismatic one, dqd/dqd = 1.
template <class S>
JointInputs<Dual<S>> dual_inputs(const Robot& robot, const JointInputs<S>& in, Direction dir, std::size_t j) {
  const std::size_t n = static_cast<std::size_t>(robot.dof());  // one entry per coordinate (mimic joints coupled)
  const std::vector<int> links = coordinate_links(robot);
  JointInputs<Dual<S>> out;
  const Dual<S> zero(0.0);
  out.s.assign(n, zero), out.c.assign(n, zero), out.q.assign(n, zero);
  out.qd.assign(n, zero), out.qdd.assign(n, zero), out.sgn_qd.assign(n, zero);
  for (std::size_t i = 0; i < n; ++i) {
    const bool along_q = dir == Direction::Q && i == j;
    if (robot.links[static_cast<std::size_t>(links[i])].joint == JointType::Revolute) {
      out.s[i] = Dual<S>(in.s[i], along_q ? in.c[i] : S(0.0));
      out.c[i] = Dual<S>(in.c[i], along_q ? -in.s[i] : S(0.0));
    } else {
      out.q[i] = Dual<S>(in.q[i], S(along_q ? 1.0 : 0.0));
    }
    out.qd[i] = Dual<S>(in.qd[i], S(dir == Direction::Qd && i == j ? 1.0 : 0.0));
    out.qdd[i] = Dual<S>(in.qdd[i], S(0.0));
    out.sgn_qd[i] = Dual<S>(in.sgn_qd[i], S(0.0));  // sgn is flat away from qd = 0
  }
  return out;
}

// The model in Dual<S>: every parameter a constant (zero derivative).
template <class S>
ModelT<Dual<S>> dual_model(const ModelT<S>& m) {
  ModelT<Dual<S>> out;
  out.robot = m.robot;
  auto c = [](const S& x) { return Dual<S>(x, S(0.0)); };
  for (const LinkParams<S>& L : m.links) {
    out.links.push_back(LinkParams<Dual<S>>{
        c(L.a), c(L.d), c(L.b), c(L.salpha), c(L.calpha), c(L.sgamma), c(L.cgamma), c(L.stheta0), c(L.ctheta0),
        c(L.rxx), c(L.rxy), c(L.rxz), c(L.ryx), c(L.ryy), c(L.ryz), c(L.rzx), c(L.rzy), c(L.rzz),
        c(L.XX), c(L.XY), c(L.XZ), c(L.YY), c(L.YZ), c(L.ZZ), c(L.MX), c(L.MY), c(L.MZ), c(L.M),
        c(L.cx), c(L.cy), c(L.cz), c(L.Ixx), c(L.Ixy), c(L.Ixz), c(L.Iyy), c(L.Iyz), c(L.Izz),
        c(L.Ia), c(L.Fv), c(L.Fc), c(L.px), c(L.py), c(L.pz), c(L.mrx), c(L.mry), c(L.mrz),
        c(L.Kxx), c(L.Kyy), c(L.Kzz), c(L.Kxy), c(L.Kxz), c(L.Kyz)});
  }
  out.gx = c(m.gx), out.gy = c(m.gy), out.gz = c(m.gz);
  out.fex = c(m.fex), out.fey = c(m.fey), out.fez = c(m.fez);
  out.nex = c(m.nex), out.ney = c(m.ney), out.nez = c(m.nez);
  return out;
}

// One dual pass: column j of d tau / d q (dir = Q) or d tau / d qd (dir = Qd), as S values.
template <class S>
std::vector<S> tau_derivative(const ModelT<Dual<S>>& model, const JointInputs<S>& in, Direction dir, std::size_t j) {
  const std::vector<Dual<S>> tau = modified_ne(model, dual_inputs(*model.robot, in, dir, j));
  std::vector<S> col;
  col.reserve(tau.size());
  for (const Dual<S>& t : tau) col.push_back(t.d);
  return col;
}

}  // namespace neaccel::ref::control
