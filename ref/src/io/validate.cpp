// validate(): every field of a Robot, one-line errors naming source and field (io.hpp).
#include "io_detail.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include <cmath>
#include <set>

namespace neaccel::ref {
namespace detail {
namespace {

class Checker {
 public:
  Checker(const Robot& robot, const Locate& locate) : robot_(robot), locate_(locate) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    std::string where = locate_ ? locate_(field) : std::string();
    if (where.empty()) where = robot_.source.empty() ? std::string("robot") : robot_.source;
    throw Error(one_line(fmt::format("{}: {}: {}", where, field, what)));
  }

  void finite(const std::string& field, double v) const {
    if (!std::isfinite(v)) fail(field, fmt::format("must be finite (got {})", v));
  }
  void nonnegative(const std::string& field, double v) const {
    if (!std::isfinite(v) || v < 0) fail(field, fmt::format("must be finite and >= 0 (got {})", v));
  }
  void finite3(const std::string& field, const Eigen::Vector3d& v) const {
    for (int k = 0; k < 3; ++k) {
      if (!std::isfinite(v[k])) fail(fmt::format("{}[{}]", field, k), fmt::format("must be finite (got {})", v[k]));
    }
  }

  // Inertia about the centre of mass: finite, symmetric, positive semi-definite and (optionally) principal moments
  // satisfying the triangle inequality I1 + I2 >= I3. Tolerance: 1e-9 relative to the trace. The eigenvalue
  // solver's error is a few ulps of |I| (~1e-15 relative) and decimal inputs like 0.1 + 0.2 vs 0.3 differ by ~1e-16
  // relative, so 1e-9 never rejects a valid tensor written with 10+ significant digits, while any physically
  // meaningful violation (a published typo, a sign error) is many orders of magnitude larger.
  void inertia(const std::string& field, const Eigen::Matrix3d& I, bool triangle) const {
    static const char* names[3][3] = {{"xx", "xy", "xz"}, {"xy", "yy", "yz"}, {"xz", "yz", "zz"}};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(I(r, c))) {
          fail(fmt::format("{}.{}", field, names[r][c]), fmt::format("must be finite (got {})", I(r, c)));
        }
      }
    }
    const double scale = I.cwiseAbs().maxCoeff();
    const double tol = 1e-9 * scale;
    if ((I - I.transpose()).cwiseAbs().maxCoeff() > tol) {
      fail(field, fmt::format("must be symmetric (got xy {} / yx {}, xz {} / zx {}, yz {} / zy {})", I(0, 1), I(1, 0),
                              I(0, 2), I(2, 0), I(1, 2), I(2, 1)));
    }
    const Eigen::Vector3d p = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(I, Eigen::EigenvaluesOnly).eigenvalues();
    if (p.minCoeff() < -tol) {
      fail(field, fmt::format("must be positive semi-definite (principal moments {}, {}, {})", p[0], p[1], p[2]));
    }
    // p is sorted ascending: the only inequality that can fail is p0 + p1 >= p2.
    if (triangle && p[0] + p[1] < p[2] - tol) {
      fail(field, fmt::format("principal moments {}, {}, {} violate the triangle inequality {} + {} >= {} "
                              "(set triangle_inequality: false for a published lumped inertia)",
                              p[0], p[1], p[2], p[0], p[1], p[2]));
    }
  }

  // A placed joint (robot.hpp Placement): a finite rotation matrix (orthonormal to 1e-9, determinant +1) and
  // translation, modified DH, and no DH values beside it.
  void placement(const std::string& f, const Link& L) const {
    const Placement& P = *L.placement;
    if (robot_.convention != DhConvention::Modified) fail(f + ".origin", "a joint placement needs dh: modified");
    for (const auto& [name, v] : {std::pair<const char*, double>{"a", L.a}, {"alpha", L.alpha}, {"d", L.d},
                                  {"theta", L.theta}, {"gamma", L.gamma}, {"b", L.b}}) {
      if (v != 0) fail(f + "." + name, "must be 0 with a joint placement (origin)");
    }
    finite3(f + ".origin.xyz", P.p);
    if (!P.R.allFinite()) fail(f + ".origin.rotation", "must be finite");
    const double off = (P.R.transpose() * P.R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff();
    if (off > 1e-9 || P.R.determinant() < 0) {
      fail(f + ".origin.rotation", fmt::format("must be a rotation matrix (R^T R - 1 off by {:.3g}, determinant {:.6g})",
                                               off, P.R.determinant()));
    }
  }

  void link(std::size_t i) const {
    const Link& L = robot_.links[i];
    const std::string f = fmt::format("links[{}]", i);
    const int n = static_cast<int>(i);
    if (L.parent < -1 || L.parent >= n) {
      fail(f + ".parent", fmt::format("must be -1 (base) or an earlier link 0..{} (got {})", n - 1, L.parent));
    }
    if (L.joint != JointType::Revolute && L.joint != JointType::Prismatic) {
      fail(f + ".joint", fmt::format("unknown joint type (got {})", static_cast<int>(L.joint)));
    }
    finite(f + ".a", L.a);
    finite(f + ".alpha", L.alpha);
    finite(f + ".d", L.d);
    finite(f + ".theta", L.theta);
    finite(f + ".gamma", L.gamma);
    finite(f + ".b", L.b);
    if (robot_.convention == DhConvention::Standard && (L.gamma != 0 || L.b != 0)) {
      fail(f + (L.gamma != 0 ? ".gamma" : ".b"), "only allowed with dh: modified");
    }
    if (L.placement) placement(f, L);
    nonnegative(f + ".mass", L.mass);
    finite3(f + ".com", L.com);
    inertia(f + ".inertia", L.inertia, L.triangle_inequality);
    nonnegative(f + ".Ia", L.Ia);
    nonnegative(f + ".Fv", L.Fv);
    nonnegative(f + ".Fc", L.Fc);
    if (L.mimic) mimic(f + ".mimic", i, *L.mimic);
  }

  // A mimic joint (robot.hpp Mimic): follows another link's joint, which has a coordinate of its own (no chains, so
  // no cycles), of the same type (the units of q match), with a finite non-zero multiplier and a finite offset; a
  // revolute one with multiplier +-1 (its sine and cosine are formed from the followed joint's by the angle sum).
  void mimic(const std::string& f, std::size_t i, const Mimic& M) const {
    const int n = static_cast<int>(robot_.links.size());
    if (M.link < 0 || M.link >= n || M.link == static_cast<int>(i))
      fail(f + ".link", fmt::format("must be another link 0..{} (got {})", n - 1, M.link));
    const Link& F = robot_.links[static_cast<std::size_t>(M.link)];
    if (F.mimic)
      fail(f + ".link", fmt::format("follows link '{}', itself a mimic joint (a mimic of a mimic is not supported: "
                                    "follow the joint that one follows)", F.name));
    if (F.joint != robot_.links[i].joint)
      fail(f + ".link", fmt::format("a {} joint cannot follow the {} joint of link '{}' (the units of q differ)",
                                    robot_.links[i].joint == JointType::Revolute ? "revolute" : "prismatic",
                                    F.joint == JointType::Revolute ? "revolute" : "prismatic", F.name));
    if (!std::isfinite(M.multiplier) || M.multiplier == 0)
      fail(f + ".multiplier", fmt::format("must be finite and non-zero (got {})", M.multiplier));
    finite(f + ".offset", M.offset);
    if (robot_.links[i].joint == JointType::Revolute && std::abs(M.multiplier) != 1.0)
      fail(f + ".multiplier", fmt::format("a revolute mimic joint must have multiplier 1 or -1 (got {}): its sine and "
                                          "cosine are formed from the followed joint's", M.multiplier));
  }

  void run() const {
    if (robot_.convention != DhConvention::Standard && robot_.convention != DhConvention::Modified) {
      fail("dh", fmt::format("unknown DH convention (got {})", static_cast<int>(robot_.convention)));
    }
    if (robot_.links.empty()) fail("links", "robot has no links");
    std::set<std::string> names;
    for (std::size_t i = 0; i < robot_.links.size(); ++i) {
      link(i);
      const std::string& name = robot_.links[i].name;
      if (!name.empty() && !names.insert(name).second) {
        fail(fmt::format("links[{}].name", i), fmt::format("duplicate link name '{}'", name));
      }
    }
    finite3("gravity", robot_.gravity);
    finite3("external_wrench.force", robot_.f_e);
    finite3("external_wrench.moment", robot_.n_e);
    if (robot_.payload) payload(*robot_.payload);
  }

  void payload(const RigidLoad& P) const {
    const int n = static_cast<int>(robot_.links.size());
    if (P.link < -1 || P.link >= n) {
      fail("payload.link", fmt::format("must be -1 (last link) or a link 0..{} (got {})", n - 1, P.link));
    }
    nonnegative("payload.mass", P.mass);
    finite3("payload.com", P.com);
    inertia("payload.inertia", P.inertia, true);
  }

 private:
  const Robot& robot_;
  const Locate& locate_;
};

}  // namespace

void validate_located(const Robot& robot, const Locate& locate) { Checker(robot, locate).run(); }

std::string one_line(std::string message) {
  for (char& c : message) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return message;
}

}  // namespace detail

void validate(const Robot& robot) { detail::validate_located(robot, nullptr); }

}  // namespace neaccel::ref
