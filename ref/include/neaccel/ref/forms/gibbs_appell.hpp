// Gibbs-Appell equations of Horowitz and Tomizuka (seed 000 eq. 3.14), evaluated as written: for every link q
// the acceleration of its centre of mass and its angular acceleration are assembled from the Jacobian columns,
//   abar_q  = sum_j (z_j x pbar_j^q) qdd_j + sum_{j,k} (z_u x (z_v x pbar_v^q)) qd_j qd_k,  u = min, v = max,
//   alpha_q = sum_j z_j qdd_j + sum_{u<v} (z_u x z_v) qd_u qd_v,
// and tau_i = sum_q [ (z_i x pbar_i^q) . m_q abar_q + z_i . (I_q alpha_q + omega_q x I_q omega_q) ] (the partial
// derivatives of the Gibbs function S = sum 1/2 m abar^2 + 1/2 alpha I alpha + alpha . (omega x I omega)).
// Prismatic joints use the generalised columns (angular 0, linear z); links may form a tree. O(n^3).
#pragma once

#include "neaccel/ref/forms/base_frames.hpp"

#include <vector>

namespace neaccel::ref::forms {

template <class S>
std::vector<S> gibbs_appell(const ModelT<S>& m, const JointInputs<S>& in);

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/gibbs_appell_impl.hpp"  // IWYU pragma: export
