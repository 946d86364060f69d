// Khalil's Newton-Euler inverse dynamics, linear in the inertial parameters (seed 003 section 9.5.3,
// eqs 9.84-9.94).
//
//   forward:  ^j omega_{j-1} = ^jA_{j-1} omega_{j-1} (9.84); omega_j (9.85); omegadot_j (9.86);
//             U_j = omegadot~ + omega~ omega~ (9.90);
//             Vdot_j = ^jA_{j-1} (Vdot_{j-1} + U_{j-1} P_j) + sigma_j (qdd a_j + 2 omega_{j-1} x qd a_j) (9.87)
//             F_j = M_j Vdot_j + U_j MS_j (9.88);  M_j = J_j omegadot_j + omega_j x (J_j omega_j) + MS_j x Vdot_j (9.89)
//   backward: f_j = F_j + f_{j+1} + f_ej (9.91); m_j = M_j + A m_{j+1} + P_{j+1} x f_{j+1} + m_ej (9.93)
//             Gamma_j = (sigma f_j + sigmabar m_j)^T a_j + Fc sgn(qd) + Fv qd + Ia qdd (9.94)
// J_j is the inertia tensor about the ORIGIN of frame j, MS_j = M_j c_j (seed 003 eq 9.18-9.21): the torques are
// linear in (XX..ZZ, MX, MY, MZ, M, Ia, Fv, Fc), the basis of the base-parameter reduction.
// Modified DH is the paper's convention. Standard DH: Vdot_i = U_i r_i + R^T Vdot_{i-1} (r_i is fixed in link i,
// seed 000 eq 7.3) and the moment is carried about O_{i-1}: n_i = m_i(about O_i) + r_i x f_i, so that
// tau_i = z_{i-1} . n_i as in the other forms. Trees, gravity, external wrench as in modified_ne.hpp.
#pragma once

#include "neaccel/ref/modified_ne.hpp"

namespace neaccel::ref {

// Joint torques by Khalil's recursion; results in data.tau.
template <class S>
void khalil_ne(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data);

template <class S>
std::vector<S> khalil_ne(const ModelT<S>& model, const JointInputs<S>& in);

}  // namespace neaccel::ref

#include "neaccel/ref/khalil_ne_impl.hpp"  // IWYU pragma: export
