// Shared pieces of the alternative formulations (ref/forms/): small fixed-size types, the DH link transform
// in the scalar S, the joint axis, the per-joint actuator terms and the tree structure.
//
// Every function here obeys BRIEF contract 2: only +, -, *, unary - and S(double) on S. Structural decisions
// (joint type, convention, parent) are read from the double-valued ref::Robot, never from S.
#pragma once

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace neaccel::ref::forms {

template <class S>
using Vec3 = Eigen::Matrix<S, 3, 1>;
template <class S>
using Mat3 = Eigen::Matrix<S, 3, 3>;
// Top three rows of a 4x4 homogeneous matrix; the implicit last row is [0 0 0 1] for a transform and
// [0 0 0 0] for a derivative of one (seed 000 Appendix A multiplies these).
template <class S>
using Mat34 = Eigen::Matrix<S, 3, 4>;

template <class S>
Vec3<S> vec3(const S& x, const S& y, const S& z) {
  Vec3<S> v;
  v << x, y, z;
  return v;
}

template <class S>
Vec3<S> zero3() {
  return vec3<S>(S(0.0), S(0.0), S(0.0));
}

template <class S>
Mat3<S> zero33() {
  Mat3<S> m;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) m(r, c) = S(0.0);
  return m;
}

// a x b, written out (6 mul, 3 add).
template <class S>
Vec3<S> cross(const Vec3<S>& a, const Vec3<S>& b) {
  return vec3<S>(a.y() * b.z() - a.z() * b.y(), a.z() * b.x() - a.x() * b.z(), a.x() * b.y() - a.y() * b.x());
}

template <class S>
S dot(const Vec3<S>& a, const Vec3<S>& b) {
  return a.x() * b.x() + a.y() * b.y() + a.z() * b.z();
}

// The skew-symmetric matrix a~ with a~ b = a x b (only negations, no arithmetic).
template <class S>
Mat3<S> skew(const Vec3<S>& a) {
  Mat3<S> m;
  m << S(0.0), -a.z(), a.y(), a.z(), S(0.0), -a.x(), -a.y(), a.x(), S(0.0);
  return m;
}

template <class S>
Vec3<S> scale(const Vec3<S>& a, const S& k) {
  return vec3<S>(a.x() * k, a.y() * k, a.z() * k);
}

// Rotation R and origin p of frame i in its parent's frame: x_parent = R x_i + p (standard or modified DH,
// robot.hpp). The joint motion Rz(theta) Tz(d) is `J`, the constant part `F`:
//   standard: T = J F with F = Tx(a) Rx(alpha);   modified: T = F J with F = Rz(gamma) Tz(b) Rx(alpha) Tx(a).
template <class S>
struct Rigid {
  Mat3<S> R;
  Vec3<S> p;
};

template <class S>
struct LinkSplit {
  Rigid<S> J;  // Rz(theta) Tz(d_total): the joint's own motion (d_total = d + q for a prismatic joint)
  Rigid<S> F;  // the constant part
  bool standard = true;
  bool has_F_rotation = true;  // false when F is a pure translation (alpha and gamma zero in the robot)
};

// Sine and cosine of the full DH angle and the total offset d of link i.
template <class S>
void joint_trig(const ModelT<S>& m, const JointInputs<S>& in, int i, S& s, S& c, S& d) {
  const LinkParams<S>& L = m.links[static_cast<std::size_t>(i)];
  const auto k = static_cast<std::size_t>(i);
  if (m.robot->links[k].joint == JointType::Revolute) {
    s = in.s[k];
    c = in.c[k];
    d = L.d;
  } else {
    s = L.stheta0;
    c = L.ctheta0;
    d = L.d + in.q[k];
  }
}

template <class S>
Rigid<S> rot_z(const S& s, const S& c, const S& d) {
  Rigid<S> r;
  r.R << c, -s, S(0.0), s, c, S(0.0), S(0.0), S(0.0), S(1.0);
  r.p = vec3<S>(S(0.0), S(0.0), d);
  return r;
}

// Composition a * b of two rigid transforms.
template <class S>
Rigid<S> compose(const Rigid<S>& a, const Rigid<S>& b) {
  return Rigid<S>{Mat3<S>(a.R * b.R), Vec3<S>(a.R * b.p + a.p)};
}

