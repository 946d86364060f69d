#include "neaccel/dfg/functions.hpp"

#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/fast_forward.hpp"
#include "neaccel/dfg/khalil_k.hpp"
#include "neaccel/dfg/value.hpp"
#include "neaccel/ref/control/dual.hpp"
#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/forward.hpp"
#include "neaccel/ref/forms/strobe.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <random>
#include <string>

namespace neaccel::dfg {

const char* function_name(Function f) {
  switch (f) {
    case Function::Id: return "id";
    case Function::Fd: return "fd";
    case Function::FdKhalil: return "fd-khalil";
    case Function::FdStrobe: return "fd-strobe";
    case Function::Mass: return "mass";
    case Function::Dtau: return "dtau";
  }
  return "?";
}

std::vector<Function> all_functions() {
  return {Function::Id, Function::Fd, Function::FdKhalil, Function::FdStrobe, Function::Mass, Function::Dtau};
}

Function function_from_name(const std::string& s) {
  for (Function f : all_functions())
    if (s == function_name(f)) return f;
  throw Error("--function: unknown function '" + s + "' (expected id, fd, fd-khalil, fd-strobe, mass or dtau)");
}

namespace {

// The Newton-Euler recursion of `form` as a functor over any scalar (strobe.hpp's Id, Dual passes).
struct IdOf {
  Form form;
  template <class S>
  std::vector<S> operator()(const ref::ModelT<S>& m, const ref::JointInputs<S>& in) const {
    switch (form) {
      case Form::NE: return ref::newton_euler(m, in);
      case Form::Khalil: return ref::khalil_ne(m, in);
      case Form::KhalilK:
      case Form::KhalilMix: return khalil_k(m, in);
      case Form::ModifiedNE: break;
    }
    return ref::modified_ne(m, in);
  }
};

// Joint inputs of contract 3 (as joint_input_values) with qd and qdd optional (literal zeros when absent).
ref::JointInputs<Value> inputs_of(const ref::Robot& robot, bool with_qd, bool with_qdd) {
  Recorder& r = Recorder::current();
  const auto n = static_cast<std::size_t>(robot.dof());
  ref::JointInputs<Value> in;
  const Value zero(0.0);
  in.s.assign(n, zero);
  in.c.assign(n, zero);
  in.q.assign(n, zero);
  in.qd.assign(n, zero);
  in.qdd.assign(n, zero);
  in.sgn_qd.assign(n, zero);
  const std::vector<int> links = ref::coordinate_links(robot);  // per coordinate (mimic joints coupled)
  const std::vector<bool> coulomb = coulomb_coordinates(robot);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = std::to_string(i + 1);
    const ref::Link& L = robot.links[static_cast<std::size_t>(links[i])];
    if (L.joint == ref::JointType::Revolute) {
      in.s[i] = r.input("s" + k);
      in.c[i] = r.input("c" + k);
    } else {
      in.q[i] = r.input("q" + k);
    }
    if (with_qd) in.qd[i] = r.input("qd" + k);
    if (with_qdd) in.qdd[i] = r.input("qdd" + k);
    if (with_qd && coulomb[i]) in.sgn_qd[i] = r.input("sgn_qd" + k);
  }
  return in;
}

std::vector<Value> tau_inputs(const ref::Robot& robot) {
  std::vector<Value> tau;
  for (int i = 0; i < robot.dof(); ++i) tau.push_back(Recorder::current().input("tau" + std::to_string(i + 1)));
  return tau;
}

ref::ModelT<Value> model_of(const ref::Robot& robot, const ParamFn& params) {
  return ref::cast_model<Value>(robot, [&](int j, const std::string& name, double v) { return params(j, name, v); });
}

std::string m_name(std::size_t i, std::size_t j) { return "M" + std::to_string(i + 1) + "_" + std::to_string(j + 1); }

// M by strobing (seed 000 section 8), the lower triangle: lower[i][j] for i >= j.
std::vector<std::vector<Value>> strobe_lower(const ref::ModelT<Value>& m, const ref::JointInputs<Value>& in,
                                             Form form) {
  const ref::forms::ExplicitDynamics<Value> e =
      ref::forms::strobe(m, in, ref::forms::StrobeParts{true, false, false}, IdOf{form});
  const auto n = static_cast<std::size_t>(e.n);
  std::vector<std::vector<Value>> L(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j <= i; ++j) L[i].push_back(e.M_at(static_cast<int>(i), static_cast<int>(j)));
  return L;
}

// Solves M x = b by LDL^T (M symmetric positive definite, given by its lower triangle), row by row:
//   E_ik = M_ik - sum_{m<k} E_im L_km  (= L_ik D_k),  L_ik = E_ik / D_k,  D_i = M_ii - sum_{k<i} E_ik L_ik,
// with one reciprocal per pivot; then L y = b, z = D^-1 y, L^T x = z.
std::vector<Value> ldlt_solve(const std::vector<std::vector<Value>>& M, const std::vector<Value>& b) {
  const std::size_t n = b.size();
  std::vector<std::vector<Value>> L(n), E(n);
  std::vector<Value> Dinv(n);
  for (std::size_t i = 0; i < n; ++i) {
    ref::ProvenanceScope<Value> scope(static_cast<int>(i) + 1, "ldlt", "seed000 section 9 (M = L D L^T)");
    L[i].resize(i);
    E[i].resize(i);
    Value d = M[i][i];
    for (std::size_t k = 0; k < i; ++k) {
      Value e = M[i][k];
      for (std::size_t m = 0; m < k; ++m) e = e - E[i][m] * L[k][m];
      E[i][k] = e;
      L[i][k] = e * Dinv[k];
      d = d - e * L[i][k];
    }
    Dinv[i] = reciprocal(d);
  }
  std::vector<Value> y(n), x(n);
  for (std::size_t i = 0; i < n; ++i) {
    ref::ProvenanceScope<Value> scope(static_cast<int>(i) + 1, "solve", "seed000 section 9 (L y = b)");
    Value v = b[i];
    for (std::size_t k = 0; k < i; ++k) v = v - L[i][k] * y[k];
    y[i] = v;
  }
  for (std::size_t i = n; i-- > 0;) {
    ref::ProvenanceScope<Value> scope(static_cast<int>(i) + 1, "solve", "seed000 section 9 (L^T x = D^-1 y)");
    Value v = y[i] * Dinv[i];
    for (std::size_t k = i + 1; k < n; ++k) v = v - L[k][i] * x[k];
    x[i] = v;
  }
  return x;
}

void outputs(Recorder& rec, const char* stem, const std::vector<Value>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) rec.output(stem + std::to_string(i + 1), v[i]);
}

