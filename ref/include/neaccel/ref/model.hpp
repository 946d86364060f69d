// The robot's parameters in a scalar type S, as the templated algorithms consume them.
//
// One recursion serves three purposes (DESIGN.md): S = double gives the reference numbers, S = Counted the
// operation counts, S = dfg::Value the dataflow graph. The structure (joint types, parents, DH convention)
// stays in ref::Robot; every number an algorithm multiplies by is a ModelT<S> field, so that tracing decides
// per parameter whether it is a run-time input ("general" hardware) or a folded constant ("customised").
#pragma once

#include "neaccel/ref/robot.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace neaccel::ref {

// Parameters of link j in the scalar S. Names follow seed 003 (Khalil): XX..ZZ, MX..MZ, M, Ia, Fv, Fc.
template <class S>
struct LinkParams {
  // Geometry. Angles enter only through their sine and cosine (trigonometry stays outside the accelerator).
  S a, d, b;                 // DH lengths (see robot.hpp)
  S salpha, calpha;          // sin, cos of alpha
  S sgamma, cgamma;          // sin, cos of gamma (modified DH trees; 0 and 1 otherwise)
  S stheta0, ctheta0;        // sin, cos of the constant theta of a prismatic joint (unused for revolute)
  // The rotation of a placed joint (robot.hpp Placement), row by row: rxy = R(x, y). Literal zeros for a DH link
  // (no parameter: they are never read there).
  S rxx, rxy, rxz, ryx, ryy, ryz, rzx, rzy, rzz;
  // Inertial parameters about the frame origin (seed 003 eq. 9.18-9.21): J_j and MS_j, M_j.
  S XX, XY, XZ, YY, YZ, ZZ;  // J_j, inertia tensor about the origin of frame j
  S MX, MY, MZ;              // MS_j = M_j * centre of mass
  S M;                       // mass
  // The same body about its centre of mass (seed 000 uses these: rbar, I_c).
  S cx, cy, cz;              // centre of mass
  S Ixx, Ixy, Ixz, Iyy, Iyz, Izz;  // inertia about the centre of mass
  S Ia, Fv, Fc;              // rotor inertia, viscous and Coulomb friction
  // Derived constants the Newton-Euler forms use (constants of the link, so computed once here, not per call):
  // p: position of this frame's origin relative to the parent's, for a revolute joint (for a prismatic joint it
  //    depends on q and is formed inside the algorithms).
  //    Standard DH: r_i = p*_i in frame i = [a, d salpha, d calpha]            (seed 000 eq 3.9, r_i)
  //    Modified DH: P_j in the parent frame = Rz(gamma) [a, -salpha d, b + calpha d]  (seed 003 eq 9.87, P_j)
  //    Placement:   p in the parent frame (robot.hpp Placement)
  S px, py, pz;
  // mr = m (rbar + r) (seed 000 eq 7.6) for standard DH with a revolute joint; MS_j for modified DH.
  S mrx, mry, mrz;
  // K = integral of rho rho^T dm about the centre of mass = (tr(I)/2) 1 - I (seed 000 eq 2.35, K_i in eq 7.6).
  S Kxx, Kyy, Kzz, Kxy, Kxz, Kyz;
};

template <class S>
struct ModelT {
  const Robot* robot = nullptr;  // structure: joint types, parents, convention
  std::vector<LinkParams<S>> links;
  S gx, gy, gz;                  // gravity in the base frame
  S fex, fey, fez, nex, ney, nez;  // external wrench on the last link (robot.hpp)
};

// Names of the parameters as used in graph inputs and reports, e.g. "XX3", "MY2", "a4", "salpha1" (1-based j).
// f(j, name, value) -> S decides how each number enters the scalar world.
template <class S, class F>
ModelT<S> cast_model(const Robot& robot, F&& f);

// The identity cast: ModelT<double> with the robot's numbers (payload merged into its link).
ModelT<double> model_of(const Robot& robot);

// Joint-space inputs in S. Revolute joint: s = sin(q + theta), c = cos(q + theta) (the full DH angle);
// prismatic joint: q (d_total = d + q is formed inside). sgn_qd = sign(qd), for Coulomb friction.
// One entry per generalized coordinate (robot.dof(); coordinate k is link coordinate_links(robot)[k]). Without mimic
// joints that is one entry per link. The recursions run on one entry per link: expand_joint_inputs below.
template <class S>
struct JointInputs {
  std::vector<S> s, c, q, qd, qdd, sgn_qd;  // each of size dof; unused entries are S(0)
};

// Mimic joints (robot.hpp Mimic): the generalized coordinates are the links without a mimic, in link order.
// coordinate_links: the link of each coordinate; coordinate_of_links: for each link, its coordinate or the
// coordinate of the joint it follows. Without mimic joints both are the identity.
std::vector<int> coordinate_links(const Robot& robot);
std::vector<int> coordinate_of_links(const Robot& robot);
// G (links x dof): the link velocities from the coordinate velocities, qd_links = G qd (row of a mimic link:
// its multiplier in the followed joint's column). The mass matrix in the coordinates is G^T M_links G.
Eigen::MatrixXd coupling_matrix(const Robot& robot);
// The position of every joint (links.size() entries: mimic joints at multiplier * q_followed + offset).
Eigen::VectorXd link_positions(const Robot& robot, const Eigen::VectorXd& q);

// The per-link inputs the recursions read, from the per-coordinate ones: a mimic link gets multiplier times its
// followed joint's qd, qdd (and sign times its sgn_qd); a prismatic mimic q = multiplier q_f + offset; a revolute
// mimic (multiplier +-1) sin and cos of multiplier (q_f + theta_f) + delta, delta = offset + theta - multiplier
// theta_f, by the angle-sum formula from s_f, c_f (so the trigonometry stays outside the accelerator). Only +, -, *
// on S, so the coupling is traced into the graph with the recursion. Returns `in` when the robot has no mimic.
template <class S>
JointInputs<S> expand_joint_inputs(const Robot& robot, const JointInputs<S>& in);
// The torques of the coordinates from the torques of the links: tau_k = tau_link(k) + sum over the links that
// follow it of multiplier * tau_mimic (G^T tau). Returns `tau` when the robot has no mimic.
template <class S>
std::vector<S> reduce_torques(const Robot& robot, const std::vector<S>& tau);
// f(per-link inputs) -> per-link torques, run on the coordinates: reduce(f(expand(in))); f(in) without mimic joints.
template <class S, class F>
std::vector<S> on_coordinates(const ModelT<S>& model, const JointInputs<S>& in, F&& f) {
  if (model.robot == nullptr || !model.robot->has_mimic()) return f(in);
  return reduce_torques(*model.robot, f(expand_joint_inputs(*model.robot, in)));
}

// Inputs in double from joint positions, velocities and accelerations.
JointInputs<double> joint_inputs(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd);
// Same, into existing storage (no allocation once `out` has the right sizes): for control loops and benchmarks.
void joint_inputs(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd,
                  JointInputs<double>& out);

}  // namespace neaccel::ref
#include "neaccel/ref/model_impl.hpp"  // IWYU pragma: export
