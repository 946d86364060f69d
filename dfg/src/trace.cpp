#include "neaccel/dfg/trace.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/khalil_k.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <cctype>

namespace neaccel::dfg {

const char* form_name(Form f) {
  switch (f) {
    case Form::ModifiedNE: return "modified-ne";
    case Form::NE: return "ne";
    case Form::Khalil: return "khalil";
    case Form::KhalilK: return "khalil-k";
    case Form::KhalilMix: return "khalil-mix";
  }
  return "?";
}

Form form_from_name(const std::string& s) {
  for (Form f : {Form::ModifiedNE, Form::NE, Form::Khalil, Form::KhalilK, Form::KhalilMix})
    if (s == form_name(f)) return f;
  throw Error("--form: unknown form '" + s + "' (expected modified-ne, ne, khalil, khalil-k or khalil-mix)");
}

namespace {
// "salpha3" -> "salpha"
std::string stem(const std::string& name) {
  std::size_t k = name.size();
  while (k > 0 && std::isdigit(static_cast<unsigned char>(name[k - 1]))) --k;
  return name.substr(0, k);
}

bool is_geometric(const std::string& s) {
  return s == "a" || s == "d" || s == "b" || s == "salpha" || s == "calpha" || s == "sgamma" || s == "cgamma" ||
         s == "stheta" || s == "ctheta" || s == "px" || s == "py" || s == "pz" || s == "rxx" || s == "rxy" ||
         s == "rxz" || s == "ryx" || s == "ryy" || s == "ryz" || s == "rzx" || s == "rzy" || s == "rzz";
}

bool is_wrench(const std::string& s) {
  return s == "fex" || s == "fey" || s == "fez" || s == "nex" || s == "ney" || s == "nez";
}
}  // namespace

ParamFn flavour_params(Flavour flavour, const TraceOptions& opt) {
  return [flavour, opt](int /*j*/, const std::string& name, double v) -> Value {
    Recorder& r = Recorder::current();
    const std::string s = stem(name);
    // A wrench (or, in the general flavour, gravity) that is not an input is fixed hardware: a literal.
    if (is_wrench(s)) return opt.wrench_input ? r.input(name) : r.literal(v);
    if (flavour == Flavour::Custom) return r.constant(v);
    if (s == "gx" || s == "gy" || s == "gz") return opt.gravity_input ? r.input(name) : r.literal(v);
    if (opt.keep_zero_pattern && is_geometric(s) && (v == 0.0 || v == 1.0 || v == -1.0)) return r.constant(v);
    return r.input(name);
  };
}

ref::JointInputs<Value> joint_input_values(const ref::Robot& robot) {
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
  const std::vector<int> links = ref::coordinate_links(robot);
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
    in.qd[i] = r.input("qd" + k);
    in.qdd[i] = r.input("qdd" + k);
    if (coulomb[i]) in.sgn_qd[i] = r.input("sgn_qd" + k);
  }
  return in;
}

std::vector<bool> coulomb_coordinates(const ref::Robot& robot) {
  std::vector<bool> out(static_cast<std::size_t>(robot.dof()), false);
  const std::vector<int> coord = ref::coordinate_of_links(robot);
  for (std::size_t l = 0; l < robot.links.size(); ++l)
    if (robot.links[l].Fc != 0.0) out[static_cast<std::size_t>(coord[l])] = true;
  return out;
}

std::map<std::string, double> robot_inputs(const ref::Robot& robot, const Eigen::VectorXd& q,
                                           const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd) {
  std::map<std::string, double> m;
  const ref::JointInputs<double> in = ref::joint_inputs(robot, q, qd, qdd);
  for (std::size_t i = 0; i < static_cast<std::size_t>(robot.dof()); ++i) {
    const std::string k = std::to_string(i + 1);
    m["s" + k] = in.s[i];
    m["c" + k] = in.c[i];
    m["q" + k] = in.q[i];
    m["qd" + k] = in.qd[i];
    m["qdd" + k] = in.qdd[i];
    m["sgn_qd" + k] = in.sgn_qd[i];
  }
  ref::cast_model<double>(robot, [&](int, const std::string& name, double v) { return m[name] = v; });
  return m;
}

std::vector<double> robot_input_vector(const Graph& g, const ref::Robot& robot, const Eigen::VectorXd& q,
                                       const Eigen::VectorXd& qd, const Eigen::VectorXd& qdd) {
  return bind_inputs(g, robot_inputs(robot, q, qd, qdd));
}

Graph trace_khalil_mix(const ref::Robot& robot, const ParamFn& params, const TraceOptions& opt,
                       std::vector<bool>* mask_out) {
  auto traced = [&](const std::vector<bool>& mask) {
    return trace_algorithm(robot, params, opt, [&mask](const auto& m, const auto& in) { return khalil_k(m, in, mask); });
  };
  auto cost = [&](const std::vector<bool>& mask) {
    const OpCounts c = count_ops(customise(traced(mask)));
    return std::make_pair(c.mul() + c.add(), c.mul());
  };
  // Start from the better of all-K (khalil-k) and all-J (khalil's counts), so the result is never worse than either.
  std::vector<bool> mask(robot.links.size(), false);
  auto best = cost(mask);
  const std::vector<bool> all_j(robot.links.size(), true);
  if (const auto c = cost(all_j); c < best) {
    best = c;
    mask = all_j;
  }
  for (bool improved = true; improved;) {
    improved = false;
    for (std::size_t k = 0; k < mask.size(); ++k) {
      mask[k] = !mask[k];
      const auto c = cost(mask);
      if (c < best) {
        best = c;
        improved = true;
      } else {
        mask[k] = !mask[k];
      }
    }
  }
  if (mask_out) *mask_out = mask;
  return traced(mask);
}

Graph trace(const ref::Robot& robot, Form form, Flavour flavour, const TraceOptions& opt) {
  switch (form) {
    case Form::ModifiedNE:
      return trace_algorithm(robot, flavour, opt, [](const auto& m, const auto& in) { return ref::modified_ne(m, in); });
    case Form::NE:
      return trace_algorithm(robot, flavour, opt, [](const auto& m, const auto& in) { return ref::newton_euler(m, in); });
    case Form::Khalil:
      return trace_algorithm(robot, flavour, opt, [](const auto& m, const auto& in) { return ref::khalil_ne(m, in); });
    case Form::KhalilK:
      return trace_algorithm(robot, flavour, opt, [](const auto& m, const auto& in) { return khalil_k(m, in); });
    case Form::KhalilMix:
      return trace_khalil_mix(robot, flavour_params(flavour, opt), opt);
  }
  throw Error("dfg: unknown form");
}

}  // namespace neaccel::dfg
