// Base inertial parameters (seed 003 section 9.4) and the graph traced in them.
#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/khalil_ne.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

namespace neaccel::dfg {
namespace {

std::map<std::string, double> grouped(const BaseParameters& bp, const std::string& name) {
  for (const BaseParameter& b : bp.base)
    if (b.name == name) {
      std::map<std::string, double> m(b.grouped.begin(), b.grouped.end());
      m[b.standard] = 1.0;
      return m;
    }
  ADD_FAILURE() << "no base parameter " << name;
  return {};
}

// Seed 003 Tables 9.3 and 9.4: 40 base parameters for the RX-90 with general inertia, 19 with the simplified zero
// pattern of Example 9.3 (rotor inertias counted).
TEST(BaseParams, RankMatchesSeed003ForTheRx90) {
  EXPECT_EQ(base_parameters(ref::load_robot("rx90")).rank, 40);
  EXPECT_EQ(base_parameters(ref::load_robot("rx90-simplified")).rank, 19);
}

// Seed 003 Example 9.2 relations with D3 = RL4 = 0.45 m (values typed from the paper's symbolic relations).
TEST(BaseParams, GroupingRelationsOfExample92) {
  const BaseParameters bp = base_parameters(ref::load_robot("rx90"));
  const double D3 = 0.45, RL4 = 0.45;
  const std::map<std::string, double> zzr1{{"ZZ1", 1}, {"Ia1", 1}, {"YY2", 1}, {"YY3", 1}, {"M3", D3 * D3},
                                           {"M4", D3 * D3}, {"M5", D3 * D3}, {"M6", D3 * D3}};
  const std::map<std::string, double> mxr2{{"MX2", 1}, {"M3", D3}, {"M4", D3}, {"M5", D3}, {"M6", D3}};
  const std::map<std::string, double> zzr3{{"ZZ3", 1}, {"YY4", 1}, {"MZ4", 2 * RL4}, {"M4", RL4 * RL4},
                                           {"M5", RL4 * RL4}, {"M6", RL4 * RL4}};
  const std::map<std::string, double> xzr2{{"XZ2", 1}, {"MZ3", -D3}};
  const std::map<std::string, double> xxr6{{"XX6", 1}, {"YY6", -1}};
  for (const auto& [name, expected] : {std::pair{"ZZR1", zzr1}, std::pair{"MXR2", mxr2}, std::pair{"ZZR3", zzr3},
                                       std::pair{"XZR2", xzr2}, std::pair{"XXR6", xxr6}}) {
    const auto got = grouped(bp, name);
    ASSERT_EQ(got.size(), expected.size()) << name;
    for (const auto& [p, c] : expected) EXPECT_NEAR(got.at(p), c, 1e-9) << name << " " << p;
  }
  bool found = false;
  for (const std::string& r : bp.relations) found |= r == "ZZR1 = ZZ1 + Ia1 + YY2 + YY3 + 0.2025 M3 + 0.2025 M4 + 0.2025 M5 + 0.2025 M6";
  EXPECT_TRUE(found);
  // Link 1: only ZZR1 acts (seed 003 Example 9.2, rules 4 and 5).
  for (const char* p : {"XX1", "XY1", "XZ1", "YY1", "YZ1", "MX1", "MY1", "MZ1", "M1"}) {
    bool listed = false;
    for (const std::string& s : bp.no_effect) listed |= s == p;
    for (const BaseParameter& b : bp.base)
      for (const auto& g : b.grouped) listed |= g.first == p;  // or grouped into something without effect
    EXPECT_TRUE(listed) << p;
  }
}

// The base-parameter graph computes the reference torques. Tolerance 1e-10 relative: the regrouped values come
// from a least-squares solve (coefficients exact to ~1e-13) and are summed in a different order than the
// standard-parameter recursion.
TEST(BaseParams, BaseGraphEqualsReferenceAndIsCheaper) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  for (const char* spec : {"rx90", "rx90-simplified", "puma560", "stanford", "planar2", "random:5:4"}) {
    const ref::Robot robot = ref::load_robot(spec);
    const BaseParameters bp = base_parameters(robot);
    const Graph g = customise(trace_base(robot, bp));
    const Graph s = customise(trace(robot, Form::Khalil, Flavour::Custom));
    EXPECT_LE(count_ops(g).mul(), count_ops(s).mul()) << spec;
    EXPECT_LE(count_ops(g).add(), count_ops(s).add()) << spec;
    const int n = robot.dof();
    for (int t = 0; t < 3; ++t) {
      Eigen::VectorXd q(n), qd(n), qdd(n);
      for (int i = 0; i < n; ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
      const auto ref_tau = ref::khalil_ne(ref::model_of(robot), ref::joint_inputs(robot, q, qd, qdd));
      const auto tau = evaluate<double>(g, robot_input_vector(g, robot, q, qd, qdd));
      double scale = 0;
      for (double x : ref_tau) scale = std::max(scale, std::abs(x));
      for (int i = 0; i < n; ++i) EXPECT_NEAR(tau[static_cast<std::size_t>(i)], ref_tau[static_cast<std::size_t>(i)], 1e-10 * scale) << spec;
    }
  }
}

// Seed 003 Table 9.6, simplified RX-90 in base parameters: 160 mul, 113 add. We must not do worse.
TEST(BaseParams, SimplifiedRx90MeetsTable96) {
  const ref::Robot robot = ref::load_robot("rx90-simplified");
  const OpCounts k = count_ops(customise(trace_base(robot, base_parameters(robot))));
  EXPECT_LE(k.mul(), 160);
  EXPECT_LE(k.add(), 113);
}

TEST(BaseParams, RejectsExternalWrench) {
  ref::Robot robot = ref::load_robot("planar2");
  robot.f_e = Eigen::Vector3d(1, 0, 0);
  EXPECT_THROW(base_parameters(robot), Error);
}

}  // namespace
}  // namespace neaccel::dfg
