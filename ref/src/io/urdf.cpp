// URDF import (io.hpp): urdfdom parses; every movable joint becomes a link placed as the file places it (robot.hpp
// Placement: the joint origin's rotation and translation, the frame turned onto the joint axis), with no conversion
// to DH parameters; fixed joints are merged into their parent body. Unless UrdfOptions::verbatim, values that a file
// writes with finite precision where the design has an exact one (pi/2 as 1.57079632679, a zero as 2.7e-17) are
// snapped to it (Snapper below). docs/robot-format.md ("URDF import").
#include "io_detail.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/model.hpp"

#include <console_bridge/console.h>
#include <fmt/format.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Geometry>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <utility>

namespace neaccel::ref {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Structural values written with a file's finite precision (docs/robot-format.md, "URDF import"). A URDF that writes
// pi/2 as 1.57079632679 (10-12 digits) is 1e-12 rad off; the residues it leaves (sines of 1e-12, lengths of 1e-17 m)
// are non-zero constants that no constant folding removes, so the customised dataflow graph keeps their products.
//   kSnapAngle:    an rpy angle within 1e-9 rad of a multiple of pi/2 is that multiple (10-digit files);
//   kSnapRelative: an axis component below 1e-9, a length (xyz, centre-of-mass component) below 1e-9 of
//                  the robot's length scale (the largest |origin xyz| of any joint), an inertia product below 1e-9
//                  of the link's largest moment is 0;
//   kSnapQuiet:    changes up to 1e-12 (rad, m, relative) are rounding noise (urdfdom's rpy -> quaternion adds
//                  1e-16 rad): they are snapped but neither counted nor reported;
//   kSnapTorque:   the snapped robot's torques may differ from the verbatim robot's by at most 1e-6 relative
//                  (per state, max |tau_snapped - tau_verbatim| / max |tau_verbatim|) on kSnapStates random states;
//                  more means the values were not rounded exact ones, and the import is an error. On the 7-joint
//                  iiwa an angle x rad off moves the torques by up to about 20 x relative, so angles just inside
//                  kSnapAngle give 1e-8; 1e-6 leaves room for longer chains and still refuses a real offset (the
//                  warning states the change measured).
constexpr double kSnapAngle = 1e-9;
constexpr double kSnapRelative = 1e-9;
constexpr double kSnapQuiet = 1e-12;
constexpr double kSnapTorque = 1e-6;
constexpr int kSnapStates = 100;

// Collects urdfdom's console messages so that a parse failure becomes one line naming the file.
class CaptureConsole : public console_bridge::OutputHandler {
 public:
  CaptureConsole() { console_bridge::useOutputHandler(this); }
  ~CaptureConsole() override { console_bridge::restorePreviousOutputHandler(); }
  CaptureConsole(const CaptureConsole&) = delete;
  CaptureConsole& operator=(const CaptureConsole&) = delete;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR && first_error.empty()) first_error = text;
  }
  std::string first_error;
};

Eigen::Isometry3d iso(const urdf::Pose& p) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).normalized()
                   .toRotationMatrix();
  T.translation() = Eigen::Vector3d(p.position.x, p.position.y, p.position.z);
  return T;
}

// cos and sin of k pi/2, exactly.
std::pair<double, double> quarter_turn(double k) {
  double m = std::fmod(k, 4.0);
  if (m < 0) m += 4.0;
  static constexpr double c[4] = {1, 0, -1, 0}, s[4] = {0, 1, 0, -1};
  const auto i = static_cast<std::size_t>(m) % 4;
  return {c[i], s[i]};
}

// Snaps structural values (kSnapAngle, kSnapRelative above) and records what changed. Off (verbatim): nothing.
struct Snapper {
  bool on = false;
  double length_tol = 0;  // kSnapRelative x the robot's length scale: lengths below it become 0 (when on)
  int count = 0;                  // values changed by more than kSnapQuiet
  double max_rad = 0, max_m = 0, max_rel = 0;  // the largest counted change: angles, lengths, relative (axis, inertia)

