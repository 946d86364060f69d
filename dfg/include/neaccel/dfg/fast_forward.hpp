// seed 001's recursive forward dynamics (ref::forms::nasser_forward) with the structure the paper's count relies
// on made explicit, templated on the scalar like ref's (S = double for tests, S = dfg::Value for the graph):
//  - the reduced inertia K_i = A*_i - A*_i Z Z^T A*_i / (Z^T A*_i Z) has a zero Z row and column when the joint
//    has no rotor inertia (K Z = A* Z Ia / (Z^T A* Z + Ia)); they are written as literal zeros, so K sigma* and
//    the transfer of K to the parent skip them (seed 001's 5x5 reduced L_i);
//  - K is carried to the parent frame in the two elementary steps of the DH transform, the joint's Rz(theta)
//    Tz(d) and the link's constant Rx(alpha) Tx(a) (ref/forms/common.hpp LinkSplit), instead of one general
//    3x3 rotation; a symmetric 3x3 block rotated about a coordinate axis costs 9 multiplications with the
//    double angle (cos 2t, sin 2t formed once per rotation) instead of 45 (seed 001: "rotations about coordinate
//    axes");
//  - without a rotor the Z entry of the wrench carried to the parent is the driving torque itself (K's Z row is
//    zero and A*_ZZ / A*_ZZ = 1).
// Everything else (frames, velocities, sigma*, the outbound pass) is ref::forms::forward_detail's. Links whose
// transform is not of that form (prismatic joints, modified-DH gamma or b, trees) take ref's general transfer.
// The results equal nasser_forward's up to rounding (tests/dfg/test_functions.cpp).
#pragma once

#include "neaccel/ref/forms/forward.hpp"

#include <vector>

