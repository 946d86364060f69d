// Joint frames for the 6x6 recursive formulations (seed 001 Nasser, seed 003 section 9.7.2 Khalil).
//
// Joint frame A_i: z along the axis of joint i, attached to link i. For the modified DH convention A_i is
// frame i itself (Khalil's frames). For the standard convention A_i = frame(i-1) * Rz(theta_i) Tz(d_i), i.e.
// the frame Nasser writes link i's equations in ("in the i-1 frame", seed 001 eq. 2.1.1), and link i's
// frame is A_i * Tx(a_i) Rx(alpha_i). From A_parent to A_i the transform is then F_parent * J_i (standard)
// or F_i * J_i (modified): both conventions become the same recursion, and the joint's motion axis is a
// unit vector Z (seed 001 eq. 2.1.7.2: Z = e6 revolute, e3 prismatic in the [f; n] ordering).
#pragma once

#include "neaccel/ref/forms/spatial.hpp"

#include <vector>

namespace neaccel::ref::forms {

template <class S>
struct JointFrame {
  int parent = -1;
  bool revolute = true;
  int z = 5;          // index of the joint axis in [linear; angular]: 5 revolute (e6), 2 prismatic (e3)
  Rigid<S> X;         // pose of A_i in A_parent (the base frame for a root link)
  Mat6<S> A;          // link i's spatial inertia about A_i's origin (seed 001 A_{i,i-1}, eq. 2.1.7.4)
  S M;                // mass
  Vec3<S> MS;         // first moment in A_i
  Mat3<S> J;          // inertia tensor about A_i's origin
  bool F_identity = false;  // the link frame is A_i itself (modified DH)
  Rigid<S> F;         // pose of the link frame in A_i (standard DH: Tx(a) Rx(alpha))
};

// Builds the joint frames of every link (ProvenanceScope "rotation").
template <class S>
std::vector<JointFrame<S>> joint_frames(const ModelT<S>& m, const JointInputs<S>& in) {
  const Robot& r = *m.robot;
  const int n = static_cast<int>(r.links.size());
  std::vector<LinkSplit<S>> split;
  split.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) split.push_back(link_split(m, in, i));
  std::vector<JointFrame<S>> out(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    ProvenanceScope<S> scope(i + 1, "rotation", "seed001 appendix (frames), seed003 eq 9.84");
    JointFrame<S>& jf = out[static_cast<std::size_t>(i)];
    const LinkSplit<S>& ls = split[static_cast<std::size_t>(i)];
    const LinkParams<S>& L = m.links[static_cast<std::size_t>(i)];
    jf.parent = parent_of(r, i);
    jf.revolute = is_revolute(r, i);
    jf.z = jf.revolute ? 5 : 2;
    jf.M = L.M;
    const Vec3<S> ms = vec3<S>(L.MX, L.MY, L.MZ);
    const Mat3<S> J = inertia_tensor(L);
    if (ls.standard) {
      jf.X = jf.parent < 0 ? ls.J : compose(split[static_cast<std::size_t>(jf.parent)].F, ls.J);
      jf.F = ls.F;
      shift_inertia(ls.F, L.M, ms, J, jf.MS, jf.J);
    } else {
      jf.X = compose(ls.F, ls.J);
      jf.F_identity = true;
      jf.MS = ms;
      jf.J = J;
    }
    jf.A = spatial_inertia(jf.M, jf.MS, jf.J);
  }
  return out;
}

// Angular velocities omega_i (in A_i) and omega_parent expressed in A_i (seed 003 eqs. 9.84, 9.85).
template <class S>
void joint_frame_velocities(const std::vector<JointFrame<S>>& jf, const JointInputs<S>& in, std::vector<Vec3<S>>& omega,
                            std::vector<Vec3<S>>& omega_par) {
  const std::size_t n = jf.size();
  omega.assign(n, zero3<S>());
  omega_par.assign(n, zero3<S>());
  for (std::size_t i = 0; i < n; ++i) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "omega", "seed003 eq 9.84-9.85");
    const int p = jf[i].parent;
    if (p >= 0) omega_par[i] = jf[i].X.R.transpose() * omega[static_cast<std::size_t>(p)];
    omega[i] = omega_par[i];
    if (jf[i].revolute) omega[i](2) = omega[i](2) + in.qd[i];
  }
}

// The velocity-product part of link i's acceleration (seed 001 sigma*_{i,i-1} eq. 2.1.13.2 / 2.2.6,
// seed 003 gamma_j eq. 9.101): [R^T (w_p x (w_p x p)) + 2 sigma w_p' x z qd; sigma_bar w_p' x z qd].
// A root link's parent does not rotate (the base is fixed), so its term is zero.
template <class S>
Vec6<S> velocity_product_acc(const JointFrame<S>& f, const Vec3<S>& omega_parent_in_parent, const Vec3<S>& wp,
                             const S& qd) {
  Vec6<S> g = zero6<S>();
  if (f.parent < 0) return g;
  const Vec3<S> centripetal = f.X.R.transpose() * cross(omega_parent_in_parent, cross(omega_parent_in_parent, f.X.p));
  // w_p' x (e_z qd) = [wy qd, -wx qd, 0]
  const Vec3<S> wz = vec3<S>(wp.y() * qd, -(wp.x() * qd), S(0.0));
  if (f.revolute) {
    g.template head<3>() = centripetal;
    g.template tail<3>() = wz;
  } else {
    g.template head<3>() = centripetal + scale(wz, S(2.0));
  }
  return g;
}

// The velocity-product (bias) wrench of link i about A_i's origin: [w x (w x MS); w x (J w)] (seed 003 eq. 9.103).
template <class S>
Vec6<S> bias_wrench(const JointFrame<S>& f, const Vec3<S>& w) {
  return vec6<S>(cross(w, cross(w, f.MS)), cross(w, Vec3<S>(f.J * w)));
}

// The external wrench (robot.hpp f_e, n_e: exerted by the last link on the environment, in the last link's
// frame) in A_last, or zero if the robot has none.
template <class S>
Vec6<S> external_wrench_in_joint_frame(const ModelT<S>& m, const JointFrame<S>& last) {
  const Vec6<S> fe = vec6<S>(vec3<S>(m.fex, m.fey, m.fez), vec3<S>(m.nex, m.ney, m.nez));
  return last.F_identity ? fe : force_to_parent(last.F, fe);
}

}  // namespace neaccel::ref::forms
