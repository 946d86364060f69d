// random:N:SEED and randomtree:N:SEED: reproducible, valid, mixed joints, full inertia, trees with >= 3 branches.
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

#include <set>

using namespace neaccel::ref;

namespace {
int leaves(const Robot& r) {
  std::vector<int> children(r.links.size(), 0);
  for (const Link& L : r.links) {
    if (L.parent >= 0) ++children[static_cast<std::size_t>(L.parent)];
  }
  int n = 0;
  for (int c : children) n += c == 0;
  return n;
}
}  // namespace

TEST(Random, ReproducibleAndValidForN1To12) {
  for (const char* kind : {"random", "randomtree"}) {
    for (int n = 1; n <= 12; ++n) {
      for (int seed : {1, 2, 17, 42}) {
        const std::string spec = fmt::format("{}:{}:{}", kind, n, seed);
        SCOPED_TRACE(spec);
        const Robot a = load_robot(spec);  // load_robot validates
        const Robot b = load_robot(spec);
        ASSERT_EQ(a.dof(), n);
        EXPECT_EQ(to_yaml(a), to_yaml(b));
        EXPECT_EQ(a.convention, seed % 2 ? DhConvention::Modified : DhConvention::Standard);
        for (const Link& L : a.links) {
          // Independent physical checks (not validate()): positive mass, PD inertia, strict triangle inequality.
          EXPECT_GT(L.mass, 0.0);
          EXPECT_NE(L.com.norm(), 0.0);
          EXPECT_EQ(L.inertia, L.inertia.transpose());
          const Eigen::Vector3d p = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(L.inertia).eigenvalues();
          EXPECT_GT(p[0], 0.0);
          EXPECT_GT(p[0] + p[1], p[2]);
          EXPECT_NE(L.inertia(0, 1), 0.0);  // a rotated tensor: full, not diagonal
        }
      }
    }
  }
}

TEST(Random, SeedsDifferAndJointsAreMixed) {
  EXPECT_NE(to_yaml(load_robot("random:6:1")), to_yaml(load_robot("random:6:3")));
  for (int seed = 0; seed < 20; ++seed) {
    const Robot r = load_robot(fmt::format("random:{}:{}", 2 + seed % 11, seed));
    std::set<JointType> types;
    for (const Link& L : r.links) types.insert(L.joint);
    EXPECT_EQ(types.size(), 2u) << seed;
  }
}

TEST(Random, ChainsAreChainsTreesHaveThreeBranches) {
  for (int seed = 0; seed < 20; ++seed) {
    const Robot chain = load_robot(fmt::format("random:8:{}", seed));
    for (int i = 0; i < 8; ++i) EXPECT_EQ(chain.links[static_cast<std::size_t>(i)].parent, i - 1);
    EXPECT_EQ(leaves(chain), 1);
    for (int n = 4; n <= 12; ++n) {
      const Robot tree = load_robot(fmt::format("randomtree:{}:{}", n, seed));
      EXPECT_GE(leaves(tree), 3) << n << " " << seed;
    }
  }
}

TEST(Random, ModifiedTreesUseGammaAndB) {
  const Robot r = load_robot("randomtree:6:7");
  ASSERT_EQ(r.convention, DhConvention::Modified);
  for (const Link& L : r.links) {
    EXPECT_NE(L.gamma, 0.0);
    EXPECT_NE(L.b, 0.0);
  }
}

TEST(Random, BadSpecsAreErrors) {
  for (const char* spec : {"random:0:1", "random:x:1", "random:3", "random:3:-1", "random:3:1:2", "randomtree::1",
                           "random:1001:1", "random:3:99999999999999999999999"}) {
    SCOPED_TRACE(spec);
    try {
      load_robot(spec);
      ADD_FAILURE() << "no error";
    } catch (const neaccel::Error& e) {
      EXPECT_NE(std::string(e.what()).find("random:N:SEED"), std::string::npos) << e.what();
    }
  }
}