  void note(double change, double& largest) {
    if (change > kSnapQuiet) {
      ++count;
      largest = std::max(largest, change);
    }
  }
  // A length (a URDF xyz, a centre-of-mass component): below length_tol -> 0 when on.
  double position(double v) {
    if (!on || !(std::abs(v) < length_tol) || v == 0) return v;
    note(std::abs(v), max_m);
    return 0.0;
  }
  // An rpy angle v: its cos and sin, exact when v is within kSnapAngle of a multiple of pi/2 (then true); `moved` is
  // set when that multiple differs from v.
  bool trig(double v, double& c, double& s, bool& moved) {
    const double k = std::round(v / (kPi / 2));
    if (!(std::abs(v - k * (kPi / 2)) < kSnapAngle)) {
      c = std::cos(v);
      s = std::sin(v);
      return false;
    }
    note(std::abs(v - k * (kPi / 2)), max_rad);
    if (v != k * (kPi / 2)) moved = true;
    std::tie(c, s) = quarter_turn(k);
    return true;
  }
  // A rotation R = Rz(yaw) Ry(pitch) Rx(roll) (a URDF rpy, through urdfdom's quaternion): the angles within
  // kSnapAngle of a multiple of pi/2 replaced by it and the rotation rebuilt with exact cos and sin (a signed
  // permutation when all three are). Unchanged when no angle moves. The file's rpy is recovered from R: pitch in
  // [-pi/2, pi/2] by atan2 (well conditioned); at pitch +-pi/2 only roll -+ yaw is defined and yaw = 0 is taken;
  // otherwise yaw (or, when yaw is not near a multiple, roll) is tested first and the other angle is then solved
  // from R with the snapped one, which stays well conditioned near pitch +-pi/2.
  Eigen::Matrix3d rotation(const Eigen::Matrix3d& R) {
    if (!on) return R;
    const int count0 = count;
    const double max_rad0 = max_rad;
    bool moved = false;
    double cr = 1, sr = 0, cp = 1, sp = 0, cy = 1, sy = 0;
    const bool pitch = trig(std::atan2(-R(2, 0), std::hypot(R(0, 0), R(1, 0))), cp, sp, moved);
    if (pitch && cp == 0) {  // pitch +-pi/2: R depends on roll - yaw (pitch pi/2) or roll + yaw (-pi/2) only
      trig(sp > 0 ? std::atan2(R(0, 1), R(1, 1)) : std::atan2(-R(0, 1), R(1, 1)), cr, sr, moved);
    } else if (trig(std::atan2(R(1, 0), R(0, 0)), cy, sy, moved)) {
      const Eigen::Matrix3d X = (detail::rot_z(cy, sy) * detail::rot_y(cp, sp)).transpose() * R;  // = Rx(roll)
      trig(std::atan2(X(2, 1), X(1, 1)), cr, sr, moved);
    } else if (trig(std::atan2(R(2, 1), R(2, 2)), cr, sr, moved)) {
      const Eigen::Matrix3d M = R * detail::rot_x(cr, sr).transpose();  // = Rz(yaw) Ry(pitch)
      const double y = std::atan2(-M(0, 1), M(1, 1));
      cy = std::cos(y);
      sy = std::sin(y);
    }
    const Eigen::Matrix3d S = detail::rot_z(cy, sy) * (detail::rot_y(cp, sp) * detail::rot_x(cr, sr));
    // Nothing moved, or the snapped angles turn R by more than three snaps could: R as it is.
    if (!moved || !((S - R).cwiseAbs().maxCoeff() <= 4 * kSnapAngle)) {
      count = count0;
      max_rad = max_rad0;
      return R;
    }
    return S;
  }
  // A joint axis: components below kSnapRelative of the largest -> 0, then renormalised.
  Eigen::Vector3d axis(Eigen::Vector3d a) {
    if (!on) return a;
    const double scale = a.cwiseAbs().maxCoeff();
    bool changed = false;
    for (int i = 0; i < 3; ++i) {
      if (a[i] != 0 && std::abs(a[i]) < kSnapRelative * scale) {
        note(std::abs(a[i]) / scale, max_rel);
        a[i] = 0;
        changed = true;
      }
    }
    return changed ? Eigen::Vector3d(a / a.norm()) : a;
  }
  // An inertia tensor: products below kSnapRelative of the largest moment (diagonal element) -> 0.
  Eigen::Matrix3d inertia(Eigen::Matrix3d I) {
    if (!on) return I;
    const double largest = I.diagonal().cwiseAbs().maxCoeff();
    for (int i = 0; i < 3; ++i) {
      for (int j = i + 1; j < 3; ++j) {
        const double v = 0.5 * (I(i, j) + I(j, i));
        if (v != 0 && std::abs(v) < kSnapRelative * largest) {
          note(std::abs(v) / largest, max_rel);
          I(i, j) = I(j, i) = 0;
        }
      }
    }
    return I;
  }
  Eigen::Vector3d point(const Eigen::Vector3d& v) {
    return Eigen::Vector3d(position(v.x()), position(v.y()), position(v.z()));
  }
  // A URDF pose with its structural values snapped.
  Eigen::Isometry3d pose(const urdf::Pose& p) {
    Eigen::Isometry3d T = iso(p);
    if (!on) return T;
    T.linear() = rotation(T.linear());
    T.translation() = point(T.translation());
    return T;
  }
};

