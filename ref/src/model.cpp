#include "neaccel/ref/model.hpp"

#include <cmath>

namespace neaccel::ref {

namespace detail {
std::vector<Link> links_with_payload(const Robot& robot) {
  std::vector<Link> links = robot.links;
  if (!robot.payload || links.empty()) return links;
  const RigidLoad& P = *robot.payload;
  Link& L = links[P.link < 0 ? links.size() - 1 : static_cast<std::size_t>(P.link)];
  const double m = L.mass + P.mass;
  if (m <= 0) return links;
  const Eigen::Vector3d c = (L.mass * L.com + P.mass * P.com) / m;
  auto shift = [](const Eigen::Matrix3d& I, double mass, const Eigen::Vector3d& r) {
    return Eigen::Matrix3d(I + mass * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose()));
  };
  L.inertia = shift(L.inertia, L.mass, L.com - c) + shift(P.inertia, P.mass, P.com - c);
  L.com = c;
  L.mass = m;
  return links;
}
}  // namespace detail

ModelT<double> model_of(const Robot& robot) {
  return cast_model<double>(robot, [](int, const std::string&, double v) { return v; });
}

JointInputs<double> joint_inputs(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd) {
  JointInputs<double> in;
  joint_inputs(robot, q, qd, qdd, in);
  return in;
}

void joint_inputs(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                  JointInputs<double>& in) {
  const auto n = static_cast<std::size_t>(robot.dof());
  for (auto* v : {&in.s, &in.c, &in.q, &in.qd, &in.qdd, &in.sgn_qd}) v->resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Link& L = robot.links[i];
    const auto k = static_cast<Eigen::Index>(i);
    if (L.joint == JointType::Revolute) {
      const double th = q[k] + L.theta;
      const double s = std::sin(th), c = std::cos(th);  // adjacent, so the compiler fuses them into one sincos
      in.s[i] = detail::snap_unit(s);
      in.c[i] = detail::snap_unit(c);
      in.q[i] = 0.0;
    } else {
      in.s[i] = in.c[i] = 0.0;
      in.q[i] = q[k];
    }
    in.qd[i] = qd[k];
    in.qdd[i] = qdd[k];
    in.sgn_qd[i] = qd[k] > 0 ? 1.0 : (qd[k] < 0 ? -1.0 : 0.0);
  }
}

}  // namespace neaccel::ref
