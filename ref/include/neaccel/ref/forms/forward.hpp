// O(n) recursive forward dynamics: joint accelerations qdd from q, qd and the applied joint torques tau
// (the torque model of dynamics.hpp: tau = M qdd + C qd + G + Fv qd + Fc sgn(qd) + J^T wrench, rotor inertia in M).
//
// nasser_forward (seed 001): in the joint frames (joint_frames.hpp), the inbound pass eliminates the hinge
//   acceleration of each link from its 6x6 equation L_i U_i = F_i (eq. 2.1.19): since L_i is the identity with
//   its Z column replaced, G_i = L_i^-1 costs one division; A*_{i+1,i-1} and B*_{i+1,i-1} (eq. 2.1.19.4-7) carry
//   the reduced inertia and forcing to the parent; the outbound pass solves qdd_i = Z^T G_i F_i (eq. 2.1.20).
//   Revolute and prismatic joints, topological trees (section 2.3: children's A*, B* summed at the root link).
// khalil_forward (seed 003 section 9.7.2, eqs. 9.100-9.124): the same elimination written with Khalil's
//   symbols: screw transforms T, J*_j, H_j = a_j^T J*_j a_j + Ia_j, K_j, alpha_j, beta*_j, gamma_j, and the joint
//   screw a_j as a 6-vector.
// Both are templated on S and divide through forms::reciprocal (division.hpp). in.qdd is ignored.
#pragma once

#include "neaccel/ref/forms/division.hpp"
#include "neaccel/ref/forms/joint_frames.hpp"

#include <vector>

namespace neaccel::ref::forms {

template <class S>
std::vector<S> nasser_forward(const ModelT<S>& m, const JointInputs<S>& in, const std::vector<S>& tau);

template <class S>
std::vector<S> khalil_forward(const ModelT<S>& m, const JointInputs<S>& in, const std::vector<S>& tau);

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/forward_impl.hpp"  // IWYU pragma: export