// Mass properties in one frame: mass, centre of mass, inertia about the centre of mass.
struct Mass {
  double m = 0;
  Eigen::Vector3d c = Eigen::Vector3d::Zero();
  Eigen::Matrix3d I = Eigen::Matrix3d::Zero();
};

Eigen::Matrix3d shift(const Eigen::Matrix3d& I, double m, const Eigen::Vector3d& r) {
  return I + m * (r.squaredNorm() * Eigen::Matrix3d::Identity() - r * r.transpose());  // parallel axis theorem
}

// Two rigid bodies as one (both in the same frame).
Mass combine(const Mass& a, const Mass& b) {
  Mass s;
  s.m = a.m + b.m;
  s.c = s.m > 0 ? Eigen::Vector3d((a.m * a.c + b.m * b.c) / s.m) : Eigen::Vector3d(a.c);
  s.I = shift(a.I, a.m, a.c - s.c) + shift(b.I, b.m, b.c - s.c);
  return s;
}

// The same body seen from another frame: T maps the body's current frame into the new one.
Mass transformed(const Mass& x, const Eigen::Isometry3d& T) {
  Mass y = x;
  y.c = T * x.c;
  y.I = T.linear() * x.I * T.linear().transpose();
  y.I = 0.5 * (y.I + y.I.transpose());
  return y;
}

// One movable joint and the body it moves (its child URDF link plus everything fixed to it).
struct Body {
  std::string name;  // the child URDF link
  std::string joint_name;  // the URDF joint that moves it
  int parent = -1;   // parent body, -1 = the root (base)
  JointType joint = JointType::Revolute;
  Eigen::Isometry3d parent_T_joint;  // the joint's frame (= the child link's) in the parent body's frame at q = 0
  Eigen::Vector3d axis;              // the joint axis in the joint's frame (unit)
  Mass mass;                         // in the child link's frame
  std::string mimic;                 // the joint a mimic joint moves with (empty: an independent joint)
  double multiplier = 1.0, offset = 0.0;
  int follows = -1;                  // the body of that joint among the kept bodies (set by kept())
};

class Importer {
 public:
  Importer(std::string source, Snapper& snap) : source_(std::move(source)), snap_(snap) {}

  // The movable bodies in depth-first order from the root (or options.base), children in joint-name order
  // (parents come first); with options.tip only the bodies on the path to the tip.
  std::vector<Body> bodies(const urdf::ModelInterface& model, const UrdfOptions& options) {
    urdf::LinkConstSharedPtr start = model.getRoot();
    if (!start) fail("no root link");
    if (!options.base.empty()) {
      start = model.getLink(options.base);
      if (!start) fail(fmt::format("--base: no link '{}' in the URDF", options.base));
    }
    visit(*start, -1, Eigen::Isometry3d::Identity());
    if (options.tip.empty()) return kept(std::move(bodies_));
    const auto owner = owner_.find(options.tip);
    if (owner == owner_.end()) {
      fail(fmt::format("--tip: no link '{}' below the base link '{}'", options.tip, start->name));
    }
    if (owner->second < 0) {
      fail(fmt::format("--tip: link '{}' is fixed to the base link '{}' (no movable joint between them)",
                       options.tip, start->name));
    }
    std::vector<int> path;  // tip's body up to the base
    for (int b = owner->second; b >= 0; b = bodies_[static_cast<std::size_t>(b)].parent) path.push_back(b);
    std::reverse(path.begin(), path.end());
    std::vector<Body> chain;
    for (int b : path) {
      chain.push_back(bodies_[static_cast<std::size_t>(b)]);
      chain.back().parent = static_cast<int>(chain.size()) - 2;
    }
    return kept(std::move(chain));
  }