Form strobe_form(Form form) { return form == Form::KhalilMix ? Form::KhalilK : form; }

}  // namespace

Graph trace_function(const ref::Robot& robot, Function f, Form form, const ParamFn& params, const TraceOptions& opt) {
  if (f == Function::Id) {
    if (form == Form::KhalilMix) return trace_khalil_mix(robot, params, opt);
    return trace_algorithm(robot, params, opt, IdOf{form});
  }
  const Form nf = strobe_form(form);
  Recorder rec(opt.hash_cons || f == Function::Dtau, opt.fold_literals);
  const auto n = static_cast<std::size_t>(robot.dof());
  switch (f) {
    case Function::Fd:
    case Function::FdKhalil: {
      const ref::JointInputs<Value> in = inputs_of(robot, true, false);
      const std::vector<Value> tau = tau_inputs(robot);
      const ref::ModelT<Value> m = model_of(robot, params);
      outputs(rec, "qdd", f == Function::Fd ? fast_forward(m, in, tau)
                                             : ref::forms::khalil_forward(m, in, tau));
      break;
    }
    case Function::FdStrobe: {
      ref::JointInputs<Value> in = inputs_of(robot, true, false);
      const std::vector<Value> tau = tau_inputs(robot);
      const ref::ModelT<Value> m = model_of(robot, params);
      const std::vector<Value> h = IdOf{nf}(m, in);  // qdd = 0 (literals): C qd + G + friction + wrench
      const std::vector<std::vector<Value>> M = strobe_lower(m, in, nf);
      std::vector<Value> rhs(n);
      for (std::size_t i = 0; i < n; ++i) {
        ref::ProvenanceScope<Value> scope(static_cast<int>(i) + 1, "solve", "seed000 section 9 (tau - C - G)");
        rhs[i] = tau[i] - h[i];
      }
      outputs(rec, "qdd", ldlt_solve(M, rhs));
      break;
    }
    case Function::Mass: {
      const ref::JointInputs<Value> in = inputs_of(robot, false, false);
      const ref::ModelT<Value> m = model_of(robot, params);
      const std::vector<std::vector<Value>> M = strobe_lower(m, in, nf);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j <= i; ++j) rec.output(m_name(i, j), M[i][j]);
      break;
    }
    case Function::Dtau: {
      using ref::control::Direction;
      const ref::JointInputs<Value> in = inputs_of(robot, true, true);
      const ref::ModelT<Value> m = model_of(robot, params);
      const ref::ModelT<ref::control::Dual<Value>> dm = ref::control::dual_model(m);
      std::vector<std::vector<Value>> dq(n), dqd(n);
      std::vector<Value> tau;
      for (std::size_t j = 0; j < n; ++j)
        for (Direction dir : {Direction::Q, Direction::Qd}) {
          const auto t = IdOf{nf}(dm, ref::control::dual_inputs(robot, in, dir, j));
          for (std::size_t i = 0; i < n; ++i) (dir == Direction::Q ? dq : dqd)[i].push_back(t[i].d);
          if (tau.empty())
            for (const auto& x : t) tau.push_back(x.v);
        }
      outputs(rec, "tau", tau);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
          const std::string ij = std::to_string(i + 1) + "_d";
          rec.output("dtau" + ij + "q" + std::to_string(j + 1), dq[i][j]);
          rec.output("dtau" + ij + "qd" + std::to_string(j + 1), dqd[i][j]);
        }
      break;
    }
    case Function::Id: break;
  }
  return rec.finish();
}

