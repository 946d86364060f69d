// Template definitions for lagrange.hpp.
#pragma once

#include <optional>

namespace neaccel::ref::forms {

namespace lagrange_detail {

// A 4x4 homogeneous matrix as its top three rows; the last row is [0 0 0 1] (transform) or 0 (derivative).
template <class S>
struct H4 {
  Mat34<S> m;
  bool transform = true;
};

// A * B exploiting the known last rows (seed 000 Appendix A "T multiplication").
template <class S>
H4<S> mul(const H4<S>& A, const H4<S>& B) {
  H4<S> C;
  C.m = A.m.template leftCols<3>() * B.m;
  if (B.transform) C.m.col(3) = C.m.col(3) + A.m.col(3);
  C.transform = A.transform && B.transform;
  return C;
}

// Q_j X: free (a row exchange and a negation for a revolute joint, a row selection for a prismatic one).
template <class S>
H4<S> left_q(bool revolute, const H4<S>& X) {
  H4<S> R;
  R.transform = false;
  for (int c = 0; c < 4; ++c) {
    if (revolute) {
      R.m(0, c) = -X.m(1, c);
      R.m(1, c) = X.m(0, c);
      R.m(2, c) = S(0.0);
    } else {
      R.m(0, c) = S(0.0);
      R.m(1, c) = S(0.0);
      R.m(2, c) = S(c == 3 && X.transform ? 1.0 : 0.0);
    }
  }
  return R;
}

// X Q_j: a column exchange and a negation (revolute), a column move (prismatic).
template <class S>
H4<S> right_q(bool revolute, const H4<S>& X) {
  H4<S> R;
  R.transform = false;
  for (int r = 0; r < 3; ++r) {
    if (revolute) {
      R.m(r, 0) = X.m(r, 1);
      R.m(r, 1) = -X.m(r, 0);
      R.m(r, 2) = S(0.0);
      R.m(r, 3) = S(0.0);
    } else {
      R.m(r, 0) = S(0.0);
      R.m(r, 1) = S(0.0);
      R.m(r, 2) = S(0.0);
      R.m(r, 3) = X.m(r, 2);
    }
  }
  return R;
}

template <class S>
H4<S> scaled(const H4<S>& X, const S& k) {
  H4<S> R;
  R.transform = false;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) R.m(r, c) = X.m(r, c) * k;
  return R;
}

template <class S>
void accumulate(std::optional<H4<S>>& acc, const H4<S>& X) {
  if (!acc) {
    acc = X;
    return;
  }
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) acc->m(r, c) = acc->m(r, c) + X.m(r, c);
}

// The pseudo-inertia J_q about the frame origin (seed 000 eq. 2.37): [[K, MS], [MS^T, M]], K = tr(J)/2 1 - J.
template <class S>
Eigen::Matrix<S, 4, 4> pseudo_inertia(const LinkParams<S>& L) {
  Eigen::Matrix<S, 4, 4> J;
  const S half(0.5);
  J << half * (L.YY + L.ZZ - L.XX), -L.XY, -L.XZ, L.MX,  //
      -L.XY, half * (L.XX + L.ZZ - L.YY), -L.YZ, L.MY,   //
      -L.XZ, -L.YZ, half * (L.XX + L.YY - L.ZZ), L.MZ,   //
      L.MX, L.MY, L.MZ, L.M;
  return J;
}

// Tr{A B^T} for two derivatives (last rows zero): 12 mul, 11 add.
template <class S>
S trace_abt(const Mat34<S>& A, const Mat34<S>& B) {
  S t = A(0, 0) * B(0, 0);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      if (r != 0 || c != 0) t = t + A(r, c) * B(r, c);
  return t;
}

template <class S>
Mat34<S> times_pseudo(const H4<S>& X, const Eigen::Matrix<S, 4, 4>& J) {
  return X.m * J;
}