  // A mimic joint moves with another joint (q = multiplier * q_other + offset): the model couples it to that
  // joint's coordinate (robot.hpp Mimic). The followed joint must be a kept movable joint that is not itself a
  // mimic; multiplier, offset and joint types are checked by validate(), which names the link and joint.
  std::vector<Body> kept(std::vector<Body> bodies) const {
    std::map<std::string, int> by_joint;
    for (std::size_t k = 0; k < bodies.size(); ++k) by_joint[bodies[k].joint_name] = static_cast<int>(k);
    for (Body& b : bodies) {
      if (b.mimic.empty()) continue;
      const std::string head = fmt::format("joint '{}': mimic of joint '{}'", b.joint_name, b.mimic);
      const auto f = by_joint.find(b.mimic);
      if (f == by_joint.end()) {
        if (all_joints_.count(b.mimic) == 0) fail(head + ": no joint of that name in the URDF (below the base link)");
        if (all_joints_.at(b.mimic) == urdf::Joint::FIXED)
          fail(head + ": that joint is fixed, it has no coordinate to follow");
        fail(head + ": that joint is not in the imported chain (--base or --tip leaves it out)");
      }
      const Body& F = bodies[static_cast<std::size_t>(f->second)];
      if (!F.mimic.empty()) {
        // Walk the chain of mimics: back at this joint = a cycle, otherwise a mimic of a mimic.
        std::string path = b.joint_name;
        std::set<std::string> seen{b.joint_name};
        for (std::string j = b.mimic; !j.empty();) {
          path += " -> " + j;
          if (!seen.insert(j).second)
            fail(fmt::format("joint '{}': mimic joints form a cycle ({}): no joint of it has a coordinate",
                             b.joint_name, path));
          const auto g = by_joint.find(j);
          j = g == by_joint.end() ? std::string() : bodies[static_cast<std::size_t>(g->second)].mimic;
        }
        fail(fmt::format("{}, itself a mimic joint (of '{}'): a mimic of a mimic is not supported (follow '{}' "
                         "directly, with the multipliers and offsets composed)", head, F.mimic, F.mimic));
      }
      b.follows = f->second;
    }
    return bodies;
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(detail::one_line(fmt::format("{}: {}", source_, what)));
  }

 private:
  // link: a URDF link belonging to `body`; body_T_link: its frame in the body's frame (the root's for the base).
  void visit(const urdf::Link& link, int body, const Eigen::Isometry3d& body_T_link) {
    owner_[link.name] = body;
    for (const auto& j : link.child_joints) all_joints_[j->name] = j->type;
    if (body >= 0 && link.inertial) {
      add_inertial(*link.inertial, bodies_[static_cast<std::size_t>(body)], body_T_link, link.name);
    }
    std::vector<urdf::JointSharedPtr> joints = link.child_joints;
    std::sort(joints.begin(), joints.end(), [](const auto& x, const auto& y) { return x->name < y->name; });
    for (const auto& j : joints) {
      std::shared_ptr<urdf::Link> child_link;
      for (const auto& c : link.child_links) {
        if (c->name == j->child_link_name) child_link = c;
      }
      if (!child_link) fail(fmt::format("joint '{}': child link '{}' not found", j->name, j->child_link_name));
      const Eigen::Isometry3d origin = snap_.pose(j->parent_to_joint_origin_transform);
      if (j->type == urdf::Joint::FIXED) {
        visit(*child_link, body, body_T_link * origin);  // merged into the same body
      } else {
        visit(*child_link, movable(*j, body, body_T_link * origin), Eigen::Isometry3d::Identity());
      }
    }
  }

  int movable(const urdf::Joint& j, int parent, const Eigen::Isometry3d& parent_T_joint) {
    Body b;
    b.name = j.child_link_name;
    b.joint_name = j.name;
    b.parent = parent;
    if (j.mimic) {
      b.mimic = j.mimic->joint_name;  // resolved in kept()
      b.multiplier = j.mimic->multiplier;
      b.offset = j.mimic->offset;
    }
    switch (j.type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS: b.joint = JointType::Revolute; break;
      case urdf::Joint::PRISMATIC: b.joint = JointType::Prismatic; break;
      default:
        fail(fmt::format("joint '{}': unsupported joint type (only revolute, continuous, prismatic, fixed)", j.name));
    }
    Eigen::Vector3d axis(j.axis.x, j.axis.y, j.axis.z);
    if (!axis.allFinite() || axis.norm() < 1e-12) {
      fail(fmt::format("joint '{}': axis must be a non-zero vector", j.name));
    }
    b.parent_T_joint = parent_T_joint;
    b.axis = snap_.axis(axis).normalized();
    bodies_.push_back(b);
    return static_cast<int>(bodies_.size()) - 1;
  }

