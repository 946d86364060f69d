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

std::vector<int> coordinate_links(const Robot& robot) {
  std::vector<int> out;
  for (std::size_t l = 0; l < robot.links.size(); ++l)
    if (!robot.links[l].mimic) out.push_back(static_cast<int>(l));
  return out;
}

std::vector<int> coordinate_of_links(const Robot& robot) {
  std::vector<int> own(robot.links.size(), -1), out(robot.links.size(), -1);
  int k = 0;
  for (std::size_t l = 0; l < robot.links.size(); ++l)
    if (!robot.links[l].mimic) own[l] = k++;
  for (std::size_t l = 0; l < robot.links.size(); ++l) {
    const Link& L = robot.links[l];
    // validate() guarantees a mimic follows an existing non-mimic link; -1 only for an unvalidated robot.
    out[l] = !L.mimic ? own[l]
                      : (L.mimic->link >= 0 && static_cast<std::size_t>(L.mimic->link) < own.size()
                             ? own[static_cast<std::size_t>(L.mimic->link)]
                             : -1);
  }
  return out;
}

Eigen::MatrixXd coupling_matrix(const Robot& robot) {
  const std::vector<int> coord = coordinate_of_links(robot);
  Eigen::MatrixXd G = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(robot.links.size()), robot.dof());
  for (std::size_t l = 0; l < robot.links.size(); ++l)
    G(static_cast<Eigen::Index>(l), coord[l]) = robot.links[l].mimic ? robot.links[l].mimic->multiplier : 1.0;
  return G;
}

Eigen::VectorXd link_positions(const Robot& robot, const Eigen::VectorXd& q) {
  if (!robot.has_mimic()) return q;
  const std::vector<int> coord = coordinate_of_links(robot);
  Eigen::VectorXd out(static_cast<Eigen::Index>(robot.links.size()));
  for (std::size_t l = 0; l < robot.links.size(); ++l) {
    const Link& L = robot.links[l];
    const double qf = q[coord[l]];
    out[static_cast<Eigen::Index>(l)] = L.mimic ? L.mimic->multiplier * qf + L.mimic->offset : qf;
  }
  return out;
}

void joint_inputs(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                  JointInputs<double>& in) {
  const auto n = static_cast<std::size_t>(robot.dof());
  for (auto* v : {&in.s, &in.c, &in.q, &in.qd, &in.qdd, &in.sgn_qd}) v->resize(n);
  const bool mimic = robot.has_mimic();
  const std::vector<int> links = mimic ? coordinate_links(robot) : std::vector<int>{};
  for (std::size_t i = 0; i < n; ++i) {
    const Link& L = robot.links[mimic ? static_cast<std::size_t>(links[i]) : i];
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
