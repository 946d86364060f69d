// Template definitions for spatial_ne.hpp.
#pragma once

namespace neaccel::ref::forms {

namespace detail {
// Actuator terms with friction optionally off (strobing needs M, C, G without it).
template <class S>
S actuator_terms_with(const ModelT<S>& m, const JointInputs<S>& in, int i, const S& tau, bool friction) {
  if (friction) return actuator_terms(m, in, i, tau);
  const auto k = static_cast<std::size_t>(i);
  if (m.robot->links[k].Ia == 0.0) return tau;
  ProvenanceScope<S> scope(i + 1, "rotor", "seed003 eq 9.83");
  return tau + m.links[k].Ia * in.qdd[k];
}
}  // namespace detail

template <class S>
std::vector<S> spatial_ne_inverse(const ModelT<S>& m, const JointInputs<S>& in, const IdTerms& terms) {
  check_inputs("spatial_ne", m, in);
  const std::vector<JointFrame<S>> jf = joint_frames(m, in);
  const std::size_t n = jf.size();
  std::vector<Vec3<S>> omega, omega_par;
  joint_frame_velocities(jf, in, omega, omega_par);
  // Base motion: the gravity trick (seed 003 eq. 9.80: V_dot_0 = -g).
  const Vec6<S> q0 = terms.gravity ? vec6<S>(vec3<S>(-m.gx, -m.gy, -m.gz), zero3<S>()) : zero6<S>();
  std::vector<Vec6<S>> q(n), U(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = jf[i].parent;
    {
      ProvenanceScope<S> scope(static_cast<int>(i) + 1, "a", "seed001 eq 2.1.13");
      const Vec3<S> wpp = p >= 0 ? omega[static_cast<std::size_t>(p)] : zero3<S>();
      q[i] = motion_to_child(jf[i].X, p >= 0 ? q[static_cast<std::size_t>(p)] : q0) +
             velocity_product_acc(jf[i], wpp, omega_par[i], in.qd[i]);
      q[i](jf[i].z) = q[i](jf[i].z) + in.qdd[i];
    }
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "f", "seed001 eq 2.1.7.3");
    U[i] = jf[i].A * q[i] + bias_wrench(jf[i], omega[i]);  // A_{i,i-1} q + B_{i,i-1}
  }
  if (terms.external_wrench && has_external_wrench(*m.robot) && n > 0) {
    ProvenanceScope<S> scope(static_cast<int>(n), "f", "seed003 eq 9.91 (f_e)");
    U[n - 1] = U[n - 1] + external_wrench_in_joint_frame(m, jf[n - 1]);
  }
  std::vector<S> tau(n);
  for (std::size_t k = n; k-- > 0;) {
    {
      ProvenanceScope<S> scope(static_cast<int>(k) + 1, "tau", "seed001 eq 2.1.20 (Z^T U)");
      tau[k] = detail::actuator_terms_with(m, in, static_cast<int>(k), U[k](jf[k].z), terms.friction);
    }
    const int p = jf[k].parent;
    if (p >= 0) {
      ProvenanceScope<S> scope(static_cast<int>(k) + 1, "n", "seed001 eq 2.1.19.7 (R* P U)");
      U[static_cast<std::size_t>(p)] = U[static_cast<std::size_t>(p)] + force_to_parent(jf[k].X, U[k]);
    }
  }
  return tau;
}

}  // namespace neaccel::ref::forms