  void add_inertial(const urdf::Inertial& in, Body& b, const Eigen::Isometry3d& body_T_link, const std::string& name) {
    Mass x;
    x.m = in.mass;
    x.I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    if (!std::isfinite(x.m) || x.m < 0) fail(fmt::format("link '{}': inertial mass must be finite and >= 0", name));
    if (x.I.allFinite()) x.I = snap_.inertia(x.I);  // validate() reports a non-finite one, naming the link
    b.mass = combine(b.mass, transformed(x, body_T_link * snap_.pose(in.origin)));
  }

  std::string source_;
  Snapper& snap_;
  std::vector<Body> bodies_;
  std::map<std::string, int> owner_;  // URDF link name -> its body (-1 = the base)
  std::map<std::string, int> all_joints_;  // every joint below the base -> its urdfdom type (mimic errors)
};

// ---- joint placements ----

// Link k of the robot: frame k is the joint's frame turned onto its axis (F_k = joint frame * A_k, A_k =
// axis_frame(axis)) and then slid along it (detail::slide_origins); before the slide T(parent -> k) =
// detail::placed_joint Rz(q), from the joint's frame in the parent body's. Signed permutations stay exact.
Robot to_robot(const std::vector<Body>& bodies, const std::string& name, const std::string& source, Snapper& snap) {
  Robot r;
  r.name = name;
  r.source = source;
  r.convention = DhConvention::Modified;
  std::vector<Eigen::Matrix3d> turn(bodies.size());
  for (std::size_t k = 0; k < bodies.size(); ++k) {
    const Body& B = bodies[k];
    turn[k] = detail::axis_frame(B.axis);
    const Eigen::Matrix3d Ap =
        B.parent < 0 ? Eigen::Matrix3d::Identity() : turn[static_cast<std::size_t>(B.parent)];
    Link L;
    L.name = B.name;
    L.parent = B.parent;
    L.joint = B.joint;
    L.placement = detail::placed_joint(Ap, B.parent_T_joint.linear(), B.parent_T_joint.translation(), turn[k]);
    // q is the file's joint variable (the frame is turned onto the axis with its sign), so the file's multiplier
    // and offset couple the two coordinates as written.
    if (!B.mimic.empty()) L.mimic = Mimic{B.follows, B.multiplier, B.offset};
    // Inertia and centre of mass: from the URDF link frame into frame k (a rotation about the joint origin).
    Eigen::Isometry3d k_T_link = Eigen::Isometry3d::Identity();
    k_T_link.linear() = turn[k].transpose();
    const Mass m = transformed(B.mass, k_T_link);
    L.mass = m.m;
    L.com = snap.point(m.c);
    L.inertia = m.I.allFinite() ? snap.inertia(m.I) : m.I;
    r.links.push_back(L);
  }
  detail::slide_origins(r);
  return r;
}

// "<source>: link 'NAME' (joint 'J') [links[i]]" for the i-th imported link.
std::string urdf_where(const Robot& r, const std::vector<Body>& bodies, std::size_t i) {
  return fmt::format("{}: link '{}' (joint '{}') [links[{}]]", r.source, bodies[i].name, bodies[i].joint_name, i);
}