namespace neaccel::dfg {

namespace fast_forward_detail {

using ref::forms::Mat3;
using ref::forms::Mat6;
using ref::forms::Rigid;
using ref::forms::Vec3;
using ref::forms::Vec6;

// R S R^T for a symmetric S and R a rotation by (c, s) about coordinate axis `ax` (0 = x, 2 = z): with (i, j) the
// two rotated axes, c2 = c^2 - s^2, s2 = 2 s c, h = (S_ii - S_jj) / 2, e = h - (h c2 - S_ij s2):
// S'_ii = S_ii - e, S'_jj = S_jj + e, S'_ij = h s2 + S_ij c2, (S'_ik, S'_jk) = (c S_ik - s S_jk, s S_ik + c S_jk).
template <class S>
Mat3<S> rotate_sym(const Mat3<S>& A, int ax, const S& c, const S& s, const S& c2, const S& s2) {
  const int i = (ax + 1) % 3, j = (ax + 2) % 3, k = ax;
  Mat3<S> out = A;
  const S h = (A(i, i) - A(j, j)) * S(0.5);
  const S e = h - (h * c2 - A(i, j) * s2);
  out(i, i) = A(i, i) - e;
  out(j, j) = A(j, j) + e;
  out(i, j) = out(j, i) = h * s2 + A(i, j) * c2;
  out(i, k) = out(k, i) = c * A(i, k) - s * A(j, k);
  out(j, k) = out(k, j) = s * A(i, k) + c * A(j, k);
  return out;
}

// R B R^T for a general B, R as above (rows, then columns).
template <class S>
Mat3<S> rotate_gen(const Mat3<S>& B, int ax, const S& c, const S& s) {
  const int i = (ax + 1) % 3, j = (ax + 2) % 3;
  Mat3<S> T = B;
  for (int col = 0; col < 3; ++col) {
    T(i, col) = c * B(i, col) - s * B(j, col);
    T(j, col) = s * B(i, col) + c * B(j, col);
  }
  Mat3<S> out = T;
  for (int row = 0; row < 3; ++row) {
    out(row, i) = c * T(row, i) - s * T(row, j);
    out(row, j) = s * T(row, i) + c * T(row, j);
  }
  return out;
}

// The spatial inertia [A B; B^T C] of the child seen from the parent, for x_parent = R x_child + p with R about
// axis `ax` by (c, s): ref::forms::inertia_to_parent's formulas with the rotation above.
template <class S>
Mat6<S> transfer(const Mat6<S>& I, int ax, const S& c, const S& s, const Vec3<S>& p) {
  const S c2 = c * c - s * s;
  const S s2 = s * c * S(2.0);  // a multiplication rather than sc + sc: the count has room in mul, not in add
  const Mat3<S> A = rotate_sym(Mat3<S>(I.template block<3, 3>(0, 0)), ax, c, s, c2, s2);
  const Mat3<S> B = rotate_gen(Mat3<S>(I.template block<3, 3>(0, 3)), ax, c, s);
  const Mat3<S> C = rotate_sym(Mat3<S>(I.template block<3, 3>(3, 3)), ax, c, s, c2, s2);
  const Mat3<S> pt = ref::forms::skew(p);
  const Mat3<S> lower = pt * A + B.transpose();
  Mat6<S> out;
  out.template block<3, 3>(0, 0) = A;
  out.template block<3, 3>(0, 3) = lower.transpose();
  out.template block<3, 3>(3, 0) = lower;
  for (int r = 0; r < 3; ++r)
    for (int q = r; q < 3; ++q) {
      S v = C(r, q);
      for (int k = 0; k < 3; ++k) v = v + pt(r, k) * B(k, q) - lower(r, k) * pt(k, q);
      out(3 + r, 3 + q) = v;
      out(3 + q, 3 + r) = v;
    }
  return out;
}

}  // namespace fast_forward_detail

template <class S>
std::vector<S> fast_forward(const ref::ModelT<S>& m, const ref::JointInputs<S>& in, const std::vector<S>& tau) {
  using namespace ref::forms;
  using namespace ref::forms::forward_detail;
  using ref::ProvenanceScope;
  FirstPass<S> f = first_pass(m, in, tau, "fast_forward");
  const ref::Robot& robot = *m.robot;
  const std::size_t n = f.jf.size();
  const bool standard = robot.convention == ref::DhConvention::Standard;
  std::vector<Mat6<S>> Astar(n);
  std::vector<Vec6<S>> Bstar = f.bias;
  std::vector<Vec6<S>> col(n);
  std::vector<S> Dinv(n), rhs(n);
  for (std::size_t i = 0; i < n; ++i) Astar[i] = f.jf[i].A;
  for (std::size_t k = n; k-- > 0;) {  // inbound pass (seed 001 eq. 2.1.19)
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
    const bool no_rotor = robot.links[k].Ia == 0.0;
    Mat6<S> K;
    for (int r = 0; r < 6; ++r)
      for (int c = r; c < 6; ++c) {
        K(r, c) = no_rotor && (r == z || c == z) ? S(0.0) : Astar[k](r, c) - gcol(r) * col[k](c);
        K(c, r) = K(r, c);
      }
    Vec6<S> Bk = K * f.sigma[k] + Bstar[k] + gcol * rhs[k];
    // Without a rotor, row Z of K is zero and gcol(Z) = 1, so Bk(Z) = Bstar(Z) + rhs = u exactly.
    if (no_rotor) Bk(z) = f.u[k];
    const auto pp = static_cast<std::size_t>(p);
    const ref::Link& L = robot.links[k];
    // The elementary steps: the joint's Rz(theta) Tz(d), then the constant Rx(alpha) with its translation (the
    // parent's for standard DH: T_parent = J_parent F_parent, so A_parent -> A_k is F_parent J_k).
    const bool simple = L.joint == ref::JointType::Revolute && p == static_cast<int>(k) - 1 &&
                        !L.placement && (standard || (L.gamma == 0.0 && L.b == 0.0));
    if (simple) {
      const ref::LinkParams<S>& Lf = m.links[standard ? pp : k];
      const S zero(0.0);
      const Mat6<S> K1 = fast_forward_detail::transfer(K, 2, in.c[k], in.s[k], vec3<S>(zero, zero, m.links[k].d));
      Astar[pp] = Astar[pp] + fast_forward_detail::transfer(K1, 0, Lf.calpha, Lf.salpha, vec3<S>(Lf.a, zero, zero));
    } else {
      Astar[pp] = Astar[pp] + inertia_to_parent(f.jf[k].X, K);
    }
    Bstar[pp] = Bstar[pp] + force_to_parent(f.jf[k].X, Bk);
  }
  std::vector<S> qdd(n);
  std::vector<Vec6<S>> q(n);
  for (std::size_t k = 0; k < n; ++k) {  // outbound pass (seed 001 eq. 2.1.20)
    ProvenanceScope<S> scope(static_cast<int>(k) + 1, "alpha", "seed001 eq 2.1.20");
    const int p = f.jf[k].parent;
    q[k] = motion_to_child(f.jf[k].X, p >= 0 ? q[static_cast<std::size_t>(p)] : f.q0) + f.sigma[k];
    qdd[k] = (rhs[k] - dot6(col[k], q[k])) * Dinv[k];
    q[k](f.jf[k].z) = q[k](f.jf[k].z) + qdd[k];
  }
  return qdd;
}

}  // namespace neaccel::dfg
