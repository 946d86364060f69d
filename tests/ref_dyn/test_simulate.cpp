// RK4 simulation: energy conservation of the passive arm (not labelled sanitize: ~3 s in Release, 10x that with
// the sanitizers).
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel::ref {
namespace {

Robot passive(Robot r) {
  for (Link& L : r.links) L.Fv = L.Fc = 0.0;
  r.f_e.setZero();
  r.n_e.setZero();
  return r;
}

// RK4 energy conservation of the passive arm (zero torque, no friction, no wrench) over 10 s at dt = 1 ms.
// Bound: |E(t) - E(0)| <= 1e-6 E_scale, E_scale = the largest kinetic energy along the run (46 J planar2, 65 J
// PUMA). Justification: RK4's local error is O(dt^5), so the energy error grows like E_scale (w dt)^4 w T with w
// the fastest rate of the motion. A priori with w = 25 rad/s (planar2's peak joint rate) that is <= 1e-4 (the
// constant is below 1 and oscillatory phases cancel, so this is pessimistic); measured: 6.4e-9 (planar2) and
// 1.8e-9 (PUMA 560, released from q0 below) relative. 1e-6 leaves a margin of 150x over the measurement and is
// still 150x below the drift at dt = 20 ms (1.5e-4 planar2, 4.5e-4 PUMA: (20)^4 = 1.6e5 times the dt^4 term), which
// the second test checks, so the test detects a wrong order of the integrator and any inconsistency between
// M, h and the energy (that drifts at O(1)).
double max_energy_drift(const Robot& r, const Eigen::VectorXd& q0, double dt, double t_end, double* ke_max) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(r.dof());
  const TorqueFn torque = [&](double, const Eigen::VectorXd&, const Eigen::VectorXd&) { return zero; };
  const Trajectory traj = simulate(r, q0, zero, torque, dt, t_end);
  const double e0 = total_energy(r, traj.q.front(), traj.qd.front());
  double drift = 0, kmax = 0;
  for (std::size_t k = 0; k < traj.t.size(); ++k) {
    drift = std::max(drift, std::abs(total_energy(r, traj.q[k], traj.qd[k]) - e0));
    kmax = std::max(kmax, 0.5 * traj.qd[k].dot(mass_matrix_crba(r, traj.q[k]) * traj.qd[k]));
  }
  *ke_max = kmax;
  return drift;
}

TEST(Simulate, Rk4ConservesEnergyOfPassiveArm) {
  {
    const Robot r = passive(load_robot("planar2"));
    double ke = 0;
    const double drift = max_energy_drift(r, Eigen::Vector2d(0.3, 1.0), 1e-3, 10.0, &ke);
    EXPECT_GT(ke, 1.0);  // the arm really moves
    EXPECT_LT(drift, 1e-6 * ke) << "drift " << drift << " ke " << ke;
  }
  {
    const Robot r = passive(load_robot("puma560"));
    double ke = 0;
    Eigen::VectorXd q0(6);
    q0 << 0.2, 0.5, 1.0, 0.3, 1.0, 0.2;
    const double drift = max_energy_drift(r, q0, 1e-3, 10.0, &ke);
    EXPECT_GT(ke, 1.0);
    EXPECT_LT(drift, 1e-6 * ke) << "drift " << drift << " ke " << ke;
  }
}

// The bound is not vacuous: with dt = 20 ms RK4's O(dt^4) error is (20)^4 = 1.6e5 times larger.
TEST(Simulate, EnergyDriftGrowsWithStep) {
  const Robot r = passive(load_robot("planar2"));
  double ke1 = 0, ke2 = 0;
  const double fine = max_energy_drift(r, Eigen::Vector2d(0.3, 1.0), 1e-3, 2.0, &ke1);
  const double coarse = max_energy_drift(r, Eigen::Vector2d(0.3, 1.0), 2e-2, 2.0, &ke2);
  EXPECT_GT(coarse, 100 * fine);
  EXPECT_GT(coarse, 1e-6 * ke2);
}

}  // namespace
}  // namespace neaccel::ref
