// Test support for the ref_forms suites: hand-built robots (the planar two-link arm of
// data/robots/planar2.txt, random chains and trees in both DH conventions) and random states.
#pragma once

#include "neaccel/ref/model.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <random>
#include <string>

namespace neaccel::ref::forms::test {

// A link of the txt format (data/robots/README.md): a alpha d theta m c I (xx yy zz, products zero).
Link txt_link(JointType type, double a, double alpha, double d, double theta, double m, Eigen::Vector3d c,
              Eigen::Vector3d Idiag);

// data/robots/planar2.txt, written by hand: lengths 1.0, 0.8; masses 2.0, 1.5; COM 0.55 and 0.45 from the joints.
Robot planar2();

struct RandomSpec {
  int n = 6;
  DhConvention convention = DhConvention::Standard;
  double prismatic_probability = 0.0;
  bool tree = false;        // parents drawn at random (modified DH gets gamma and b too)
  bool extras = false;      // rotor inertia, friction, payload, external wrench
};

// A random robot with full inertia tensors (positive definite, triangle inequality) and random geometry.
Robot random_robot(const RandomSpec& spec, unsigned seed);

struct State {
  Eigen::VectorXd q, qd, qdd;
};
State random_state(const Robot& robot, std::mt19937& rng);

// Relative difference |a - b| / max(1, |b|) as used by the acceptance checks.
double rel_diff(const Eigen::VectorXd& a, const Eigen::VectorXd& b);

}  // namespace neaccel::ref::forms::test
