// Phi, Gamma (matrix exponential) against closed forms and the truncated series of seed 004 section 4.1; the
// least-squares gain (eq 10), its closed-loop poles, and the rank condition (eqs 11-12).
#include "neaccel/ref/control/discrete.hpp"
#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <gtest/gtest.h>

#include <cmath>

namespace ctl = neaccel::ref::control;

namespace {
// Double integrator q'' = u / m: A = [[0, 1], [0, 0]], B = [0, 1/m]^T.
void double_integrator(double m, Eigen::MatrixXd& A, Eigen::MatrixXd& B) {
  A = Eigen::MatrixXd::Zero(2, 2);
  A(0, 1) = 1.0;
  B = Eigen::MatrixXd::Zero(2, 1);
  B(1, 0) = 1.0 / m;
}
}  // namespace

TEST(Discretize, DoubleIntegratorClosedForm) {
  // Phi = [[1, T], [0, 1]], Gamma = [T^2/2, T]^T / m (exact; tolerance: a few ulps of the Pade approximant).
  Eigen::MatrixXd A, B;
  double_integrator(2.0, A, B);
  const double T = 0.01;
  const ctl::DiscreteModel d = ctl::discretize(A, B, T);
  EXPECT_NEAR(d.Phi(0, 0), 1.0, 1e-15);
  EXPECT_NEAR(d.Phi(0, 1), T, 1e-15);
  EXPECT_NEAR(d.Phi(1, 0), 0.0, 1e-15);
  EXPECT_NEAR(d.Phi(1, 1), 1.0, 1e-15);
  EXPECT_NEAR(d.Gamma(0, 0), T * T / 4.0, 1e-17);
  EXPECT_NEAR(d.Gamma(1, 0), T / 2.0, 1e-16);
}

TEST(Discretize, HarmonicOscillatorClosedForm) {
  // A = [[0, 1], [-w^2, 0]]: Phi = [[cos wT, sin wT / w], [-w sin wT, cos wT]], Gamma (B = e2) =
  // [(1 - cos wT)/w^2, sin wT / w]^T.
  const double w = 7.0, T = 0.05;
  Eigen::MatrixXd A(2, 2), B(2, 1);
  A << 0, 1, -w * w, 0;
  B << 0, 1;
  const ctl::DiscreteModel d = ctl::discretize(A, B, T);
  const double c = std::cos(w * T), s = std::sin(w * T);
  EXPECT_NEAR(d.Phi(0, 0), c, 1e-14);
  EXPECT_NEAR(d.Phi(0, 1), s / w, 1e-14);
  EXPECT_NEAR(d.Phi(1, 0), -w * s, 1e-13);
  EXPECT_NEAR(d.Gamma(0, 0), (1 - c) / (w * w), 1e-15);
  EXPECT_NEAR(d.Gamma(1, 0), s / w, 1e-14);
}

TEST(Discretize, SeriesAgreesForSmallPeriodOnRobots) {
  // Seed 004 eqs 13-14 truncated at order m: the remainder is about (|A| T)^(m+1) / (m+1)!. For the PUMA 560 and
  // planar2 linearisations |A| T < 0.5 at T = 1 ms, so m = 10 leaves < 1e-10 relative; m = 1 (Phi = I + AT)
  // must be visibly worse (> 1e-9), which shows the comparison can fail.
  for (const char* name : {"planar2", "puma560"}) {
    const neaccel::ref::Robot r = neaccel::ref::load_robot(name);
    const int n = r.dof();
    const ctl::Linearization lin = ctl::linearize(r, Eigen::VectorXd::LinSpaced(n, 0.2, 1.0),
                                                  Eigen::VectorXd::LinSpaced(n, 0.5, -0.5),
                                                  Eigen::VectorXd::LinSpaced(n, -1.0, 1.0));
    const double T = 1e-3;
    ASSERT_LT(lin.A.cwiseAbs().rowwise().sum().maxCoeff() * T, 0.5) << name;
    const ctl::DiscreteModel e = ctl::discretize(lin.A, lin.B, T);
    const ctl::DiscreteModel s = ctl::discretize_series(lin.A, lin.B, T, 10);
    EXPECT_LE((e.Phi - s.Phi).cwiseAbs().maxCoeff(), 1e-10 * e.Phi.cwiseAbs().maxCoeff()) << name;
    EXPECT_LE((e.Gamma - s.Gamma).cwiseAbs().maxCoeff(), 1e-10 * e.Gamma.cwiseAbs().maxCoeff()) << name;
    const ctl::DiscreteModel s1 = ctl::discretize_series(lin.A, lin.B, T, 1);
    EXPECT_GT((e.Phi - s1.Phi).cwiseAbs().maxCoeff(), 1e-9 * e.Phi.cwiseAbs().maxCoeff()) << name;
  }
}

