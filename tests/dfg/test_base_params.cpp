// Base inertial parameters (seed 003 section 9.4) and the graph traced in them.
#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/khalil_ne.hpp"

#include <gtest/gtest.h>

#include <cstdio>
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

// The base-parameter graph computes the reference torques at a random state. Tolerance 1e-10 of the largest torque:
// the regrouped values come from a least-squares solve (coefficients exact to ~1e-13) and are summed in a different
// order than the standard-parameter recursion.
void expect_reference_torques(const Graph& g, const ref::Robot& robot, std::mt19937& rng, const std::string& what) {
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  const int n = robot.dof();
  Eigen::VectorXd q(n), qd(n), qdd(n);
  for (int i = 0; i < n; ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
  const auto ref_tau = ref::khalil_ne(ref::model_of(robot), ref::joint_inputs(robot, q, qd, qdd));
  const auto tau = evaluate<double>(g, robot_input_vector(g, robot, q, qd, qdd));
  double scale = 0;
  for (double x : ref_tau) scale = std::max(scale, std::abs(x));
  for (int i = 0; i < n; ++i)
    EXPECT_NEAR(tau[static_cast<std::size_t>(i)], ref_tau[static_cast<std::size_t>(i)], 1e-10 * scale) << what;
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

// The base-parameter graph computes the reference torques (expect_reference_torques) and is no costlier.
TEST(BaseParams, BaseGraphEqualsReferenceAndIsCheaper) {
  std::mt19937 rng(3);
  for (const char* spec : {"rx90", "rx90-simplified", "puma560", "stanford", "planar2", "random:5:4"}) {
    const ref::Robot robot = ref::load_robot(spec);
    const BaseParameters bp = base_parameters(robot);
    for (Form form : {Form::Khalil, Form::KhalilK, Form::KhalilMix}) {
    const Graph g = customise(trace_base(robot, bp, form));
    const Graph s = customise(trace(robot, form, Flavour::Custom));
    EXPECT_LE(count_ops(g).mul(), count_ops(s).mul()) << spec;
    EXPECT_LE(count_ops(g).add(), count_ops(s).add()) << spec;
    for (int t = 0; t < 3; ++t) expect_reference_torques(g, robot, rng, spec);
    }
  }
  EXPECT_THROW(trace_base(ref::load_robot("planar2"), base_parameters(ref::load_robot("planar2")), Form::NE), Error);
}

// Seed 003 Table 9.6, simplified RX-90: standard parameters 202 mul, 153 add; base parameters 160 mul, 113 add. We
// must not do worse (Khalil's form: with a diagonal J the factor pass turns w x (J w) into Euler's equations).
TEST(BaseParams, SimplifiedRx90MeetsTable96) {
  const ref::Robot robot = ref::load_robot("rx90-simplified");
  const OpCounts s = count_ops(customise(trace(robot, Form::Khalil, Flavour::Custom)));
  EXPECT_LE(s.mul(), 202);
  EXPECT_LE(s.add(), 153);
  const OpCounts k = count_ops(customise(trace_base(robot, base_parameters(robot), Form::Khalil)));
  EXPECT_LE(k.mul(), 160);
  EXPECT_LE(k.add(), 113);
}

// Seed 003 Table 9.6, general-inertia RX-90: standard parameters <= 294/283, base parameters <= 253/238
// (docs/dfg.md has what each form reaches).
TEST(BaseParams, GeneralRx90StandardParametersBeatTable96) {
  const OpCounts k = count_ops(customise(trace(ref::load_robot("rx90"), Form::KhalilK, Flavour::Custom)));
  EXPECT_LE(k.mul(), 294);
  EXPECT_LE(k.add(), 283);
}

TEST(BaseParams, GeneralRx90BaseParametersMeetTable96) {
  const ref::Robot robot = ref::load_robot("rx90");
  const BaseParameters bp = base_parameters(robot);
  for (Form form : {Form::KhalilK, Form::KhalilMix}) {
    const OpCounts k = count_ops(customise(trace_base(robot, bp, form)));
    EXPECT_LE(k.mul(), 253) << form_name(form);
    EXPECT_LE(k.add(), 238) << form_name(form);
  }
}

// khalil-mix picks each link's moment form by counting: after customise() it is never costlier (mul + add, then
// mul) than khalil-k nor than the all-J mask, in standard and in base parameters.
TEST(BaseParams, KhalilMixIsNeverCostlier) {
  auto cost = [](const Graph& g) {
    const OpCounts k = count_ops(customise(g));
    return std::make_pair(k.mul() + k.add(), k.mul());
  };
  for (const char* spec : {"rx90", "rx90-simplified", "puma560", "stanford", "random:6:2"}) {
    const ref::Robot robot = ref::load_robot(spec);
    const BaseParameters bp = base_parameters(robot);
    std::vector<bool> mask;
    const auto mix = cost(trace_khalil_mix(robot, flavour_params(Flavour::Custom, {}), {}, &mask));
    EXPECT_EQ(mask.size(), robot.links.size()) << spec;
    EXPECT_LE(mix, cost(trace(robot, Form::KhalilK, Flavour::Custom))) << spec;
    EXPECT_LE(mix, cost(trace(robot, Form::Khalil, Flavour::Custom))) << spec;
    const auto mix_base = cost(trace_base(robot, bp, Form::KhalilMix));
    EXPECT_LE(mix_base, cost(trace_base(robot, bp, Form::KhalilK))) << spec;
    EXPECT_LE(mix_base, cost(trace_base(robot, bp, Form::Khalil))) << spec;
  }
}

// An external wrench adds J^T (f_e, n_e), which does not depend on the inertial parameters: the base parameters are
// those of the robot without it, and the base graph (wrench as inputs or as literals) still computes the reference
// torques.
TEST(BaseParams, ExternalWrenchKeepsTheBaseParameters) {
  std::mt19937 rng(5);
  for (const char* spec : {"planar2", "rx90"}) {
    ref::Robot robot = ref::load_robot(spec);
    const BaseParameters bare = base_parameters(robot);
    robot.f_e = Eigen::Vector3d(3, -2, 5);
    robot.n_e = Eigen::Vector3d(-1, 0.5, 2);
    const BaseParameters bp = base_parameters(robot);
    EXPECT_EQ(bp.rank, bare.rank) << spec;
    EXPECT_EQ(bp.relations, bare.relations) << spec;
    for (bool wrench_input : {false, true}) {
      TraceOptions opt;
      opt.wrench_input = wrench_input;
      const Graph g = customise(trace_base(robot, bp, Form::KhalilK, opt));
      int wrench_inputs = 0;
      for (const std::string& name : g.inputs) wrench_inputs += name.rfind("fe", 0) == 0 || name.rfind("ne", 0) == 0;
      EXPECT_EQ(wrench_inputs, wrench_input ? 6 : 0) << spec;
      expect_reference_torques(g, robot, rng, spec);
    }
  }
}

}  // namespace
}  // namespace neaccel::dfg

