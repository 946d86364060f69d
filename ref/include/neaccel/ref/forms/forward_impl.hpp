// Template definitions for forward.hpp.
#pragma once

namespace neaccel::ref::forms {

namespace forward_detail {

// The motor torque left for the rigid bodies: tau - Fv qd - Fc sgn(qd) (seed 003 eq. 9.106).
template <class S>
S driving_torque(const ModelT<S>& m, const JointInputs<S>& in, std::size_t k, const S& tau) {
  const Link& L = m.robot->links[k];
  S t = tau;
  if (L.Fv == 0.0 && L.Fc == 0.0) return t;
  ProvenanceScope<S> scope(static_cast<int>(k) + 1, "friction", "seed003 eq 9.106");
  if (L.Fv != 0.0) t = t - m.links[k].Fv * in.qd[k];
  if (L.Fc != 0.0) t = t - m.links[k].Fc * in.sgn_qd[k];
  return t;
}

template <class S>
S rotor(const ModelT<S>& m, std::size_t k, const S& h) {
  if (m.robot->links[k].Ia == 0.0) return h;
  ProvenanceScope<S> scope(static_cast<int>(k) + 1, "rotor", "seed003 eq 9.116 (+ Ia)");
  return h + m.links[k].Ia;
}

template <class S>
S dot6(const Vec6<S>& a, const Vec6<S>& b) {
  S s = a(0) * b(0);
  for (int k = 1; k < 6; ++k) s = s + a(k) * b(k);
  return s;
}

// A - u v^T for a symmetric result (u = v * scalar): the upper triangle only, mirrored (21 mul instead of 36).
template <class S>
Mat6<S> minus_outer_sym(const Mat6<S>& A, const Vec6<S>& u, const Vec6<S>& v) {
  Mat6<S> K;
  for (int r = 0; r < 6; ++r)
    for (int c = r; c < 6; ++c) {
      K(r, c) = A(r, c) - u(r) * v(c);
      K(c, r) = K(r, c);
    }
  return K;
}

// Shared first pass: joint frames, angular velocities and velocity-product accelerations (sigma*, gamma).
template <class S>
struct FirstPass {
  std::vector<JointFrame<S>> jf;
  std::vector<Vec3<S>> omega, omega_par;
  std::vector<Vec6<S>> sigma;  // velocity-product accelerations (seed 001 sigma*, seed 003 gamma)
  std::vector<Vec6<S>> bias;   // velocity-product wrenches + external wrench (seed 001 B, seed 003 -beta)
  std::vector<S> u;            // driving torques
  Vec6<S> q0;                  // base acceleration -g
};

template <class S>
FirstPass<S> first_pass(const ModelT<S>& m, const JointInputs<S>& in, const std::vector<S>& tau, const char* who) {
  require(m.robot != nullptr, std::string(who) + ": model has no robot");
  require_no_mimic(who, *m.robot);
  check_inputs(who, m, in);
  require(tau.size() == m.links.size(), std::string(who) + ": tau does not have one entry per joint");
  FirstPass<S> f;
  f.jf = joint_frames(m, in);
  joint_frame_velocities(f.jf, in, f.omega, f.omega_par);
  const std::size_t n = f.jf.size();
  f.sigma.resize(n);
  f.bias.resize(n);
  f.u.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int li = static_cast<int>(i) + 1;
    const int p = f.jf[i].parent;
    {
      ProvenanceScope<S> scope(li, "a", "seed001 eq 2.1.13.2 / seed003 eq 9.101");
      f.sigma[i] = velocity_product_acc(f.jf[i], p >= 0 ? f.omega[static_cast<std::size_t>(p)] : zero3<S>(),
                                        f.omega_par[i], in.qd[i]);
    }
    {
      ProvenanceScope<S> scope(li, "omega x I omega", "seed001 eq 2.1.7.6 / seed003 eq 9.103");
      f.bias[i] = bias_wrench(f.jf[i], f.omega[i]);
    }
    f.u[i] = driving_torque(m, in, i, tau[i]);
  }
  if (has_external_wrench(*m.robot) && n > 0) {
    ProvenanceScope<S> scope(static_cast<int>(n), "f", "seed003 eq 9.103 (f_e)");
    f.bias[n - 1] = f.bias[n - 1] + external_wrench_in_joint_frame(m, f.jf[n - 1]);
  }
  f.q0 = vec6<S>(vec3<S>(-m.gx, -m.gy, -m.gz), zero3<S>());
  return f;
}

}  // namespace forward_detail

