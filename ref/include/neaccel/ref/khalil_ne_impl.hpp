// Template definitions for khalil_ne.hpp (included at its end).
#pragma once

#include "neaccel/ref/provenance.hpp"

namespace neaccel::ref {
namespace ne {

template <class S>
void khalil_ne_backward(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  const bool modified = model.robot->convention == DhConvention::Modified;
  init_child_sums(model, data);
  for (std::size_t k = model.links.size(); k-- > 0;) {
    const int link = static_cast<int>(k) + 1;
    const LinkParams<S>& L = model.links[k];
    const Vec3<S>& omega = data.omega[k];
    const Vec3<S>& Vdot = data.a[k];
    const Vec3<S> MS = vec3<S>(L.MX, L.MY, L.MZ);
    Vec3<S> F, Mj;
    {
      ProvenanceScope<S> scope(link, "F", "seed003 eq 9.88");
      F = add(scale(L.M, Vdot), data.A[k].apply(MS));
    }
    {
      ProvenanceScope<S> scope(link, "M", "seed003 eq 9.89");
      const Vec3<S> Jw = sym_mul(L.XX, L.YY, L.ZZ, L.XY, L.XZ, L.YZ, omega);
      const Vec3<S> Ja = sym_mul(L.XX, L.YY, L.ZZ, L.XY, L.XZ, L.YZ, data.alpha[k]);
      Mj = add(add(Ja, cross(omega, Jw)), cross(MS, Vdot));
    }
    {
      ProvenanceScope<S> scope(link, "f", "seed003 eq 9.91");
      data.f[k] = add(F, data.fch[k]);
    }
    ProvenanceScope<S> scope(link, "add n", "seed003 eq 9.93");
    Vec3<S> m = add(Mj, data.nch[k]);
    if (!modified) {
      ProvenanceScope<S> s2(link, "r x R f", "seed003 eq 9.93");
      m = add(m, cross(data.r[k], data.f[k]));  // moment about O_{i-1} (standard DH)
    }
    data.n[k] = m;
    data.tau[k] = joint_torque(model, in, k, data.f[k], data.n[k]);
    propagate_to_parent(model, k, data);
  }
}

}  // namespace ne

template <class S>
void khalil_ne(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  data.resize(model.links.size());
  // The forward recursion (9.84-9.87, 9.90) is the modified N-E's: omega, omegadot, U_j = A_j, Vdot_j = a_j.
  ne::modified_ne_forward(model, in, data);
  ne::khalil_ne_backward(model, in, data);
}

template <class S>
std::vector<S> khalil_ne(const ModelT<S>& model, const JointInputs<S>& in) {
  return on_coordinates(model, in, [&](const JointInputs<S>& links) {
    NeData<S> data;
    khalil_ne(model, links, data);
    return data.tau;
  });
}

}  // namespace neaccel::ref