TEST(FeedbackGain, DoubleIntegratorPoles) {
  // Hand derivation (docs/control.md): with Gamma = g = [T^2/2, T]^T / m and Q = diag(r / T^2, 1), the closed
  // loop Phi - Gamma K = (I - g (g^T Q g)^-1 g^T Q) Phi has eigenvalues 0 and 2 - (3r/4 + 1)/(r/4 + 1):
  // r = 1 -> 0.6, r = 4 -> 0 (deadbeat), r = 0 -> 1 (velocity-only weighting never corrects position).
  Eigen::MatrixXd A, B;
  double_integrator(3.0, A, B);
  const double T = 0.005;
  const ctl::DiscreteModel d = ctl::discretize(A, B, T);
  for (double r : {1.0, 4.0, 0.25}) {
    const Eigen::MatrixXd K = ctl::feedback_gain(d, Eigen::Vector2d(r / (T * T), 1.0));
    const Eigen::VectorXcd eig = Eigen::EigenSolver<Eigen::MatrixXd>(ctl::closed_loop(d, K)).eigenvalues();
    const double expected = 2.0 - (0.75 * r + 1.0) / (0.25 * r + 1.0);
    const double lo = std::min(std::abs(eig[0]), std::abs(eig[1])), hi = std::max(std::abs(eig[0]), std::abs(eig[1]));
    EXPECT_NEAR(lo, 0.0, 1e-6) << r;  // eigenvalue tolerance: the product is computed from O(1/T^2) entries
    EXPECT_NEAR(hi, std::abs(expected), 1e-6) << r;
    EXPECT_NEAR(ctl::spectral_radius(ctl::closed_loop(d, K)), std::abs(expected), 1e-6) << r;
  }
}

TEST(FeedbackGain, RankConditionViolatedIsAClearError) {
  // Two joints but the second torque column of B is zero: rank(Gamma) = 1 < n = 2 (seed 004 eqs 11-12).
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(4, 4);
  A.topRightCorner(2, 2).setIdentity();
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(4, 2);
  B(2, 0) = 1.0;
  const ctl::DiscreteModel d = ctl::discretize(A, B, 0.01);
  try {
    (void)ctl::feedback_gain(d, Eigen::Vector4d(1, 1, 1, 1));
    FAIL() << "expected neaccel::Error";
  } catch (const neaccel::Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank(Gamma^T Q Gamma) = 1 < n = 2"), std::string::npos) << e.what();
  }
  // Full rank when both columns act.
  B(3, 1) = 1.0;
  EXPECT_NO_THROW((void)ctl::feedback_gain(ctl::discretize(A, B, 0.01), Eigen::Vector4d(1, 1, 1, 1)));
}

TEST(FeedbackGain, BadWeightsAndPeriodsAreErrors) {
  Eigen::MatrixXd A, B;
  double_integrator(1.0, A, B);
  const ctl::DiscreteModel d = ctl::discretize(A, B, 0.01);
  EXPECT_THROW((void)ctl::feedback_gain(d, Eigen::Vector2d(1.0, 0.0)), neaccel::Error);
  EXPECT_THROW((void)ctl::feedback_gain(d, Eigen::Vector2d(1.0, NAN)), neaccel::Error);
  EXPECT_THROW((void)ctl::feedback_gain(d, Eigen::Vector3d(1.0, 1.0, 1.0)), neaccel::Error);
  EXPECT_THROW((void)ctl::discretize(A, B, 0.0), neaccel::Error);
  EXPECT_THROW((void)ctl::discretize(A, B, -1.0), neaccel::Error);
  EXPECT_THROW((void)ctl::discretize_series(A, B, 0.01, -1), neaccel::Error);
}

TEST(FeedbackGain, IllConditionedPumaGainMatchesNormalEquations) {
  // The PUMA 560's wrist inertias are ~1e-4 of the base's, so Gamma^T Q Gamma is badly conditioned. The QR solution must have full rank, equal eq 10's normal-equation
  // formula (to 1e-6 relative: the normal equations lose ~10 digits), and place the model's closed loop inside
  // the unit circle.
  const neaccel::ref::Robot r = neaccel::ref::load_robot("puma560");
  Eigen::VectorXd q(6);
  q << 0.6, 0.185, 3.74, -0.6, 1.385, -0.6;
  const ctl::Linearization lin = ctl::linearize(r, q, Eigen::VectorXd::Zero(6), Eigen::VectorXd::Zero(6));
  const double T = 0.005;
  const ctl::DiscreteModel d = ctl::discretize(lin.A, lin.B, T);
  Eigen::VectorXd Q = Eigen::VectorXd::Ones(12);
  Q.head(6).setConstant(2.0 / (T * T));
  const Eigen::MatrixXd K = ctl::feedback_gain(d, Q);
  const Eigen::MatrixXd GtQ = d.Gamma.transpose() * Q.asDiagonal();
  const Eigen::MatrixXd K_normal = (GtQ * d.Gamma).ldlt().solve(GtQ * d.Phi);
  EXPECT_LE((K - K_normal).cwiseAbs().maxCoeff(), 1e-6 * K.cwiseAbs().maxCoeff());
  EXPECT_LT(ctl::spectral_radius(ctl::closed_loop(d, K)), 1.0);
  // Gamma^T Q Gamma's condition number is ~7e9 here (the PUMA trajectory of scenario.hpp reaches the same): a
  // rank test on it with a 1e-10 relative threshold misfired in the fixed:12.8 loop (regression).
}
