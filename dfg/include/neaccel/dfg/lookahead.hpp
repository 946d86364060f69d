// Lookahead form of the modified Newton-Euler recursion: Lee and Chang's lookahead for the linear
// recurrences of ref::modified_ne, written once, templated on the scalar like the ref algorithms (contract 2), so
// it gives numbers in double (checked against ref::modified_ne to 1e-12: tests/dfg/test_lookahead.cpp) and, traced
// with dfg::Value, the dataflow graph the depth option `--depth lookahead:K` schedules.
//
// Every propagated quantity obeys a linear recurrence whose matrix depends only on the joint positions:
//   forward  omega_i = Rt_i omega_{i-1} + u_i          u_i: qd_i (seed 000 eq 7.1, seed 003 eqs 9.84-9.85)
//            alpha_i = Rt_i alpha_{i-1} + v_i          v_i: omega_{i-1} x z qd_i, qdd_i (eq 7.2, 9.86)
//            a_i     = Rt_i a_{i-1} + c_i              c_i: A_i r_i (eq 7.3) or Rt_i A_{i-1} P_i (9.87)
//   backward f_i     = R_{i+1} f_{i+1} + F_i           F_i = m abar_i (eq 7.5)
//            n_i     = R_{i+1} n_{i+1} + N_i           N_i: Tr{AKQ} + m r x abar + the r x R f term (7.6, 9.93)
// with Rt_i = R_i^T (DhRotation::to_child). Over K links the recurrence is
//   x_{s+m} = P(s+m, s) x_s + sum_{j=1..m} P(s+m, s+j) b_{s+j},   P(t, j) = Rt_t Rt_{t-1} ... Rt_{j+1}
// (backward with the transposes), so the chain that carries the recursion (x_s -> x_{s+K}) costs one 3x3
// matrix-vector product and a sum per K links instead of per link; the rotation products P are computed off the
// chain (they depend only on q, by a balanced product tree) and shared by the five recurrences, and the
// transported offsets P b are sums the depth pass (dfg/depth.hpp) orders by ready time. Values inside a block are
// all computed from the block's start (x_{s+m} for m < K too), so no value waits for a chain of single steps.
// K = 1 is the recursion itself (one rotation per link, structured as in ref); a single step (P(j+1, j) = Rt_{j+1})
// uses the structured rotation (8 mul 4 add) unless `dense` asks for the dense 3x3 matrix, a product always the
// dense matrix. Two cheaper relatives of the same idea: `dense` single steps (one product and two sums deep per
// link instead of two rotations), and torques projected over several links (projected_torque: the output's
// lookahead, tau_k written on the force and moment of a later link). Measurements: docs/scheduling.md, "Lookahead".
//
// Serial chains only (parent of link i is link i-1); other robots run ref::modified_ne unchanged.
#pragma once

#include "neaccel/ref/modified_ne.hpp"

#include <array>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace neaccel::dfg {

namespace lookahead_detail {

template <class S>
using Mat3 = std::array<std::array<S, 3>, 3>;

template <class S>
using Vec3 = ref::Vec3<S>;

// Products of the rotations of a serial chain, memoised: P(t, j) = Rt_t ... Rt_{j+1} (1-based links, j < t).
template <class S>
class RotationProducts {
 public:
  // dense: single steps by the dense 3x3 matrix too (one product and two sums deep instead of two rotations)
  RotationProducts(const std::vector<ref::ne::DhRotation<S>>& R, bool dense) : R_(R), dense_(dense) {}

  // P(t, j) v: a vector of frame j in frame t.
  Vec3<S> forward(int t, int j, const Vec3<S>& v) {
    if (t == j) return v;
    if (t == j + 1 && !dense_) return R_[static_cast<std::size_t>(t - 1)].to_child(v);
    const Mat3<S>& P = product(t, j);
    Vec3<S> out;
    for (int r = 0; r < 3; ++r) out[r] = P[r][0] * v[0] + P[r][1] * v[1] + P[r][2] * v[2];
    return out;
  }
  // P(t, j)^T v = R_{j+1} ... R_t v: a vector of frame t in frame j.
  Vec3<S> backward(int j, int t, const Vec3<S>& v) {
    if (t == j) return v;
    if (t == j + 1 && !dense_) return R_[static_cast<std::size_t>(t - 1)].to_parent(v);
    const Mat3<S>& P = product(t, j);
    Vec3<S> out;
    for (int r = 0; r < 3; ++r) out[r] = P[0][r] * v[0] + P[1][r] * v[1] + P[2][r] * v[2];
    return out;
  }

