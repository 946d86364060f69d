// Base-frame kinematics shared by the closed-form formulations (Gibbs-Appell seed 000 eq. 3.14, generalized
// d'Alembert seed 002 section 4): every link's pose in the base frame, its joint axis z and a point o on it,
// its centre of mass and its inertia about the centre of mass in base axes, and the Jacobian columns.
#pragma once

#include "neaccel/ref/forms/common.hpp"

#include <vector>

namespace neaccel::ref::forms {

template <class S>
struct BaseFrames {
  std::vector<Rigid<S>> T;   // T_0^i
  std::vector<Vec3<S>> z;    // joint i's axis (z_{i-1} of seed 000 for standard DH)
  std::vector<Vec3<S>> o;    // a point of joint i's axis (p_{i-1} of seed 002)
  std::vector<Vec3<S>> c;    // centre of mass of link i (rbar_i of seed 002)
  std::vector<Mat3<S>> Ic;   // inertia about the centre of mass, base axes (I_s of seed 002, R I R^T)
  std::vector<std::vector<int>> chain;  // chain[q]: the joints moving link q, in increasing order (q included)
};

template <class S>
BaseFrames<S> base_frames(const ModelT<S>& m, const JointInputs<S>& in) {
  const Robot& r = *m.robot;
  const auto n = r.links.size();
  BaseFrames<S> b;
  b.T.resize(n);
  b.z.resize(n);
  b.o.resize(n);
  b.c.resize(n);
  b.Ic.resize(n);
  b.chain.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "rotation", "seed000 eq 2.12 (T_0^i)");
    const int p = parent_of(r, static_cast<int>(i));
    const Rigid<S> Ti = link_transform(m, in, static_cast<int>(i));
    b.T[i] = p < 0 ? Ti : compose(b.T[static_cast<std::size_t>(p)], Ti);
    if (r.convention == DhConvention::Modified) {
      b.z[i] = b.T[i].R.col(2);
      b.o[i] = b.T[i].p;
    } else if (p < 0) {
      b.z[i] = vec3<S>(S(0.0), S(0.0), S(1.0));
      b.o[i] = zero3<S>();
    } else {
      b.z[i] = b.T[static_cast<std::size_t>(p)].R.col(2);
      b.o[i] = b.T[static_cast<std::size_t>(p)].p;
    }
    const LinkParams<S>& L = m.links[i];
    b.c[i] = b.T[i].R * vec3<S>(L.cx, L.cy, L.cz) + b.T[i].p;
    Mat3<S> I;
    I << L.Ixx, L.Ixy, L.Ixz, L.Ixy, L.Iyy, L.Iyz, L.Ixz, L.Iyz, L.Izz;
    b.Ic[i] = b.T[i].R * I * b.T[i].R.transpose();
    if (p >= 0) b.chain[i] = b.chain[static_cast<std::size_t>(p)];
    b.chain[i].push_back(static_cast<int>(i));
  }
  return b;
}

// Angular Jacobian column of joint j: z_j (revolute) or none (prismatic: returns false).
template <class S>
bool jac_angular(const Robot& r, const BaseFrames<S>& b, int j, Vec3<S>& col) {
  if (!is_revolute(r, j)) return false;
  col = b.z[static_cast<std::size_t>(j)];
  return true;
}

// Linear Jacobian column of joint j at the point x: z_j x (x - o_j) (revolute) or z_j (prismatic).
template <class S>
Vec3<S> jac_linear(const Robot& r, const BaseFrames<S>& b, int j, const Vec3<S>& x) {
  const auto k = static_cast<std::size_t>(j);
  if (!is_revolute(r, j)) return b.z[k];
  return cross(b.z[k], Vec3<S>(x - b.o[k]));
}

namespace detail {
// Columns of the joints in link q's chain: angular (if revolute) and linear at q's centre of mass.
template <class S>
struct ChainColumns {
  std::vector<int> joints;
  std::vector<bool> rev;
  std::vector<Vec3<S>> w, v;
};

template <class S>
ChainColumns<S> chain_columns(const Robot& r, const BaseFrames<S>& b, std::size_t q) {
  ProvenanceScope<S> scope(static_cast<int>(q) + 1, "A", "Jacobian columns z_j x (x - p_j) (seed 000 eq 3.14)");
  ChainColumns<S> cc;
  cc.joints = b.chain[q];
  for (int j : cc.joints) {
    Vec3<S> w = zero3<S>();
    cc.rev.push_back(jac_angular(r, b, j, w));
    cc.w.push_back(w);
    cc.v.push_back(jac_linear(r, b, j, b.c[q]));
  }
  return cc;
}
}  // namespace detail

// Joint torques of the external wrench (robot.hpp: exerted by the last link on the environment, in its
// frame): tau_j += Jv_j(o_last) . f_e + Jw_j . n_e, added to tau in place.
template <class S>
void add_external_wrench(const ModelT<S>& m, const BaseFrames<S>& b, std::vector<S>& tau) {
  const Robot& r = *m.robot;
  if (!has_external_wrench(r) || r.links.empty()) return;
  const auto last = r.links.size() - 1;
  ProvenanceScope<S> scope(static_cast<int>(r.links.size()), "tau", "J^T f_e (seed003 eq 9.91)");
  const Vec3<S> f0 = b.T[last].R * vec3<S>(m.fex, m.fey, m.fez);
  const Vec3<S> n0 = b.T[last].R * vec3<S>(m.nex, m.ney, m.nez);
  for (int j : b.chain[last]) {
    const auto k = static_cast<std::size_t>(j);
    tau[k] = tau[k] + dot(jac_linear(r, b, j, b.T[last].p), f0);
    Vec3<S> w;
    if (jac_angular(r, b, j, w)) tau[k] = tau[k] + dot(w, n0);
  }
}

}  // namespace neaccel::ref::forms