// All the matrices of Appendix A for a model: T_a^q, U_qj, U_qjk.
template <class S>
struct Tables {
  int n = 0;
  std::vector<int> pivot;                          // j': frame whose z is joint j's axis (-1 = base)
  std::vector<std::vector<std::optional<H4<S>>>> T;   // T[a + 1][q] = T_a^q (a = -1 .. q-1, a an ancestor of q)
  std::vector<std::vector<std::optional<H4<S>>>> U;   // U[q][j]
  std::vector<std::vector<std::vector<std::optional<H4<S>>>>> U2;  // U2[q][j][k], j <= k
  std::vector<std::vector<int>> chain;
};

template <class S>
Tables<S> tables(const ModelT<S>& m, const JointInputs<S>& in) {
  const Robot& r = *m.robot;
  const int n = static_cast<int>(r.links.size());
  const auto un = static_cast<std::size_t>(n);
  Tables<S> t;
  t.n = n;
  t.pivot.resize(un);
  t.chain.resize(un);
  t.T.assign(un + 1, std::vector<std::optional<H4<S>>>(un));
  t.U.assign(un, std::vector<std::optional<H4<S>>>(un));
  t.U2.assign(un, std::vector<std::vector<std::optional<H4<S>>>>(un, std::vector<std::optional<H4<S>>>(un)));
  for (int q = 0; q < n; ++q) {
    const int p = parent_of(r, q);
    t.pivot[static_cast<std::size_t>(q)] = r.convention == DhConvention::Standard ? p : q;
    if (p >= 0) t.chain[static_cast<std::size_t>(q)] = t.chain[static_cast<std::size_t>(p)];
    t.chain[static_cast<std::size_t>(q)].push_back(q);
  }
  // 1. T_a^q for every ancestor a (seed 000 Appendix A: pairs, triples, ...).
  for (int q = 0; q < n; ++q) {
    ProvenanceScope<S> scope(q + 1, "rotation", "seed000 appendix A (T_j^k)");
    const Rigid<S> X = link_transform(m, in, q);
    H4<S> Tq;
    Tq.m << X.R, X.p;
    const int p = parent_of(r, q);
    t.T[static_cast<std::size_t>(p + 1)][static_cast<std::size_t>(q)] = Tq;
    for (int a = p < 0 ? -2 : parent_of(r, p); a >= -1; a = a < 0 ? -2 : parent_of(r, a))
      t.T[static_cast<std::size_t>(a + 1)][static_cast<std::size_t>(q)] =
          mul(*t.T[static_cast<std::size_t>(a + 1)][static_cast<std::size_t>(p)], Tq);
  }
  // 2. U_qj = T_0^{j'} Q_j T_{j'}^q.
  for (int q = 0; q < n; ++q) {
    ProvenanceScope<S> scope(q + 1, "A", "seed000 appendix A (dT/dq_j)");
    for (int j : t.chain[static_cast<std::size_t>(q)]) {
      const int pj = t.pivot[static_cast<std::size_t>(j)];
      const bool rev = is_revolute(r, j);
      const H4<S>& T0q = *t.T[0][static_cast<std::size_t>(q)];
      H4<S> u;
      if (pj < 0)
        u = left_q(rev, T0q);
      else if (pj == q)
        u = right_q(rev, T0q);
      else
        u = mul(*t.T[0][static_cast<std::size_t>(pj)], left_q(rev, *t.T[static_cast<std::size_t>(pj + 1)][static_cast<std::size_t>(q)]));
      t.U[static_cast<std::size_t>(q)][static_cast<std::size_t>(j)] = u;
    }
  }
  // 3. U_qjk, j <= k.
  for (int q = 0; q < n; ++q) {
    ProvenanceScope<S> scope(q + 1, "A", "seed000 appendix A (d2T/dq_j dq_k)");
    const std::vector<int>& ch = t.chain[static_cast<std::size_t>(q)];
    for (std::size_t a = 0; a < ch.size(); ++a)
      for (std::size_t b = a; b < ch.size(); ++b) {
        const int j = ch[a], k = ch[b];
        const int pk = t.pivot[static_cast<std::size_t>(k)];
        const bool rk = is_revolute(r, k);
        const H4<S>& T0q = *t.T[0][static_cast<std::size_t>(q)];
        H4<S> u;
        if (j == k) {
          if (!rk) continue;  // Q_P Q_P = 0
          if (pk < 0)
            u = left_q(true, left_q(true, T0q));
          else if (pk == q)
            u = right_q(true, right_q(true, T0q));
          else
            u = mul(*t.T[0][static_cast<std::size_t>(pk)],
                    left_q(true, left_q(true, *t.T[static_cast<std::size_t>(pk + 1)][static_cast<std::size_t>(q)])));
        } else if (pk == q) {
          u = right_q(rk, *t.U[static_cast<std::size_t>(q)][static_cast<std::size_t>(j)]);
        } else {
          u = mul(*t.U[static_cast<std::size_t>(pk)][static_cast<std::size_t>(j)],
                  left_q(rk, *t.T[static_cast<std::size_t>(pk + 1)][static_cast<std::size_t>(q)]));
        }
        t.U2[static_cast<std::size_t>(q)][static_cast<std::size_t>(j)][static_cast<std::size_t>(k)] = u;
      }
  }
  return t;
}

