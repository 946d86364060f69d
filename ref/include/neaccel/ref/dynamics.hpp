// Rigid-body dynamics in double for users and tests: inverse dynamics in any of the three Newton-Euler forms,
// gravity and bias torques, the inertia matrix (strobing, seed 000 section 8, and composite rigid bodies), forward
// dynamics, a fixed-step RK4 simulator (seed 000 section 9) and the total energy.
//
// Torque model (all functions): tau = M(q) qdd + C(q, qd) qd + G(q) + Fv qd + Fc sgn(qd) + J^T(wrench), where M
// includes the rotor inertias Ia on its diagonal (seed 003 eq 9.94). Vectors have robot.dof() entries; a wrong
// length or a non-finite entry throws neaccel::Error naming the argument.
#pragma once

#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <functional>
#include <string>
#include <vector>

namespace neaccel::ref {

// The three recursions: Luh-Walker-Paul (seed 000 eqs 3.7-3.13), modified N-E (seed 000 eqs 7.1-7.6), Khalil's
// N-E linear in the inertial parameters (seed 003 eqs 9.84-9.94). They give the same torques.
enum class Form { NewtonEuler, ModifiedNE, Khalil };

// "ne", "modified-ne", "khalil"; parse_form throws neaccel::Error for anything else.
Form parse_form(const std::string& name);
std::string form_name(Form form);
std::vector<Form> all_forms();

// Joint torques tau(q, qd, qdd) (friction, rotor inertia, gravity and the robot's external wrench included).
Eigen::VectorXd inverse_dynamics(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd, Form form = Form::ModifiedNE);

// G(q): the torques that hold the arm still against gravity (no external wrench); = tau(q, 0, 0) without it.
Eigen::VectorXd gravity_torque(const Robot& robot, const Eigen::VectorXd& q, Form form = Form::ModifiedNE);

// h(q, qd) = C(q, qd) qd + G(q) + friction + wrench: one run with qdd = 0 (seed 000 section 8).
Eigen::VectorXd bias_torque(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                            Form form = Form::ModifiedNE);

// M(q) by strobing (seed 000 section 8): column j = tau(q, 0, e_j) with gravity, friction and wrench off.
Eigen::MatrixXd mass_matrix_strobing(const Robot& robot, const Eigen::VectorXd& q, Form form = Form::ModifiedNE);

// M(q) by the composite-rigid-body algorithm (Walker-Orin; trees via the parent index), in the base frame with 6D
// spatial inertias; independent of the Newton-Euler code.
Eigen::MatrixXd mass_matrix_crba(const Robot& robot, const Eigen::VectorXd& q);

// Forward dynamics qdd = M^-1 (tau - h(q, qd)) with Eigen's LDLT (M by CRBA, h by one N-E run).
Eigen::VectorXd forward_dynamics(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& tau, Form form = Form::ModifiedNE);

// World pose of every link frame (4x4 homogeneous transforms, base frame).
std::vector<Eigen::Matrix4d> link_poses(const Robot& robot, const Eigen::VectorXd& q);

// Total energy: kinetic 1/2 qd^T M qd (rotors included) plus potential -sum m_i g . c_i (base frame).
double total_energy(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd);

// A trajectory sampled at t_k = k dt, k = 0..steps.
struct Trajectory {
  std::vector<double> t;
  std::vector<Eigen::VectorXd> q, qd, tau;
};

// Torque as a function of (t, q, qd).
using TorqueFn = std::function<Eigen::VectorXd(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& qd)>;

// Fixed-step classic 4th-order Runge-Kutta on x = (q, qd), xdot = (qd, forward_dynamics(q, qd, tau(t, q, qd)))
// (seed 000 section 9: the dynamics in the loop of a simulator). steps = round(t_end / dt); dt > 0 and
// t_end >= 0 or Error. tau in the trajectory is the torque at the sample (at the start of each step).
Trajectory simulate(const Robot& robot, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, const TorqueFn& torque,
                    double dt, double t_end, Form form = Form::ModifiedNE);

// Forward dynamics qdd = f(q, qd, tau).
using ForwardFn =
    std::function<Eigen::VectorXd(const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& tau)>;
// The same RK4 with any forward dynamics (simulate uses forward_dynamics; ref/forms each of its methods).
Trajectory simulate_rk4(const Robot& robot, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                        const TorqueFn& torque, const ForwardFn& forward, double dt, double t_end);

// Checks that v has robot.dof() finite entries; throws Error("<what>: ...") otherwise.
void check_vector(const Robot& robot, const Eigen::VectorXd& v, const std::string& what);

}  // namespace neaccel::ref