Graph trace_function(const ref::Robot& robot, Function f, Form form, Flavour flavour, const TraceOptions& opt) {
  return trace_function(robot, f, form, flavour_params(flavour, opt), opt);
}

Graph trace_function_base(const ref::Robot& robot, Function f, Form form, const TraceOptions& opt) {
  if (f != Function::Fd && f != Function::FdKhalil && form != Form::Khalil && form != Form::KhalilK &&
      form != Form::KhalilMix)
    throw Error(std::string("dfg: base parameters need a form linear in the inertial parameters (khalil, khalil-k "
                            "or khalil-mix), not ") + form_name(form));
  return trace_function(robot, f, form, base_param_fn(base_parameters(robot), opt), opt);
}

std::map<std::string, double> function_inputs(const ref::Robot& robot, const Eigen::VectorXd& q,
                                              const Eigen::VectorXd& qd, const Eigen::VectorXd& u) {
  std::map<std::string, double> m = robot_inputs(robot, q, qd, u);
  for (int i = 0; i < robot.dof(); ++i) m["tau" + std::to_string(i + 1)] = u(i);
  return m;
}

std::vector<double> function_input_vector(const Graph& g, const ref::Robot& robot, const Eigen::VectorXd& q,
                                          const Eigen::VectorXd& qd, const Eigen::VectorXd& u) {
  return bind_inputs(g, function_inputs(robot, q, qd, u));
}

std::vector<double> function_reference(const Graph& g, const ref::Robot& robot, Function f, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, const Eigen::VectorXd& u) {
  std::map<std::string, double> want;
  const int n = robot.dof();
  auto vec = [&](const char* stem, const Eigen::VectorXd& v) {
    for (int i = 0; i < n; ++i) want[stem + std::to_string(i + 1)] = v(i);
  };
  switch (f) {
    case Function::Id: vec("tau", ref::inverse_dynamics(robot, q, qd, u)); break;
    case Function::Fd:
    case Function::FdKhalil:
    case Function::FdStrobe: vec("qdd", ref::forward_dynamics(robot, q, qd, u)); break;
    case Function::Mass: {
      const Eigen::MatrixXd M = ref::mass_matrix_crba(robot, q);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) want[m_name(static_cast<std::size_t>(i), static_cast<std::size_t>(j))] = M(i, j);
      break;
    }
    case Function::Dtau: {
      vec("tau", ref::inverse_dynamics(robot, q, qd, u));
      Eigen::MatrixXd dq, dqd;
      ref::control::tau_jacobians(robot, q, qd, u, dq, dqd);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          const std::string ij = "dtau" + std::to_string(i + 1) + "_d";
          want[ij + "q" + std::to_string(j + 1)] = dq(i, j);
          want[ij + "qd" + std::to_string(j + 1)] = dqd(i, j);
        }
      break;
    }
  }
  std::vector<double> out;
  for (const Output& o : g.outputs) {
    const auto it = want.find(o.name);
    if (it == want.end())
      throw Error(std::string("dfg: ") + function_name(f) + " has no reference value for output '" + o.name + "'");
    out.push_back(it->second);
  }
  return out;
}

ref::Robot general_arm(int n, ref::DhConvention convention) {
  std::mt19937 rng(777);
  std::uniform_real_distribution<double> u(0.2, 0.9);
  ref::Robot r;
  r.name = "general-" + std::to_string(n);
  r.convention = convention;
  for (int i = 0; i < n; ++i) {
    ref::Link L;
    L.name = "l" + std::to_string(i + 1);
    L.parent = i - 1;
    L.a = u(rng), L.alpha = u(rng), L.d = u(rng), L.theta = u(rng), L.mass = 1 + u(rng);
    L.com = Eigen::Vector3d(u(rng), u(rng), u(rng));
    L.inertia << 1, 0.01, 0.02, 0.01, 1.1, 0.03, 0.02, 0.03, 1.2;
    r.links.push_back(L);
  }
  return r;
}

ParamFn general_arm_params() {
  return [](int, const std::string& name, double v) -> Value {
    Recorder& r = Recorder::current();
    const std::string base = name.substr(0, name.find_first_of("0123456789"));
    for (const char* lit : {"sgamma", "b", "cgamma", "gx", "gy", "fex", "fey", "fez", "nex", "ney", "nez", "Ia", "Fv", "Fc"})
      if (base == lit) return r.literal(v);
    return r.input(name);
  };
}

}  // namespace neaccel::dfg