// -g^T U_qi (m_q rbar_q^a): the gravity term of eq. 3.1 for one (q, i).
template <class S>
S gravity_term(const ModelT<S>& m, const LinkParams<S>& L, const H4<S>& U) {
  const Eigen::Matrix<S, 4, 1> mr = (Eigen::Matrix<S, 4, 1>() << L.MX, L.MY, L.MZ, L.M).finished();
  const Vec3<S> v = U.m * mr;
  return -(m.gx * v(0) + m.gy * v(1) + m.gz * v(2));
}

}  // namespace lagrange_detail

template <class S>
std::vector<S> lagrange(const ModelT<S>& m, const JointInputs<S>& in) {
  using namespace lagrange_detail;
  check_inputs("lagrange", m, in);
  const Tables<S> t = tables(m, in);
  const auto un = static_cast<std::size_t>(t.n);
  std::vector<std::optional<S>> tau(un);
  auto add = [&](std::size_t i, const S& v) { tau[i] = tau[i] ? *tau[i] + v : v; };
  for (std::size_t q = 0; q < un; ++q) {
    const int link = static_cast<int>(q) + 1;
    const std::vector<int>& ch = t.chain[q];
    std::optional<H4<S>> W;  // d^2 T_0^q / dt^2 (step 4)
    {
      ProvenanceScope<S> scope(link, "a", "seed000 appendix A (sum U qdd + U qd qd)");
      for (std::size_t a = 0; a < ch.size(); ++a) {
        const auto j = static_cast<std::size_t>(ch[a]);
        accumulate(W, scaled(*t.U[q][j], in.qdd[j]));
        for (std::size_t b = a; b < ch.size(); ++b) {
          const auto k = static_cast<std::size_t>(ch[b]);
          if (!t.U2[q][j][k]) continue;
          const S w = j == k ? in.qd[j] * in.qd[j] : S(2.0) * (in.qd[j] * in.qd[k]);
          accumulate(W, scaled(*t.U2[q][j][k], w));
        }
      }
    }
    Mat34<S> WJ;
    {
      ProvenanceScope<S> scope(link, "f", "seed000 appendix A (W J)");
      WJ = times_pseudo(*W, pseudo_inertia(m.links[q]));
    }
    ProvenanceScope<S> scope(link, "tau", "seed000 eq 3.1 (Tr{W J U^T} + gravity)");
    for (int i : ch) {
      const auto ui = static_cast<std::size_t>(i);
      add(ui, trace_abt(WJ, t.U[q][ui]->m) + gravity_term(m, m.links[q], *t.U[q][ui]));
    }
  }
  std::vector<S> out(un);
  for (std::size_t i = 0; i < un; ++i) out[i] = *tau[i];
  if (has_external_wrench(*m.robot)) {
    // J^T f_e through the last link's U: tau_i += f_e0 . (dp/dq_i) + n_e0 . (dR/dq_i R^T)^vee
    const std::size_t last = un - 1;
    ProvenanceScope<S> scope(t.n, "tau", "J^T f_e (seed003 eq 9.91)");
    const H4<S>& T = *t.T[0][last];
    const Vec3<S> f0 = T.m.template leftCols<3>() * vec3<S>(m.fex, m.fey, m.fez);
    const Vec3<S> n0 = T.m.template leftCols<3>() * vec3<S>(m.nex, m.ney, m.nez);
    for (int i : t.chain[last]) {
      const H4<S>& U = *t.U[last][static_cast<std::size_t>(i)];
      const Mat3<S> W = U.m.template leftCols<3>() * T.m.template leftCols<3>().transpose();  // omega~ per unit qd
      const Vec3<S> w = vec3<S>(W(2, 1), W(0, 2), W(1, 0));
      out[static_cast<std::size_t>(i)] = out[static_cast<std::size_t>(i)] + dot(Vec3<S>(U.m.col(3)), f0) + dot(w, n0);
    }
  }
  for (std::size_t i = 0; i < un; ++i) out[i] = actuator_terms(m, in, static_cast<int>(i), out[i]);
  return out;
}