 private:
  const Mat3<S>& product(int t, int j) {
    const auto key = std::make_pair(t, j);
    auto it = P_.find(key);
    if (it != P_.end()) return it->second;
    Mat3<S> M;
    ref::ProvenanceScope<S> scope(t, "lookahead P", "Lee-Chang lookahead");
    if (t == j + 1) {
      // the columns of Rt_t: its images of the unit vectors (literal zeros and ones fold away in a trace)
      for (int c = 0; c < 3; ++c) {
        Vec3<S> e = ref::ne::vec3<S>(S(0.0), S(0.0), S(0.0));
        e[c] = S(1.0);
        const Vec3<S> col = R_[static_cast<std::size_t>(t - 1)].to_child(e);
        for (int r = 0; r < 3; ++r) M[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] = col[r];
      }
    } else {
      const int mid = (t + j + 1) / 2;  // balanced: P(t, j) = P(t, mid) P(mid, j)
      const Mat3<S> A = product(t, mid);
      const Mat3<S> B = product(mid, j);
      for (std::size_t r = 0; r < 3; ++r)
        for (std::size_t c = 0; c < 3; ++c) M[r][c] = A[r][0] * B[0][c] + A[r][1] * B[1][c] + A[r][2] * B[2][c];
    }
    return P_.emplace(key, M).first->second;
  }

