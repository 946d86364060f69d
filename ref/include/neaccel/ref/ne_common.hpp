// Building blocks shared by the three Newton-Euler forms (newton_euler.hpp, modified_ne.hpp, khalil_ne.hpp).
//
// Everything is templated on the scalar S and uses only S's +, -, *, unary - and S(double) literals (contract 2 in
// BRIEF.md), so the same code gives numbers (double), operation counts (Counted) and dataflow graphs (dfg::Value).
// The arithmetic is written out element by element (not with Eigen expressions) so the operation count is exactly
// what is written here: rotations use the structure of the DH matrices (a rotation about z or x costs 4 mul 2 add,
// not a 3x3 product), and literal zeros that the recursion starts from fold away in Counted and dfg::Value.
#pragma once

#include "neaccel/ref/model.hpp"
#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>

namespace neaccel::ref {

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;

namespace ne {

template <class S>
Vec3<S> vec3(const S& x, const S& y, const S& z) {
  Vec3<S> v;
  v[0] = x;
  v[1] = y;
  v[2] = z;
  return v;
}

template <class S>
Vec3<S> zero3() {
  return vec3(S(0.0), S(0.0), S(0.0));
}

template <class S>
Vec3<S> add(const Vec3<S>& u, const Vec3<S>& v) {
  return vec3<S>(u[0] + v[0], u[1] + v[1], u[2] + v[2]);
}

template <class S>
Vec3<S> sub(const Vec3<S>& u, const Vec3<S>& v) {
  return vec3<S>(u[0] - v[0], u[1] - v[1], u[2] - v[2]);
}

template <class S>
Vec3<S> scale(const S& k, const Vec3<S>& v) {
  return vec3<S>(k * v[0], k * v[1], k * v[2]);
}

template <class S>
Vec3<S> neg(const Vec3<S>& v) {
  return vec3<S>(-v[0], -v[1], -v[2]);
}

// u x v (6 mul, 3 add)
template <class S>
Vec3<S> cross(const Vec3<S>& u, const Vec3<S>& v) {
  return vec3<S>(u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]);
}

// Symmetric 3x3 matrix times vector (9 mul, 6 add): inertia tensors J_j, I_i.
template <class S>
Vec3<S> sym_mul(const S& xx, const S& yy, const S& zz, const S& xy, const S& xz, const S& yz, const Vec3<S>& v) {
  return vec3<S>(xx * v[0] + xy * v[1] + xz * v[2], xy * v[0] + yy * v[1] + yz * v[2],
                 xz * v[0] + yz * v[1] + zz * v[2]);
}

// Rotations by the elementary DH matrices, given cos and sin (4 mul, 2 add each).
template <class S>
Vec3<S> rotz(const S& c, const S& s, const Vec3<S>& v) {  // Rz(theta) v
  return vec3<S>(c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]);
}
template <class S>
Vec3<S> rotz_t(const S& c, const S& s, const Vec3<S>& v) {  // Rz(theta)^T v
  return vec3<S>(c * v[0] + s * v[1], c * v[1] - s * v[0], v[2]);
}
template <class S>
Vec3<S> rotx(const S& c, const S& s, const Vec3<S>& v) {  // Rx(alpha) v
  return vec3<S>(v[0], c * v[1] - s * v[2], s * v[1] + c * v[2]);
}
template <class S>
Vec3<S> rotx_t(const S& c, const S& s, const Vec3<S>& v) {  // Rx(alpha)^T v
  return vec3<S>(v[0], c * v[1] + s * v[2], c * v[2] - s * v[1]);
}

// The rotation between link i's frame and its parent's (R_{i-1}^i of seed 000, ^{j-1}A_j of seed 003).
//   standard DH: R = Rz(theta) Rx(alpha)             (seed 000 eq 2.12)
//   modified DH: R = Rz(gamma) Rx(alpha) Rz(theta)   (seed 003; gamma = 0 for chains)
// to_child(v) = R^T v expresses a parent-frame vector in the link's frame; to_parent(v) = R v the reverse.
// 8 mul 4 add each (standard); 12 mul 6 add (modified), of which the gamma rotation folds away for chains.
//   placement:   R = R_p Rz(theta), R_p the joint's placement rotation (robot.hpp Placement): 9 mul 6 add for R_p,
//                which folds away in the customised graph when R_p is a signed permutation.
template <class S>
struct DhRotation {
  bool modified = false;
  S c, s;    // cos, sin of the full joint angle theta (+ q for revolute joints)
  S ca, sa;  // cos, sin of alpha
  S cg, sg;  // cos, sin of gamma
  const LinkParams<S>* placed = nullptr;  // the link's parameters when its joint is placed (rxx..rzz)

