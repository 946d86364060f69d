// The modified Newton-Euler inverse dynamics of Turney, Mudge and Lee (seed 000 section 7, eqs 7.1-7.6).
//
// Computes the joint torques tau = M(q) qdd + C(q, qd) qd + G(q) (+ friction and rotor inertia, + the external
// wrench) with the recursion of Luh, Walker and Paul in which the acceleration terms are consolidated into the
// matrix A_i = alpha_i~ + omega_i~ omega_i~ (seed 000 eq 4.18):
//   forward, base to tip:  omega_i (7.1), alpha_i (7.2), A_i (4.18), a_i = A_i r_i + R a_{i-1} (7.3),
//                          abar_i = A_i rbar_i + a_i (7.4)
//   backward, tip to base: f_i = m_i abar_i + sum_children R f_c (7.5),
//                          n_i = Tr{A_i K_i Q^gamma^T} x_gamma + m_i (rbar_i + r_i) x abar_i + r_i x R f_c
//                                + R n_c (7.6), tau_i = z_{i-1} . n_i (3.13)
// The first term of 7.6 equals I alpha + omega x (I omega) (K = integral of rho rho^T dm about the centre of mass).
//
// Conventions (robot.hpp): standard DH as in seed 000 (vectors of link i in frame i, moments about O_{i-1});
// modified DH as in seed 003 eq 9.87 (a_j = R^T (a_{j-1} + A_{j-1} P_j), moments about O_j). Revolute joints
// (sigma = 0) and prismatic joints (sigma = 1, adding qdd z + 2 omega x qd z to a_i). Trees: the backward pass sums
// the forces and moments of all children (seed 001 section 2.3). Gravity enters as the base acceleration
// a_0 = -g (seed 003 eq 9.80). The external wrench (f_e, n_e) acts on the last link (seed 003 eq 9.91, 9.93).
// Friction and rotor inertia are added to every joint torque as in seed 003 eq 9.94:
//   tau_i += Ia_i qdd_i + Fv_i qd_i + Fc_i sgn(qd_i)
// (all three forms do this, so they agree).
//
// Templated on the scalar S (double, Counted, dfg::Value): only +, -, *, unary -, S(double). Every quantity is
// computed inside a ProvenanceScope<S>(link, quantity, "seed000 eq 7.x").
#pragma once

#include "neaccel/ref/model.hpp"
#include "neaccel/ref/ne_common.hpp"

#include <vector>

namespace neaccel::ref {

// Work space of the Newton-Euler forms (Pinocchio's Data): allocated once, reused by every call.
template <class S>
struct NeData {
  std::vector<Vec3<S>> omega, alpha, a;  // angular velocity, angular acceleration, origin acceleration (frame i)
  std::vector<ne::AccelMatrix<S>> A;     // A_i (seed 000 eq 4.18)
  std::vector<ne::DhRotation<S>> R;      // rotation between link i and its parent (sin/cos, formed once)
  std::vector<Vec3<S>> r;                // origin offset r_i (standard DH) or P_i (modified DH), formed once
  std::vector<Vec3<S>> fch, nch;         // sums over the children of R f_c and of R n_c (+ P_c x R f_c, modified DH)
  std::vector<Vec3<S>> f, n;             // force and moment exerted on link i by its parent
  std::vector<S> tau;                    // joint torques (forces for prismatic joints)
  void resize(std::size_t n_links);
};

// Joint torques by the modified Newton-Euler recursion (seed 000 eqs 7.1-7.6); results in data.tau (and the link
// quantities in data). This form works per link: `in` has one entry per link (expand_joint_inputs, model.hpp) and
// data.tau is the torque of every link, mimic joints included. Inputs: in.s/in.c (revolute), in.q (prismatic), in.qd, in.qdd, in.sgn_qd.
template <class S>
void modified_ne(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data);

// Same, returning the torques (allocates a work space), on the generalized coordinates: `in` has one entry per
// coordinate and the result one torque per coordinate (mimic joints coupled, model.hpp on_coordinates).
template <class S>
std::vector<S> modified_ne(const ModelT<S>& model, const JointInputs<S>& in);

}  // namespace neaccel::ref

#include "neaccel/ref/modified_ne_impl.hpp"  // IWYU pragma: export
