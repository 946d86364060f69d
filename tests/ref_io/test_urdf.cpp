// URDF import: an RX-90 URDF against the published DH table's kinematics, a planar arm with fixed joints and
// off-axis frames, and a tree with every geometric case checked by forward kinematics against the URDF itself
// (independent of the frames the import chooses).
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Geometry>

#include <cmath>
#include <functional>
#include <map>
#include <random>
#include <utility>

using namespace neaccel::ref;

namespace {

const std::string kData = NEACCEL_REF_IO_DATA;

// Geometry goes through rpy -> quaternion -> matrix (~1e-16) and a few dot/cross products: 1e-12 absolute on
// O(1) lengths, angles and inertias is ~1e4 ulps of margin while any wrong frame choice is off by >= 1e-3.
constexpr double kTol = 1e-12;

// URDF rpy convention: R = Rz(yaw) Ry(pitch) Rx(roll).
Eigen::Matrix3d rpy(double r, double p, double y) {
  return (Eigen::AngleAxisd(y, Eigen::Vector3d::UnitZ()) * Eigen::AngleAxisd(p, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(r, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

void expect_near(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, double tol, const std::string& what) {
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), tol) << what << "\n" << a << "\nvs\n" << b;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const neaccel::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

// Pose of every link at q (ref's link_poses), as isometries.
std::vector<Eigen::Isometry3d> poses(const Robot& r, const Eigen::VectorXd& q) {
  std::vector<Eigen::Isometry3d> T;
  for (const Eigen::Matrix4d& M : link_poses(r, q)) T.emplace_back(M);
  return T;
}

TEST(Urdf, Rx90MatchesTheModifiedDhTable) {
  const Robot u = load_robot(kData + "/rx90.urdf");
  const Robot ref = load_robot("rx90");  // the published table (data/robots/rx90.yaml)
  ASSERT_EQ(u.dof(), 6);
  EXPECT_EQ(u.convention, DhConvention::Modified);
  EXPECT_EQ(u.name, "rx90_urdf");
  // Every joint axis of the import is the table's axis line, at the zero pose and at a turned one.
  for (const Eigen::VectorXd& q : {Eigen::VectorXd(Eigen::VectorXd::Zero(6)),
                                   Eigen::VectorXd((Eigen::VectorXd(6) << 0.3, -0.7, 1.1, 0.5, -0.9, 2.0).finished())}) {
    const auto Tu = poses(u, q), Tr = poses(ref, q);
    for (std::size_t j = 0; j < 6; ++j) {
      SCOPED_TRACE(j + 1);
      EXPECT_EQ(u.links[j].parent, static_cast<int>(j) - 1);
      EXPECT_EQ(u.links[j].joint, JointType::Revolute);
      ASSERT_TRUE(u.links[j].placement.has_value());
      const Eigen::Vector3d z = Tr[j].linear().col(2);
      expect_near(Tu[j].linear().col(2), z, kTol, "axis direction");
      const Eigen::Vector3d w = Tu[j].translation() - Tr[j].translation();
      expect_near(w - w.dot(z) * z, Eigen::Vector3d::Zero(), kTol, "origin on the axis line");
    }
  }
  // The URDF frames are the DH frames, so the inertials in the root frame are the written ones placed by the table:
  // com = origin xyz, inertia = R(rpy) diag(ixx, iyy, izz) R(rpy)^T (values from tests/ref_io/data/rx90.urdf).
  const auto Tu = poses(u, Eigen::VectorXd::Zero(6)), Tr = poses(ref, Eigen::VectorXd::Zero(6));
  const auto world_inertia = [](const Eigen::Isometry3d& T, const Eigen::Matrix3d& I) {
    return Eigen::Matrix3d(T.linear() * I * T.linear().transpose());
  };
  EXPECT_EQ(u.links[0].mass, 8.0);
  expect_near(Tu[0] * u.links[0].com, Tr[0] * Eigen::Vector3d(0.01, -0.02, 0.125), kTol, "com 1");
  const Eigen::Matrix3d R1 = rpy(0.1, 0.2, 0.3);
  expect_near(world_inertia(Tu[0], u.links[0].inertia),
              world_inertia(Tr[0], R1 * Eigen::Vector3d(0.5, 0.45, 0.25).asDiagonal() * R1.transpose()), kTol, "I 1");
  const Eigen::Matrix3d R3 = rpy(0.3, -0.2, 0.1);
  expect_near(world_inertia(Tu[2], u.links[2].inertia),
              world_inertia(Tr[2], R3 * Eigen::Vector3d(0.12, 0.05, 0.11).asDiagonal() * R3.transpose()), kTol, "I 3");
  expect_near(world_inertia(Tu[1], u.links[1].inertia),
              world_inertia(Tr[1], Eigen::Vector3d(0.15, 0.9, 0.85).asDiagonal().toDenseMatrix()), kTol, "I 2");
}

TEST(Urdf, FixedJointsMergeIntoTheirBody) {
  const Robot r = load_robot(kData + "/planar_fixed.urdf");
  ASSERT_EQ(r.dof(), 2);  // world-base_link and tool joints are fixed: only j1, j2 move
  EXPECT_EQ(r.links[0].name, "link1");
  EXPECT_EQ(r.links[1].name, "link2");
  const auto T = poses(r, Eigen::VectorXd::Zero(2));
  // Both axes along the root's z, through (0, 0) and (1, 0).
  for (std::size_t j = 0; j < 2; ++j) {
    expect_near(T[j].linear().col(2), Eigen::Vector3d::UnitZ(), kTol, "axis " + std::to_string(j + 1));
    expect_near(T[j].translation().head<2>(), Eigen::Vector2d(j == 0 ? 0.0 : 1.0, 0.0), kTol,
                "axis line " + std::to_string(j + 1));
  }
  // Link 1: URDF frame at height 0.1 + 0.2 above the root; base_link's 5 kg is on the fixed base (dropped).
  const auto world_inertia = [&](std::size_t j) {
    return Eigen::Matrix3d(T[j].linear() * r.links[j].inertia * T[j].linear().transpose());
  };
  EXPECT_EQ(r.links[0].mass, 2.0);
  expect_near(T[0] * r.links[0].com, Eigen::Vector3d(0.5, 0, 0.3), kTol, "com 1");
  expect_near(world_inertia(0), Eigen::Vector3d(0.01, 0.1, 0.1).asDiagonal().toDenseMatrix(), kTol, "I 1");
  // Link 2 + tool (fixed at (0.8, 0, 0), yaw 0.3): link2's frame is at (1, 0, 0.35), yawed 0.4.
  const Eigen::Matrix3d R2 = rpy(0, 0, 0.4);
  const Eigen::Vector3d o2(1.0, 0, 0.35);
  const Eigen::Vector3d p2 = R2 * Eigen::Vector3d(0.4, 0, 0) + o2;
  const Eigen::Vector3d pt = R2 * Eigen::Vector3d(0.8, 0, 0) + o2;
  const Eigen::Vector3d c = (1.5 * p2 + 0.5 * pt) / 2.0;
  auto shift = [](double m, const Eigen::Vector3d& d) {
    return Eigen::Matrix3d(m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose()));
  };
  const Eigen::Matrix3d Rt = R2 * rpy(0, 0, 0.3);
  const Eigen::Matrix3d I2 = R2 * Eigen::Vector3d(0.005, 0.05, 0.05).asDiagonal() * R2.transpose();
  const Eigen::Matrix3d It = Rt * Eigen::Vector3d(0.001, 0.002, 0.002).asDiagonal() * Rt.transpose();
  const Eigen::Matrix3d I = I2 + shift(1.5, p2 - c) + It + shift(0.5, pt - c);
  EXPECT_NEAR(r.links[1].mass, 2.0, kTol);
  expect_near(T[1] * r.links[1].com, c, kTol, "com 2");
  expect_near(world_inertia(1), I, kTol, "I 2");
}

namespace {

// Mass properties in the root frame: mass, first moment m c, inertia about the root origin.
struct WorldMass {
  double m = 0;
  Eigen::Vector3d mc = Eigen::Vector3d::Zero();
  Eigen::Matrix3d J = Eigen::Matrix3d::Zero();
  void add(double mass, const Eigen::Vector3d& c, const Eigen::Matrix3d& Ic) {
    m += mass;
    mc += mass * c;
    J += Ic + mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
  }
};

Eigen::Isometry3d iso(const urdf::Pose& p) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = Eigen::Quaterniond(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).toRotationMatrix();
  T.translation() << p.position.x, p.position.y, p.position.z;
  return T;
}

// URDF forward kinematics at joint values q (by child link name): each movable link's mass properties and joint axis
// (point, direction) in the root frame, fixed links added to the movable link they hang from.
struct UrdfFk {
  std::map<std::string, double> q;
  std::map<std::string, WorldMass> mass;  // by the movable link's name
  std::map<std::string, std::pair<Eigen::Vector3d, Eigen::Vector3d>> axis;

  void walk(const urdf::Link& link, const std::string& body, const Eigen::Isometry3d& T) {
    if (link.inertial && !body.empty()) {
      const Eigen::Isometry3d Tc = T * iso(link.inertial->origin);
      const auto& in = *link.inertial;
      Eigen::Matrix3d I;
      I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      mass[body].add(in.mass, Tc.translation(), Tc.linear() * I * Tc.linear().transpose());
    }
    for (const auto& j : link.child_joints) {
      const urdf::Link* child = nullptr;
      for (const auto& c : link.child_links) {
        if (c->name == j->child_link_name) child = c.get();
      }
      Eigen::Isometry3d Tj = T * iso(j->parent_to_joint_origin_transform);
      if (j->type == urdf::Joint::FIXED) {
        walk(*child, body, Tj);
        continue;
      }
      const Eigen::Vector3d u = Eigen::Vector3d(j->axis.x, j->axis.y, j->axis.z).normalized();
      axis[child->name] = {Tj.translation(), Tj.linear() * u};
      const double v = q.at(child->name);
      Eigen::Isometry3d M = Eigen::Isometry3d::Identity();
      if (j->type == urdf::Joint::PRISMATIC) {
        M.translation() = v * u;
      } else {
        M.linear() = Eigen::AngleAxisd(v, u).toRotationMatrix();
      }
      walk(*child, child->name, Tj * M);
    }
  }
};

}  // namespace

TEST(Urdf, TreeMatchesUrdfForwardKinematics) {
  const std::string path = kData + "/messy_tree.urdf";
  const Robot r = load_robot(path);
  ASSERT_EQ(r.dof(), 7);  // j1..j7; f1 is fixed
  EXPECT_EQ(r.convention, DhConvention::Modified);
  const auto model = urdf::parseURDFFile(path);
  ASSERT_TRUE(model);
  std::mt19937_64 gen(7);
  for (int trial = 0; trial < 5; ++trial) {
    UrdfFk fk;
    Eigen::VectorXd q(r.dof());
    for (int j = 0; j < r.dof(); ++j) {
      q[j] = trial == 0 ? 0.0 : static_cast<double>(gen() % 2001) / 1000.0 - 1.0;  // [-1, 1]
      fk.q[r.links[static_cast<std::size_t>(j)].name] = q[j];
    }
    fk.walk(*model->getRoot(), "", Eigen::Isometry3d::Identity());
    const std::vector<Eigen::Isometry3d> T = poses(r, q);
    for (std::size_t j = 0; j < r.links.size(); ++j) {
      const Link& L = r.links[j];
      SCOPED_TRACE(L.name + " trial " + std::to_string(trial));
      // Joint axis: z_j through frame j's origin is the URDF axis line (same direction, same sign of q).
      const auto& [point, dir] = fk.axis.at(L.name);
      const Eigen::Vector3d z = T[j].linear().col(2);
      expect_near(z, dir, 1e-10, "axis direction");
      const Eigen::Vector3d w = T[j].translation() - point;
      expect_near(w - w.dot(dir) * dir, Eigen::Vector3d::Zero(), 1e-10, "origin on the axis line");
      // Mass properties in the root frame.
      WorldMass dm;
      dm.add(L.mass, T[j] * L.com, T[j].linear() * L.inertia * T[j].linear().transpose());
      const WorldMass& um = fk.mass.at(L.name);
      EXPECT_NEAR(dm.m, um.m, 1e-12);
      expect_near(dm.mc, um.mc, 1e-10, "first moment");
      expect_near(dm.J, um.J, 1e-10, "inertia about the root origin");
    }
  }
  // Structure: l1 has three children (j2, j4, j6 in name order); every joint is placed.
  EXPECT_EQ(r.links[1].parent, 0);
  EXPECT_EQ(r.links[4].parent, 0);
  EXPECT_EQ(r.links[6].parent, 0);
  EXPECT_EQ(r.links[1].joint, JointType::Prismatic);
  for (const Link& L : r.links) EXPECT_TRUE(L.placement.has_value()) << L.name;
}

// End to end: the imported tree's gravity torques (ref/ dynamics, every Newton-Euler form) equal dV/dq, with the
// potential energy V(q) = -sum m g . c computed from the URDF alone. Central differences with h = 1e-5: truncation
// h^2/6 |V'''| ~ 2e-9 (|V'''| < 100 here), rounding ~ eps |V| / h ~ 1e-10; tolerance 1e-6 N m on torques of ~10 N m.
TEST(Urdf, GravityTorquesEqualUrdfPotentialGradient) {
  const std::string path = kData + "/messy_tree.urdf";
  const Robot r = load_robot(path);
  const auto model = urdf::parseURDFFile(path);
  ASSERT_TRUE(model);
  auto potential = [&](const Eigen::VectorXd& q) {
    UrdfFk fk;
    for (int j = 0; j < r.dof(); ++j) fk.q[r.links[static_cast<std::size_t>(j)].name] = q[j];
    fk.walk(*model->getRoot(), "", Eigen::Isometry3d::Identity());
    double V = 0;
    for (const auto& [name, m] : fk.mass) V -= r.gravity.dot(m.mc);
    return V;
  };
  std::mt19937_64 gen(11);
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd q(r.dof());
    for (int j = 0; j < r.dof(); ++j) q[j] = static_cast<double>(gen() % 2001) / 1000.0 - 1.0;
    Eigen::VectorXd grad(r.dof());
    const double h = 1e-5;
    for (int j = 0; j < r.dof(); ++j) {
      Eigen::VectorXd qp = q, qm = q;
      qp[j] += h;
      qm[j] -= h;
      grad[j] = (potential(qp) - potential(qm)) / (2 * h);
    }
    for (Form form : all_forms()) {
      expect_near(gravity_torque(r, q, form), grad, 1e-6, "gravity torque, form " + form_name(form));
    }
  }
}

TEST(Urdf, RoundTripsThroughYaml) {
  const Robot r = load_robot(kData + "/messy_tree.urdf");
  const Robot back = robot_from_yaml(to_yaml(r), "back.yaml");
  EXPECT_EQ(to_yaml(back), to_yaml(r));
}

TEST(UrdfBad, Errors) {
  EXPECT_NE(error_of([] { robot_from_urdf("<robot name='x'><link name='a'/>", "t.urdf"); })
                .find("t.urdf: not a valid URDF"),
            std::string::npos);
  EXPECT_NE(error_of([] { robot_from_urdf("not xml at all", "t.urdf"); }).find("t.urdf: not a valid URDF"),
            std::string::npos);
  const std::string floating = R"(<robot name="f"><link name="a"/><link name="b"/>
    <joint name="free" type="floating"><parent link="a"/><child link="b"/></joint></robot>)";
  EXPECT_NE(error_of([&] { robot_from_urdf(floating, "f.urdf"); })
                .find("f.urdf: joint 'free': unsupported joint type"),
            std::string::npos)
      << error_of([&] { robot_from_urdf(floating, "f.urdf"); });
  const std::string fixed_only = R"(<robot name="g"><link name="a"/><link name="b"/>
    <joint name="weld" type="fixed"><parent link="a"/><child link="b"/></joint></robot>)";
  EXPECT_NE(error_of([&] { robot_from_urdf(fixed_only, "g.urdf"); }).find("g.urdf: links: robot has no links"),
            std::string::npos);
  const std::string negative = R"(<robot name="n"><link name="a"/><link name="b"><inertial><mass value="-2"/>
    <inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
    <joint name="j" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/></joint></robot>)";
  EXPECT_NE(error_of([&] { robot_from_urdf(negative, "n.urdf"); }).find("n.urdf: link 'b': inertial mass"),
            std::string::npos)
      << error_of([&] { robot_from_urdf(negative, "n.urdf"); });
  // Text that is not well-formed UTF-8 is refused before urdfdom sees it: TinyXML 2.6 read past the end of a text
  // ending in a cut-short sequence (found by fuzzing). Each case names the line and the byte.
  const std::string cut = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<robot name=\"r\">\xf4";
  EXPECT_EQ(error_of([&] { robot_from_urdf(cut, "u.urdf"); }),
            "u.urdf:2: byte 56 (0xF4) is not well-formed UTF-8");
  // An overlong form, a surrogate, a code point above U+10FFFF, a bad continuation byte, a lone continuation byte and
  // a byte that never occurs in UTF-8, each at byte 14.
  const std::pair<std::string, std::string> bad_cases[] = {{"\xc0\x80", "C0"}, {"\xed\xa0\x80", "ED"},
                                                           {"\xf4\x90\x80\x80", "F4"}, {"\xe2\x28\xa1", "E2"},
                                                           {"\x80", "80"}, {"\xff", "FF"}};
  for (const auto& [bad, hex] : bad_cases) {
    EXPECT_EQ(error_of([&] { robot_from_urdf("<robot name=\"" + bad + "\"/>", "u.urdf"); }),
              "u.urdf:1: byte 14 (0x" + hex + ") is not well-formed UTF-8");
  }
  EXPECT_EQ(error_of([] { robot_from_urdf(std::string("<robot name=\"a\0b\"/>", 19), "u.urdf"); }),
            "u.urdf:1: byte 15 (0x00) is a NUL, not an XML character");
  // Well-formed multi-byte text (2, 3 and 4 bytes) passes the check and reaches urdfdom.
  const std::string accented = "<robot name=\"\xc3\xa9\xe2\x82\xac\xf0\x9f\xa6\xbe\"><link name=\"a\"/>";
  EXPECT_NE(error_of([&] { robot_from_urdf(accented, "u.urdf"); }).find("u.urdf: not a valid URDF"),
            std::string::npos);
  EXPECT_NE(error_of([] { load_robot("/nonexistent/x.urdf"); }).find("/nonexistent/x.urdf: cannot read file"),
            std::string::npos);
}