template <class S>
std::vector<S> nasser_forward(const ModelT<S>& m, const JointInputs<S>& in, const std::vector<S>& tau) {
  using namespace forward_detail;
  FirstPass<S> f = first_pass(m, in, tau, "nasser_forward");
  const std::size_t n = f.jf.size();
  std::vector<Mat6<S>> Astar(n);  // A*_{i,i-1} (eq. 2.1.19.3)
  std::vector<Vec6<S>> Bstar = f.bias;  // B*_{i,i-1} (eq. 2.1.19.5)
  std::vector<Vec6<S>> col(n);    // A* Z
  std::vector<S> Dinv(n), rhs(n); // 1 / (Z^T A* Z + Ia) (the only entry of L^-1 that needs a division)
  for (std::size_t i = 0; i < n; ++i) Astar[i] = f.jf[i].A;
  for (std::size_t k = n; k-- > 0;) {  // inbound pass (eq. 2.1.19)
    const int li = static_cast<int>(k) + 1;
    const int z = f.jf[k].z;
    {
      ProvenanceScope<S> scope(li, "I alpha", "seed001 eq 2.1.19.1 (G_i = L_i^-1)");
      col[k] = Astar[k].col(z);
      Dinv[k] = reciprocal(rotor(m, k, Astar[k](z, z)));
      rhs[k] = f.u[k] - Bstar[k](z);
    }
    const int p = f.jf[k].parent;
    if (p < 0) continue;
    ProvenanceScope<S> scope(li, "f", "seed001 eq 2.1.19.4-7 (A*, B* to the parent)");
    const Vec6<S> gcol = col[k] * Dinv[k];
    const Mat6<S> K = forward_detail::minus_outer_sym(Astar[k], gcol, col[k]);
    const Vec6<S> Bk = K * f.sigma[k] + Bstar[k] + gcol * rhs[k];
    const auto pp = static_cast<std::size_t>(p);
    Astar[pp] = Astar[pp] + inertia_to_parent(f.jf[k].X, K);
    Bstar[pp] = Bstar[pp] + force_to_parent(f.jf[k].X, Bk);
  }
  std::vector<S> qdd(n);
  std::vector<Vec6<S>> q(n);
  for (std::size_t k = 0; k < n; ++k) {  // outbound pass (eq. 2.1.20)
    ProvenanceScope<S> scope(static_cast<int>(k) + 1, "alpha", "seed001 eq 2.1.20");
    const int p = f.jf[k].parent;
    q[k] = motion_to_child(f.jf[k].X, p >= 0 ? q[static_cast<std::size_t>(p)] : f.q0) + f.sigma[k];
    qdd[k] = (rhs[k] - dot6(col[k], q[k])) * Dinv[k];
    q[k](f.jf[k].z) = q[k](f.jf[k].z) + qdd[k];
  }
  return qdd;
}

template <class S>
std::vector<S> khalil_forward(const ModelT<S>& m, const JointInputs<S>& in, const std::vector<S>& tau) {
  using namespace forward_detail;
  FirstPass<S> f = first_pass(m, in, tau, "khalil_forward");
  const std::size_t n = f.jf.size();
  std::vector<Mat6<S>> Jstar(n);              // J*_j (eq. 9.120)
  std::vector<Vec6<S>> beta(n), a(n);         // beta*_j (eq. 9.103, 9.119), the joint screw a_j (eq. 9.23b)
  std::vector<Vec6<S>> Ja(n);                 // J*_j a_j
  std::vector<S> Hinv(n);
  for (std::size_t j = 0; j < n; ++j) {
    Jstar[j] = f.jf[j].A;
    beta[j] = -f.bias[j];
    a[j] = zero6<S>();
    a[j](f.jf[j].z) = S(1.0);
  }
  for (std::size_t j = n; j-- > 0;) {  // backward recursion (eqs. 9.116-9.120)
    const int li = static_cast<int>(j) + 1;
    {
      ProvenanceScope<S> scope(li, "I alpha", "seed003 eq 9.116 (H_j)");
      Ja[j] = Jstar[j] * a[j];
      Hinv[j] = reciprocal(rotor(m, j, dot6(a[j], Ja[j])));
    }
    const int p = f.jf[j].parent;
    if (p < 0) continue;
    ProvenanceScope<S> scope(li, "f", "seed003 eq 9.117-9.120");
    const Mat6<S> K = minus_outer_sym(Jstar[j], Vec6<S>(Ja[j] * Hinv[j]), Ja[j]);              // 9.117
    const Vec6<S> alpha = K * f.sigma[j] + Ja[j] * (Hinv[j] * (f.u[j] + dot6(a[j], beta[j]))) - beta[j];  // 9.118
    const auto pp = static_cast<std::size_t>(p);
    beta[pp] = beta[pp] - force_to_parent(f.jf[j].X, alpha);               // 9.119
    Jstar[pp] = Jstar[pp] + inertia_to_parent(f.jf[j].X, K);              // 9.120
  }
  std::vector<S> qdd(n);
  std::vector<Vec6<S>> V(n);
  for (std::size_t j = 0; j < n; ++j) {  // second forward recursion (eqs. 9.121-9.124)
    ProvenanceScope<S> scope(static_cast<int>(j) + 1, "alpha", "seed003 eq 9.121-9.124");
    const int p = f.jf[j].parent;
    const Vec6<S> Vp = motion_to_child(f.jf[j].X, p >= 0 ? V[static_cast<std::size_t>(p)] : f.q0);  // 9.121
    qdd[j] = Hinv[j] * (-dot6(Ja[j], Vec6<S>(Vp + f.sigma[j])) + f.u[j] + dot6(a[j], beta[j]));        // 9.122
    V[j] = Vp + a[j] * qdd[j] + f.sigma[j];                                                           // 9.124
  }
  return qdd;
}

}  // namespace neaccel::ref::forms