namespace neaccel::dfg {
namespace {

// Seed 003 section 9.6.3 (Khalil 87b): a "general" n-dof revolute arm, customised in base parameters, costs 92n - 127
// mul and 81n - 117 add for n > 2. General there means: r_1 = d_1 = alpha_1 = r_n = 0 (Khalil's r is our DH d, his
// d our a), every other geometric and inertial parameter arbitrary, and an arbitrary wrench exerted on the
// environment (here: run-time inputs); no friction. We add rotor inertias (rotors = false: none).
ref::Robot general_revolute_arm(int n, unsigned seed, bool rotors = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.2, 0.9);
  ref::Robot r;
  r.name = "general";
  r.source = "test";
  r.convention = ref::DhConvention::Modified;
  for (int i = 0; i < n; ++i) {
    ref::Link L;
    L.parent = i - 1;
    L.a = u(rng), L.alpha = u(rng), L.d = u(rng), L.mass = 1 + u(rng), L.Ia = rotors ? u(rng) : 0.0;
    if (i == 0) L.a = L.alpha = L.d = 0.0;
    if (i == n - 1) L.d = 0.0;
    L.com = Eigen::Vector3d(u(rng), u(rng), u(rng)) * 0.2;
    L.inertia << 1, 0.01, 0.02, 0.01, 1.1, 0.03, 0.02, 0.03, 1.2;
    r.links.push_back(L);
  }
  r.f_e = Eigen::Vector3d(u(rng), u(rng), u(rng));
  r.n_e = Eigen::Vector3d(u(rng), u(rng), u(rng));
  return r;
}

TEST(BaseParams, GeneralRevoluteArmVsKhalil87b) {
  TraceOptions opt;
  opt.wrench_input = true;
  for (int n = 3; n <= 8; ++n) {
    const ref::Robot robot = general_revolute_arm(n, 40 + static_cast<unsigned>(n));
    const BaseParameters bp = base_parameters(robot);
    const OpCounts a = count_ops(customise(trace_base(robot, bp, Form::Khalil, opt)));
    const OpCounts b = count_ops(customise(trace_base(robot, bp, Form::KhalilK, opt)));
    const Graph mix = customise(trace_base(robot, bp, Form::KhalilMix, opt));
    const OpCounts c = count_ops(mix);
    std::printf("n=%d base params %d: khalil %d/%d  khalil-k %d/%d  khalil-mix %d/%d  (92n-127 = %d, 81n-117 = %d)\n",
                n, bp.rank, a.mul(), a.add(), b.mul(), b.add(), c.mul(), c.add(), 92 * n - 127, 81 * n - 117);
    EXPECT_LE(c.mul(), 92 * n - 127) << n;
    EXPECT_LE(c.add(), 81 * n - 117) << n;
    // The counted graph computes the torques, wrench included.
    std::mt19937 rng(static_cast<unsigned>(n));
    expect_reference_torques(mix, robot, rng, "n = " + std::to_string(n));
    // Seed 003 eq 9.61 without rotors: b = 7 n_r + 4 n_p - 3 - sigmabar_1 - 2 n_g0 = 7n - 6 (joint 1 revolute,
    // along gravity).
    EXPECT_EQ(base_parameters(general_revolute_arm(n, 40 + static_cast<unsigned>(n), false)).rank, 7 * n - 6) << n;
  }
}

}  // namespace
}  // namespace neaccel::dfg
