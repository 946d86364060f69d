// Template definitions for gibbs_appell.hpp.
#pragma once

namespace neaccel::ref::forms {

template <class S>
std::vector<S> gibbs_appell(const ModelT<S>& m, const JointInputs<S>& in) {
  check_inputs("gibbs_appell", m, in);
  const Robot& r = *m.robot;
  const auto n = r.links.size();
  const BaseFrames<S> b = base_frames(m, in);
  const Vec3<S> g = vec3<S>(m.gx, m.gy, m.gz);
  std::vector<S> tau(n, S(0.0));
  for (std::size_t q = 0; q < n; ++q) {
    const int link = static_cast<int>(q) + 1;
    const detail::ChainColumns<S> cc = detail::chain_columns(r, b, q);
    const std::size_t len = cc.joints.size();
    Vec3<S> abar, alpha, omega;
    {
      ProvenanceScope<S> scope(link, "abar", "seed000 eq 3.14 (sum over j, k)");
      abar = -g;  // gravity as an acceleration of the base
      for (std::size_t a = 0; a < len; ++a) {
        const auto j = static_cast<std::size_t>(cc.joints[a]);
        abar = abar + scale(cc.v[a], in.qdd[j]);
        for (std::size_t c = a; c < len; ++c) {  // u = a <= v = c; the pair (j,k) and (k,j) give the same term
          if (!cc.rev[a]) continue;
          const auto k = static_cast<std::size_t>(cc.joints[c]);
          const S w = c == a ? in.qd[j] * in.qd[j] : S(2.0) * (in.qd[j] * in.qd[k]);
          abar = abar + scale(cross(cc.w[a], cc.v[c]), w);
        }
      }
    }
    {
      ProvenanceScope<S> scope(link, "alpha", "seed000 eq 3.14 / 6.6");
      alpha = zero3<S>();
      omega = zero3<S>();
      for (std::size_t a = 0; a < len; ++a) {
        if (!cc.rev[a]) continue;
        const auto j = static_cast<std::size_t>(cc.joints[a]);
        alpha = alpha + scale(cc.w[a], in.qdd[j]);
        omega = omega + scale(cc.w[a], in.qd[j]);
        for (std::size_t c = a + 1; c < len; ++c) {
          if (!cc.rev[c]) continue;
          const auto k = static_cast<std::size_t>(cc.joints[c]);
          alpha = alpha + scale(cross(cc.w[a], cc.w[c]), in.qd[j] * in.qd[k]);
        }
      }
    }
    const LinkParams<S>& L = m.links[q];
    Vec3<S> F, N;
    {
      ProvenanceScope<S> scope(link, "m abar", "seed000 eq 3.14");
      F = scale(abar, L.M);
    }
    {
      ProvenanceScope<S> scope(link, "I alpha", "seed000 eq 3.14");
      const Mat3<S>& I = b.Ic[q];
      N = I * alpha + cross(omega, Vec3<S>(I * omega));
    }
    ProvenanceScope<S> scope(link, "tau", "seed000 eq 3.14 (partial S / partial qdd_i)");
    for (std::size_t a = 0; a < len; ++a) {
      const auto i = static_cast<std::size_t>(cc.joints[a]);
      tau[i] = tau[i] + dot(cc.v[a], F);
      if (cc.rev[a]) tau[i] = tau[i] + dot(cc.w[a], N);
    }
  }
  add_external_wrench(m, b, tau);
  for (std::size_t i = 0; i < n; ++i) tau[i] = actuator_terms(m, in, static_cast<int>(i), tau[i]);
  return tau;
}

}  // namespace neaccel::ref::forms
