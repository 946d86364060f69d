// M(q), h(q, qd), forward dynamics and simulation against closed forms and against each other.
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/model.hpp"
#include "test_robots.hpp"

#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>

namespace neaccel::ref {
namespace {

constexpr double kPi = 3.14159265358979323846;

// planar2 (standard DH, alpha = 0, gravity g along -y; frame i at the far end of link i, so the centre of mass of
// link i lies lc_i = a_i + cx_i from joint i). With I_i = Izz about the centre of mass, c2 = cos q2,
// s2 = sin q2, c1 = cos q1, c12 = cos(q1 + q2), Lagrange's equations of the two-link arm give
//   M11 = I1 + I2 + m1 lc1^2 + m2 (l1^2 + lc2^2 + 2 l1 lc2 c2)
//   M12 = M21 = I2 + m2 (lc2^2 + l1 lc2 c2),   M22 = I2 + m2 lc2^2
//   h1 = -m2 l1 lc2 s2 (2 qd1 qd2 + qd2^2),    h2 = m2 l1 lc2 s2 qd1^2
//   G1 = (m1 lc1 + m2 l1) g c1 + m2 lc2 g c12, G2 = m2 lc2 g c12
// (seed 004 Appendix A writes the same equations with OCR errors in the Coriolis signs.)
// Tolerance 1e-12 absolute: torques are O(10), a few dozen double operations on each side.
TEST(ClosedForm, Planar2TorquesAndMassMatrix) {
  const Robot r = load_robot("planar2");
  const double m1 = 2.0, m2 = 1.5, l1 = 1.0, lc1 = 1.0 - 0.45, lc2 = 0.8 - 0.35, I1 = 0.17, I2 = 0.09, g = 9.81;
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (int k = 0; k < 50; ++k) {
    const Eigen::Vector2d q(u(rng), u(rng)), qd(u(rng), u(rng)), qdd(u(rng), u(rng));
    const double c1 = std::cos(q[0]), c2 = std::cos(q[1]), s2 = std::sin(q[1]), c12 = std::cos(q[0] + q[1]);
    Eigen::Matrix2d M;
    M(0, 0) = I1 + I2 + m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2);
    M(0, 1) = M(1, 0) = I2 + m2 * (lc2 * lc2 + l1 * lc2 * c2);
    M(1, 1) = I2 + m2 * lc2 * lc2;
    const Eigen::Vector2d h(-m2 * l1 * lc2 * s2 * (2 * qd[0] * qd[1] + qd[1] * qd[1]), m2 * l1 * lc2 * s2 * qd[0] * qd[0]);
    const Eigen::Vector2d G((m1 * lc1 + m2 * l1) * g * c1 + m2 * lc2 * g * c12, m2 * lc2 * g * c12);
    const Eigen::Vector2d tau = M * qdd + h + G;
    for (Form f : all_forms()) {
      EXPECT_LT((inverse_dynamics(r, q, qd, qdd, f) - tau).cwiseAbs().maxCoeff(), 1e-12) << form_name(f);
      EXPECT_LT((mass_matrix_strobing(r, q, f) - M).cwiseAbs().maxCoeff(), 1e-12) << form_name(f);
      EXPECT_LT((gravity_torque(r, q, f) - G).cwiseAbs().maxCoeff(), 1e-12) << form_name(f);
    }
    EXPECT_LT((mass_matrix_crba(r, q) - M).cwiseAbs().maxCoeff(), 1e-12);
  }
}

// Seed 003 Example 9.1: A11..A33 and Q2, Q3 of the first three links of the RX-90, in Khalil's parameters
// (J_j about the origin of frame j: XX..ZZ; MS_j: MX, MY, MZ; M_j; Ia_j). Derived again here (kinetic energy
// T = 1/2 sum (omega^T J omega + M V^T V + 2 MS^T (V x omega)), U = -g^T sum(...)): the book's expressions hold for
// alpha_2 = +pi/2 (its matrix 2A1 has third row [0 -1 0]); for alpha_2 = sigma pi/2 the terms A12, A13, Q2, Q3 take
// the factor sigma = sin(alpha_2), and our rx90 file (README table) has alpha_2 = -pi/2. A11, A22, A23, A33 are
// the book's. With G3 the z component of gravity:
//   A11 = Ia1 + ZZ1 + SS2 XX2 + 2CS2 XY2 + CC2 YY2 + SS23 XX3 + 2CS23 XY3 + CC23 YY3 + 2C2 C23 D3 MX3
//         - 2C2 S23 D3 MY3 + CC2 D3^2 M3
//   A12 = sigma (S2 XZ2 + C2 YZ2 + S23 XZ3 + C23 YZ3 - S2 D3 MZ3),  A13 = sigma (S23 XZ3 + C23 YZ3)
//   A22 = Ia2 + ZZ2 + ZZ3 + 2C3 D3 MX3 - 2S3 D3 MY3 + D3^2 M3,     A23 = ZZ3 + C3 D3 MX3 - S3 D3 MY3
//   A33 = Ia3 + ZZ3,  Q1 = 0,  Q2 = -sigma G3 (C2 MX2 - S2 MY2 + C23 MX3 - S23 MY3 + D3 C2 M3),
//   Q3 = -sigma G3 (C23 MX3 - S23 MY3)
// Random inertial parameters (full tensors, random centres of mass) each run; tolerance 1e-11 absolute (entries
// O(10), ~50 operations).
TEST(ClosedForm, Rx90Example91) {
  const Robot full = load_robot("rx90");
  for (double sigma : {-1.0, 1.0}) {
    for (unsigned seed = 1; seed <= 5; ++seed) {
      Robot r = full;
      r.links.resize(3);
      r.links[1].alpha = sigma * kPi / 2;
      r.gravity = Eigen::Vector3d(0, 0, -9.81);
      std::mt19937 rng(seed);
      std::uniform_real_distribution<double> u(-0.3, 0.3);
      for (Link& L : r.links) {
        L.mass = 1.0 + 10 * std::abs(u(rng));
        L.com = Eigen::Vector3d(u(rng), u(rng), u(rng));
        L.inertia = test::random_inertia(rng);
        L.Ia = std::abs(u(rng));
      }
      const ModelT<double> p = model_of(r);
      const auto& L1 = p.links[0];
      const auto& L2 = p.links[1];
      const auto& L3 = p.links[2];
      const double D3 = r.links[2].a, G3 = r.gravity.z();
      const Eigen::Vector3d q(u(rng) * 10, u(rng) * 10, u(rng) * 10);
      const double S2 = std::sin(q[1]), C2 = std::cos(q[1]), S3 = std::sin(q[2]), C3 = std::cos(q[2]);
      const double S23 = std::sin(q[1] + q[2]), C23 = std::cos(q[1] + q[2]);
      Eigen::Matrix3d A;
      A(0, 0) = L1.Ia + L1.ZZ + S2 * S2 * L2.XX + 2 * C2 * S2 * L2.XY + C2 * C2 * L2.YY + S23 * S23 * L3.XX +
                2 * C23 * S23 * L3.XY + C23 * C23 * L3.YY + 2 * C2 * C23 * D3 * L3.MX - 2 * C2 * S23 * D3 * L3.MY +
                C2 * C2 * D3 * D3 * L3.M;
      A(0, 1) = sigma * (S2 * L2.XZ + C2 * L2.YZ + S23 * L3.XZ + C23 * L3.YZ - S2 * D3 * L3.MZ);
      A(0, 2) = sigma * (S23 * L3.XZ + C23 * L3.YZ);
      A(1, 1) = L2.Ia + L2.ZZ + L3.ZZ + 2 * C3 * D3 * L3.MX - 2 * S3 * D3 * L3.MY + D3 * D3 * L3.M;
      A(1, 2) = L3.ZZ + C3 * D3 * L3.MX - S3 * D3 * L3.MY;
      A(2, 2) = L3.Ia + L3.ZZ;
      A(1, 0) = A(0, 1), A(2, 0) = A(0, 2), A(2, 1) = A(1, 2);
      const Eigen::Vector3d Q(0, -sigma * G3 * (C2 * L2.MX - S2 * L2.MY + C23 * L3.MX - S23 * L3.MY + D3 * C2 * L3.M),
                              -sigma * G3 * (C23 * L3.MX - S23 * L3.MY));
      for (Form f : all_forms()) {
        EXPECT_LT((mass_matrix_strobing(r, q, f) - A).cwiseAbs().maxCoeff(), 1e-11) << form_name(f) << sigma;
        EXPECT_LT((gravity_torque(r, q, f) - Q).cwiseAbs().maxCoeff(), 1e-11) << form_name(f) << sigma;
      }
    }
  }
}

// Strobing (n N-E runs) and CRBA (spatial inertias in the base frame) are independent computations of M(q): they
// agree to 1e-10 relative (same argument as the forms' agreement). M is symmetric (1e-12 relative: strobing
// does not symmetrise) and positive definite (smallest eigenvalue > 0).
TEST(MassMatrix, StrobingEqualsCrbaSymmetricPositiveDefinite) {
  std::vector<Robot> robots = {load_robot("puma560"), load_robot("stanford"), load_robot("rx90"),
                               load_robot("planar2")};
  for (int k = 0; k < 8; ++k)
    robots.push_back(load_robot((k % 2 ? "randomtree:" : "random:") + std::to_string(2 + k) + ":" + std::to_string(k)));
  robots.push_back(test::random_robot(9, 77, DhConvention::Modified, true, true));
  robots.push_back(test::random_robot(9, 78, DhConvention::Standard, true, true));
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-kPi, kPi);
  for (const Robot& r : robots) {
    for (int s = 0; s < 5; ++s) {
      Eigen::VectorXd q(r.dof());
      for (int i = 0; i < r.dof(); ++i) q[i] = u(rng);
      const Eigen::MatrixXd Mc = mass_matrix_crba(r, q);
      const double scale = std::max(1.0, Mc.cwiseAbs().maxCoeff());
      for (Form f : all_forms()) {
        const Eigen::MatrixXd Ms = mass_matrix_strobing(r, q, f);
        EXPECT_LT((Ms - Mc).cwiseAbs().maxCoeff() / scale, 1e-10) << r.name << " " << form_name(f);
        EXPECT_LT((Ms - Ms.transpose()).cwiseAbs().maxCoeff() / scale, 1e-12) << r.name;
      }
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(Mc);
      EXPECT_GT(eig.eigenvalues().minCoeff(), 0.0) << r.name;
    }
  }
}

