// Template definitions for modified_ne.hpp (included at its end).
#pragma once

#include "neaccel/ref/provenance.hpp"

namespace neaccel::ref {

template <class S>
void NeData<S>::resize(std::size_t n_links) {
  if (tau.size() == n_links) return;  // every member has this size (called on every evaluation)
  omega.resize(n_links);
  alpha.resize(n_links);
  a.resize(n_links);
  A.resize(n_links);
  R.resize(n_links);
  r.resize(n_links);
  fch.resize(n_links);
  nch.resize(n_links);
  f.resize(n_links);
  n.resize(n_links);
  tau.resize(n_links);
}

namespace ne {

// Children's sums start at zero, except the last link's, which starts at the external wrench (the force and
// moment the link exerts on the environment, seed 003 eqs 9.91, 9.93).
template <class S>
void init_child_sums(const ModelT<S>& model, NeData<S>& data) {
  const std::size_t nl = model.links.size();
  for (std::size_t i = 0; i < nl; ++i) {
    data.fch[i] = zero3<S>();
    data.nch[i] = zero3<S>();
  }
  if (nl == 0) return;
  data.fch[nl - 1] = vec3<S>(model.fex, model.fey, model.fez);
  data.nch[nl - 1] = vec3<S>(model.nex, model.ney, model.nez);
}

// Tr{A K Q^gamma^T} x_gamma (seed 000 eq 7.6, first term) = I alpha + omega x (I omega):
//   n_x = (AK)_zy - (AK)_yz, n_y = (AK)_xz - (AK)_zx, n_z = (AK)_yx - (AK)_xy,
// expanded for symmetric K and A_kk = -d_k (15 mul, 15 add; 6 mul 3 add when K is diagonal, as in Table 8.5).
// The diagonal enters as d_y - d_z = omega_z^2 - omega_y^2 (and cyclically), read from the squares.
template <class S>
Vec3<S> trace_AKQ(const AccelMatrix<S>& A, const LinkParams<S>& L) {
  return vec3<S>(A.zx * L.Kxy - A.yx * L.Kxz + (A.zy * L.Kyy - A.yz * L.Kzz) + (A.wz2 - A.wy2) * L.Kyz,
                 A.xy * L.Kyz - A.zy * L.Kxy + (A.xz * L.Kzz - A.zx * L.Kxx) + (A.wx2 - A.wz2) * L.Kxz,
                 A.yz * L.Kxz - A.xz * L.Kyz + (A.yx * L.Kxx - A.xy * L.Kyy) + (A.wy2 - A.wx2) * L.Kxy);
}

template <class S>
void modified_ne_forward(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  const Robot& robot = *model.robot;
  const bool modified = robot.convention == DhConvention::Modified;
  const Vec3<S> zero = zero3<S>();
  const Vec3<S> a0 = base_accel(model);
  const AccelMatrix<S> A0 = zero_accel_matrix<S>();
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    const int link = static_cast<int>(i) + 1;
    const int p = robot.links[i].parent;
    const auto pu = static_cast<std::size_t>(p);
    const Vec3<S>& omega_p = p < 0 ? zero : data.omega[pu];
    const Vec3<S>& alpha_p = p < 0 ? zero : data.alpha[pu];
    const Vec3<S>& a_p = p < 0 ? a0 : data.a[pu];
    const AccelMatrix<S>& A_p = p < 0 ? A0 : data.A[pu];
    data.R[i] = dh_rotation(model, in, i);
    const DhRotation<S>& R = data.R[i];
    angular_step(model, in, i, R, omega_p, alpha_p, data.omega[i], data.alpha[i]);
    {
      ProvenanceScope<S> scope(link, "A", "seed000 eq 4.18");
      data.A[i] = accel_matrix(data.omega[i], data.alpha[i]);
    }
    const bool revolute = robot.links[i].joint == JointType::Revolute;
    ProvenanceScope<S> scope(link, "a", modified ? "seed003 eq 9.87" : "seed000 eq 7.3");
    data.r[i] = origin_offset(model, in, i);
    const Vec3<S>& r = data.r[i];
    Vec3<S> a = modified ? R.to_child(add(a_p, A_p.apply(r)))          // seed 003 eq 9.87
                         : add(data.A[i].apply(r), R.to_child(a_p));  // seed 000 eq 7.3
    if (!revolute) a = add(a, prismatic_accel(model, in, i, data.omega[i]));
    data.a[i] = a;
  }
}

// m (rbar + r) for standard DH (a parameter for revolute joints, formed from r(q) for prismatic ones); MS for
// modified DH (seed 000 eq 7.6).
template <class S>
Vec3<S> moment_arm_mass(const ModelT<S>& model, const NeData<S>& data, std::size_t i) {
  const LinkParams<S>& L = model.links[i];
  if (model.robot->convention == DhConvention::Modified || model.robot->links[i].joint == JointType::Revolute)
    return vec3<S>(L.mrx, L.mry, L.mrz);
  return add(vec3<S>(L.MX, L.MY, L.MZ), scale(L.M, data.r[i]));
}

// Sends link i's force and moment to its parent (the R f_{i+1}, R n_{i+1} and, for modified DH, P x R f terms).
template <class S>
void propagate_to_parent(const ModelT<S>& model, std::size_t i, NeData<S>& data) {
  const int p = model.robot->links[i].parent;
  if (p < 0) return;
  const auto pu = static_cast<std::size_t>(p);
  const DhRotation<S>& R = data.R[i];
  Vec3<S> Rf, Rn;
  {
    ProvenanceScope<S> scope(p + 1, "f", "seed000 eq 7.5");
    Rf = R.to_parent(data.f[i]);
    data.fch[pu] = add(data.fch[pu], Rf);
  }
  {
    ProvenanceScope<S> scope(p + 1, "R n", "seed000 eq 7.6");
    Rn = R.to_parent(data.n[i]);
  }
  ProvenanceScope<S> scope(p + 1, "add n", "seed000 eq 7.6");
  if (model.robot->convention == DhConvention::Modified) {
    Vec3<S> PxRf;
    {
      ProvenanceScope<S> s2(p + 1, "r x R f", "seed003 eq 9.93");
      PxRf = cross(data.r[i], Rf);
    }
    data.nch[pu] = add(data.nch[pu], add(Rn, PxRf));
  } else {
    data.nch[pu] = add(data.nch[pu], Rn);
  }
}

template <class S>
void modified_ne_backward(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  const bool modified = model.robot->convention == DhConvention::Modified;
  init_child_sums(model, data);
  for (std::size_t k = model.links.size(); k-- > 0;) {
    const int link = static_cast<int>(k) + 1;
    const LinkParams<S>& L = model.links[k];
    const AccelMatrix<S>& A = data.A[k];
    Vec3<S> abar;
    {
      ProvenanceScope<S> scope(link, "m abar", "seed000 eq 7.4");
      abar = add(A.apply(vec3<S>(L.cx, L.cy, L.cz)), data.a[k]);
      const Vec3<S> mabar = scale(L.M, abar);
      ProvenanceScope<S> s2(link, "f", "seed000 eq 7.5");
      data.f[k] = add(mabar, data.fch[k]);
    }
    Vec3<S> tr, mr, rf;
    {
      ProvenanceScope<S> scope(link, "Tr{A K Q}", "seed000 eq 7.6");
      tr = trace_AKQ(A, L);
    }
    {
      ProvenanceScope<S> scope(link, "m(r+rbar) x abar", "seed000 eq 7.6");
      mr = cross(moment_arm_mass(model, data, k), abar);
    }
    ProvenanceScope<S> scope(link, "add n", "seed000 eq 7.6");
    if (modified) {
      data.n[k] = add(add(tr, mr), data.nch[k]);
    } else {
      {
        ProvenanceScope<S> s2(link, "r x R f", "seed000 eq 7.6");
        rf = cross(data.r[k], data.fch[k]);
      }
      data.n[k] = add(add(tr, mr), add(rf, data.nch[k]));
    }
    data.tau[k] = joint_torque(model, in, k, data.f[k], data.n[k]);
    propagate_to_parent(model, k, data);
  }
}

}  // namespace ne

template <class S>
void modified_ne(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  data.resize(model.links.size());
  ne::modified_ne_forward(model, in, data);
  ne::modified_ne_backward(model, in, data);
}

template <class S>
std::vector<S> modified_ne(const ModelT<S>& model, const JointInputs<S>& in) {
  return on_coordinates(model, in, [&](const JointInputs<S>& links) {
    NeData<S> data;
    modified_ne(model, links, data);
    return data.tau;
  });
}

}  // namespace neaccel::ref
