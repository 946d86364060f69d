// Small robots built in code for tests that must not depend on the robot files.
#pragma once

#include "neaccel/ref/robot.hpp"

#include <cmath>
#include <random>

namespace neaccel::dfg::test {

// A random revolute arm with non-trivial parameters (every alpha a multiple of pi/2 when `structured`).
inline ref::Robot random_arm(int n, unsigned seed, bool structured = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  ref::Robot r;
  r.name = "test-arm";
  r.source = "test";
  for (int i = 0; i < n; ++i) {
    ref::Link L;
    L.name = "l" + std::to_string(i + 1);
    L.parent = i - 1;
    L.a = structured && i % 2 ? 0.0 : 0.5 + 0.3 * u(rng);
    L.d = structured && i % 3 == 0 ? 0.0 : 0.2 * u(rng);
    L.alpha = structured ? (i % 2 ? M_PI / 2 : -M_PI / 2) : u(rng);
    L.theta = 0.0;
    L.mass = 2.0 + u(rng);
    L.com = Eigen::Vector3d(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng));
    Eigen::Matrix3d A = Eigen::Matrix3d::Random() * 0.1;
    L.inertia = A * A.transpose() + 0.05 * Eigen::Matrix3d::Identity();
    L.Fv = 0.1 * std::abs(u(rng));
    r.links.push_back(L);
  }
  return r;
}

}  // namespace neaccel::dfg::test