// Noise-level negative principal moments clamped, triangle-inequality violations flagged (io.hpp, UrdfOptions).
void tolerate_inertia(Robot& r, const std::vector<Body>& bodies, const UrdfOptions& options) {
  const auto warn = [&](const std::string& message) {
    if (options.strict_inertia) throw Error(detail::one_line(message + " (--strict-inertia)"));
    if (options.warn) {
      options.warn(detail::one_line(message));
    } else {
      std::fprintf(stderr, "neaccel: warning: %s\n", detail::one_line(message).c_str());
    }
  };
  double largest = 0;  // the largest principal moment in the robot
  std::vector<Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>> eig(r.links.size());
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    if (!r.links[i].inertia.allFinite()) continue;  // validate() reports it, naming the link
    eig[i].compute(r.links[i].inertia);
    largest = std::max(largest, eig[i].eigenvalues().maxCoeff());
  }
  const double noise = kUrdfMomentNoise * largest;
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    Link& L = r.links[i];
    if (!L.inertia.allFinite()) continue;
    Eigen::Vector3d p = eig[i].eigenvalues();  // ascending
    if (p[0] < 0) {
      if (-p[0] > noise) {
        throw Error(detail::one_line(fmt::format(
            "{}: inertia: principal moments {}, {}, {} include a negative one beyond rounding noise ({} x the "
            "largest moment in the robot, {})", urdf_where(r, bodies, i), p[0], p[1], p[2], kUrdfMomentNoise,
            largest)));
      }
      warn(fmt::format("{}: inertia: negative principal moment {} is rounding noise (within {} x the largest "
                       "moment in the robot, {}); clamped to 0", urdf_where(r, bodies, i), p[0], kUrdfMomentNoise,
                       largest));
      p = p.cwiseMax(0.0);
      const Eigen::Matrix3d& V = eig[i].eigenvectors();
      L.inertia = V * p.asDiagonal() * V.transpose();
      L.inertia = 0.5 * (L.inertia + L.inertia.transpose());
    }
    // The validator's tolerance for the same check (validate.cpp): 1e-9 of the largest coefficient.
    const double tol = 1e-9 * L.inertia.cwiseAbs().maxCoeff();
    if (p[0] + p[1] < p[2] - tol) {
      warn(fmt::format("{}: inertia: principal moments {}, {}, {} violate the triangle inequality ({} < {}); "
                       "loaded as published", urdf_where(r, bodies, i), p[0], p[1], p[2], p[0] + p[1], p[2]));
      L.triangle_inequality = false;
    }
  }
}

// Element nesting depth of XML text by a linear scan (comments, processing instructions, declarations and CDATA
// skipped; quoted attribute values honoured). urdfdom's parser takes time growing faster than linearly with the depth
// of a hostile file (a 1 MB file nested 10^5 deep ran over a minute), so the text is refused before it is parsed when
// it nests deeper than kMaxXmlDepth (real URDFs: 4-5 levels). docs/limits.md.
constexpr int kMaxXmlDepth = 64;
int xml_depth(const std::string& x) {
  int depth = 0, deepest = 0;
  const auto skip_to = [&](std::size_t from, const char* end) {
    const std::size_t e = x.find(end, from);
    return e == std::string::npos ? x.size() : e + std::char_traits<char>::length(end);
  };
  for (std::size_t i = 0; i < x.size();) {
    if (x[i] != '<') { ++i; continue; }
    if (x.compare(i, 4, "<!--") == 0) { i = skip_to(i + 4, "-->"); continue; }
    if (x.compare(i, 9, "<![CDATA[") == 0) { i = skip_to(i + 9, "]]>"); continue; }
    if (x.compare(i, 2, "<?") == 0) { i = skip_to(i + 2, "?>"); continue; }
    if (x.compare(i, 2, "<!") == 0) { i = skip_to(i + 2, ">"); continue; }
    const bool closing = x.compare(i, 2, "</") == 0;
    std::size_t j = i + 1;
    char quote = 0;
    for (; j < x.size(); ++j) {
      if (quote) { if (x[j] == quote) quote = 0; }
      else if (x[j] == '"' || x[j] == '\'') quote = x[j];
      else if (x[j] == '>') break;
    }
    const bool self_closing = j < x.size() && j > i + 1 && x[j - 1] == '/';
    if (closing) --depth;
    else if (!self_closing) deepest = std::max(deepest, ++depth);
    i = j + 1;
  }
  return deepest;
}

// The offset of the first byte of x that is not well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), or of the first NUL; npos when there is none. XML requires a UTF-8 document to be
// well-formed and a NUL is not an XML character. The check is also what keeps TinyXML 2.6 (under urdfdom) inside the
// text: it takes a UTF-8 lead byte's length on trust, so a sequence cut short by the end of the text made it read past
// the end (a heap overflow found by fuzzing).
std::size_t first_bad_utf8(const std::string& x) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(x[k]); };
  for (std::size_t i = 0; i < x.size();) {
    const unsigned char c = byte(i);
    if (c == 0) return i;
    if (c < 0x80) { ++i; continue; }
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c == 0xE0) { n = 2; lo = 0xA0; }
    else if (c == 0xED) { n = 2; hi = 0x9F; }
    else if (c >= 0xE1 && c <= 0xEF) n = 2;
    else if (c == 0xF0) { n = 3; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) n = 3;
    else if (c == 0xF4) { n = 3; hi = 0x8F; }
    else return i;
    if (i + n >= x.size()) return i;
    if (byte(i + 1) < lo || byte(i + 1) > hi) return i;
    for (std::size_t k = 2; k <= n; ++k) {
      if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return i;
    }
    i += n + 1;
  }
  return std::string::npos;
}

