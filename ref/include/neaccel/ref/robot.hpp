// The robot model: topology, joints, Denavit-Hartenberg parameters or joint placements, inertia, friction, gravity.
// Plain data in double (like Pinocchio's Model); algorithms never modify it. See DESIGN.md.
#pragma once

#include <Eigen/Core>

#include <optional>
#include <string>
#include <vector>

namespace neaccel::ref {

enum class JointType { Revolute, Prismatic };

// Standard/distal DH (seed 000 eq. 2.12; Paul, Corke):  T(i-1 -> i) = Rz(theta) Tz(d) Tx(a) Rx(alpha).
// Modified DH (seed 003, Khalil-Kleinfinger; Craig):      T(i-1 -> i) = Rz(gamma) Tz(b) Rx(alpha) Tx(a) Rz(theta) Tz(d)
//   (Khalil's d_j is `a` here, his r_j is `d`; gamma and b are non-zero only for trees).
enum class DhConvention { Standard, Modified };

// A joint placed by a rigid transform instead of DH parameters (as Pinocchio and RBDL place joints, and as a URDF
// writes them): T(parent -> i) = [R p] Rz(theta) Tz(d), the joint turning about (revolute) or sliding along
// (prismatic) the z axis of frame i. R is a rotation matrix and p a translation, both in the parent's frame. The
// frame of a URDF joint whose axis is not z is turned onto its axis by the importer (io.hpp), so the recursions need
// only the z axis, as for modified DH, and a rotation by a multiple of pi/2 stays a signed permutation that the
// customised graph folds away. Only with DhConvention::Modified (the link frame is at the joint, as there); the
// link's DH fields a, alpha, d, theta, gamma, b are then 0 (validate() checks), so that T = [R p] Rz(q) for a
// revolute joint and [R p] Tz(q) for a prismatic one.
struct Placement {
  Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
  Eigen::Vector3d p = Eigen::Vector3d::Zero();
};

// A joint that follows another (a URDF <mimic>, e.g. the second finger of a gripper): it has no coordinate of its
// own. Its position is multiplier * q_followed + offset, its velocity and acceleration multiplier times the followed
// joint's, and the torque it needs is carried to the followed joint (tau_followed += multiplier * tau_mimic), as
// Pinocchio and GRiD treat mimic joints. The generalized coordinates are the joints without a mimic (Robot::dof()),
// in link order. The followed joint is an earlier or later link of the same joint type and not itself a mimic; a
// revolute mimic has multiplier +-1 (validate() checks; docs/robot-format.md says why).
struct Mimic {
  int link = -1;  // index of the followed link
  double multiplier = 1.0;
  double offset = 0.0;  // rad (revolute) or m (prismatic)
};

// One body and the joint that moves it relative to its parent. Frame i is fixed to link i.
struct Link {
  std::string name;
  int parent = -1;  // index of the parent link, -1 = base; always smaller than the link's own index
  JointType joint = JointType::Revolute;
  // Revolute: theta_total = q + theta.  Prismatic: d_total = d + q (theta is then constant).
  double a = 0, alpha = 0, d = 0, theta = 0, gamma = 0, b = 0;
  // When set, the joint's placement replaces Rz(gamma) Tz(b) Rx(alpha) Tx(a) (see Placement).
  std::optional<Placement> placement;
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();      // centre of mass in frame i
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();  // about the centre of mass, axes of frame i
  double Ia = 0;  // rotor inertia seen at the joint (seed 003 eq. 9.83)
  double Fv = 0;  // viscous friction coefficient
  double Fc = 0;  // Coulomb friction coefficient (torque Fc * sign(qd))
  // false: the published tensor is not one rigid body's (e.g. PUMA 560 link 1, a motor-axis inertia), so
  // validate() checks symmetry and positive semi-definiteness only, not the triangle inequality (io.hpp).
  bool triangle_inequality = true;
  std::optional<Mimic> mimic;  // set: the joint follows another joint and has no coordinate of its own
};

// A rigid body attached to a link's frame (a payload at the tool).
struct RigidLoad {
  int link = -1;  // -1 = the last link
  double mass = 0;
  Eigen::Vector3d com = Eigen::Vector3d::Zero();
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
};

struct Robot {
  std::string name;
  std::string source;  // where it came from ("builtin:puma560", a file path): used in error messages
  DhConvention convention = DhConvention::Standard;
  std::vector<Link> links;
  Eigen::Vector3d gravity{0.0, 0.0, -9.81};  // gravitational acceleration in the base frame
  std::optional<RigidLoad> payload;
  // External wrench: force and moment the last link exerts on the environment, in the last link's frame,
  // moment about its origin (seed 003 eq. 9.88 initial conditions f_{n+1} = f_e, m_{n+1} = m_e).
  Eigen::Vector3d f_e = Eigen::Vector3d::Zero();
  Eigen::Vector3d n_e = Eigen::Vector3d::Zero();

  // The number of generalized coordinates: the joints that are not mimic joints (= links.size() without them).
  int dof() const {
    int n = 0;
    for (const Link& L : links) n += L.mimic ? 0 : 1;
    return n;
  }
  bool has_mimic() const {
    for (const Link& L : links)
      if (L.mimic) return true;
    return false;
  }
};

}  // namespace neaccel::ref
