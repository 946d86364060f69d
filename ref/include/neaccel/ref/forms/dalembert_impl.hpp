// Template definitions for dalembert.hpp.
#pragma once

namespace neaccel::ref::forms {

namespace detail {
// Velocity-product kinematics of every link in the base frame: omega, alpha^v and the velocity-product
// accelerations of the frame origin and the centre of mass (seed 002 eq. 4.3/4.4 nested sums, recursively).
template <class S>
struct VelocityProducts {
  std::vector<Vec3<S>> omega, alpha_v, acc_origin, acc_com;
};

template <class S>
VelocityProducts<S> velocity_products(const ModelT<S>& m, const JointInputs<S>& in, const BaseFrames<S>& b) {
  const Robot& r = *m.robot;
  const auto n = r.links.size();
  VelocityProducts<S> v;
  v.omega.resize(n);
  v.alpha_v.resize(n);
  v.acc_origin.resize(n);
  v.acc_com.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    const int link = static_cast<int>(k) + 1;
    const int p = parent_of(r, static_cast<int>(k));
    const bool root = p < 0;
    const auto pk = static_cast<std::size_t>(root ? 0 : p);
    const bool rev = is_revolute(r, static_cast<int>(k));
    Vec3<S> acc_axis = zero3<S>();  // velocity-product acceleration of the axis point o_k (fixed in the parent)
    {
      ProvenanceScope<S> scope(link, "omega", "seed002 eq 4.3 (sum qd z)");
      if (root) {
        v.omega[k] = rev ? scale(b.z[k], in.qd[k]) : zero3<S>();
        v.alpha_v[k] = zero3<S>();
      } else {
        const Vec3<S> zq = scale(b.z[k], in.qd[k]);
        v.omega[k] = rev ? Vec3<S>(v.omega[pk] + zq) : v.omega[pk];
        v.alpha_v[k] = rev ? Vec3<S>(v.alpha_v[pk] + cross(v.omega[pk], zq)) : v.alpha_v[pk];
        if (r.convention == DhConvention::Standard) {
          acc_axis = v.acc_origin[pk];
        } else {
          const Vec3<S> d = b.o[k] - b.T[pk].p;
          acc_axis = v.acc_origin[pk] + cross(v.alpha_v[pk], d) + cross(v.omega[pk], cross(v.omega[pk], d));
        }
      }
    }
    ProvenanceScope<S> scope(link, "abar", "seed002 eq 4.3 (velocity-product acceleration)");
    Vec3<S> coriolis = zero3<S>();  // 2 omega_parent x z qd for a sliding joint
    const bool slide = !rev && !root;
    if (slide) coriolis = scale(cross(v.omega[pk], b.z[k]), S(2.0) * in.qd[k]);
    auto acc = [&](const Vec3<S>& x) {
      const Vec3<S> d = x - b.o[k];
      Vec3<S> a = acc_axis + cross(v.alpha_v[k], d) + cross(v.omega[k], cross(v.omega[k], d));
      if (slide) a = a + coriolis;
      return a;
    };
    v.acc_origin[k] = acc(b.T[k].p);
    v.acc_com[k] = acc(b.c[k]);
  }
  return v;
}
}  // namespace detail