template <class S>
LinkSplit<S> link_split(const ModelT<S>& m, const JointInputs<S>& in, int i) {
  const auto k = static_cast<std::size_t>(i);
  const LinkParams<S>& L = m.links[k];
  const Link& Ld = m.robot->links[k];
  S s, c, d;
  joint_trig(m, in, i, s, c, d);
  LinkSplit<S> out;
  out.J = rot_z(s, c, d);
  out.standard = m.robot->convention == DhConvention::Standard;
  const S& ca = L.calpha;
  const S& sa = L.salpha;
  if (Ld.placement) {
    // F = [R p] (robot.hpp Placement; a placed joint has d = theta = 0, so px..pz are p).
    out.F.R << L.rxx, L.rxy, L.rxz, L.ryx, L.ryy, L.ryz, L.rzx, L.rzy, L.rzz;
    out.F.p = vec3<S>(L.px, L.py, L.pz);
    out.has_F_rotation = !Ld.placement->R.isIdentity(0.0);
  } else if (out.standard) {
    // F = Tx(a) Rx(alpha)
    out.F.R << S(1.0), S(0.0), S(0.0), S(0.0), ca, -sa, S(0.0), sa, ca;
    out.F.p = vec3<S>(L.a, S(0.0), S(0.0));
    out.has_F_rotation = Ld.alpha != 0.0;
  } else {
    // F = Rz(gamma) Tz(b) Rx(alpha) Tx(a)
    Mat3<S> Rx;
    Rx << S(1.0), S(0.0), S(0.0), S(0.0), ca, -sa, S(0.0), sa, ca;
    Vec3<S> px = vec3<S>(L.a, S(0.0), L.b);
    if (Ld.gamma != 0.0) {
      Mat3<S> Rg;
      Rg << L.cgamma, -L.sgamma, S(0.0), L.sgamma, L.cgamma, S(0.0), S(0.0), S(0.0), S(1.0);
      out.F.R = Rg * Rx;
      out.F.p = Rg * px;
    } else {
      out.F.R = Rx;
      out.F.p = px;
    }
    out.has_F_rotation = Ld.alpha != 0.0 || Ld.gamma != 0.0;
  }
  return out;
}

// The whole link transform T(parent -> i).
template <class S>
Rigid<S> link_transform(const ModelT<S>& m, const JointInputs<S>& in, int i) {
  ProvenanceScope<S> scope(i + 1, "rotation", "seed000 eq 2.12 / seed003 eq 2.x (DH)");
  const LinkSplit<S> ls = link_split(m, in, i);
  return ls.standard ? compose(ls.J, ls.F) : compose(ls.F, ls.J);
}

inline bool is_revolute(const Robot& r, int i) {
  return r.links[static_cast<std::size_t>(i)].joint == JointType::Revolute;
}
inline int parent_of(const Robot& r, int i) { return r.links[static_cast<std::size_t>(i)].parent; }

// True if a is i or one of i's ancestors (a = -1 is the base, an ancestor of every link).
inline bool is_ancestor_or_self(const Robot& r, int a, int i) {
  for (int k = i; k >= 0; k = parent_of(r, k))
    if (k == a) return true;
  return a < 0;
}

// The actuator terms every formulation adds at joint i: rotor inertia, viscous and Coulomb friction
// (seed 003 eq. 9.83: Ia qdd + Fv qd + Fc sign(qd)). Only emitted for links whose robot has them non-zero.
template <class S>
S actuator_terms(const ModelT<S>& m, const JointInputs<S>& in, int i, const S& tau) {
  const auto k = static_cast<std::size_t>(i);
  const Link& Ld = m.robot->links[k];
  const LinkParams<S>& L = m.links[k];
  S t = tau;
  if (Ld.Ia != 0.0) {
    ProvenanceScope<S> scope(i + 1, "rotor", "seed003 eq 9.83");
    t = t + L.Ia * in.qdd[k];
  }
  if (Ld.Fv != 0.0 || Ld.Fc != 0.0) {
    ProvenanceScope<S> scope(i + 1, "friction", "seed003 eq 9.83");
    if (Ld.Fv != 0.0) t = t + L.Fv * in.qd[k];
    if (Ld.Fc != 0.0) t = t + L.Fc * in.sgn_qd[k];
  }
  return t;
}

// True when the robot carries an external wrench on its last link (robot.hpp f_e, n_e).
inline bool has_external_wrench(const Robot& r) { return !r.f_e.isZero(0.0) || !r.n_e.isZero(0.0); }

// Throws the one-line error of a formulation that cannot treat this robot.
inline void require(bool ok, const std::string& message) {
  if (!ok) throw neaccel::Error(message);
}

// Refuses a robot with mimic joints (robot.hpp Mimic) in an algorithm that works on every link's own coordinate
// (the O(n) forward recursions eliminate each joint's acceleration link by link, which a coupled joint breaks).
inline void require_no_mimic(const char* who, const Robot& r) {
  for (const Link& L : r.links)
    require(!L.mimic, std::string(who) + ": robot '" + r.name + "': joint of link '" + L.name +
                          "' is a mimic joint; this recursion needs every joint to have its own coordinate (forward "
                          "dynamics with mimic joints: --method crba or strobe, --function fd-strobe)");
}

// Checks the sizes of the joint inputs against the robot (a clear error instead of an out-of-range read): one
// entry per link (per_link, the per-link forms; mimic joints expanded by expand_joint_inputs) or per coordinate.
template <class S>
void check_inputs(const char* who, const ModelT<S>& m, const JointInputs<S>& in, bool per_link = true) {
  require(m.robot != nullptr, std::string(who) + ": model has no robot");
  const std::size_t n = per_link ? m.links.size() : static_cast<std::size_t>(m.robot->dof());
  require(in.s.size() == n && in.c.size() == n && in.q.size() == n && in.qd.size() == n && in.qdd.size() == n &&
              in.sgn_qd.size() == n,
          std::string(who) + ": joint inputs do not have one entry per joint");
}

}  // namespace neaccel::ref::forms
