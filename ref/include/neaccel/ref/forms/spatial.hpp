// 6x6 spatial quantities for the 6x6 formulations (seed 001 Nasser, seed 003 section 9.7.2 Khalil).
//
// Ordering [linear; angular] as both papers: a motion vector is [v_dot; omega_dot] (classical linear
// acceleration of the frame origin), a force vector [f; n] with the moment about the frame origin.
// Transforms are applied by 3x3 blocks (the zero blocks of the 6x6 screw matrices are never multiplied).
#pragma once

#include "neaccel/ref/forms/common.hpp"

namespace neaccel::ref::forms {

template <class S>
using Vec6 = Eigen::Matrix<S, 6, 1>;
template <class S>
using Mat6 = Eigen::Matrix<S, 6, 6>;

template <class S>
Vec6<S> vec6(const Vec3<S>& lin, const Vec3<S>& ang) {
  Vec6<S> v;
  v << lin, ang;
  return v;
}

template <class S>
Vec6<S> zero6() {
  return vec6<S>(zero3<S>(), zero3<S>());
}

template <class S>
Mat6<S> zero66() {
  Mat6<S> m;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) m(r, c) = S(0.0);
  return m;
}

// Spatial inertia of a body about the origin of its frame (seed 001 eq. 2.1.7.4, seed 003 eq. 9.73):
//   [ M 1     -MS~ ]
//   [ MS~      J   ]     J about the origin, MS the first moment.
template <class S>
Mat6<S> spatial_inertia(const S& M, const Vec3<S>& MS, const Mat3<S>& J) {
  Mat6<S> I = zero66<S>();
  const Mat3<S> ms = skew(MS);
  for (int k = 0; k < 3; ++k) I(k, k) = M;
  I.template block<3, 3>(0, 3) = -ms;
  I.template block<3, 3>(3, 0) = ms;
  I.template block<3, 3>(3, 3) = J;
  return I;
}

template <class S>
Mat3<S> inertia_tensor(const LinkParams<S>& L) {
  Mat3<S> J;
  J << L.XX, L.XY, L.XZ, L.XY, L.YY, L.YZ, L.XZ, L.YZ, L.ZZ;
  return J;
}

// Motion vector of the parent frame (acceleration-like: v_dot, omega_dot) carried rigidly to the child frame
// whose pose in the parent is X = (R, p), without the velocity-product term: [R^T (v + w x p); R^T w].
template <class S>
Vec6<S> motion_to_child(const Rigid<S>& X, const Vec6<S>& m) {
  const Vec3<S> v = m.template head<3>();
  const Vec3<S> w = m.template tail<3>();
  const Mat3<S> Rt = X.R.transpose();
  return vec6<S>(Vec3<S>(Rt * Vec3<S>(v + cross(w, X.p))), Vec3<S>(Rt * w));
}

// Force vector of the child frame expressed in the parent frame: [R f; R n + p x R f] (seed 003 eq. 2.63).
template <class S>
Vec6<S> force_to_parent(const Rigid<S>& X, const Vec6<S>& f) {
  const Vec3<S> Rf = X.R * Vec3<S>(f.template head<3>());
  const Vec3<S> Rn = X.R * Vec3<S>(f.template tail<3>());
  return vec6<S>(Rf, Vec3<S>(Rn + cross(X.p, Rf)));
}

// R S R^T for a symmetric S: only the upper triangle is formed (27 + 18 mul instead of 54), then mirrored.
template <class S>
Mat3<S> congruence_sym(const Mat3<S>& R, const Mat3<S>& Sym) {
  const Mat3<S> Y = Sym * R.transpose();
  Mat3<S> out;
  for (int r = 0; r < 3; ++r)
    for (int c = r; c < 3; ++c) {
      out(r, c) = R(r, 0) * Y(0, c) + R(r, 1) * Y(1, c) + R(r, 2) * Y(2, c);
      out(c, r) = out(r, c);
    }
  return out;
}

// Spatial inertia (about the child origin, child axes) seen from the parent frame: X^T I X, by 3x3 blocks; the
// symmetric diagonal blocks are formed on their upper triangles.
template <class S>
Mat6<S> inertia_to_parent(const Rigid<S>& X, const Mat6<S>& I) {
  const Mat3<S> A = congruence_sym(X.R, Mat3<S>(I.template block<3, 3>(0, 0)));
  const Mat3<S> B = X.R * Mat3<S>(I.template block<3, 3>(0, 3)) * X.R.transpose();
  const Mat3<S> C = congruence_sym(X.R, Mat3<S>(I.template block<3, 3>(3, 3)));
  const Mat3<S> pt = skew(X.p);
  const Mat3<S> lower = pt * A + B.transpose();  // p~ A' + B'^T
  Mat6<S> out;
  out.template block<3, 3>(0, 0) = A;
  out.template block<3, 3>(0, 3) = lower.transpose();  // B' - A' p~ (A' symmetric)
  out.template block<3, 3>(3, 0) = lower;
  // C' + p~ B' - lower p~, symmetric: upper triangle only
  for (int r = 0; r < 3; ++r)
    for (int c = r; c < 3; ++c) {
      S v = C(r, c);
      for (int k = 0; k < 3; ++k) v = v + pt(r, k) * B(k, c) - lower(r, k) * pt(k, c);
      out(3 + r, 3 + c) = v;
      out(3 + c, 3 + r) = v;
    }
  return out;
}

// The inertial parameters of a body re-expressed in a frame A with x_A = R x + p: (M, MS_A, J_A).
template <class S>
void shift_inertia(const Rigid<S>& T, const S& M, const Vec3<S>& MS, const Mat3<S>& J, Vec3<S>& MS_A,
                   Mat3<S>& J_A) {
  const Vec3<S> rms = T.R * MS;
  MS_A = rms + scale(T.p, M);
  const Mat3<S> rj = T.R * J * T.R.transpose();
  const S two_p_rms = S(2.0) * dot(T.p, rms);
  const S pp = dot(T.p, T.p);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      S v = rj(r, c) - rms(r) * T.p(c) - T.p(r) * rms(c) - M * (T.p(r) * T.p(c));
      if (r == c) v = v + two_p_rms + M * pp;
      J_A(r, c) = v;
    }
}

}  // namespace neaccel::ref::forms