template <class S>
DalembertTerms<S> dalembert_terms(const ModelT<S>& m, const JointInputs<S>& in) {
  check_inputs("dalembert", m, in);
  const Robot& r = *m.robot;
  const int n = static_cast<int>(r.links.size());
  const auto un = static_cast<std::size_t>(n);
  const BaseFrames<S> b = base_frames(m, in);
  const detail::VelocityProducts<S> vp = detail::velocity_products(m, in, b);
  DalembertTerms<S> t;
  t.n = n;
  t.D.assign(un * un, S(0.0));
  t.h_tran.assign(un, S(0.0));
  t.h_rot.assign(un, S(0.0));
  t.c.assign(un, S(0.0));
  std::vector<bool> coupled(un * un, false);
  for (std::size_t s = 0; s < un; ++s) {
    const int link = static_cast<int>(s) + 1;
    const detail::ChainColumns<S> cc = detail::chain_columns(r, b, s);
    const S& ms = m.links[s].M;
    const Mat3<S>& I = b.Ic[s];
    {
      ProvenanceScope<S> scope(link, "I alpha", "seed002 eq 4.2");
      for (std::size_t a = 0; a < cc.joints.size(); ++a) {
        const Vec3<S> Iw = cc.rev[a] ? Vec3<S>(I * cc.w[a]) : zero3<S>();
        const Vec3<S> mv = scale(cc.v[a], ms);
        for (std::size_t c = 0; c <= a; ++c) {
          const auto i = static_cast<std::size_t>(cc.joints[c]);
          const auto j = static_cast<std::size_t>(cc.joints[a]);
          S d = dot(cc.v[c], mv);
          if (cc.rev[a] && cc.rev[c]) d = d + dot(cc.w[c], Iw);
          t.D[i * un + j] = coupled[i * un + j] ? t.D[i * un + j] + d : d;
          coupled[i * un + j] = true;
        }
      }
    }
    Vec3<S> Nv;
    {
      ProvenanceScope<S> scope(link, "omega x I omega", "seed002 eq 4.4");
      Nv = I * vp.alpha_v[s] + cross(vp.omega[s], Vec3<S>(I * vp.omega[s]));
    }
    ProvenanceScope<S> scope(link, "tau", "seed002 eq 4.3, 4.4");
    const Vec3<S> Fv = scale(vp.acc_com[s], ms);
    for (std::size_t a = 0; a < cc.joints.size(); ++a) {
      const auto i = static_cast<std::size_t>(cc.joints[a]);
      t.h_tran[i] = t.h_tran[i] + dot(cc.v[a], Fv);
      if (cc.rev[a]) t.h_rot[i] = t.h_rot[i] + dot(cc.w[a], Nv);
    }
  }
  for (std::size_t i = 0; i < un; ++i)
    for (std::size_t j = 0; j < i; ++j) {
      t.D[i * un + j] = t.D[j * un + i];
      coupled[i * un + j] = coupled[j * un + i];
    }
  // Gravity loading (eq. 4.5): mass and first moment of the subtree carried by each joint.
  std::vector<S> msum;
  std::vector<Vec3<S>> mc;
  for (std::size_t i = 0; i < un; ++i) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "m abar", "seed002 eq 4.5");
    msum.push_back(m.links[i].M);
    mc.push_back(scale(b.c[i], m.links[i].M));
  }
  const Vec3<S> g = vec3<S>(m.gx, m.gy, m.gz);
  for (std::size_t i = un; i-- > 0;) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "m abar", "seed002 eq 4.5");
    if (is_revolute(r, static_cast<int>(i)))
      t.c[i] = -dot(g, cross(b.z[i], Vec3<S>(mc[i] - scale(b.o[i], msum[i]))));
    else
      t.c[i] = -(dot(g, b.z[i]) * msum[i]);
    const int p = parent_of(r, static_cast<int>(i));
    if (p >= 0) {
      msum[static_cast<std::size_t>(p)] = msum[static_cast<std::size_t>(p)] + msum[i];
      mc[static_cast<std::size_t>(p)] = mc[static_cast<std::size_t>(p)] + mc[i];
    }
  }
  t.tau.assign(un, S(0.0));
  for (std::size_t i = 0; i < un; ++i) {
    ProvenanceScope<S> scope(static_cast<int>(i) + 1, "tau", "seed002 eq 4.1");
    S sum = t.h_tran[i] + t.h_rot[i] + t.c[i];
    for (std::size_t j = 0; j < un; ++j)
      if (coupled[i * un + j]) sum = sum + t.D[i * un + j] * in.qdd[j];
    t.tau[i] = sum;
  }
  add_external_wrench(m, b, t.tau);
  for (std::size_t i = 0; i < un; ++i) t.tau[i] = actuator_terms(m, in, static_cast<int>(i), t.tau[i]);
  return t;
}

}  // namespace neaccel::ref::forms