  Vec3<S> to_child(const Vec3<S>& v) const {
    if (placed) {
      const LinkParams<S>& P = *placed;
      return rotz_t(c, s, vec3<S>(P.rxx * v[0] + P.ryx * v[1] + P.rzx * v[2], P.rxy * v[0] + P.ryy * v[1] + P.rzy * v[2],
                                  P.rxz * v[0] + P.ryz * v[1] + P.rzz * v[2]));
    }
    if (modified) return rotz_t(c, s, rotx_t(ca, sa, rotz_t(cg, sg, v)));
    return rotx_t(ca, sa, rotz_t(c, s, v));
  }
  Vec3<S> to_parent(const Vec3<S>& v) const {
    if (placed) {
      const LinkParams<S>& P = *placed;
      const Vec3<S> u = rotz(c, s, v);
      return vec3<S>(P.rxx * u[0] + P.rxy * u[1] + P.rxz * u[2], P.ryx * u[0] + P.ryy * u[1] + P.ryz * u[2],
                     P.rzx * u[0] + P.rzy * u[1] + P.rzz * u[2]);
    }
    if (modified) return rotz(cg, sg, rotx(ca, sa, rotz(c, s, v)));
    return rotz(c, s, rotx(ca, sa, v));
  }
};

template <class S>
DhRotation<S> dh_rotation(const ModelT<S>& model, const JointInputs<S>& in, std::size_t i) {
  const LinkParams<S>& L = model.links[i];
  const Link& link = model.robot->links[i];
  const bool revolute = link.joint == JointType::Revolute;
  DhRotation<S> R{model.robot->convention == DhConvention::Modified,
                  revolute ? in.c[i] : L.ctheta0, revolute ? in.s[i] : L.stheta0,
                  L.calpha, L.salpha, L.cgamma, L.sgamma, link.placement ? &L : nullptr};
  return R;
}

// The joint axis expressed in link i's frame: standard DH z_{i-1} = Rx(alpha)^T e_z = [0, salpha, calpha]
// (seed 000 eq 3.13); modified DH a_j = e_z (seed 003 eq 9.94).
template <class S>
Vec3<S> joint_axis(const ModelT<S>& model, std::size_t i) {
  if (model.robot->convention == DhConvention::Modified) return vec3(S(0.0), S(0.0), S(1.0));
  return vec3<S>(S(0.0), model.links[i].salpha, model.links[i].calpha);
}

// Position of link i's origin relative to its parent's: standard DH r_i in frame i, modified DH P_i in the parent
// frame (see LinkParams::px). For a prismatic joint it is formed from d + q.
template <class S>
Vec3<S> origin_offset(const ModelT<S>& model, const JointInputs<S>& in, std::size_t i) {
  const LinkParams<S>& L = model.links[i];
  if (model.robot->links[i].joint == JointType::Revolute) return vec3<S>(L.px, L.py, L.pz);
  if (model.robot->links[i].placement) {  // p + q R e_z (a placed joint has d = 0: robot.hpp Placement)
    const S& q = in.q[i];
    return vec3<S>(L.px + q * L.rxz, L.py + q * L.ryz, L.pz + q * L.rzz);
  }
  const S d = L.d + in.q[i];
  if (model.robot->convention == DhConvention::Standard) return vec3<S>(L.a, d * L.salpha, d * L.calpha);
  const Vec3<S> u = vec3<S>(L.a, -(L.salpha * d), L.b + L.calpha * d);
  return rotz(L.cgamma, L.sgamma, u);
}

// A = alpha~ + omega~ omega~ (seed 000 eq 4.18; Khalil's U_j, seed 003 eq 9.90), so that A c = alpha x c +
// omega x (omega x c). Stored as the six off-diagonal entries and the NEGATED diagonal d (A_kk = -d_k, d_x =
// omega_y^2 + omega_z^2, ...), which makes it 6 mul 9 add (seed 000 Table 8.5) without negations.
// The squares omega_x^2, omega_y^2, omega_z^2 are kept too: the differences of the diagonal that Tr{A K Q} needs
// (d_y - d_z = omega_z^2 - omega_y^2, ...) are then one subtraction each without reading d, so a customised graph
// drops the d entries nothing else reads.
template <class S>
struct AccelMatrix {
  S dx, dy, dz;                  // -A_xx, -A_yy, -A_zz
  S xy, xz, yx, yz, zx, zy;      // A_xy, ...
  S wx2, wy2, wz2;               // omega_x^2, omega_y^2, omega_z^2

  // A v (9 mul, 6 add)
  Vec3<S> apply(const Vec3<S>& v) const {
    return vec3<S>(xy * v[1] + xz * v[2] - dx * v[0], yx * v[0] + yz * v[2] - dy * v[1],
                   zx * v[0] + zy * v[1] - dz * v[2]);
  }
};

template <class S>
AccelMatrix<S> accel_matrix(const Vec3<S>& omega, const Vec3<S>& alpha) {
  const S xx = omega[0] * omega[0], yy = omega[1] * omega[1], zz = omega[2] * omega[2];
  const S xy = omega[0] * omega[1], xz = omega[0] * omega[2], yz = omega[1] * omega[2];
  AccelMatrix<S> A{yy + zz, xx + zz, xx + yy,
                   xy - alpha[2], xz + alpha[1], xy + alpha[2], yz - alpha[0], xz - alpha[1], yz + alpha[0],
                   xx, yy, zz};
  return A;
}

