// Explicit M, C (Christoffel symbols) and G: strobing the Newton-Euler equations (seed 000 section 8) against
// the Lagrange-Euler coefficients (seed 002 eq. 2.11-2.15), the composite-rigid-body M of ref/dynamics.hpp and the
// d'Alembert D; the textbook identities C^i_jk = C^i_kj and dM/dt - 2C skew-symmetric (seed 003 section 9.3).
#include "support.hpp"

#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"
#include "neaccel/ref/forms/strobe.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace neaccel::ref::forms::test {
namespace {

// 1e-9 relative: exact algebraic identities evaluated in double by different recursions (rounding ~1e-13).
constexpr double kExact = 1e-9;

std::vector<Robot> robots() {
  std::vector<Robot> rs = {load_robot("puma560"), load_robot("stanford"), load_robot("rx90"),
                           load_robot("randomtree:6:3"), load_robot("random:5:8")};
  rs.push_back(random_robot(RandomSpec{6, DhConvention::Modified, 0.4, true, true}, 3));
  return rs;
}

// The Christoffel symbols from the definition C^i_jk = 1/2 (dM_ij/dq_k + dM_ik/dq_j - dM_jk/dq_i), with the
// derivatives of the CRBA mass matrix by central differences (step 1e-6: truncation ~1e-12, rounding ~1e-10).
std::vector<double> christoffel_by_definition(const Robot& r, const Eigen::VectorXd& q) {
  const int n = r.dof();
  const double h = 1e-6;
  std::vector<Eigen::MatrixXd> dM(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k) {
    Eigen::VectorXd qp = q, qm = q;
    qp[k] += h;
    qm[k] -= h;
    dM[static_cast<std::size_t>(k)] = (mass_matrix_crba(r, qp) - mass_matrix_crba(r, qm)) / (2 * h);
  }
  std::vector<double> C(static_cast<std::size_t>(n * n * n));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
        C[static_cast<std::size_t>((i * n + j) * n + k)] =
            0.5 * (dM[static_cast<std::size_t>(k)](i, j) + dM[static_cast<std::size_t>(j)](i, k) -
                   dM[static_cast<std::size_t>(i)](j, k));
  return C;
}

TEST(Explicit, StrobingAgreesWithLagrangeCrbaAndDalembert) {
  std::mt19937 rng(5);
  for (const Robot& r : robots()) {
    const ModelT<double> m = model_of(r);
    const int n = r.dof();
    for (int s = 0; s < 5; ++s) {
      const State st = random_state(r, rng);
      const JointInputs<double> in = joint_inputs(r, st.q, st.qd, st.qdd);
      const ExplicitDynamics<double> ex = strobe(m, in);
      const LagrangeCoefficients<double> le = lagrange_coefficients(m, in);
      const DalembertTerms<double> da = dalembert_terms(m, in);
      const Eigen::MatrixXd crba = mass_matrix_crba(r, st.q);
      const double scale = std::max(1.0, crba.cwiseAbs().maxCoeff());
      for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
          EXPECT_NEAR(ex.M_at(i, j), crba(i, j), kExact * scale) << r.name;
          EXPECT_NEAR(le.D_at(i, j), crba(i, j), kExact * scale) << r.name;
          // d'Alembert's D has no rotor inertia (seed 002 eq. 4.2): it is added at the joint.
          const double Ia = i == j ? r.links[static_cast<std::size_t>(i)].Ia : 0.0;
          EXPECT_NEAR(da.D_at(i, j) + Ia, crba(i, j), kExact * scale) << r.name;
          for (int k = 0; k < n; ++k) EXPECT_NEAR(ex.C_at(i, j, k), le.h_at(i, j, k), kExact * scale) << r.name;
        }
        EXPECT_NEAR(ex.G[static_cast<std::size_t>(i)], le.c[static_cast<std::size_t>(i)], kExact * 100) << r.name;
        EXPECT_NEAR(ex.G[static_cast<std::size_t>(i)], da.c[static_cast<std::size_t>(i)], kExact * 100) << r.name;
      }
    }
  }
}

