// The Lagrange equations of Uicker and Lewis with 4x4 matrices (seed 000 eq. 3.1; seed 002 eq. 2.4-2.15),
// evaluated with the strategy of seed 000 Appendix A (O(n^3)):
//   1. all products T_j^k along the chains (pairs, then triples, ...);
//   2. U_qj = dT_0^q / dq_j = T_0^{j'} Q_j T_{j'}^q (j' = the frame whose z is joint j's axis: j-1 for standard
//      DH, j for modified DH; Q_j = the derivative operator, free: a row exchange and a negation);
//   3. U_qjk = d^2 T_0^q / dq_j dq_k = U_{k' j} Q_k T_{k'}^q (j <= k), one product each;
//   4. W_q = sum_j U_qj qdd_j + sum_{j,k} U_qjk qd_j qd_k  (= d^2 T_0^q / dt^2), then W_q J_q;
//   5. tau_i = sum_{q>=i} Tr{W_q J_q U_qi^T} - sum_{q>=i} g^T U_qi m_q rbar_q.
// J_q is the 4x4 pseudo-inertia (seed 000 eq. 2.37). 4x4 homogeneous matrices are stored as their top three
// rows; a product of transforms then costs 36 mul + 27 add instead of the 64 + 48 of a full 4x4 product.
// Links may form a tree (the sums run over each link's chain of joints).
#pragma once

#include "neaccel/ref/forms/common.hpp"

#include <vector>

namespace neaccel::ref::forms {

// Joint torques by eq. 3.1.
template <class S>
std::vector<S> lagrange(const ModelT<S>& m, const JointInputs<S>& in);

// The Lagrange-Euler dynamic coefficients (seed 002 eq. 2.11-2.15), from the same U_qj, U_qjk:
//   D_ik   = sum_q Tr{U_qk J_q U_qi^T}              (the inertia matrix, rotor inertia Ia added on the diagonal)
//   h_ikm  = sum_q Tr{U_qkm J_q U_qi^T}             (= the Christoffel symbols C^i_km of the first kind)
//   c_i    = -sum_q m_q g^T U_qi rbar_q              (gravity)
// so that tau = D qdd + sum_km h_ikm qd_k qd_m + c (+ friction, + external wrench).
template <class S>
struct LagrangeCoefficients {
  int n = 0;
  std::vector<S> D;  // n x n, D[i * n + k]
  std::vector<S> h;  // n x n x n, h[(i * n + k) * n + m]
  std::vector<S> c;  // n
  const S& D_at(int i, int k) const { return D[static_cast<std::size_t>(i * n + k)]; }
  const S& h_at(int i, int k, int m) const { return h[static_cast<std::size_t>((i * n + k) * n + m)]; }
};

template <class S>
LagrangeCoefficients<S> lagrange_coefficients(const ModelT<S>& m, const JointInputs<S>& in);

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/lagrange_impl.hpp"  // IWYU pragma: export
