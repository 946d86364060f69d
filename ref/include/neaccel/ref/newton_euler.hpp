// The Newton-Euler inverse dynamics of Luh, Walker and Paul (seed 000 section 3.3, eqs 3.7-3.13).
//
//   forward, base to tip:  omega_i (3.7), alpha_i (3.8),
//                          a_i    = omega_i x (omega_i x r_i) + alpha_i x r_i + R a_{i-1}         (3.9)
//                          abar_i = omega_i x (omega_i x rbar_i) + alpha_i x rbar_i + a_i        (3.10)
//   backward, tip to base: f_i = m_i abar_i + R f_{i+1}                                           (3.11)
//                          n_i = I_i alpha_i + omega_i x (I_i omega_i) + m_i (rbar_i + r_i) x abar_i
//                                + r_i x R f_{i+1} + R n_{i+1}                                    (3.12)
//                          tau_i = (R z_{i-1})^T n_i                                              (3.13)
// I_i is the inertia about the centre of mass. Everything in frame i; standard DH moments about O_{i-1}.
// Modified DH (Craig's form of the same recursion): a_j = R^T (a_{j-1} + alpha_{j-1} x P_j + omega_{j-1} x
// (omega_{j-1} x P_j)), moments about O_j, n_j = I alpha + omega x I omega + MS_j x abar_j + sum (R n_c + P_c x R f_c).
// Prismatic joints, trees, gravity, external wrench, friction and rotor inertia as in modified_ne.hpp.
#pragma once

#include "neaccel/ref/modified_ne.hpp"

namespace neaccel::ref {

// Joint torques by the Luh-Walker-Paul recursion; results in data.tau.
template <class S>
void newton_euler(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data);

template <class S>
std::vector<S> newton_euler(const ModelT<S>& model, const JointInputs<S>& in);

}  // namespace neaccel::ref

#include "neaccel/ref/newton_euler_impl.hpp"  // IWYU pragma: export
