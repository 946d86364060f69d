// Template definitions for newton_euler.hpp (included at its end).
#pragma once

#include "neaccel/ref/provenance.hpp"

namespace neaccel::ref {
namespace ne {

// omega x (omega x c) + alpha x c: the acceleration of a body point at c relative to a point at the origin.
template <class S>
Vec3<S> point_accel(const Vec3<S>& omega, const Vec3<S>& alpha, const Vec3<S>& c) {
  return add(cross(omega, cross(omega, c)), cross(alpha, c));
}

template <class S>
void newton_euler_forward(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  const Robot& robot = *model.robot;
  const bool modified = robot.convention == DhConvention::Modified;
  const Vec3<S> zero = zero3<S>();
  const Vec3<S> a0 = base_accel(model);
  for (std::size_t i = 0; i < model.links.size(); ++i) {
    const int link = static_cast<int>(i) + 1;
    const int p = robot.links[i].parent;
    const auto pu = static_cast<std::size_t>(p);
    const Vec3<S>& omega_p = p < 0 ? zero : data.omega[pu];
    const Vec3<S>& alpha_p = p < 0 ? zero : data.alpha[pu];
    const Vec3<S>& a_p = p < 0 ? a0 : data.a[pu];
    data.R[i] = dh_rotation(model, in, i);
    const DhRotation<S>& R = data.R[i];
    angular_step(model, in, i, R, omega_p, alpha_p, data.omega[i], data.alpha[i]);
    ProvenanceScope<S> scope(link, "a", "seed000 eq 3.9");
    data.r[i] = origin_offset(model, in, i);
    const Vec3<S>& r = data.r[i];
    Vec3<S> a = modified ? R.to_child(add(a_p, point_accel(omega_p, alpha_p, r)))
                         : add(point_accel(data.omega[i], data.alpha[i], r), R.to_child(a_p));
    if (robot.links[i].joint != JointType::Revolute) a = add(a, prismatic_accel(model, in, i, data.omega[i]));
    data.a[i] = a;
  }
}

template <class S>
void newton_euler_backward(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  const bool modified = model.robot->convention == DhConvention::Modified;
  init_child_sums(model, data);
  for (std::size_t k = model.links.size(); k-- > 0;) {
    const int link = static_cast<int>(k) + 1;
    const LinkParams<S>& L = model.links[k];
    const Vec3<S>& omega = data.omega[k];
    const Vec3<S>& alpha = data.alpha[k];
    Vec3<S> abar, Ialpha, wIw, mr, rf;
    {
      ProvenanceScope<S> scope(link, "abar", "seed000 eq 3.10");
      abar = add(point_accel(omega, alpha, vec3<S>(L.cx, L.cy, L.cz)), data.a[k]);
    }
    {
      ProvenanceScope<S> scope(link, "f", "seed000 eq 3.11");
      data.f[k] = add(scale(L.M, abar), data.fch[k]);
    }
    {
      ProvenanceScope<S> scope(link, "I alpha", "seed000 eq 3.12");
      Ialpha = sym_mul(L.Ixx, L.Iyy, L.Izz, L.Ixy, L.Ixz, L.Iyz, alpha);
    }
    {
      ProvenanceScope<S> scope(link, "omega x I omega", "seed000 eq 3.12");
      wIw = cross(omega, sym_mul(L.Ixx, L.Iyy, L.Izz, L.Ixy, L.Ixz, L.Iyz, omega));
    }
    {
      ProvenanceScope<S> scope(link, "m(r+rbar) x abar", "seed000 eq 3.12");
      mr = cross(moment_arm_mass(model, data, k), abar);
    }
    ProvenanceScope<S> scope(link, "add n", "seed000 eq 3.12");
    if (modified) {
      data.n[k] = add(add(Ialpha, wIw), add(mr, data.nch[k]));
    } else {
      {
        ProvenanceScope<S> s2(link, "r x R f", "seed000 eq 3.12");
        rf = cross(data.r[k], data.fch[k]);
      }
      data.n[k] = add(add(add(Ialpha, wIw), mr), add(rf, data.nch[k]));
    }
    data.tau[k] = joint_torque(model, in, k, data.f[k], data.n[k]);
    propagate_to_parent(model, k, data);
  }
}

}  // namespace ne

template <class S>
void newton_euler(const ModelT<S>& model, const JointInputs<S>& in, NeData<S>& data) {
  data.resize(model.links.size());
  ne::newton_euler_forward(model, in, data);
  ne::newton_euler_backward(model, in, data);
}

template <class S>
std::vector<S> newton_euler(const ModelT<S>& model, const JointInputs<S>& in) {
  return on_coordinates(model, in, [&](const JointInputs<S>& links) {
    NeData<S> data;
    newton_euler(model, links, data);
    return data.tau;
  });
}

}  // namespace neaccel::ref
