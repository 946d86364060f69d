// Template definitions for model.hpp (included at its end).
#pragma once

#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>

#include <cmath>
#include <string>

namespace neaccel::ref {

namespace detail {
// sin/cos of a DH angle, snapped to exact 0 and +-1 when within 1e-12 (cos(pi/2) is 6e-17 in double): the
// customised graph must see the structural zeros of alpha = +-pi/2 to fold them (seed 003 section 9.6).
inline double snap_unit(double v) {
  if (std::abs(v) < 1e-12) return 0.0;
  if (std::abs(v - 1.0) < 1e-12) return 1.0;
  if (std::abs(v + 1.0) < 1e-12) return -1.0;
  return v;
}
// The robot's links with the payload merged into the link it is attached to (parallel axis theorem).
std::vector<Link> links_with_payload(const Robot& robot);
}  // namespace detail

template <class S, class F>
ModelT<S> cast_model(const Robot& robot, F&& f) {
  ModelT<S> m;
  m.robot = &robot;
  const std::vector<Link> links = detail::links_with_payload(robot);
  m.links.reserve(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Link& L = links[i];
    const int j = static_cast<int>(i) + 1;
    auto p = [&](const char* name, double v) { return f(j, std::string(name) + std::to_string(j), v); };
    // A placed joint has no DH rotation or offsets along x: literals, not parameters (nothing reads them).
    auto dh = [&](const char* name, double v) { return L.placement ? S(v) : p(name, v); };
    const Eigen::Vector3d ms = L.mass * L.com;
    // J about the origin = I_c + m (|c|^2 1 - c c^T)  (parallel axis theorem; seed 003 eq. 9.21)
    const Eigen::Matrix3d J = L.inertia + L.mass * (L.com.squaredNorm() * Eigen::Matrix3d::Identity() - L.com * L.com.transpose());
    // K about the centre of mass = (tr(I)/2) 1 - I  (seed 000 eq 2.35)
    const Eigen::Matrix3d K = 0.5 * L.inertia.trace() * Eigen::Matrix3d::Identity() - L.inertia;
    const double sa = detail::snap_unit(std::sin(L.alpha)), ca = detail::snap_unit(std::cos(L.alpha));
    const double sg = detail::snap_unit(std::sin(L.gamma)), cg = detail::snap_unit(std::cos(L.gamma));
    Eigen::Vector3d r;   // origin of frame j relative to its parent's (see LinkParams::px)
    Eigen::Vector3d mr;  // m (rbar + r) (standard DH) or MS (modified DH)
    if (L.placement) {
      r = L.placement->p;  // d = 0 for a placed joint (robot.hpp Placement)
      mr = ms;
    } else if (robot.convention == DhConvention::Standard) {
      r = Eigen::Vector3d(L.a, L.d * sa, L.d * ca);
      mr = L.mass * (L.com + r);
    } else {
      const double y = -sa * L.d, z = L.b + ca * L.d;
      r = Eigen::Vector3d(cg * L.a - sg * y, sg * L.a + cg * y, z);
      mr = ms;
    }
    LinkParams<S> q{
        dh("a", L.a), p("d", L.d), dh("b", L.b),
        dh("salpha", sa), dh("calpha", ca), dh("sgamma", sg), dh("cgamma", cg),
        p("stheta", detail::snap_unit(std::sin(L.theta))), p("ctheta", detail::snap_unit(std::cos(L.theta))),
        S(0.0), S(0.0), S(0.0), S(0.0), S(0.0), S(0.0), S(0.0), S(0.0), S(0.0),
        p("XX", J(0, 0)), p("XY", J(0, 1)), p("XZ", J(0, 2)), p("YY", J(1, 1)), p("YZ", J(1, 2)), p("ZZ", J(2, 2)),
        p("MX", ms.x()), p("MY", ms.y()), p("MZ", ms.z()), p("M", L.mass),
        p("cx", L.com.x()), p("cy", L.com.y()), p("cz", L.com.z()),
        p("Ixx", L.inertia(0, 0)), p("Ixy", L.inertia(0, 1)), p("Ixz", L.inertia(0, 2)),
        p("Iyy", L.inertia(1, 1)), p("Iyz", L.inertia(1, 2)), p("Izz", L.inertia(2, 2)),
        p("Ia", L.Ia), p("Fv", L.Fv), p("Fc", L.Fc),
        p("px", r.x()), p("py", r.y()), p("pz", r.z()),
        p("mrx", mr.x()), p("mry", mr.y()), p("mrz", mr.z()),
        p("Kxx", K(0, 0)), p("Kyy", K(1, 1)), p("Kzz", K(2, 2)), p("Kxy", K(0, 1)), p("Kxz", K(0, 2)), p("Kyz", K(1, 2))};
    if (L.placement) {
      const Eigen::Matrix3d& R = L.placement->R;
      q.rxx = p("rxx", R(0, 0)), q.rxy = p("rxy", R(0, 1)), q.rxz = p("rxz", R(0, 2));
      q.ryx = p("ryx", R(1, 0)), q.ryy = p("ryy", R(1, 1)), q.ryz = p("ryz", R(1, 2));
      q.rzx = p("rzx", R(2, 0)), q.rzy = p("rzy", R(2, 1)), q.rzz = p("rzz", R(2, 2));
    }
    m.links.push_back(q);
  }
  auto g = [&](const char* name, double v) { return f(0, std::string(name), v); };
  m.gx = g("gx", robot.gravity.x());
  m.gy = g("gy", robot.gravity.y());
  m.gz = g("gz", robot.gravity.z());
  m.fex = g("fex", robot.f_e.x());
  m.fey = g("fey", robot.f_e.y());
  m.fez = g("fez", robot.f_e.z());
  m.nex = g("nex", robot.n_e.x());
  m.ney = g("ney", robot.n_e.y());
  m.nez = g("nez", robot.n_e.z());
  return m;
}

namespace detail {
// k x, folding k = 1, -1, 0 (so a mimic with multiplier 1 costs nothing in the graph).
template <class S>
S scaled(double k, const S& x) {
  if (k == 1.0) return x;
  if (k == -1.0) return -x;
  if (k == 0.0) return S(0.0);
  return S(k) * x;
}
// a x + b y, folding zero terms.
template <class S>
S lin2(double a, const S& x, double b, const S& y) {
  if (b == 0.0) return scaled(a, x);
  if (a == 0.0) return scaled(b, y);
  return scaled(a, x) + scaled(b, y);
}
}  // namespace detail

template <class S>
JointInputs<S> expand_joint_inputs(const Robot& robot, const JointInputs<S>& in) {
  if (!robot.has_mimic()) return in;
  const std::vector<int> coord = coordinate_of_links(robot);
  const std::size_t nl = robot.links.size();
  JointInputs<S> out;
  for (auto* v : {&out.s, &out.c, &out.q, &out.qd, &out.qdd, &out.sgn_qd}) v->assign(nl, S(0.0));
  for (std::size_t l = 0; l < nl; ++l) {
    const Link& L = robot.links[l];
    const auto k = static_cast<std::size_t>(coord[l]);
    if (!L.mimic) {
      out.s[l] = in.s[k], out.c[l] = in.c[k], out.q[l] = in.q[k];
      out.qd[l] = in.qd[k], out.qdd[l] = in.qdd[k], out.sgn_qd[l] = in.sgn_qd[k];
      continue;
    }
    ProvenanceScope<S> scope(static_cast<int>(l) + 1, "mimic", "q_mimic = multiplier q + offset");
    const double m = L.mimic->multiplier;
    if (L.joint == JointType::Revolute) {
      const double delta = L.mimic->offset + L.theta - m * robot.links[static_cast<std::size_t>(L.mimic->link)].theta;
      const double cd = detail::snap_unit(std::cos(delta)), sd = detail::snap_unit(std::sin(delta));
      out.s[l] = detail::lin2(m * cd, in.s[k], sd, in.c[k]);
      out.c[l] = detail::lin2(cd, in.c[k], -m * sd, in.s[k]);
    } else {
      out.q[l] = L.mimic->offset == 0.0 ? detail::scaled(m, in.q[k]) : detail::scaled(m, in.q[k]) + S(L.mimic->offset);
    }
    out.qd[l] = detail::scaled(m, in.qd[k]);
    out.qdd[l] = detail::scaled(m, in.qdd[k]);
    out.sgn_qd[l] = detail::scaled(m > 0 ? 1.0 : -1.0, in.sgn_qd[k]);
  }
  return out;
}

template <class S>
std::vector<S> reduce_torques(const Robot& robot, const std::vector<S>& tau) {
  if (!robot.has_mimic()) return tau;
  const std::vector<int> links = coordinate_links(robot), coord = coordinate_of_links(robot);
  std::vector<S> out;
  out.reserve(links.size());
  for (int l : links) out.push_back(tau[static_cast<std::size_t>(l)]);
  for (std::size_t l = 0; l < robot.links.size(); ++l) {
    const Link& L = robot.links[l];
    if (!L.mimic) continue;
    ProvenanceScope<S> scope(L.mimic->link + 1, "mimic", "tau += multiplier tau_mimic");
    S& t = out[static_cast<std::size_t>(coord[l])];
    t = t + detail::scaled(L.mimic->multiplier, tau[l]);
  }
  return out;
}

}  // namespace neaccel::ref
