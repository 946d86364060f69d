// Robot input/output: built-in robots, seeded random arms and trees, YAML robot files, URDF import, validation.
// The YAML schema is documented in docs/robot-format.md. Every loader validates; every error is a neaccel::Error
// with a one-line message "<source>: <field>: <what is wrong>".
#pragma once

#include "neaccel/ref/robot.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace neaccel::ref {

// Loads a robot from a spec and validates it:
//   a built-in name (builtin_robot_names()),  "random:N:SEED" (random_robot(N, SEED, false)),
//   "randomtree:N:SEED" (random_robot(N, SEED, true)),  a path ending in .yaml/.yml (robot_from_yaml_file)
//   or .urdf (robot_from_urdf_file).
// Throws neaccel::Error for an unknown name, an unreadable or malformed file, or an invalid robot.
Robot load_robot(const std::string& spec);

// Names of the robots embedded in the library at build time (data/robots/*.yaml and *.urdf), sorted.
std::vector<std::string> builtin_robot_names();

// Parses a robot from YAML text; `source` names the text in error messages and becomes Robot::source.
// Checks structure (missing/unknown keys, types, malformed YAML with its line number) and then validate().
Robot robot_from_yaml(const std::string& text, const std::string& source);
Robot robot_from_yaml_file(const std::string& path);

// The robot as YAML text in the schema above. Numbers are written with the shortest decimal form that reads back
// to the same double, so robot_from_yaml(to_yaml(r), s) reproduces every field of r exactly (except `source`).
std::string to_yaml(const Robot& robot);

// Imports a URDF (urdfdom): revolute, continuous and prismatic joints become links; fixed joints are merged into
// their parent body (parallel axis theorem). Each joint keeps the file's placement (robot.hpp Placement: the joint
// origin's rotation and translation, the frame turned onto the joint axis), with no conversion to DH parameters, so
// no pair of axes is ill-conditioned (docs/robot-format.md). Gravity defaults to [0, 0, -9.81] in the URDF root frame.
//
// Published URDF data is tolerated where it is noise or a known inconsistency (docs/robot-format.md, "URDF import"):
// a negative principal moment of a link's inertia no larger in magnitude than kUrdfMomentNoise times the largest
// principal moment (of that link, or of the robot if larger) is clamped to 0 with a warning; a larger one is an
// error. Principal moments that violate the triangle inequality load with a warning (the link gets
// triangle_inequality = false) unless strict_inertia is set, which makes both warnings errors. Every error and
// warning names the URDF's link (and the joint that moves it): "<source>: link 'NAME' (joint 'J') [links[i]]: ...".
inline constexpr double kUrdfMomentNoise = 1e-9;
struct UrdfOptions {
  bool strict_inertia = false;
  // Keep the file's numbers exactly. By default values that are a structural zero or a multiple of pi/2 written
  // with a file's finite precision (rpy angles within 1e-9 rad of k*pi/2, axis components, lengths and inertia
  // products below 1e-9 of their scale) are snapped to exact values, with one warning (docs/robot-format.md).
  bool verbatim = false;
  // The chain between two URDF links: base = the link whose frame becomes the fixed base (everything above it,
  // including floating or planar joints, is cut off); tip = the last link (only the movable joints on the path
  // base -> tip are kept, other branches are dropped). Empty = the URDF's root / every link.
  std::string base, tip;
  // Receives each one-line warning; empty = printed to stderr as "neaccel: warning: <message>".
  std::function<void(const std::string&)> warn;
};
Robot robot_from_urdf(const std::string& xml, const std::string& source, const UrdfOptions& options);
Robot robot_from_urdf(const std::string& xml, const std::string& source);  // with urdf_options()
Robot robot_from_urdf_file(const std::string& path);                         // with urdf_options()
// Process-wide URDF options used by load_robot() / robot_from_urdf_file (the CLI's --strict-inertia, --base, --tip).
void set_urdf_options(const UrdfOptions& options);
const UrdfOptions& urdf_options();

// A seeded random robot for tests and scaling studies: n links, mixed revolute/prismatic joints, arbitrary DH
// parameters (standard DH for even seeds, modified DH for odd seeds), full physically valid inertia tensors
// (principal moments from a positive mass distribution, rotated by a random rotation), non-zero centres of mass,
// rotor inertia and friction. tree = true: random parents, at least 3 leaves for n >= 4. Same (n, seed, tree)
// gives the same robot on every platform (own uniform-from-bits on std::mt19937_64, no std distributions).
Robot random_robot(int n, std::uint64_t seed, bool tree);

// Checks every field of the robot; throws neaccel::Error "<source>: links[i].<field>: <reason> (got <value>)" on
// the first problem: empty robot, parent index not in [-1, i), unknown joint type, any non-finite number,
// negative mass / rotor inertia / friction, inertia not symmetric positive semi-definite, principal moments
// violating the triangle inequality (unless the link sets triangle_inequality = false), gamma/b with standard DH,
// payload on a link that does not exist.
void validate(const Robot& robot);

}  // namespace neaccel::ref
