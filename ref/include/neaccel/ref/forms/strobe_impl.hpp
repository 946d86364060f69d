// Template definitions for strobe.hpp.
#pragma once

namespace neaccel::ref::forms {

namespace strobe_detail {

// The robot without friction and external wrench (and optionally without gravity): the structure the strobed
// recursion sees. The model keeps the caller's parameters except the zeroed ones (literals).
inline Robot quiet_robot(const Robot& r, bool gravity) {
  Robot q = r;
  for (Link& L : q.links) L.Fv = L.Fc = 0.0;
  q.f_e.setZero();
  q.n_e.setZero();
  if (!gravity) q.gravity.setZero();
  return q;
}

template <class S>
ModelT<S> quiet_model(const ModelT<S>& m, const Robot& quiet, bool gravity) {
  ModelT<S> q = m;
  q.robot = &quiet;
  if (!gravity) q.gx = q.gy = q.gz = S(0.0);
  q.fex = q.fey = q.fez = q.nex = q.ney = q.nez = S(0.0);
  for (LinkParams<S>& L : q.links) L.Fv = L.Fc = S(0.0);
  return q;
}

template <class S>
JointInputs<S> strobe_inputs(const JointInputs<S>& in) {
  JointInputs<S> s = in;
  for (std::size_t i = 0; i < s.qd.size(); ++i) s.qd[i] = s.qdd[i] = s.sgn_qd[i] = S(0.0);
  return s;
}

}  // namespace strobe_detail

template <class S, class Id>
ExplicitDynamics<S> strobe(const ModelT<S>& m, const JointInputs<S>& in, const StrobeParts& parts, const Id& id) {
  using namespace strobe_detail;
  check_inputs("strobe", m, in, false);
  const int n = m.robot->dof();  // strobed per generalized coordinate (id couples the mimic joints)
  const auto un = static_cast<std::size_t>(n);
  const Robot still = quiet_robot(*m.robot, false);
  const Robot heavy = quiet_robot(*m.robot, true);
  const ModelT<S> m0 = quiet_model(m, still, false);
  const ModelT<S> mg = quiet_model(m, heavy, true);
  ExplicitDynamics<S> out;
  out.n = n;
  JointInputs<S> x = strobe_inputs(in);
  if (parts.G) out.G = id(mg, x);
  if (parts.M) {
    out.M.assign(un * un, S(0.0));
    for (std::size_t j = 0; j < un; ++j) {
      x.qdd[j] = S(1.0);
      const std::vector<S> col = id(m0, x);
      x.qdd[j] = S(0.0);
      for (std::size_t i = 0; i < un; ++i) out.M[i * un + j] = col[i];
    }
  }
  if (parts.C) {
    out.C.assign(un * un * un, S(0.0));
    std::vector<std::vector<S>> diag(un);
    for (std::size_t j = 0; j < un; ++j) {
      x.qd[j] = S(1.0);
      diag[j] = id(m0, x);
      x.qd[j] = S(0.0);
      for (std::size_t i = 0; i < un; ++i) out.C[(i * un + j) * un + j] = diag[j][i];
    }
    for (std::size_t j = 0; j < un; ++j)
      for (std::size_t k = j + 1; k < un; ++k) {
        x.qd[j] = x.qd[k] = S(1.0);
        const std::vector<S> t = id(m0, x);
        x.qd[j] = x.qd[k] = S(0.0);
        for (std::size_t i = 0; i < un; ++i) {
          ProvenanceScope<S> scope(static_cast<int>(i) + 1, "tau", "seed000 section 8 (strobing C^i_jk)");
          const S c = (t[i] - diag[j][i] - diag[k][i]) * S(0.5);
          out.C[(i * un + j) * un + k] = c;
          out.C[(i * un + k) * un + j] = c;
        }
      }
  }
  return out;
}

}  // namespace neaccel::ref::forms
