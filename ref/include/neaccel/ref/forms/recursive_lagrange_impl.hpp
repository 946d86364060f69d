// Template definitions for recursive_lagrange.hpp.
#pragma once

namespace neaccel::ref::forms {

namespace hollerbach_detail {

// A frame's rotation and origin in the base frame with their time derivatives (seed 000 eqs. 3.5, 3.6).
template <class S>
struct Motion {
  Mat3<S> R, Rd, Rdd;
  Vec3<S> p, pdd;
};

// X Q^z (Q^z = d Rz / d theta at theta = 0): columns [x1, -x0, 0]; free.
template <class S>
Mat3<S> times_q(const Mat3<S>& X) {
  Mat3<S> r;
  r << X.col(1), Mat3<S>(-X).col(0), zero3<S>();
  return r;
}

// X (Q^z)^2 = columns [-x0, -x1, 0]; free.
template <class S>
Mat3<S> times_q2(const Mat3<S>& X) {
  Mat3<S> r;
  r << Mat3<S>(-X).col(0), Mat3<S>(-X).col(1), zero3<S>();
  return r;
}

template <class S>
Motion<S> base_motion(const ModelT<S>& m) {
  Motion<S> b;
  b.R = zero33<S>();
  for (int k = 0; k < 3; ++k) b.R(k, k) = S(1.0);
  b.Rd = zero33<S>();
  b.Rdd = zero33<S>();
  b.p = zero3<S>();
  b.pdd = vec3<S>(-m.gx, -m.gy, -m.gz);  // gravity as a base acceleration
  return b;
}

// Carries a motion through a constant transform F: (R F.R, ..., p + R F.p, pdd + Rdd F.p).
template <class S>
Motion<S> through_constant(const Motion<S>& a, const Rigid<S>& F) {
  return Motion<S>{Mat3<S>(a.R * F.R), Mat3<S>(a.Rd * F.R), Mat3<S>(a.Rdd * F.R), Vec3<S>(a.p + a.R * F.p),
                   Vec3<S>(a.pdd + a.Rdd * F.p)};
}

}  // namespace hollerbach_detail

template <class S>
std::vector<S> recursive_lagrange(const ModelT<S>& m, const JointInputs<S>& in) {
  using namespace hollerbach_detail;
  check_inputs("recursive_lagrange", m, in);
  const Robot& r = *m.robot;
  const auto n = r.links.size();
  const Motion<S> base = base_motion(m);
  std::vector<Motion<S>> link(n);
  std::vector<Mat3<S>> dR(n);
  std::vector<Vec3<S>> dp(n);
  std::vector<Rigid<S>> local(n);  // T(parent -> i): R_{i-1}^i and r_{i-1} for the backward pass
  for (std::size_t i = 0; i < n; ++i) {
    const int li = static_cast<int>(i) + 1;
    const int p = parent_of(r, static_cast<int>(i));
    const Motion<S>& par = p < 0 ? base : link[static_cast<std::size_t>(p)];
    LinkSplit<S> ls;
    Motion<S> B;
    {
      ProvenanceScope<S> scope(li, "rotation", "seed000 eq 3.6 (constant part)");
      ls = link_split(m, in, static_cast<int>(i));
      local[i] = ls.standard ? compose(ls.J, ls.F) : compose(ls.F, ls.J);
      B = ls.standard ? par : through_constant(par, ls.F);
    }
    const Mat3<S>& Rz = ls.J.R;
    const auto k = i;
    Motion<S> A;
    Mat3<S> RBQ;
    {
      ProvenanceScope<S> scope(li, "omega", "seed000 eq 3.6 (dR/dt)");
      A.R = B.R * Rz;
      if (is_revolute(r, static_cast<int>(i))) {
        RBQ = times_q(B.R);
        A.Rd = (B.Rd + RBQ * in.qd[k]) * Rz;
      } else {
        A.Rd = B.Rd * Rz;
      }
    }
    {
      ProvenanceScope<S> scope(li, "alpha", "seed000 eq 3.5 (d2R/dt2)");
      if (is_revolute(r, static_cast<int>(i))) {
        const S qd2 = in.qd[k] * in.qd[k];
        A.Rdd = (B.Rdd + times_q(B.Rd) * (S(2.0) * in.qd[k]) + times_q2(B.R) * qd2 + RBQ * in.qdd[k]) * Rz;
      } else {
        A.Rdd = B.Rdd * Rz;
      }
    }
    {
      ProvenanceScope<S> scope(li, "a", "seed000 eq 3.5 (d2p/dt2)");
      S d, s_, c_;
      joint_trig(m, in, static_cast<int>(i), s_, c_, d);
      A.p = B.p + B.R.col(2) * d;
      A.pdd = B.pdd + B.Rdd.col(2) * d;
      if (!is_revolute(r, static_cast<int>(i)))
        A.pdd = A.pdd + B.Rd.col(2) * (S(2.0) * in.qd[k]) + B.R.col(2) * in.qdd[k];
    }
    ProvenanceScope<S> scope(li, "A", "seed000 eq 3.2 (dR/dq)");
    if (ls.standard) {
      link[i] = through_constant(A, ls.F);
      if (is_revolute(r, static_cast<int>(i))) {
        const Mat3<S> dRA = RBQ * Rz;
        dR[i] = dRA * ls.F.R;
        dp[i] = dRA * ls.F.p;
      }
    } else {
      link[i] = A;
      if (is_revolute(r, static_cast<int>(i))) dR[i] = RBQ * Rz;
    }
    if (!is_revolute(r, static_cast<int>(i))) dp[i] = B.R.col(2);
  }
  // Backward: e_i and D_i (eqs. 3.3, 3.4), tau_i (3.2).
  std::vector<Vec3<S>> e(n);
  std::vector<Mat3<S>> D(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int li = static_cast<int>(i) + 1;
    const LinkParams<S>& L = m.links[i];
    const Vec3<S> ms = vec3<S>(L.MX, L.MY, L.MZ);
    {
      ProvenanceScope<S> scope(li, "f", "seed000 eq 3.4 (e_i)");
      e[i] = link[i].pdd * L.M + link[i].Rdd * ms;
    }
    ProvenanceScope<S> scope(li, "n", "seed000 eq 3.3 (D_i)");
    Mat3<S> K;
    const S half(0.5);
    K << half * (L.YY + L.ZZ - L.XX), -L.XY, -L.XZ, -L.XY, half * (L.XX + L.ZZ - L.YY), -L.YZ, -L.XZ, -L.YZ,
        half * (L.XX + L.YY - L.ZZ);
    D[i] = K * link[i].Rdd.transpose() + ms * link[i].pdd.transpose();
  }
  if (has_external_wrench(r) && n > 0) {
    // The wrench the last link exerts on the environment acts like an extra inertial force at its origin.
    ProvenanceScope<S> scope(static_cast<int>(n), "f", "seed003 eq 9.91 (f_e)");
    const std::size_t l = n - 1;
    const Vec3<S> f0 = link[l].R * vec3<S>(m.fex, m.fey, m.fez);
    e[l] = e[l] + f0;
    // moment: D gains (R n_e)~ -like term; Tr{dR D} must equal (axis) . (R n_e): D += -1/2 skew(n_e) R^T
    const Mat3<S> Nx = skew(vec3<S>(m.nex, m.ney, m.nez)) * link[l].R.transpose();
    D[l] = D[l] - Nx * S(0.5);
  }
  std::vector<S> tau(n);
  for (std::size_t i = n; i-- > 0;) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "tau", "seed000 eq 3.2");
    S t = S(0.0);
    if (is_revolute(r, static_cast<int>(i))) t = (dR[i] * D[i]).trace();
    if (!is_revolute(r, static_cast<int>(i)) || r.convention == DhConvention::Standard) t = t + dot(e[i], dp[i]);
    tau[i] = actuator_terms(m, in, static_cast<int>(i), t);
    const int p = parent_of(r, static_cast<int>(i));
    if (p >= 0) {
      ProvenanceScope<S> scope2(static_cast<int>(i) + 1, "n", "seed000 eq 3.3 (R D_{i+1} + r e_{i+1}^T)");
      const auto pp = static_cast<std::size_t>(p);
      D[pp] = D[pp] + local[i].R * D[i] + local[i].p * e[i].transpose();
      e[pp] = e[pp] + e[i];
    }
  }
  return tau;
}

}  // namespace neaccel::ref::forms
