// Tracing a robot's inverse dynamics into a dfg::Graph.
//
// Inputs (contract 3), per joint i (1-based), in this order: revolute "s<i>", "c<i>" (sin/cos of q + theta),
// prismatic "q<i>"; "qd<i>", "qdd<i>"; "sgn_qd<i>" only when the link's Coulomb friction is non-zero. A joint is
// a generalized coordinate: a mimic joint (ref/robot.hpp Mimic) has no inputs or output of its own, the graph
// forms its position, velocity and acceleration from the joint it follows and adds its torque to that joint's
// (ref/model.hpp expand_joint_inputs, reduce_torques), so i counts the joints without the mimic joints. Then, in
// the general flavour, every robot parameter under cast_model's name ("XX3", "MY2", "a4", "salpha1", ...; see
// ref/model.hpp), and gravity "gx", "gy", "gz" unless TraceOptions::gravity_input is false. Outputs "tau<i>".
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/dfg/value.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/robot.hpp"

#include <functional>
#include <map>
#include <string>

namespace neaccel::dfg {

// The formulation traced: seed 000 section 7 (modified Newton-Euler), Luh-Walker-Paul Newton-Euler (seed 000
// section 4), Khalil's customised recursive form (seed 003 section 9.5), and Khalil's form with the moment term
// as Tr{U K Q} (dfg/khalil_k.hpp), and the per-link mix of the last two (khalil-mix: each link's moment in the form
// that makes the customised graph cheapest, chosen by counting; see trace_khalil_mix).
enum class Form { ModifiedNE, NE, Khalil, KhalilK, KhalilMix };
// General: robot parameters are run-time inputs (one datapath per robot shape). Custom: they are constants
// (folded by the passes, seed 003 section 9.6).
enum class Flavour { General, Custom };

const char* form_name(Form f);               // "modified-ne", "ne", "khalil", "khalil-k", "khalil-mix"
Form form_from_name(const std::string& s);   // throws neaccel::Error on an unknown name

struct TraceOptions {
  bool gravity_input = true;       // general flavour: gx, gy, gz are inputs (false: literal constants)
  bool wrench_input = false;       // fex..nez (external wrench on the last link) are inputs (false: literals,
                                   // so a zero wrench costs nothing, as in seed 000's counts)
  bool keep_zero_pattern = false;  // general flavour: geometric parameters (a, d, b, sin/cos of DH angles) that
                                   // are exactly 0 or +-1 stay constants (the robot's DH zero pattern is kept)
  bool hash_cons = false;          // share identical nodes while recording (CSE at build time)
  bool fold_literals = true;       // fold operations on the algorithm's literals as ref::Counted does (value.hpp)
};

// How a robot parameter enters the trace: f(j (1-based, 0 for gravity/wrench), name, value) -> Value.
using ParamFn = std::function<Value(int, const std::string&, double)>;

// The parameter function of a flavour (uses the current Recorder).
ParamFn flavour_params(Flavour flavour, const TraceOptions& opt);

// Declares and returns the joint inputs of contract 3 (uses the current Recorder). Entries a joint does not have
// (s, c of a prismatic joint, q of a revolute one, sgn_qd without Coulomb friction) are literal zeros.
ref::JointInputs<Value> joint_input_values(const ref::Robot& robot);
// Per coordinate: whether "sgn_qd<i>" is an input (the joint or a mimic joint following it has Coulomb friction).
std::vector<bool> coulomb_coordinates(const ref::Robot& robot);

// Records algo(model, joint inputs) -> torques (anything with size() and operator[]), outputs "tau<i>".
// The generic entry point: any templated algorithm of the form f(const ModelT<S>&, const JointInputs<S>&).
template <class Algo>
Graph trace_algorithm(const ref::Robot& robot, const ParamFn& params, const TraceOptions& opt, Algo&& algo) {
  Recorder rec(opt.hash_cons, opt.fold_literals);
  const ref::JointInputs<Value> in = joint_input_values(robot);
  const ref::ModelT<Value> model =
      ref::cast_model<Value>(robot, [&](int j, const std::string& name, double v) { return params(j, name, v); });
  const auto tau = algo(model, in);
  for (int i = 0; i < robot.dof(); ++i) rec.output("tau" + std::to_string(i + 1), tau[i]);
  return rec.finish();
}

template <class Algo>
Graph trace_algorithm(const ref::Robot& robot, Flavour flavour, const TraceOptions& opt, Algo&& algo) {
  return trace_algorithm(robot, flavour_params(flavour, opt), opt, std::forward<Algo>(algo));
}

// Values of every name a traced graph may read: the joint inputs of contract 3 for (q, qd, qdd) and every robot
// parameter under its cast_model name (gravity, wrench included).
std::map<std::string, double> robot_inputs(const ref::Robot& robot, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd);
// The input vector of `g` (Graph::inputs order) for that state; throws neaccel::Error on an unknown input name.
std::vector<double> robot_input_vector(const Graph& g, const ref::Robot& robot, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd);

// Khalil's form with a per-link choice of the moment term (khalil_k.hpp): J alpha + omega x (J omega) or Tr{U K Q}.
// The mask is chosen greedily from the better of all-K and all-J (flip one link at a time while the customised
// graph's mul + add falls, ties to fewer mul), so after customise() it is never costlier than khalil-k or than the
// all-J mask (khalil's counts: the same operations, summed in another order). Returns the untouched graph of the best
// mask; `mask` (if given) receives it (true = J form).
Graph trace_khalil_mix(const ref::Robot& robot, const ParamFn& params, const TraceOptions& opt,
                       std::vector<bool>* mask = nullptr);

// The untouched graph of `form` for `robot` (no passes applied).
Graph trace(const ref::Robot& robot, Form form, Flavour flavour, const TraceOptions& opt = {});

}  // namespace neaccel::dfg
