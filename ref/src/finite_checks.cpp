#include "finite_checks.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/model.hpp"

#include <Eigen/Cholesky>
#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace neaccel::ref::internal {

std::string value_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{}", x);
}

void require_finite(const Eigen::VectorXd& v, const std::string& stage, const std::string& quantity,
                    const std::string& symbol) {
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw Error(fmt::format("{}: {} {}_{} is not finite ({}) for the given state", stage, quantity, symbol, i + 1,
                              value_text(v[i])));
}

void require_finite(const Eigen::MatrixXd& M, const std::string& stage) {
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = 0; i < M.rows(); ++i)
      if (!std::isfinite(M(i, j)))
        throw Error(fmt::format("{}: mass matrix entry M({},{}) is not finite ({}) at this q", stage, i + 1, j + 1,
                                value_text(M(i, j))));
}

namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

std::string link_text(const Robot& robot, std::size_t k) {
  const std::string& name = robot.links[k].name;
  return name.empty() ? fmt::format("link {}", k + 1) : fmt::format("link {} '{}'", k + 1, name);
}

// Why M is singular: the first joint whose diagonal entry is zero, and whether the links it moves are all empty.
std::string singular_cause(const Robot& robot, const Eigen::MatrixXd& M, Eigen::Index zero_pivots) {
  const Eigen::Index n = M.rows();
  const double tol = static_cast<double>(n) * kEps * M.diagonal().cwiseAbs().maxCoeff();
  const std::vector<Link> links = detail::links_with_payload(robot);
  const std::vector<int> coordinate_link = coordinate_links(robot);  // M is per coordinate (mimic joints coupled)
  for (Eigen::Index i = 0; i < n; ++i) {
    if (std::abs(M(i, i)) > tol) continue;
    const auto k = static_cast<std::size_t>(coordinate_link[static_cast<std::size_t>(i)]);
    // Link k and its descendants (a parent's index is smaller than its children's).
    std::vector<bool> carried(links.size(), false);
    carried[k] = true;
    std::size_t count = 1;
    bool empty = true;
    for (std::size_t m = k; m < links.size(); ++m) {
      if (m > k && (links[m].parent < 0 || !carried[static_cast<std::size_t>(links[m].parent)])) continue;
      carried[m] = true;
      count += m > k;
      empty = empty && links[m].mass == 0 && links[m].inertia.isZero(0) && links[m].Ia == 0;
    }
    const bool rev = links[k].joint == JointType::Revolute;
    if (!empty)
      return fmt::format("joint {} moves no inertia {} its axis", i + 1, rev ? "about" : "along");
    if (count == 1)
      return fmt::format("joint {}: {} has zero mass and inertia and no rotor inertia", i + 1, link_text(robot, k));
    return fmt::format("joint {}: {} and the {} it carries have zero mass and inertia and no rotor inertia", i + 1,
                       link_text(robot, k), count == 2 ? std::string("link") : fmt::format("{} links", count - 1));
  }
  return fmt::format("{} of its {} LDLT pivots are zero", zero_pivots, n);
}

// Throws the singular-matrix error when the factorisation has a zero pivot.
void check_pivots(const Robot& robot, const Eigen::MatrixXd& M, const Eigen::LDLT<Eigen::MatrixXd>& ldlt,
                  const std::string& stage) {
  const Eigen::VectorXd D = ldlt.vectorD();
  if (D.size() == 0) return;
  const double tol = static_cast<double>(D.size()) * kEps * D.cwiseAbs().maxCoeff();
  const Eigen::Index zero = (D.array().abs() <= tol).count();
  if (zero == 0) return;
  throw Error(fmt::format("{}: the mass matrix of robot '{}' is singular at this q ({})", stage, robot.name,
                          singular_cause(robot, M, zero)));
}

}  // namespace

void require_nonsingular(const Robot& robot, const Eigen::MatrixXd& M, const std::string& stage) {
  check_pivots(robot, M, Eigen::LDLT<Eigen::MatrixXd>(M), stage);
}

Eigen::VectorXd solve_mass(const Robot& robot, const Eigen::MatrixXd& M, const Eigen::VectorXd& rhs,
                           const std::string& stage) {
  require_finite(M, stage);
  const Eigen::LDLT<Eigen::MatrixXd> ldlt(M);
  check_pivots(robot, M, ldlt, stage);
  if (ldlt.info() != Eigen::Success || (ldlt.vectorD().array() <= 0).any())
    throw Error(fmt::format("{}: the mass matrix of robot '{}' is not positive definite at this q", stage,
                            robot.name));
  const Eigen::VectorXd qdd = ldlt.solve(rhs);
  require_finite(qdd, stage, "acceleration", "qdd");
  return qdd;
}

}  // namespace neaccel::ref::internal