  const std::vector<ref::ne::DhRotation<S>>& R_;
  bool dense_ = false;
  std::map<std::pair<int, int>, Mat3<S>> P_;
};

// x_i = Rt_i x_{i-1} + b_i (i = 1..n; b[i], x0 = x_0) by lookahead over K links; returns x (index 0 = x_0).
template <class S>
std::vector<Vec3<S>> scan_forward(RotationProducts<S>& P, int K, const Vec3<S>& x0, const std::vector<Vec3<S>>& b,
                                  const char* quantity) {
  const int n = static_cast<int>(b.size()) - 1;
  std::vector<Vec3<S>> x(b.size());
  x[0] = x0;
  for (int s = 0; s < n; s += K)
    for (int t = s + 1; t <= std::min(s + K, n); ++t) {
      ref::ProvenanceScope<S> scope(t, quantity, "Lee-Chang lookahead");
      Vec3<S> sum = b[static_cast<std::size_t>(t)];
      for (int j = t - 1; j > s; --j) sum = ref::ne::add(sum, P.forward(t, j, b[static_cast<std::size_t>(j)]));
      x[static_cast<std::size_t>(t)] = ref::ne::add(sum, P.forward(t, s, x[static_cast<std::size_t>(s)]));
    }
  return x;
}

// y_i = R_{i+1} y_{i+1} + b_i (i = n..1; y_{n+1} = 0, so y_n = b_n) by lookahead over K links; returns y with
// y[i] for i = 1..n (index 0 unused).
template <class S>
std::vector<Vec3<S>> scan_backward(RotationProducts<S>& P, int K, const std::vector<Vec3<S>>& b, const char* quantity) {
  const int n = static_cast<int>(b.size()) - 1;
  std::vector<Vec3<S>> y(b.size());
  // block starts s = n, n-K, ...: y_s from the block's start e = s + K (or nothing for the first block)
  for (int e = n + 1; e > 1; e -= K)
    for (int t = e - 1; t >= std::max(e - K, 1); --t) {
      ref::ProvenanceScope<S> scope(t, quantity, "Lee-Chang lookahead");
      Vec3<S> sum = b[static_cast<std::size_t>(t)];
      for (int j = t + 1; j < e; ++j) sum = ref::ne::add(sum, P.backward(t, j, b[static_cast<std::size_t>(j)]));
      if (e <= n) sum = ref::ne::add(sum, P.backward(t, e, y[static_cast<std::size_t>(e)]));
      y[static_cast<std::size_t>(t)] = sum;
    }
  return y;
}

// tau_k of a revolute link k, projected over `reach` >= 1 links (the output's lookahead). With
//   f_j = F_j + R_{j+1} f_{j+1},  n_j = N_j + p_j x (R_{j+1} f_{j+1}) + R_{j+1} n_{j+1}
// (p_j = r_j for standard DH, P_{j+1} for modified DH; N_j = Tr{A K Q} + m(r + rbar) x abar) a torque
// c + u . f_j + w . n_j is
//   c + u . F_j + w . N_j + (Rt_{j+1} (u + w x p_j)) . f_{j+1} + (Rt_{j+1} w) . n_{j+1},
// starting from tau_k = z . n_k (u = 0, w = z). The vectors u, w depend on q only, so tau_k waits for one product
// and a sum after f_{k+reach}, n_{k+reach} instead of the moment sums of `reach` links and the projection. Rotor
// inertia and friction as ref::ne::joint_torque. Vectors are 0-based by link; R, r, F, N, f, n of the chain.
template <class S>
S projected_torque(const ref::ModelT<S>& model, const ref::JointInputs<S>& in, std::size_t k, std::size_t reach,
                   const std::vector<ref::ne::DhRotation<S>>& R, const std::vector<Vec3<S>>& r,
                   const std::vector<Vec3<S>>& F, const std::vector<Vec3<S>>& N, const std::vector<Vec3<S>>& f,
                   const std::vector<Vec3<S>>& n) {
  using namespace ref;
  using namespace ref::ne;
  const int link = static_cast<int>(k) + 1;
  const LinkParams<S>& L = model.links[k];
  const bool modified = model.robot->convention == DhConvention::Modified;
  auto dot = [](const Vec3<S>& x, const Vec3<S>& y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
  S tau;
  {
    ProvenanceScope<S> scope(link, "tau", "seed000 eq 3.13");
    Vec3<S> u = zero3<S>(), w = joint_axis(model, k);
    std::size_t j = k;
    S c(0.0);
    for (; j < k + reach; ++j) {
      c = c + (dot(u, F[j]) + dot(w, N[j]));
      const Vec3<S> uu = R[j + 1].to_child(add(u, cross(w, modified ? r[j + 1] : r[j])));
      w = R[j + 1].to_child(w);
      u = uu;
    }
    tau = c + (dot(u, f[j]) + dot(w, n[j]));
  }
  {
    ProvenanceScope<S> scope(link, "rotor", "seed003 eq 9.94");
    tau = tau + L.Ia * in.qdd[k];
  }
  ProvenanceScope<S> scope(link, "friction", "seed003 eq 9.94");
  return tau + (L.Fv * in.qd[k] + L.Fc * in.sgn_qd[k]);
}

// How far link k's torque is projected when the first `project` links are: project - k links, within the chain
// and only through revolute links (0: not projected).
inline std::size_t projection_reach(const ref::Robot& robot, int project, std::size_t k) {
  if (static_cast<int>(k) >= project || robot.links[k].joint != ref::JointType::Revolute) return 0;
  return std::min(static_cast<std::size_t>(project) - k, robot.links.size() - 1 - k);
}

// N_k = Tr{A K Q} + m(r + rbar) x abar (seed 000 eq 7.6) and m abar_k, as ref::ne::modified_ne_backward forms them.
template <class S>
std::pair<Vec3<S>, Vec3<S>> local_wrench(const ref::ModelT<S>& model, const ref::NeData<S>& data, std::size_t k,
                                         const ref::ne::AccelMatrix<S>& A, const Vec3<S>& a) {
  using namespace ref;
  using namespace ref::ne;
  const int link = static_cast<int>(k) + 1;
  const LinkParams<S>& L = model.links[k];
  Vec3<S> abar, F;
  {
    ProvenanceScope<S> scope(link, "m abar", "seed000 eq 7.4");
    abar = add(A.apply(vec3<S>(L.cx, L.cy, L.cz)), a);
    F = scale(L.M, abar);
  }
  Vec3<S> tr, mr;
  {
    ProvenanceScope<S> scope(link, "Tr{A K Q}", "seed000 eq 7.6");
    tr = trace_AKQ(A, L);
  }
  {
    ProvenanceScope<S> scope(link, "m(r+rbar) x abar", "seed000 eq 7.6");
    mr = cross(moment_arm_mass(model, data, k), abar);
  }
  ProvenanceScope<S> scope(link, "add n", "seed000 eq 7.6");
  return {F, add(tr, mr)};
}

inline bool serial_chain(const ref::Robot& robot) {
  for (std::size_t i = 0; i < robot.links.size(); ++i)
    if (robot.links[i].parent != static_cast<int>(i) - 1) return false;
  return true;
}

}  // namespace lookahead_detail

// The joint torques of ref::modified_ne (same model, same inputs), computed by lookahead over K >= 1 links.
// `which` selects the recurrences that use the lookahead (bits: 1 omega, 2 alpha, 4 a, 8 f, 16 n); the others
// step link by link (K = 1).
// `project`: the torques of the first `project` links (those the backward recursion ends with) are projected over
// the links up to link `project` + 1 (lookahead_detail::projected_torque, projection_reach).
// `dense`: single steps (and K = 1) by the dense 3x3 rotation matrix too (one product and two sums deep instead of
// two rotations of 8 mul 4 add; the matrix entries cost 4 mul per link, shared by the five recurrences).
template <class S>
std::vector<S> lookahead_ne(const ref::ModelT<S>& model, const ref::JointInputs<S>& in, int K, unsigned which = 31,
                            int project = 0, bool dense = false) {
  using namespace ref;
  using namespace ref::ne;
  using namespace lookahead_detail;
  const Robot& robot = *model.robot;
  // Trees and robots with mimic joints (inputs per coordinate, ref/model.hpp) take the recursion itself.
  if (!serial_chain(robot) || robot.has_mimic() || (K <= 1 && project <= 0 && !dense)) return modified_ne(model, in);
  const bool modified = robot.convention == DhConvention::Modified;
  if (K <= 1 && !dense) {
    // the recursion itself, then the projected torques from the force and moment of the link `reach` links
    // further (the local terms are formed again exactly as the recursion formed them: a trace shares them by
    // common subexpressions)
    NeData<S> data;
    modified_ne(model, in, data);
    const std::size_t nl = robot.links.size();
    std::vector<Vec3<S>> F(nl), Nl(nl);
    for (std::size_t k = 0; k < nl; ++k) std::tie(F[k], Nl[k]) = local_wrench(model, data, k, data.A[k], data.a[k]);
    for (std::size_t k = 0; k < nl; ++k)
      if (const std::size_t reach = projection_reach(robot, project, k))
        data.tau[k] = projected_torque(model, in, k, reach, data.R, data.r, F, Nl, data.f, data.n);
    return data.tau;
  }
  const int n = robot.dof();
  const auto N = static_cast<std::size_t>(n);
  std::vector<DhRotation<S>> R;
  for (std::size_t i = 0; i < N; ++i) R.push_back(dh_rotation(model, in, i));
  RotationProducts<S> P(R, dense);
  K = std::max(K, 1);
  const Vec3<S> zero = zero3<S>();
  auto revolute = [&](std::size_t i) { return robot.links[i].joint == JointType::Revolute; };

  // omega: u_i = Rt_i (qd z) (standard DH, seed 000 eq 7.1) or qd a_j (modified, seed 003 eq 9.85)
  std::vector<Vec3<S>> u(N + 1, zero);
  for (std::size_t i = 0; i < N; ++i) {
    if (!revolute(i)) continue;
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "omega", modified ? "seed003 eq 9.84-9.85" : "seed000 eq 7.1");
    const Vec3<S> qz = vec3<S>(S(0.0), S(0.0), in.qd[i]);
    u[i + 1] = modified ? qz : R[i].to_child(qz);
  }
  const std::vector<Vec3<S>> omega = scan_forward(P, which & 1 ? K : 1, zero, u, "omega");

