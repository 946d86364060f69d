// The experiments of seed 004 section 3 as ready-made control setups.
//
//   nominal      model = plant, no disturbance
//   disturbance  an input torque disturbance of 7% of the feedforward torque on every joint, with a sign per joint
//                drawn from the seed (seed 004: "a 7% external disturbance")
//   model-error  the controller's model has 7% longer links and 9% larger inertias (mass and inertia tensor) than
//                the plant (seed 004: "a 7% error in link lengths and a 9% error in link inertias")
// Desired trajectory: a planar two-link arm (planar_lengths succeeds) follows a circle in its plane through the
// model's inverse kinematics (centre (0.55 L, 0.28 L), radius 0.19 L, L = l1 + l2, one turn in 3 s); any other
// arm follows joint-space quintics qa -> qb -> qa, 1.5 s each (PUMA 560: qa = qn = (0, pi/4, pi, 0, pi/4, 0)).
// Control period T = 5 ms (200 Hz), 5 RK4 steps per period.
#pragma once

#include "neaccel/ref/control/controller.hpp"

#include <cstdint>
#include <string>

namespace neaccel::ref::control {

enum class Scenario { Nominal, Disturbance, ModelError };

// "nominal", "disturbance", "model-error"; anything else throws neaccel::Error naming --scenario.
Scenario parse_scenario(const std::string& name);
std::string scenario_name(Scenario s);

struct ScenarioOptions {
  double T = 0.005;
  std::uint64_t seed = 1;
  double disturbance = 0.07;  // relative torque disturbance
  double length_error = 0.07;
  double inertia_error = 0.09;
};

// The robot with links scaled by (1 + length_error) (a, d, centre of mass) and inertias by (1 + inertia_error)
// (mass, inertia tensor, rotor inertia).
Robot perturbed_robot(const Robot& robot, double length_error, double inertia_error);

// The desired trajectory described above for the (model) robot.
DesiredTrajectory scenario_trajectory(const Robot& robot, double T);

// The setup of a scenario for `robot` (the true plant), with or without feedback, default_params.
ControlSetup make_setup(const Robot& robot, Scenario scenario, bool feedback, const ScenarioOptions& options = {});

}  // namespace neaccel::ref::control
