// Internals shared by the robot I/O sources (not installed, not part of the API).
#pragma once

#include "neaccel/ref/robot.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace neaccel::ref::detail {

// One robot file embedded at build time (generated from data/robots/*.yaml by ref/CMakeLists.txt).
struct EmbeddedRobot {
  const char* name;
  const char* yaml;
};
extern const EmbeddedRobot kEmbeddedRobots[];
extern const std::size_t kEmbeddedRobotCount;

// Where a field came from, e.g. "robot.yaml:12" for "links[2].mass"; an empty result means "the source".
using Locate = std::function<std::string(const std::string& field)>;

// validate() with error locations from the caller (the YAML reader gives line numbers).
void validate_located(const Robot& robot, const Locate& locate);

// The message with control characters (newlines from a multi-line YAML scalar or a parser) shown as spaces, so that
// every error stays one line.
std::string one_line(std::string message);

// A rotation A with A e_z = axis (a unit vector): the frame of a joint whose axis is `axis`, turned so that the joint
// moves about or along its z axis (robot.hpp Placement). A signed unit axis gives an exact signed permutation (a
// quarter or half turn), any other axis the shortest rotation from e_z, rounded. URDF and YAML placements use it.
Eigen::Matrix3d axis_frame(const Eigen::Vector3d& axis);

// A placed joint from its origin as a file writes it (R_o, p_o: the joint's frame in the parent link's frame), the
// parent's turn and its own (axis_frame; identity for a DH parent or the base): [A_p^T R_o A, A_p^T p_o].
Placement placed_joint(const Eigen::Matrix3d& parent_turn, const Eigen::Matrix3d& R_o, const Eigen::Vector3d& p_o,
                       const Eigen::Matrix3d& turn);

// Rotations about x, y and z by the angle whose cosine and sine are given; a URDF rpy is Rz(yaw) Ry(pitch) Rx(roll).
Eigen::Matrix3d rot_x(double c, double s);
Eigen::Matrix3d rot_y(double c, double s);
Eigen::Matrix3d rot_z(double c, double s);

// Slides the origin of every placed joint's frame along its own axis (a revolute joint turns, a prismatic one slides,
// about the same line wherever the origin is on it) to the point that makes the most translation components exactly
// zero: its own offset from the parent and its children's offsets (as DH places origins where consecutive axes meet
// or on their common normal). Each shift is one of the robot's own offsets, bounded by them (never a long lever arm
// from nearly parallel axes), so the robot's numbers stay exact or within rounding; the centre of mass moves with
// the frame. Parents first; the shift with the most zeros wins, the smallest shift among equals. URDF import.
void slide_origins(Robot& robot);

// Reads a whole file; throws neaccel::Error "<path>: cannot read file (...)".
std::string read_text_file(const std::string& path);

}  // namespace neaccel::ref::detail
