// Joint placements for the URDF and YAML placement forms (io_detail.hpp): frames turned onto their axis, the
// placement of a joint from its origin, elementary rotations, origins slid along their axes.
#include "io_detail.hpp"

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <vector>

namespace neaccel::ref::detail {

Eigen::Matrix3d axis_frame(const Eigen::Vector3d& axis) {
  Eigen::Matrix3d A;
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), y = Eigen::Vector3d::UnitY(), z = Eigen::Vector3d::UnitZ();
  if (axis == z) return Eigen::Matrix3d::Identity();
  if (axis == -z) {  // a half turn about x
    A << 1, 0, 0, 0, -1, 0, 0, 0, -1;
  } else if (axis == x) {  // z -> x, x -> y, y -> z (a turn of 2 pi/3 about [1 1 1])
    A << 0, 0, 1, 1, 0, 0, 0, 1, 0;
  } else if (axis == -x) {  // a quarter turn about y, negative
    A << 0, 0, -1, 0, 1, 0, 1, 0, 0;
  } else if (axis == y) {  // a quarter turn about x, negative
    A << 1, 0, 0, 0, 0, 1, 0, -1, 0;
  } else if (axis == -y) {  // a quarter turn about x
    A << 1, 0, 0, 0, 0, -1, 0, 1, 0;
  } else {
    A = Eigen::Quaterniond::FromTwoVectors(z, axis).toRotationMatrix();
  }
  return A;
}

Placement placed_joint(const Eigen::Matrix3d& parent_turn, const Eigen::Matrix3d& R_o, const Eigen::Vector3d& p_o,
                       const Eigen::Matrix3d& turn) {
  Placement P;
  P.R = parent_turn.transpose() * R_o * turn;
  P.p = parent_turn.transpose() * p_o;
  return P;
}

Eigen::Matrix3d rot_x(double c, double s) { return (Eigen::Matrix3d() << 1, 0, 0, 0, c, -s, 0, s, c).finished(); }
Eigen::Matrix3d rot_y(double c, double s) { return (Eigen::Matrix3d() << c, 0, s, 0, 1, 0, -s, 0, c).finished(); }
Eigen::Matrix3d rot_z(double c, double s) { return (Eigen::Matrix3d() << c, -s, 0, s, c, 0, 0, 0, 1).finished(); }

void slide_origins(Robot& robot) {
  const std::size_t n = robot.links.size();
  std::vector<std::vector<std::size_t>> children(n);
  for (std::size_t c = 0; c < n; ++c) {
    const int p = robot.links[c].parent;
    if (p >= 0 && robot.links[c].placement) children[static_cast<std::size_t>(p)].push_back(c);
  }
  const auto zeros = [](const Eigen::Vector3d& v) {
    return static_cast<int>(v[0] == 0.0) + static_cast<int>(v[1] == 0.0) + static_cast<int>(v[2] == 0.0);
  };
  for (std::size_t k = 0; k < n; ++k) {
    Link& L = robot.links[k];
    if (!L.placement) continue;
    Placement& P = *L.placement;
    const Eigen::Vector3d z = P.R.col(2);  // the joint axis in the parent's frame
    double scale = P.p.norm();
    std::vector<double> shifts{0.0};
    for (int i = 0; i < 3; ++i)
      if (z[i] != 0.0) shifts.push_back(-P.p[i] / z[i]);  // zeroes component i of the own offset
    for (std::size_t c : children[k]) {
      const Eigen::Vector3d& pc = robot.links[c].placement->p;
      scale = std::max(scale, pc.norm());
      shifts.push_back(pc[2]);  // zeroes the child's offset along this axis
    }
    const auto score = [&](double t) {
      int s = zeros(P.p + t * z);
      for (std::size_t c : children[k]) s += zeros(robot.links[c].placement->p - t * Eigen::Vector3d::UnitZ());
      return s;
    };
    double best = 0.0;
    int best_score = score(0.0);
    for (double t : shifts) {
      if (!std::isfinite(t) || std::abs(t) > scale) continue;  // no lever arm longer than the robot's own offsets
      const int s = score(t);
      if (s > best_score || (s == best_score && std::abs(t) < std::abs(best))) {
        best = t;
        best_score = s;
      }
    }
    if (best == 0.0) continue;
    P.p += best * z;
    for (std::size_t c : children[k]) robot.links[c].placement->p[2] -= best;
    L.com[2] -= best;
  }
}

}  // namespace neaccel::ref::detail
