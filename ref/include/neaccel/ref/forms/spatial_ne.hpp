// Nasser's 6x6 recursive Newton-Euler (seed 001), inverse-dynamics form.
//
// Outbound: q_i = P_i^T R*^T q_parent + sigma*_i + Z_i qdd_i (seed 001 eq. 2.1.13, with q = [v_dot; omega_dot]
// the classical accelerations of the joint frame's origin). Inbound: the reaction load of link i,
// U_i = A_{i,i-1} q_i + B_{i,i-1} + sum over children of (R* P U_child)  (eq. 2.1.7.3 with the hinge
// acceleration known), and tau_i = Z_i^T U_i plus the actuator terms. Links may form a tree.
#pragma once

#include "neaccel/ref/forms/joint_frames.hpp"

#include <vector>

namespace neaccel::ref::forms {

// What the inverse dynamics include. Strobing (strobe.hpp) switches parts off (seed 000 end of section 8).
struct IdTerms {
  bool gravity = true;
  bool external_wrench = true;
  bool friction = true;  // viscous and Coulomb; the rotor inertia Ia always stays (it is part of M)
};

// Joint torques tau (size dof) of the robot in m at the state in, by the 6x6 spatial recursion.
template <class S>
std::vector<S> spatial_ne_inverse(const ModelT<S>& m, const JointInputs<S>& in, const IdTerms& terms = {});

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/spatial_ne_impl.hpp"  // IWYU pragma: export
