// random_robot(): seeded random arms and trees (io.hpp). Portable: std::mt19937_64 is fully specified by the
// standard; the distributions below are our own (std::uniform_real_distribution differs between libraries).
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

#include <Eigen/Geometry>

#include <cmath>
#include <random>

namespace neaccel::ref {
namespace {

constexpr double kPi = 3.14159265358979323846;

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}
  // Uniform in [0, 1): the top 53 bits of one 64-bit draw, scaled by 2^-53 (exact in double).
  double uniform() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  // Uniform integer in [0, n).
  int below(int n) { return static_cast<int>(uniform() * n); }

 private:
  std::mt19937_64 gen_;
};

// A uniformly distributed rotation (Shoemake's unit quaternion from three uniforms).
Eigen::Matrix3d random_rotation(Rng& rng) {
  const double u1 = rng.uniform();
  const double u2 = rng.uniform();
  const double u3 = rng.uniform();
  const double r1 = std::sqrt(1.0 - u1), r2 = std::sqrt(u1);
  const Eigen::Quaterniond q(r2 * std::cos(2 * kPi * u3), r1 * std::sin(2 * kPi * u2), r1 * std::cos(2 * kPi * u2),
                             r2 * std::sin(2 * kPi * u3));
  return q.normalized().toRotationMatrix();
}

// A physically valid inertia tensor about the centre of mass: principal moments from the second moments
// (x, y, z > 0) of a mass distribution, I1 = y + z, I2 = x + z, I3 = x + y (so I1 + I2 >= I3 strictly),
// rotated by a random rotation R: I = R diag(I1, I2, I3) R^T, symmetrised so that it is exactly symmetric.
Eigen::Matrix3d random_inertia(Rng& rng, double mass) {
  const double x = mass * rng.uniform(0.001, 0.05);
  const double y = mass * rng.uniform(0.001, 0.05);
  const double z = mass * rng.uniform(0.001, 0.05);
  const Eigen::Matrix3d R = random_rotation(rng);
  const Eigen::Matrix3d I = R * Eigen::Vector3d(y + z, x + z, x + y).asDiagonal() * R.transpose();
  return 0.5 * (I + I.transpose());
}

Link random_link(Rng& rng, bool modified_tree) {
  Link L;
  L.joint = rng.uniform() < 0.3 ? JointType::Prismatic : JointType::Revolute;
  L.a = rng.uniform(-0.5, 0.5);
  L.alpha = rng.uniform(-kPi, kPi);
  L.d = rng.uniform(-0.5, 0.5);
  L.theta = rng.uniform(-kPi, kPi);
  if (modified_tree) {
    L.gamma = rng.uniform(-kPi, kPi);
    L.b = rng.uniform(-0.3, 0.3);
  }
  L.mass = rng.uniform(0.5, 5.0);
  for (int k = 0; k < 3; ++k) L.com[k] = rng.uniform(-0.3, 0.3);
  L.inertia = random_inertia(rng, L.mass);
  L.Ia = rng.uniform(0.0, 0.2);
  L.Fv = rng.uniform(0.0, 0.5);
  L.Fc = rng.uniform(0.0, 0.5);
  return L;
}

// Parents of a random tree: link 0 on the base, links 1..3 on the base or link 0 (they are leaves when link 3 is
// added), then any earlier link or the base. Adding a link never lowers the number of leaves (the new link is one,
// its parent may stop being one), so n >= 4 gives at least 3 leaves, i.e. 3 branches.
int tree_parent(Rng& rng, int i) {
  if (i == 0) return -1;
  if (i <= 3) return rng.below(2) - 1;
  return rng.below(i + 1) - 1;
}

// "Mixed R/P": with n >= 2 at least one joint of each type (a random one is switched if needed).
void mix_joints(Rng& rng, std::vector<Link>& links) {
  if (links.size() < 2) return;
  int prismatic = 0;
  for (const Link& L : links) prismatic += L.joint == JointType::Prismatic;
  const int n = static_cast<int>(links.size());
  if (prismatic == 0) links[static_cast<std::size_t>(rng.below(n))].joint = JointType::Prismatic;
  if (prismatic == n) links[static_cast<std::size_t>(rng.below(n))].joint = JointType::Revolute;
}

}  // namespace

Robot random_robot(int n, std::uint64_t seed, bool tree) {
  Robot r;
  r.name = fmt::format("{}:{}:{}", tree ? "randomtree" : "random", n, seed);
  r.source = r.name;
  r.convention = seed % 2 == 1 ? DhConvention::Modified : DhConvention::Standard;
  Rng rng(seed);
  for (int i = 0; i < n; ++i) {
    Link L = random_link(rng, tree && r.convention == DhConvention::Modified);
    L.name = fmt::format("link{}", i + 1);
    L.parent = tree ? tree_parent(rng, i) : i - 1;
    r.links.push_back(L);
  }
  mix_joints(rng, r.links);
  return r;
}

}  // namespace neaccel::ref
