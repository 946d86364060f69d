// Where the mathematics is finite, the reference dynamics return finite numbers or an Error naming what is not:
// overflowing torques, a singular mass matrix (a link with zero mass and inertia), a simulation that blows up.
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/forms.hpp"
#include "neaccel/ref/io.hpp"
#include "test_robots.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

namespace neaccel::ref {
namespace {

using test::message_of;

// planar2 with link 2 emptied: zero mass, zero inertia, no rotor inertia.
Robot massless_tip() {
  Robot r = load_robot("planar2");
  r.links[1].mass = 0;
  r.links[1].inertia.setZero();
  r.links[1].Ia = 0;
  return r;
}

const char* kSingular =
    "the mass matrix of robot 'planar2' is singular at this q (joint 2: link 2 'link2' has zero mass and inertia and "
    "no rotor inertia)";

TEST(Finite, OverflowingVelocityIsNamed) {
  const Robot r = load_robot("planar2");
  const Eigen::Vector2d z(0, 0), big(1e200, 1e200);
  EXPECT_EQ(message_of([&] { inverse_dynamics(r, z, big, z); }),
            "inverse dynamics: torque tau_1 is not finite (nan) for the given state");
  EXPECT_EQ(message_of([&] { bias_torque(r, z, big); }).rfind("bias torques: bias torque", 0), 0u);
  EXPECT_EQ(message_of([&] { forward_dynamics(r, z, big, z); }),
            "forward dynamics: bias torque (Coriolis, centrifugal, gravity, friction) h_1 is not finite (nan) for the "
            "given state");
  // Large but representable: finite torques, no error.
  const Eigen::Vector2d fast(1e100, 1e100);
  EXPECT_TRUE(inverse_dynamics(r, z, fast, z).allFinite());
}

TEST(Finite, SingularMassMatrixNamesTheEmptyLink) {
  const Robot r = massless_tip();
  const Eigen::Vector2d z(0, 0), q(0.3, -0.7);
  EXPECT_EQ(message_of([&] { forward_dynamics(r, q, z, z); }), std::string("forward dynamics: ") + kSingular);
  for (const char* method : {"strobe", "recursive", "nasser", "khalil"})
    EXPECT_EQ(message_of([&] { forms::forward_accelerations(r, method, q, z, z); }),
              std::string("forward dynamics (") + method + "): " + kSingular)
        << method;
  // Inverse dynamics and M itself stay defined: tau of the massless link is 0.
  EXPECT_EQ(inverse_dynamics(r, q, z, z)[1], 0.0);
  EXPECT_EQ(mass_matrix_crba(r, q)(1, 1), 0.0);
}

TEST(Finite, RotorInertiaKeepsTheMatrixRegular) {
  Robot r = massless_tip();
  r.links[1].Ia = 0.01;
  const Eigen::Vector2d q(0.3, -0.7), z(0, 0);
  const Eigen::VectorXd qdd = forward_dynamics(r, q, z, Eigen::Vector2d(0, 0.02));
  EXPECT_TRUE(qdd.allFinite());
  EXPECT_NEAR(qdd[1], 2.0, 1e-12);  // joint 2 drives its rotor only: 0.02 N m / 0.01 kg m^2
}

TEST(Finite, EmptySubtreeIsNamedWithTheLinksItCarries) {
  // Three links, the last two empty: joint 2 moves nothing.
  Robot r = load_robot("random:3:5");
  for (std::size_t k = 1; k < 3; ++k) {
    r.links[k].mass = 0;
    r.links[k].inertia.setZero();
    r.links[k].Ia = 0;
  }
  const std::string m = message_of([&] { forward_dynamics(r, Eigen::Vector3d(0.1, 0.2, 0.3), Eigen::Vector3d::Zero(),
                                                          Eigen::Vector3d::Zero()); });
  EXPECT_NE(m.find("is singular at this q (joint 2: link 2"), std::string::npos) << m;
  EXPECT_NE(m.find("and the link it carries have zero mass and inertia"), std::string::npos) << m;
}

TEST(Finite, IndefiniteMassMatrixIsRefused) {
  Robot r = load_robot("planar2");
  r.links[1].mass = -1.5;  // not a body (a file with it is refused on load; here the solver must refuse it too)
  const Eigen::Vector2d z(0, 0);
  EXPECT_EQ(message_of([&] { forward_dynamics(r, z, z, z); }),
            "forward dynamics: the mass matrix of robot 'planar2' is not positive definite at this q");
}

TEST(Finite, SimulationNamesTheTime) {
  const Robot r = massless_tip();
  const Eigen::Vector2d z(0, 0);
  const TorqueFn zero = [](double, const Eigen::VectorXd& q, const Eigen::VectorXd&) {
    return Eigen::VectorXd(Eigen::VectorXd::Zero(q.size()));
  };
  EXPECT_EQ(message_of([&] { simulate(r, z, z, zero, 1e-3, 0.01); }),
            std::string("simulate: at t = 0 s: forward dynamics: ") + kSingular);
  // A torque input that turns non-finite after some steps is named with its time.
  const Robot p = load_robot("planar2");
  const TorqueFn late = [](double t, const Eigen::VectorXd& q, const Eigen::VectorXd&) {
    Eigen::VectorXd u = Eigen::VectorXd::Zero(q.size());
    if (t > 0.2) u[1] = std::numeric_limits<double>::infinity();
    return u;
  };
  // Steps of 0.125 s (exact in binary): the first torque asked for after 0.2 s is the last stage of step 2.
  EXPECT_EQ(message_of([&] { simulate(p, z, z, late, 0.125, 1.0); }),
            "simulate: at t = 0.25 s: torque input: torque tau_2 is not finite (inf) for the given state");
}

}  // namespace
}  // namespace neaccel::ref
