// Checks on the results of the double-precision dynamics (ref/src only): where the mathematics is finite, a result
// that is not is an error naming the quantity, and a singular mass matrix is an error naming its cause, instead of
// nan, inf or a pseudo-inverse's 0 printed with success.
#pragma once

#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <string>

namespace neaccel::ref::internal {

// "nan", "inf" or "-inf" for a non-finite x; the shortest round-trip text otherwise.
std::string value_text(double x);

// Throws Error("<stage>: <quantity> <symbol>_<i> is not finite (<value>) for the given state") at the first
// non-finite entry of v (i from 1).
void require_finite(const Eigen::VectorXd& v, const std::string& stage, const std::string& quantity,
                    const std::string& symbol);

// Throws Error("<stage>: mass matrix entry M(i,j) is not finite (<value>) at this q") at the first non-finite entry.
void require_finite(const Eigen::MatrixXd& M, const std::string& stage);

// Throws Error("<stage>: the mass matrix of robot '<name>' is singular at this q (<cause>)") when M (n x n, from
// CRBA or strobing) has a zero LDLT pivot, within n * machine epsilon of its largest: the cause names the joint
// whose links carry no inertia (all of them with zero mass, zero inertia and no rotor inertia) when there is one.
// Returns otherwise (M may still be indefinite: solve_mass checks that).
void require_nonsingular(const Robot& robot, const Eigen::MatrixXd& M, const std::string& stage);

// qdd = M^-1 rhs by LDLT, with M finite, nonsingular and positive definite, and the result finite; each failure is
// an Error naming it.
Eigen::VectorXd solve_mass(const Robot& robot, const Eigen::MatrixXd& M, const Eigen::VectorXd& rhs,
                           const std::string& stage);

}  // namespace neaccel::ref::internal