// The explicit form reproduces the torques: tau = M qdd + qd^T C^i qd + G + friction + wrench.
TEST(Explicit, ReassembledTorqueMatchesNewtonEuler) {
  std::mt19937 rng(6);
  for (const Robot& r : robots()) {
    const ModelT<double> m = model_of(r);
    const int n = r.dof();
    const State st = random_state(r, rng);
    const JointInputs<double> in = joint_inputs(r, st.q, st.qd, st.qdd);
    const ExplicitDynamics<double> ex = strobe(m, in);
    const Eigen::VectorXd ref = inverse_dynamics(r, st.q, st.qd, st.qdd);
    // friction and wrench: tau(q, qd, qdd) - tau without them is what strobing leaves out
    const Eigen::VectorXd rest = bias_torque(r, st.q, st.qd) - bias_torque(r, st.q, Eigen::VectorXd::Zero(n));
    Eigen::VectorXd tau(n);
    for (int i = 0; i < n; ++i) {
      double t = ex.G[static_cast<std::size_t>(i)];
      for (int j = 0; j < n; ++j) {
        t += ex.M_at(i, j) * st.qdd[j];
        for (int k = 0; k < n; ++k) t += ex.C_at(i, j, k) * st.qd[j] * st.qd[k];
      }
      tau[i] = t;
    }
    // rest = C(q,qd) qd + friction; the wrench and gravity are in both bias torques and cancel
    Eigen::VectorXd cqd(n);
    for (int i = 0; i < n; ++i) {
      double t = 0;
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) t += ex.C_at(i, j, k) * st.qd[j] * st.qd[k];
      cqd[i] = t;
    }
    const Eigen::VectorXd friction = rest - cqd;
    const Eigen::VectorXd wrench = bias_torque(r, st.q, Eigen::VectorXd::Zero(n)) - gravity_torque(r, st.q);
    EXPECT_LT(rel_diff(tau + friction + wrench, ref), kExact) << r.name;
  }
}

// C^i_jk from strobing equals the definition by derivatives of M, and the definition is symmetric in j, k.
// Tolerance 1e-6 relative: central differences of M with step 1e-6 (see christoffel_by_definition).
TEST(Christoffel, MatchesDefinitionAndIsSymmetric) {
  std::mt19937 rng(8);
  for (const Robot& r : robots()) {
    const ModelT<double> m = model_of(r);
    const int n = r.dof();
    const State st = random_state(r, rng);
    const ExplicitDynamics<double> ex = strobe(m, joint_inputs(r, st.q, st.qd, st.qdd));
    const std::vector<double> def = christoffel_by_definition(r, st.q);
    const double scale = std::max(1.0, mass_matrix_crba(r, st.q).cwiseAbs().maxCoeff());
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) {
          const double d = def[static_cast<std::size_t>((i * n + j) * n + k)];
          EXPECT_NEAR(ex.C_at(i, j, k), d, 1e-6 * scale) << r.name << " " << i << j << k;
          EXPECT_NEAR(d, def[static_cast<std::size_t>((i * n + k) * n + j)], 1e-6 * scale);
          EXPECT_EQ(ex.C_at(i, j, k), ex.C_at(i, k, j));
        }
  }
}

// N = dM/dt - 2 C(q, qd) is skew-symmetric along a trajectory q(t) = q0 + qd0 t + 1/2 qdd0 t^2, with
// C_ij = sum_k C^i_jk qd_k and dM/dt by central differences of M(q(t)) (step 1e-5: error ~1e-9 relative).
TEST(Christoffel, MdotMinusTwoCIsSkewAlongATrajectory) {
  std::mt19937 rng(9);
  for (const Robot& r : robots()) {
    const ModelT<double> m = model_of(r);
    const int n = r.dof();
    const State st = random_state(r, rng);
    auto q_at = [&](double t) { return Eigen::VectorXd(st.q + st.qd * t + 0.5 * st.qdd * t * t); };
    for (double t : {0.0, 0.1, 0.25}) {
      const Eigen::VectorXd q = q_at(t), qd = st.qd + st.qdd * t;
      const double h = 1e-5;
      const Eigen::MatrixXd Md = (mass_matrix_crba(r, q_at(t + h)) - mass_matrix_crba(r, q_at(t - h))) / (2 * h);
      const ExplicitDynamics<double> ex = strobe(m, joint_inputs(r, q, qd, qd), StrobeParts{false, true, false});
      Eigen::MatrixXd C = Eigen::MatrixXd::Zero(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          for (int k = 0; k < n; ++k) C(i, j) += ex.C_at(i, j, k) * qd[k];
      const Eigen::MatrixXd N = Md - 2 * C;
      const double scale = std::max(1.0, Md.cwiseAbs().maxCoeff());
      EXPECT_LT((N + N.transpose()).cwiseAbs().maxCoeff(), 1e-6 * scale) << r.name << " t=" << t;
      // and the check can fail: dM/dt - C is not skew in general
      if (n >= 2 && t == 0.0) {
        const Eigen::MatrixXd N1 = Md - C;
        EXPECT_GT((N1 + N1.transpose()).cwiseAbs().maxCoeff(), 1e-3 * scale) << r.name;
      }
    }
  }
}

}  // namespace
}  // namespace neaccel::ref::forms::test