  // alpha: v_i = Rt_i (omega_{i-1} x z qd_i + qdd_i z) (eq 7.2) or Rt_j omega_{j-1} x qd a_j + qdd_j a_j (9.86)
  std::vector<Vec3<S>> v(N + 1, zero);
  for (std::size_t i = 0; i < N; ++i) {
    if (!revolute(i)) continue;
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "alpha", modified ? "seed003 eq 9.86" : "seed000 eq 7.2");
    const Vec3<S>& wp = omega[i];
    const S& qd = in.qd[i];
    if (modified) {
      const Vec3<S> w = R[i].to_child(wp);
      v[i + 1] = vec3<S>(w[1] * qd, -(w[0] * qd), in.qdd[i]);
    } else {
      v[i + 1] = R[i].to_child(vec3<S>(wp[1] * qd, -(wp[0] * qd), in.qdd[i]));
    }
  }
  const std::vector<Vec3<S>> alpha = scan_forward(P, which & 2 ? K : 1, zero, v, "alpha");

  // a: c_i = A_i r_i (+ prismatic terms) (eq 7.3) or Rt_j (A_{j-1} P_j) (+ prismatic) (9.87)
  std::vector<AccelMatrix<S>> A(N);
  std::vector<Vec3<S>> r(N);
  for (std::size_t i = 0; i < N; ++i) {
    const int link = static_cast<int>(i) + 1;
    {
      ProvenanceScope<S> scope(link, "A", "seed000 eq 4.18");
      A[i] = accel_matrix(omega[i + 1], alpha[i + 1]);
    }
    r[i] = origin_offset(model, in, i);
  }
  std::vector<Vec3<S>> c(N + 1, zero);
  for (std::size_t i = 0; i < N; ++i) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "a", modified ? "seed003 eq 9.87" : "seed000 eq 7.3");
    if (modified) c[i + 1] = i == 0 ? zero : R[i].to_child(A[i - 1].apply(r[i]));
    else c[i + 1] = A[i].apply(r[i]);
    if (!revolute(i)) c[i + 1] = add(c[i + 1], prismatic_accel(model, in, i, omega[i + 1]));
  }
  const std::vector<Vec3<S>> a = scan_forward(P, which & 4 ? K : 1, base_accel(model), c, "a");

  // backward: F_i = m abar_i, N_i = Tr{A K Q} + m(r + rbar) x abar (+ the wrench of the last link)
  NeData<S> data;  // moment_arm_mass reads data.r
  data.resize(N);
  for (std::size_t i = 0; i < N; ++i) data.r[i] = r[i];
  std::vector<Vec3<S>> F(N + 1, zero), Nm(N + 1, zero);
  for (std::size_t k = 0; k < N; ++k) {
    const int link = static_cast<int>(k) + 1;
    const LinkParams<S>& L = model.links[k];
    Vec3<S> abar;
    {
      ProvenanceScope<S> scope(link, "m abar", "seed000 eq 7.4");
      abar = add(A[k].apply(vec3<S>(L.cx, L.cy, L.cz)), a[k + 1]);
      F[k + 1] = scale(L.M, abar);
    }
    Vec3<S> tr, mr;
    {
      ProvenanceScope<S> scope(link, "Tr{A K Q}", "seed000 eq 7.6");
      tr = trace_AKQ(A[k], L);
    }
    {
      ProvenanceScope<S> scope(link, "m(r+rbar) x abar", "seed000 eq 7.6");
      mr = cross(moment_arm_mass(model, data, k), abar);
    }
    ProvenanceScope<S> scope(link, "add n", "seed000 eq 7.6");
    Nm[k + 1] = add(tr, mr);
  }
  const std::vector<Vec3<S>> N0 = Nm;  // without the children's terms (projected torques)
  const Vec3<S> fe = vec3<S>(model.fex, model.fey, model.fez), ne_ = vec3<S>(model.nex, model.ney, model.nez);
  {
    ProvenanceScope<S> scope(n, "f", "seed000 eq 7.5");
    F[N] = add(F[N], fe);
  }
  const std::vector<Vec3<S>> f = scan_backward(P, which & 8 ? K : 1, F, "f");
  // n's offsets: the force the child exerts, r_i x (R_{i+1} f_{i+1}) (standard DH: about O_{i-1} with link i's
  // r) or P_{i+1} x (R_{i+1} f_{i+1}) (modified DH: the child's offset); the last link's from the wrench.
  for (std::size_t k = 0; k < N; ++k) {
    const int link = static_cast<int>(k) + 1;
    ProvenanceScope<S> scope(link, "r x R f", modified ? "seed003 eq 9.93" : "seed000 eq 7.6");
    const bool last = k + 1 == N;
    if (modified) {
      if (last) Nm[k + 1] = add(Nm[k + 1], ne_);
      else Nm[k + 1] = add(Nm[k + 1], cross(r[k + 1], R[k + 1].to_parent(f[k + 2])));
    } else {
      const Vec3<S> fch = last ? fe : R[k + 1].to_parent(f[k + 2]);
      Nm[k + 1] = add(Nm[k + 1], cross(r[k], fch));
      if (last) Nm[k + 1] = add(Nm[k + 1], ne_);
    }
  }
  const std::vector<Vec3<S>> nm = scan_backward(P, which & 16 ? K : 1, Nm, "n");
  std::vector<S> tau(N);
  const std::vector<Vec3<S>> F0(F.begin() + 1, F.end()), N00(N0.begin() + 1, N0.end()), f0(f.begin() + 1, f.end()),
      n0(nm.begin() + 1, nm.end());
  for (std::size_t k = 0; k < N; ++k) {
    const std::size_t reach = projection_reach(robot, project, k);
    tau[k] = reach ? projected_torque(model, in, k, reach, R, r, F0, N00, f0, n0)
                   : joint_torque(model, in, k, f[k + 1], nm[k + 1]);
  }
  return tau;
}

}  // namespace neaccel::dfg

#include "neaccel/dfg/trace.hpp"

namespace neaccel::dfg {

// The untouched graph of lookahead_ne over K links (trace(robot, Form::ModifiedNE, ...) when K <= 1 or the robot
// is not a serial chain); same inputs and outputs as the modified Newton-Euler graph.
Graph trace_lookahead(const ref::Robot& robot, Flavour flavour, int K, const TraceOptions& opt = {}, unsigned which = 31,
                      int project = 0, bool dense = false);

}  // namespace neaccel::dfg