template <class S>
LagrangeCoefficients<S> lagrange_coefficients(const ModelT<S>& m, const JointInputs<S>& in) {
  using namespace lagrange_detail;
  check_inputs("lagrange", m, in);
  const Tables<S> t = tables(m, in);
  const int n = t.n;
  const auto un = static_cast<std::size_t>(n);
  LagrangeCoefficients<S> out;
  out.n = n;
  out.D.assign(un * un, S(0.0));
  out.h.assign(un * un * un, S(0.0));
  out.c.assign(un, S(0.0));
  for (std::size_t q = 0; q < un; ++q) {
    const int link = static_cast<int>(q) + 1;
    ProvenanceScope<S> outer(link, "I alpha", "seed002 eq 2.11 (U J)");
    const Eigen::Matrix<S, 4, 4> J = pseudo_inertia(m.links[q]);
    const std::vector<int>& ch = t.chain[q];
    for (int i : ch) {
      const auto ui = static_cast<std::size_t>(i);
      const Mat34<S> UiJ = times_pseudo(*t.U[q][ui], J);
      {
        ProvenanceScope<S> scope(link, "I alpha", "seed002 eq 2.11");
        for (int k : ch) {
          const auto uk = static_cast<std::size_t>(k);
          if (uk < ui) continue;
          out.D[ui * un + uk] = out.D[ui * un + uk] + trace_abt(UiJ, t.U[q][uk]->m);
        }
      }
      {
        ProvenanceScope<S> scope(link, "omega x I omega", "seed002 eq 2.14");
        for (std::size_t a = 0; a < ch.size(); ++a)
          for (std::size_t b = a; b < ch.size(); ++b) {
            const auto j = static_cast<std::size_t>(ch[a]), k = static_cast<std::size_t>(ch[b]);
            if (!t.U2[q][j][k]) continue;
            S& h = out.h[(ui * un + j) * un + k];
            h = h + trace_abt(UiJ, t.U2[q][j][k]->m);
          }
      }
      ProvenanceScope<S> scope(link, "m abar", "seed002 eq 2.15");
      out.c[ui] = out.c[ui] + gravity_term(m, m.links[q], *t.U[q][ui]);
    }
  }
  for (std::size_t i = 0; i < un; ++i) {
    if (m.robot->links[i].Ia != 0.0) {
      ProvenanceScope<S> scope(static_cast<int>(i) + 1, "rotor", "seed003 eq 9.94");
      out.D[i * un + i] = out.D[i * un + i] + m.links[i].Ia;
    }
    for (std::size_t k = 0; k < i; ++k) out.D[i * un + k] = out.D[k * un + i];
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t k = 0; k < j; ++k) out.h[(i * un + j) * un + k] = out.h[(i * un + k) * un + j];
  }
  return out;
}

}  // namespace neaccel::ref::forms