// forward(inverse(qdd)) = qdd to 1e-9: LDLT of an SPD M with condition numbers up to ~1e4 here loses ~4 of 16
// digits; 1e-9 absolute on accelerations of O(1) leaves margin and fails on any mismatch between M, h and N-E.
TEST(ForwardDynamics, InvertsInverseDynamics) {
  for (const char* name : {"puma560", "stanford", "rx90", "planar2", "random:7:3", "randomtree:10:4"}) {
    const Robot r = load_robot(name);
    std::mt19937 rng(13);
    std::uniform_real_distribution<double> u(-2.0, 2.0);
    for (int s = 0; s < 10; ++s) {
      Eigen::VectorXd q(r.dof()), qd(r.dof()), qdd(r.dof());
      for (int i = 0; i < r.dof(); ++i) q[i] = u(rng), qd[i] = u(rng), qdd[i] = u(rng);
      for (Form f : all_forms()) {
        const Eigen::VectorXd tau = inverse_dynamics(r, q, qd, qdd, f);
        EXPECT_LT((forward_dynamics(r, q, qd, tau, f) - qdd).cwiseAbs().maxCoeff(), 1e-9) << name << form_name(f);
      }
    }
  }
}

// h(q, qd) by one run with qdd = 0 equals tau - M qdd.
TEST(ForwardDynamics, BiasIsTorqueMinusInertial) {
  const Robot r = load_robot("stanford");
  Eigen::VectorXd q(6), qd(6), qdd(6);
  q << 0.1, 0.2, 0.3, 0.4, 0.5, 0.6;
  qd << -1, 0.5, 0.2, 1, -2, 0.3;
  qdd << 0.3, -0.1, 0.7, 0.2, 0.9, -1.2;
  const Eigen::VectorXd lhs = bias_torque(r, q, qd);
  const Eigen::VectorXd rhs = inverse_dynamics(r, q, qd, qdd) - mass_matrix_crba(r, q) * qdd;
  EXPECT_LT(test::rel_diff(lhs, rhs), 1e-10);
}

}  // namespace
}  // namespace neaccel::ref
