// Hollerbach's recursive Lagrange formulation with 3x3 rotation matrices (seed 000 eqs. 3.2-3.6).
//
// Forward, base to tip, in the base frame (eqs. 3.5, 3.6; B = the frame whose z is joint j's axis, Q = Q^z):
//   dR_A/dt   = (dR_B/dt + R_B Q qd_j) Rz                                                       (3.6)
//   d2R_A/dt2 = (d2R_B/dt2 + 2 dR_B/dt Q qd_j + R_B (Q^2 qd_j^2 + Q qdd_j)) Rz                  (3.5)
//   d2p/dt2   = d2p_B/dt2 + d2R_B/dt2 z d  (+ 2 dR_B/dt z qd + R_B z qdd for a prismatic joint)
// then the constant part of the DH transform. Backward, tip to base:
//   e_i = e_{i+1} + m_i d2p_i/dt2 + d2R_i/dt2 m_i rbar_i                                        (3.4)
//   D_i = R_i^{i+1} D_{i+1} + r_i e_{i+1}^T + K_i (d2R_i/dt2)^T + m_i rbar_i (d2p_i/dt2)^T        (3.3)
//   tau_i = Tr{dR_i/dq_i D_i} + e_i . dp_i/dq_i                                                  (3.2)
// with K_i the second moment about the origin of frame i and r_i the origin of frame i+1 in frame i. This is
// eq. 3.3 with the seed's corrections regrouped (seed 000 eq. 5.1): J_i (d2R)^T and the three m_i rbar_i, m_i r_i
// terms become K_i (d2R)^T + m_i rbar_i (d2p)^T when the moments are taken about O_i, which keeps the recursion
// in the same form for both DH conventions; the translational term e_i . dp_i/dq_i is what the 3x3 split adds to
// the 4x4 trace (it vanishes for modified DH, whose joint axis passes through O_i). Gravity is the base
// acceleration d2p_0/dt2 = -g. Trees: the sums over i+1 run over the children.
#pragma once

#include "neaccel/ref/forms/common.hpp"

#include <vector>

namespace neaccel::ref::forms {

template <class S>
std::vector<S> recursive_lagrange(const ModelT<S>& m, const JointInputs<S>& in);

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/recursive_lagrange_impl.hpp"  // IWYU pragma: export
