// Generalized d'Alembert equations of motion (Lee, Lee and Nigam; seed 002 section 4):
//   sum_j D_ij qdd_j + h_i^tran + h_i^rot + c_i = tau_i                                       (eq. 4.1)
// with, in the base frame (z_{i-1}, p_{i-1}: joint i's axis and a point on it; rbar_s: centre of mass of s),
//   D_ij = sum_s (z_i . I_s z_j) + m_s (z_j x (rbar_s - p_j)) . (z_i x (rbar_s - p_i))         (eq. 4.2)
//   h_i^tran = sum_s m_s abar_s^v . (z_i x (rbar_s - p_i))   abar^v: velocity-product acceleration (eq. 4.3)
//   h_i^rot  = sum_s z_i . (I_s alpha_s^v + omega_s x I_s omega_s)                            (eq. 4.4)
//   c_i      = -g . (z_i x sum_s m_s (rbar_s - p_i))                                           (eq. 4.5)
// The velocity-product accelerations are accumulated link by link as the nested sums of eq. 4.3/4.4 do
// (sum_p [sum_{q<p} qd_q z_q] x qd_p z_p is alpha^v). Prismatic joints use the generalised columns (the paper
// treats rotary joints only); links may form a tree. Each term is returned separately: their physical meaning
// (inertial coupling, translational and rotational velocity effects, gravity loading) is the point.
#pragma once

#include "neaccel/ref/forms/base_frames.hpp"

#include <vector>

namespace neaccel::ref::forms {

template <class S>
struct DalembertTerms {
  int n = 0;
  std::vector<S> D;                   // n x n, row-major: D[i * n + j]
  std::vector<S> h_tran, h_rot, c;    // size n
  std::vector<S> tau;                 // D qdd + h_tran + h_rot + c + external wrench + actuator terms
  const S& D_at(int i, int j) const { return D[static_cast<std::size_t>(i * n + j)]; }
};

template <class S>
DalembertTerms<S> dalembert_terms(const ModelT<S>& m, const JointInputs<S>& in);

// Only the torques (the formulation as an inverse dynamics).
template <class S>
std::vector<S> dalembert(const ModelT<S>& m, const JointInputs<S>& in) {
  return dalembert_terms(m, in).tau;
}

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/dalembert_impl.hpp"  // IWYU pragma: export