// The robot's length scale for the length snap: the largest |origin xyz| of any joint (1 m when all are 0).
double length_scale(const urdf::ModelInterface& model) {
  double scale = 0;
  for (const auto& [name, j] : model.joints_) {
    if (!j) continue;
    const urdf::Vector3& t = j->parent_to_joint_origin_transform.position;
    const double n = std::sqrt(t.x * t.x + t.y * t.y + t.z * t.z);
    if (std::isfinite(n)) scale = std::max(scale, n);
  }
  return scale > 0 ? scale : 1.0;
}

// The largest relative torque change snapping causes: per state max |tau_s - tau_v| / max |tau_v|, the largest over
// kSnapStates random states (fixed seed; revolute q in [-pi, pi], prismatic q in [-0.5, 0.5] m, qd and qdd in
// [-1, 1]), inverse dynamics of ref (modified N-E). Both robots have the same joints and the same pose at q = 0, so
// their torques are the same function of (q, qd, qdd) up to the snapped values' effect.
double torque_change(const Robot& snapped, const Robot& verbatim) {
  std::mt19937_64 gen(0x5eed0f1e5ULL);
  const auto uniform = [&](double lo, double hi) {
    return lo + (hi - lo) * (static_cast<double>(gen() >> 11) * 0x1.0p-53);
  };
  const int n = snapped.dof();
  const std::vector<int> links = coordinate_links(snapped);  // the link of each coordinate (mimic joints follow)
  double worst = 0;
  for (int s = 0; s < kSnapStates; ++s) {
    Eigen::VectorXd q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) {
      const bool prismatic =
          snapped.links[static_cast<std::size_t>(links[static_cast<std::size_t>(i)])].joint == JointType::Prismatic;
      q[i] = prismatic ? uniform(-0.5, 0.5) : uniform(-kPi, kPi);
      qd[i] = uniform(-1, 1);
      qdd[i] = uniform(-1, 1);
    }
    const Eigen::VectorXd tv = inverse_dynamics(verbatim, q, qd, qdd);
    const Eigen::VectorXd ts = inverse_dynamics(snapped, q, qd, qdd);
    const double diff = (ts - tv).cwiseAbs().maxCoeff(), scale = tv.cwiseAbs().maxCoeff();
    if (diff == 0) continue;
    worst = std::max(worst, scale > 0 ? diff / scale : std::numeric_limits<double>::infinity());
  }
  return worst;
}

// urdfdom refuses a <mimic> multiplier or offset that is not a finite number ("multiplier value (nan) is not a
// valid float") without naming the joint: "joint 'NAME': " for the joint whose <mimic> holds that value, found in the
// text (the last <joint name=...> before it), or "" when the message is another one.
std::string mimic_value_joint(const std::string& xml, const std::string& error) {
  std::smatch m;
  if (!std::regex_search(error, m, std::regex(R"((multiplier|offset) value \((.{1,64})\) is not a valid float)")))
    return "";
  const std::string key = m[1].str(), value = m[2].str();
  // The first `key = "value"` (either quote, spaces around '=') in the text: plain searches, no regex over the file.
  for (std::size_t at = xml.find(value); at != std::string::npos; at = xml.find(value, at + 1)) {
    std::size_t k = at;
    if (k == 0 || (xml[k - 1] != '"' && xml[k - 1] != '\'')) continue;
    --k;
    while (k > 0 && std::isspace(static_cast<unsigned char>(xml[k - 1]))) --k;
    if (k == 0 || xml[k - 1] != '=') continue;
    --k;
    while (k > 0 && std::isspace(static_cast<unsigned char>(xml[k - 1]))) --k;
    if (k < key.size() || xml.compare(k - key.size(), key.size(), key) != 0) continue;
    const std::size_t joint = xml.rfind("<joint", k);
    if (joint == std::string::npos) return "";
    const std::size_t end = xml.find('>', joint);
    const std::string tag = xml.substr(joint, std::min<std::size_t>(end == std::string::npos ? 1000 : end - joint, 1000));
    std::smatch n;
    if (!std::regex_search(tag, n, std::regex(R"(name\s*=\s*["']([^"']*)["'])"))) return "";
    return fmt::format("joint '{}': mimic {} '{}' is not a finite number: ", n[1].str(), key, value);
  }
  return "";
}

