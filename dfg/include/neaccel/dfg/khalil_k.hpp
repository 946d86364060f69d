// A variant of Khalil's Newton-Euler form (ref/khalil_ne.hpp) for customised and base-parameter graphs: still
// linear in the standard inertial parameters (XX..ZZ, MX..MZ, M), but the moment term J alpha + omega x (J omega)
// is computed as Tr{U K Q} from the matrix U = A = alpha~ + omega~ omega~ that the forward pass already forms
// (seed 000 eq 7.6 with K = tr(J)/2 1 - J, about the frame origin; the identity holds for any symmetric J). This
// costs 15 mul 15 add per link instead of 24 mul 18 add, and in customised graphs the K entries are constants.
//
//   forward:  omega, alpha, U, Vdot exactly as ref::modified_ne (seed 003 eqs 9.84-9.87 for modified DH)
//   backward: F_j = M_j Vdot_j + U_j MS_j (9.88);  m_j = Tr{U_j K_j Q} + MS_j x Vdot_j (9.89)
//             f_j = F_j + sum R f_c;  n_j = m_j + sum (R n_c + P_c x R f_c) (modified DH, 9.91, 9.93)
//             standard DH: n_j = m_j + r_j x f_j + sum R n_c (moments about O_{j-1}, seed 000 eq 7.6)
//             tau_j from n_j / f_j with rotor inertia and friction (9.94)
// The mixed variant (khalil-mix): j_form[k] = true computes link k's moment as Khalil's J alpha + omega x (J omega)
// (ref/khalil_ne_impl.hpp, 9.89) instead, which is cheaper when J is sparse (a link with only ZZ costs 1 mul);
// trace_khalil_mix (trace.hpp) picks the mask per robot by counting.
// Templated on S like the ref algorithms (contract 2). Built from ref::ne's building blocks (modified_ne_impl.hpp):
// a change of their signatures must be followed here.
#pragma once

#include "neaccel/ref/modified_ne.hpp"

#include <vector>

namespace neaccel::dfg {

// Link k's moment about its frame origin by Tr{U K Q} (seed 000 eq 7.6 with K = tr(J)/2 1 - J, eq 2.35).
template <class S>
ref::Vec3<S> moment_k_form(const ref::ne::AccelMatrix<S>& U, ref::LinkParams<S> L, int link) {
  using namespace ref;
  {
    ProvenanceScope<S> scope(link, "K", "seed000 eq 2.35");
    // K = tr(J)/2 1 - J (constants in customised graphs)
    const S half(0.5);
    L.Kxx = half * (L.YY + L.ZZ - L.XX);
    L.Kyy = half * (L.XX + L.ZZ - L.YY);
    L.Kzz = half * (L.XX + L.YY - L.ZZ);
    L.Kxy = -L.XY;
    L.Kxz = -L.XZ;
    L.Kyz = -L.YZ;
  }
  ProvenanceScope<S> scope(link, "Tr{A K Q}", "seed000 eq 7.6");
  return ne::trace_AKQ(U, L);
}

// The same moment as J alpha + omega x (J omega) (seed 003 eq 9.89).
template <class S>
ref::Vec3<S> moment_j_form(const ref::Vec3<S>& omega, const ref::Vec3<S>& alpha, const ref::LinkParams<S>& L,
                           int link) {
  using namespace ref::ne;
  ref::ProvenanceScope<S> scope(link, "J alpha + omega x J omega", "seed003 eq 9.89");
  const ref::Vec3<S> Jw = sym_mul(L.XX, L.YY, L.ZZ, L.XY, L.XZ, L.YZ, omega);
  const ref::Vec3<S> Ja = sym_mul(L.XX, L.YY, L.ZZ, L.XY, L.XZ, L.YZ, alpha);
  return add(Ja, cross(omega, Jw));
}

// Khalil's form per link (`in` one entry per link, expand_joint_inputs).
template <class S>
std::vector<S> khalil_k_links(const ref::ModelT<S>& model, const ref::JointInputs<S>& in,
                              const std::vector<bool>& j_form) {
  using namespace ref;
  using namespace ref::ne;
  NeData<S> data;
  data.resize(model.links.size());
  modified_ne_forward(model, in, data);
  const bool modified = model.robot->convention == DhConvention::Modified;
  init_child_sums(model, data);
  for (std::size_t k = model.links.size(); k-- > 0;) {
    const int link = static_cast<int>(k) + 1;
    const LinkParams<S>& L = model.links[k];
    const AccelMatrix<S>& U = data.A[k];
    const Vec3<S> MS = vec3<S>(L.MX, L.MY, L.MZ);
    {
      ProvenanceScope<S> scope(link, "F", "seed003 eq 9.88");
      data.f[k] = add(add(scale(L.M, data.a[k]), U.apply(MS)), data.fch[k]);
    }
    Vec3<S> m = k < j_form.size() && j_form[k] ? moment_j_form(data.omega[k], data.alpha[k], L, link)
                                               : moment_k_form(U, L, link);
    {
      ProvenanceScope<S> scope(link, "M", "seed003 eq 9.89");
      m = add(m, cross(MS, data.a[k]));
    }
    ProvenanceScope<S> scope(link, "add n", "seed003 eq 9.93");
    if (modified) {
      data.n[k] = add(m, data.nch[k]);
    } else {
      Vec3<S> rf;
      {
        ProvenanceScope<S> s2(link, "r x R f", "seed000 eq 7.6");
        rf = cross(data.r[k], data.f[k]);
      }
      data.n[k] = add(add(m, rf), data.nch[k]);
    }
    data.tau[k] = joint_torque(model, in, k, data.f[k], data.n[k]);
    propagate_to_parent(model, k, data);
  }
  return data.tau;
}

template <class S>
std::vector<S> khalil_k(const ref::ModelT<S>& model, const ref::JointInputs<S>& in,
                        const std::vector<bool>& j_form = {}) {
  // One entry per generalized coordinate in `in` and in the result (mimic joints coupled: ref/model.hpp).
  return ref::on_coordinates(model, in,
                             [&](const ref::JointInputs<S>& links) { return khalil_k_links(model, links, j_form); });
}

}  // namespace neaccel::dfg
