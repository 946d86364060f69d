// Bad input to the dynamics functions: one clear neaccel::Error each.
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "test_robots.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace neaccel::ref {
namespace {

using test::message_of;

TEST(Errors, WrongVectorLength) {
  const Robot r = load_robot("puma560");
  const Eigen::VectorXd six = Eigen::VectorXd::Zero(6), five = Eigen::VectorXd::Zero(5);
  EXPECT_EQ(message_of([&] { inverse_dynamics(r, five, six, six); }),
            "q: expected 6 values for robot 'puma560', got 5");
  EXPECT_NE(message_of([&] { inverse_dynamics(r, six, five, six); }).find("qd: expected 6"), std::string::npos);
  EXPECT_NE(message_of([&] { inverse_dynamics(r, six, six, five); }).find("qdd: expected 6"), std::string::npos);
  EXPECT_NE(message_of([&] { forward_dynamics(r, six, six, five); }).find("tau: expected 6"), std::string::npos);
  EXPECT_NE(message_of([&] { mass_matrix_crba(r, five); }).find("q: expected 6"), std::string::npos);
}

TEST(Errors, NonFiniteEntries) {
  const Robot r = load_robot("planar2");
  Eigen::Vector2d bad(0.0, std::numeric_limits<double>::quiet_NaN());
  const Eigen::Vector2d ok(0, 0);
  EXPECT_EQ(message_of([&] { inverse_dynamics(r, bad, ok, ok); }), "q: entry 2 is not finite");
  bad[1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(message_of([&] { inverse_dynamics(r, ok, ok, bad); }), "qdd: entry 2 is not finite");
  EXPECT_EQ(message_of([&] { forward_dynamics(r, ok, ok, bad); }), "tau: entry 2 is not finite");
}

TEST(Errors, SimulationStepAndDuration) {
  const Robot r = load_robot("planar2");
  const Eigen::Vector2d z(0, 0);
  const TorqueFn zero = [&](double, const Eigen::VectorXd&, const Eigen::VectorXd&) { return Eigen::VectorXd(z); };
  EXPECT_EQ(message_of([&] { simulate(r, z, z, zero, 0.0, 1.0); }), "--dt: time step must be positive and finite");
  EXPECT_EQ(message_of([&] { simulate(r, z, z, zero, -1e-3, 1.0); }), "--dt: time step must be positive and finite");
  EXPECT_EQ(message_of([&] { simulate(r, z, z, zero, std::nan(""), 1.0); }),
            "--dt: time step must be positive and finite");
  EXPECT_EQ(message_of([&] { simulate(r, z, z, zero, 1e-3, -1.0); }), "--t: duration must be non-negative and finite");
}

TEST(Errors, UnknownForm) {
  EXPECT_EQ(message_of([] { parse_form("lagrange"); }),
            "--form: unknown form 'lagrange' (expected ne, modified-ne or khalil)");
  for (Form f : all_forms()) EXPECT_EQ(parse_form(form_name(f)), f);
}

}  // namespace
}  // namespace neaccel::ref
