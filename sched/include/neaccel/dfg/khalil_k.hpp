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
// Templated on S like the ref algorithms (contract 2). Built from ref::ne's building blocks (modified_ne_impl.hpp):
// a change of their signatures must be followed here.
#pragma once

#include "neaccel/ref/modified_ne.hpp"

#include <vector>

namespace neaccel::dfg {

template <class S>
std::vector<S> khalil_k(const ref::ModelT<S>& model, const ref::JointInputs<S>& in) {
  using namespace ref;
  using namespace ref::ne;
  NeData<S> data;
  data.resize(model.links.size());
  modified_ne_forward(model, in, data);
  const bool modified = model.robot->convention == DhConvention::Modified;
  init_child_sums(model, data);
  for (std::size_t k = model.links.size(); k-- > 0;) {
    const int link = static_cast<int>(k) + 1;
    LinkParams<S> L = model.links[k];
    const AccelMatrix<S>& U = data.A[k];
    const Vec3<S> MS = vec3<S>(L.MX, L.MY, L.MZ);
    {
      ProvenanceScope<S> scope(link, "F", "seed003 eq 9.88");
      data.f[k] = add(add(scale(L.M, data.a[k]), U.apply(MS)), data.fch[k]);
    }
    Vec3<S> m;
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
    {
      ProvenanceScope<S> scope(link, "Tr{A K Q}", "seed000 eq 7.6");
      m = trace_AKQ(U, L);
    }
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

}  // namespace neaccel::dfg
