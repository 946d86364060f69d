// Stage 1: the reference solvers agree with each other and with published values.
#include "context.hpp"

#include "neaccel/ref/dynamics.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>

namespace neaccel::study {

namespace {
using nlohmann::json;

// Relative difference of two torque vectors, normalised by the larger infinity norm (at least 1 N m, so that
// states with near-zero torque do not turn rounding noise into a large relative figure).
double rel_diff(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return (a - b).lpNorm<Eigen::Infinity>() / std::max({a.lpNorm<Eigen::Infinity>(), b.lpNorm<Eigen::Infinity>(), 1.0});
}

// Deterministic uniform numbers from raw bits (std distributions differ between library versions).
struct Uniform {
  std::mt19937_64 gen;
  double operator()(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(gen() >> 11) * 0x1.0p-53; }
};

// The PUMA 560 gravity torques published with the Robotics Toolbox (shared/data/robots/README.md).
struct Published {
  const char* label;
  std::vector<double> q;
  std::vector<int> joints;  // 1-based joints the publication gives
  std::vector<double> tau;
};
const std::vector<Published> kPuma = {
    {"[0, pi/4, pi, 0, pi/4, 0]", {0, M_PI / 4, M_PI, 0, M_PI / 4, 0}, {1, 2, 3, 4, 5, 6}, {0, 31.6399, 6.0351, 0, 0.0283, 0}},
    {"[0, pi/4, -pi, 1, pi/4, 0]", {0, M_PI / 4, -M_PI, 1, M_PI / 4, 0}, {2, 3, 4, 5}, {31.6334, 6.0286, -0.0119, 0.0218}},
};
}  // namespace

void stage_reference(Context& ctx) {
  ctx.progress.stage("Reference check");
  const ref::Robot& robot = ctx.robot;
  const int n = robot.dof();
  Uniform u{std::mt19937_64(20261121)};
  std::vector<double> worst(ref::all_forms().size(), 0.0);
  for (int s = 0; s < ctx.states(); ++s) {
    Eigen::VectorXd q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) {
      const bool rev = robot.links[static_cast<std::size_t>(i)].joint == ref::JointType::Revolute;
      q[i] = rev ? u(-M_PI, M_PI) : u(-0.5, 0.5);
      qd[i] = u(-2, 2);
      qdd[i] = u(-5, 5);
    }
    const Eigen::VectorXd base = ref::inverse_dynamics(robot, q, qd, qdd, ref::Form::ModifiedNE);
    for (std::size_t f = 0; f < ref::all_forms().size(); ++f)
      worst[f] = std::max(worst[f], rel_diff(ref::inverse_dynamics(robot, q, qd, qdd, ref::all_forms()[f]), base));
  }
  // 1e-10: the forms differ only in the order of rounding of the same sums (tests/ref_dyn uses the same bound).
  const double tol = 1e-10;
  json forms = json::array();
  for (std::size_t f = 0; f < worst.size(); ++f) {
    forms.push_back({{"form", ref::form_name(ref::all_forms()[f])}, {"max_rel_diff", worst[f]}, {"pass", worst[f] <= tol}});
    if (worst[f] > tol) ctx.fail("reference: " + ref::form_name(ref::all_forms()[f]) + " disagrees with modified-ne");
  }
  json published = json::array();
  if (robot.name == "puma560") {
    for (const auto& p : kPuma) {
      const Eigen::VectorXd g = ref::gravity_torque(robot, Eigen::Map<const Eigen::VectorXd>(p.q.data(), n));
      double err = 0;
      json ours = json::array();
      for (std::size_t k = 0; k < p.joints.size(); ++k) {
        ours.push_back(g[p.joints[k] - 1]);
        err = std::max(err, std::abs(g[p.joints[k] - 1] - p.tau[k]));
      }
      // The publication prints 4 decimals: agreement means an error below half a unit in the last place.
      const bool ok = err <= 0.5e-4 + 1e-12;
      published.push_back({{"q", p.q}, {"joints", p.joints}, {"published", p.tau}, {"ours", ours}, {"max_abs_err", err}, {"pass", ok}});
      if (!ok) ctx.fail("reference: published PUMA 560 gravity torques not reproduced");
    }
  }
  ctx.data.put("reference", {{"robot", robot.name}, {"dof", n}, {"states", ctx.states()}, {"tolerance_rel", tol},
                             {"forms", forms}, {"published", published}});

  Report& r = ctx.report;
  r.heading(2, "1. Reference check");
  r.para("The three Newton-Euler recursions (Luh-Walker-Paul, seed 000 eqs 3.7-3.13; the modified form of seed 000 "
         "section 7; Khalil's form linear in the inertial parameters, seed 003 eqs 9.84-9.94) were run on {} random "
         "states (q, qd, qdd) of `{}`. Largest relative difference from the modified form:",
         {r.num("reference", "/states"), r.num("reference", "/robot")});
  std::vector<std::vector<Cell>> rows;
  for (std::size_t f = 0; f < worst.size(); ++f) {
    const std::string p = "/forms/" + std::to_string(f);
    rows.push_back({r.num("reference", p + "/form"), r.num("reference", p + "/max_rel_diff", 2), r.num("reference", p + "/pass")});
  }
  r.table({"form", "max relative difference", "within 1e-10"}, rows);
  for (std::size_t k = 0; k < published.size(); ++k) {
    const std::string p = "/published/" + std::to_string(k);
    std::vector<std::vector<Cell>> prow;
    for (std::size_t j = 0; j < kPuma[k].joints.size(); ++j) {
      const std::string jj = "/" + std::to_string(j);
      prow.push_back({r.num("reference", p + "/joints" + jj), r.num("reference", p + "/published" + jj, 4),
                      r.num("reference", p + "/ours" + jj, 4)});
    }
    r.para(fmt::format("PUMA 560 gravity torque at q = {} (Robotics Toolbox, 4 decimals): largest error {{}} N m.",
                       kPuma[k].label),
           {r.num("reference", p + "/max_abs_err", 1)});
    r.table({"joint", "published (N m)", "neaccel (N m)"}, prow);
  }
  ctx.progress.done(fmt::format("forms agree to {:.1e}{}", *std::max_element(worst.begin(), worst.end()),
                                published.empty() ? "" : ", published PUMA values reproduced"));
}

}  // namespace neaccel::study