UrdfOptions& process_urdf_options() {
  static UrdfOptions options;
  return options;
}

}  // namespace

void set_urdf_options(const UrdfOptions& options) { process_urdf_options() = options; }
const UrdfOptions& urdf_options() { return process_urdf_options(); }

Robot robot_from_urdf(const std::string& xml, const std::string& source, const UrdfOptions& options) {
  Snapper verbatim_snap;
  Importer importer(source, verbatim_snap);
  if (const std::size_t bad = first_bad_utf8(xml); bad != std::string::npos) {
    const auto line = 1 + std::count(xml.begin(), xml.begin() + static_cast<std::ptrdiff_t>(bad), '\n');
    throw Error(detail::one_line(fmt::format("{}:{}: byte {} (0x{:02X}) is {}", source, line, bad + 1,
                                             static_cast<unsigned char>(xml[bad]),
                                             xml[bad] == 0 ? "a NUL, not an XML character" : "not well-formed UTF-8")));
  }
  if (xml_depth(xml) > kMaxXmlDepth) importer.fail(fmt::format("XML elements nested deeper than {}", kMaxXmlDepth));
  urdf::ModelInterfaceSharedPtr model;
  {
    CaptureConsole console;
    model = urdf::parseURDF(xml);
    if (!model) {
      importer.fail(fmt::format("{}not a valid URDF ({})", mimic_value_joint(xml, console.first_error),
                                console.first_error.empty() ? "urdfdom could not parse it" : console.first_error));
    }
  }
  Snapper snap;
  snap.on = !options.verbatim;
  if (snap.on) snap.length_tol = kSnapRelative * length_scale(*model);
  Importer snapping(source, snap);
  const std::vector<Body> bodies = (snap.on ? snapping : importer).bodies(*model, options);
  Robot r = to_robot(bodies, model->getName(), source, snap);
  const Robot snapped_raw = r;
  tolerate_inertia(r, bodies, options);
  // validate() names links[i].field; the location in front names the URDF link and joint.
  detail::validate_located(r, [&](const std::string& field) -> std::string {
    unsigned long i = 0;
    if (std::sscanf(field.c_str(), "links[%lu]", &i) == 1 && i < bodies.size()) {
      return fmt::format("{}: link '{}' (joint '{}')", source, bodies[i].name, bodies[i].joint_name);
    }
    return std::string();
  });
  if (snap.count > 0) {
    // The same import with the file's values, for the torque change the snapping causes. Warnings and inertia
    // repairs are not repeated: both robots are compared before tolerate_inertia.
    Snapper reference;
    Importer plain(source, reference);
    const std::vector<Body> plain_bodies = plain.bodies(*model, options);
    const Robot verbatim = to_robot(plain_bodies, model->getName(), source, reference);
    double change = std::numeric_limits<double>::infinity();  // a verbatim robot without finite torques
    try {
      change = torque_change(snapped_raw, verbatim);
    } catch (const Error&) {
    }
    const std::string what =
        fmt::format("{} value{} written with finite precision snapped to exact ones (multiples of pi/2, zeros; "
                    "largest change {:.3g} rad, {:.3g} m, {:.3g} relative)", snap.count, snap.count == 1 ? "" : "s",
                    snap.max_rad, snap.max_m, snap.max_rel);
    if (!(change <= kSnapTorque)) {
      throw Error(detail::one_line(fmt::format(
          "{}: {}: the torques change by {:.3g} relative on {} random states, more than {:.0e}: not rounded exact "
          "values; --urdf-verbatim keeps the file's values", source, what, change, kSnapStates, kSnapTorque)));
    }
    const std::string message = detail::one_line(fmt::format(
        "{}: {}; largest relative torque change {:.3g} on {} random states; --urdf-verbatim keeps the file's values",
        source, what, change, kSnapStates));
    if (options.warn) {
      options.warn(message);
    } else {
      std::fprintf(stderr, "neaccel: warning: %s\n", message.c_str());
    }
  }
  return r;
}

Robot robot_from_urdf(const std::string& xml, const std::string& source) {
  return robot_from_urdf(xml, source, urdf_options());
}

Robot robot_from_urdf_file(const std::string& path) { return robot_from_urdf(detail::read_text_file(path), path); }

}  // namespace neaccel::ref
