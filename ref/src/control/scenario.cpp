#include "neaccel/ref/control/scenario.hpp"

#include "neaccel/ref/error.hpp"

#include <cmath>
#include <random>

namespace neaccel::ref::control {

Scenario parse_scenario(const std::string& name) {
  if (name == "nominal") return Scenario::Nominal;
  if (name == "disturbance") return Scenario::Disturbance;
  if (name == "model-error") return Scenario::ModelError;
  throw Error("--scenario: unknown scenario '" + name + "' (expected nominal, disturbance or model-error)");
}

std::string scenario_name(Scenario s) {
  switch (s) {
    case Scenario::Nominal: return "nominal";
    case Scenario::Disturbance: return "disturbance";
    case Scenario::ModelError: return "model-error";
  }
  return "?";
}

Robot perturbed_robot(const Robot& robot, double length_error, double inertia_error) {
  Robot r = robot;
  const double kl = 1.0 + length_error, ki = 1.0 + inertia_error;
  for (Link& L : r.links) {
    L.a *= kl;
    L.d *= kl;
    L.b *= kl;
    L.com *= kl;
    L.mass *= ki;
    L.inertia *= ki;
    L.Ia *= ki;
  }
  r.name = robot.name + "-model-error";
  return r;
}

namespace {
bool is_planar(const Robot& robot) {
  try {
    (void)planar_lengths(robot);
    return true;
  } catch (const Error&) {
    return false;
  }
}
}  // namespace

DesiredTrajectory scenario_trajectory(const Robot& robot, double T) {
  if (is_planar(robot)) {
    const Eigen::Vector2d l = planar_lengths(robot);
    const double L = l.sum();
    return planar_circle(robot, Eigen::Vector2d(0.55 * L, 0.28 * L), 0.19 * L, 3.0, T);
  }
  const int n = robot.dof();
  Eigen::VectorXd qa(n), step(n);
  for (int i = 0; i < n; ++i) {
    const bool rev = robot.links[static_cast<std::size_t>(i)].joint == JointType::Revolute;
    qa[i] = rev ? 0.1 * (i + 1) : 0.05;
    step[i] = (i % 2 == 0 ? 1.0 : -1.0) * (rev ? 0.6 : 0.1);
  }
  if (robot.name == "puma560") qa << 0.0, M_PI / 4, M_PI, 0.0, M_PI / 4, 0.0;
  return joint_quintic(robot, {qa, qa + step, qa}, 1.5, T);
}

ControlSetup make_setup(const Robot& robot, Scenario scenario, bool feedback, const ScenarioOptions& o) {
  ControlSetup s;
  s.plant = robot;
  s.model = scenario == Scenario::ModelError ? perturbed_robot(robot, o.length_error, o.inertia_error) : robot;
  s.desired = scenario_trajectory(s.model, o.T);
  s.disturbance = Eigen::VectorXd::Zero(robot.dof());
  if (scenario == Scenario::Disturbance) {
    std::mt19937_64 rng(o.seed);  // the engine's output sequence is fixed by the standard
    for (int i = 0; i < robot.dof(); ++i) s.disturbance[i] = (rng() >> 63) ? o.disturbance : -o.disturbance;
  }
  s.feedback = feedback;
  s.params = default_params(robot.dof(), o.T);
  return s;
}

}  // namespace neaccel::ref::control