// The zero matrix (base link: omega_0 = alpha_0 = 0); its literal zeros fold away.
template <class S>
AccelMatrix<S> zero_accel_matrix() {
  const S z(0.0);
  return AccelMatrix<S>{z, z, z, z, z, z, z, z, z, z, z, z};
}

// Angular velocity and acceleration of link i from its parent's (identical in the three forms).
//   standard DH: omega_i = R^T (omega_p + qd z), alpha_i = R^T (alpha_p + omega_p x z qd + qdd z)  (seed 000 7.1, 7.2)
//   modified DH: w = R^T omega_p, omega_j = w + qd a_j, alpha_j = R^T alpha_p + qdd a_j + w x qd a_j (seed 003
//                eqs 9.84-9.86)
// (omega_p x z qd = [omega_py qd, -omega_px qd, 0] for z = e_z.) Prismatic joints: omega_i = R^T omega_p,
// alpha_i = R^T alpha_p. Opens the scopes "omega" and "alpha".
template <class S>
void angular_step(const ModelT<S>& model, const JointInputs<S>& in, std::size_t i, const DhRotation<S>& R,
                  const Vec3<S>& omega_p, const Vec3<S>& alpha_p, Vec3<S>& omega, Vec3<S>& alpha) {
  const int link = static_cast<int>(i) + 1;
  const bool revolute = model.robot->links[i].joint == JointType::Revolute;
  const bool modified = model.robot->convention == DhConvention::Modified;
  const S& qd = in.qd[i];
  const S& qdd = in.qdd[i];
  Vec3<S> w;  // seed 003 eq 9.84, ^j omega_{j-1} (modified DH only)
  {
    ProvenanceScope<S> scope(link, "omega", modified ? "seed003 eq 9.84-9.85" : "seed000 eq 7.1");
    if (!revolute) {
      omega = R.to_child(omega_p);
    } else if (modified) {
      w = R.to_child(omega_p);
      omega = vec3<S>(w[0], w[1], w[2] + qd);
    } else {
      omega = R.to_child(vec3<S>(omega_p[0], omega_p[1], omega_p[2] + qd));
    }
  }
  ProvenanceScope<S> scope(link, "alpha", modified ? "seed003 eq 9.86" : "seed000 eq 7.2");
  if (!revolute) {
    alpha = R.to_child(alpha_p);
  } else if (modified) {
    const Vec3<S> r = R.to_child(alpha_p);
    alpha = vec3<S>(r[0] + w[1] * qd, r[1] - w[0] * qd, r[2] + qdd);
  } else {
    alpha = R.to_child(vec3<S>(alpha_p[0] + omega_p[1] * qd, alpha_p[1] - omega_p[0] * qd, alpha_p[2] + qdd));
  }
}

// Extra linear acceleration of a prismatic joint, qdd z + 2 omega x (qd z), with z the joint axis in frame i and
// omega the angular velocity of the link (= R^T omega_p for a prismatic joint) (seed 003 eq 9.87, sigma = 1).
template <class S>
Vec3<S> prismatic_accel(const ModelT<S>& model, const JointInputs<S>& in, std::size_t i, const Vec3<S>& omega) {
  const Vec3<S> z = joint_axis(model, i);
  const Vec3<S> v = scale(in.qd[i], z);
  const Vec3<S> c = cross(omega, v);
  return add(scale(in.qdd[i], z), add(c, c));
}

// tau_i = z . n_i (revolute) or z . f_i (prismatic) (seed 000 eq 3.13; seed 003 eq 9.94), plus rotor inertia
// Ia qdd and friction Fv qd + Fc sgn(qd) (seed 003 eq 9.94). Scopes "tau", "rotor", "friction".
template <class S>
S joint_torque(const ModelT<S>& model, const JointInputs<S>& in, std::size_t i, const Vec3<S>& f, const Vec3<S>& n) {
  const int link = static_cast<int>(i) + 1;
  const LinkParams<S>& L = model.links[i];
  const Vec3<S>& v = model.robot->links[i].joint == JointType::Revolute ? n : f;
  S tau;
  {
    ProvenanceScope<S> scope(link, "tau", "seed000 eq 3.13");
    if (model.robot->convention == DhConvention::Modified) {
      tau = v[2];
    } else {
      tau = L.salpha * v[1] + L.calpha * v[2];
    }
  }
  {
    ProvenanceScope<S> scope(link, "rotor", "seed003 eq 9.94");
    tau = tau + L.Ia * in.qdd[i];
  }
  ProvenanceScope<S> scope(link, "friction", "seed003 eq 9.94");
  return tau + (L.Fv * in.qd[i] + L.Fc * in.sgn_qd[i]);
}

// The base acceleration a_0 = -g (seed 003 eq 9.80: gravity as an upward acceleration of the base).
template <class S>
Vec3<S> base_accel(const ModelT<S>& model) {
  ProvenanceScope<S> scope(0, "a", "seed003 eq 9.80");
  return vec3<S>(-model.gx, -model.gy, -model.gz);
}

}  // namespace ne
}  // namespace neaccel::ref
