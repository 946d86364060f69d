// Dynamics functions other than inverse dynamics as dataflow graphs, traced from the same templated
// recursions the reference uses (ref/forms, ref/control), with dfg::Value as the scalar. docs/functions.md.
//
//   id         tau = ID(q, qd, qdd): the inverse dynamics of trace.hpp (the form chosen there). Outputs tau<i>.
//   fd         qdd = FD(q, qd, tau), O(n): seed 001's recursive elimination (ref::forms::nasser_forward) with its
//              structure explicit (fast_forward.hpp), one division per joint (1 / (Z^T A* Z + Ia)). Outputs qdd<i>.
//   fd-khalil  the same with seed 003 section 9.7.2's symbols (ref::forms::khalil_forward).
//   fd-strobe  seed 000 section 9: h = C qd + G (+ friction, wrench) by one Newton-Euler pass with qdd = 0, M by
//              strobing (column j = ID(q, 0, e_j) without gravity; only the entries on and below the diagonal are
//              used, M is symmetric), then M qdd = tau - h by LDL^T (n divisions: one reciprocal per pivot).
//              Outputs qdd<i>.
//   mass       M(q) by strobing: outputs M<i>_<j> for i >= j (1-based; the upper triangle is its mirror).
//   dtau       tau with d tau / d q and d tau / d qd at fixed qdd (seed 004 eq 20): the Newton-Euler recursion
//              in ref::control::Dual<dfg::Value>, one dual pass per direction (2n), the value part shared by
//              hash-consing while recording. Outputs tau<i>, dtau<i>_dq<j>, dtau<i>_dqd<j>.
//
// Inputs (contract 3 names, see trace.hpp): s<i>, c<i> / q<i> for every function; qd<i> except for mass;
// sgn_qd<i> where the link has Coulomb friction (except mass); qdd<i> for id and dtau; tau<i> for the forward
// functions. Then the robot parameters as the flavour decides (trace.hpp).
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>

#include <map>
#include <string>
#include <vector>

namespace neaccel::dfg {

enum class Function { Id, Fd, FdKhalil, FdStrobe, Mass, Dtau };

const char* function_name(Function f);  // "id", "fd", "fd-khalil", "fd-strobe", "mass", "dtau"
// Throws neaccel::Error naming the valid choices on an unknown name.
Function function_from_name(const std::string& s);
std::vector<Function> all_functions();

// The untouched graph of `f` for `robot` (no passes). `form` is the Newton-Euler recursion used by id, by the
// strobing and h pass of fd-strobe and mass, and by dtau (khalil-mix is taken as khalil-k outside id); fd and
// fd-khalil ignore it.
Graph trace_function(const ref::Robot& robot, Function f, Form form, const ParamFn& params,
                     const TraceOptions& opt = {});
Graph trace_function(const ref::Robot& robot, Function f, Form form, Flavour flavour, const TraceOptions& opt = {});

// The customised graph of `f` in the base inertial parameters (base_params.hpp; M, h and tau are preserved exactly
// by the regrouping, so every function may use it). Untouched.
Graph trace_function_base(const ref::Robot& robot, Function f, Form form = Form::KhalilK,
                          const TraceOptions& opt = {});

// Values of every name a function's graph may read: robot_inputs(q, qd, u) (u as qdd) and tau<i> = u_i (u is
// qdd for id and dtau, tau for the forward functions, ignored by mass).
std::map<std::string, double> function_inputs(const ref::Robot& robot, const Eigen::VectorXd& q,
                                              const Eigen::VectorXd& qd, const Eigen::VectorXd& u);
std::vector<double> function_input_vector(const Graph& g, const ref::Robot& robot, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& qd, const Eigen::VectorXd& u);

// The reference values of a function's outputs in double, in the graph's output order, from ref/ code that does
// not share the traced path where ref has one: fd, fd-khalil and fd-strobe: ref::forward_dynamics (composite rigid
// bodies + Eigen LDLT); mass: ref::mass_matrix_crba; dtau: ref::inverse_dynamics and
// ref::control::tau_jacobians (Dual<double>); id: ref::inverse_dynamics. Throws neaccel::Error on an output name
// it does not know.
std::vector<double> function_reference(const Graph& g, const ref::Robot& robot, Function f, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, const Eigen::VectorXd& u);

// The papers' general n-link arm for counting (as seed 000 Table 8.5, seed 001): n revolute joints, every DH and
// inertial parameter a run-time input (general_arm_params), gravity along base z (gx = gy = 0 literal), no wrench,
// friction or rotor inertia (literal zeros). The numbers are arbitrary non-special values. In the modified
// convention the link frame is the joint frame the forward recursions work in, so the inertial parameters enter
// as given (seed 001 and seed 003 state them in that frame); in the standard one the forward recursions rotate
// each link's inertia into its joint frame at run time (ref/forms/joint_frames.hpp).
ref::Robot general_arm(int n, ref::DhConvention convention = ref::DhConvention::Standard);
ParamFn general_arm_params();

}  // namespace neaccel::dfg
