#include "neaccel/dfg/trace.hpp"

#include "neaccel/ref/error.hpp"

#include <cctype>

namespace neaccel::dfg {

const char* form_name(Form f) {
  switch (f) {
    case Form::ModifiedNE: return "modified-ne";
    case Form::NE: return "ne";
    case Form::Khalil: return "khalil";
  }
  return "?";
}

Form form_from_name(const std::string& s) {
  for (Form f : {Form::ModifiedNE, Form::NE, Form::Khalil})
    if (s == form_name(f)) return f;
  throw Error("dfg: unknown form '" + s + "' (expected modified-ne, ne or khalil)");
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
         s == "stheta" || s == "ctheta";
}

bool is_wrench(const std::string& s) {
  return s == "fex" || s == "fey" || s == "fez" || s == "nex" || s == "ney" || s == "nez";
}
}  // namespace

ParamFn flavour_params(Flavour flavour, const TraceOptions& opt) {
  return [flavour, opt](int /*j*/, const std::string& name, double v) -> Value {
    Recorder& r = Recorder::current();
    const std::string s = stem(name);
    if (is_wrench(s)) return opt.wrench_input ? r.input(name) : r.constant(v);
    if (flavour == Flavour::Custom) return r.constant(v);
    if (s == "gx" || s == "gy" || s == "gz") return opt.gravity_input ? r.input(name) : r.constant(v);
    if (opt.keep_zero_pattern && is_geometric(s) && (v == 0.0 || v == 1.0 || v == -1.0)) return r.constant(v);
    return r.input(name);
  };
}

ref::JointInputs<Value> joint_input_values(const ref::Robot& robot) {
  Recorder& r = Recorder::current();
  const auto n = static_cast<std::size_t>(robot.dof());
  ref::JointInputs<Value> in;
  const Value zero = r.constant(0.0);
  in.s.assign(n, zero);
  in.c.assign(n, zero);
  in.q.assign(n, zero);
  in.qd.assign(n, zero);
  in.qdd.assign(n, zero);
  in.sgn_qd.assign(n, zero);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string k = std::to_string(i + 1);
    const ref::Link& L = robot.links[i];
    if (L.joint == ref::JointType::Revolute) {
      in.s[i] = r.input("s" + k);
      in.c[i] = r.input("c" + k);
    } else {
      in.q[i] = r.input("q" + k);
    }
    in.qd[i] = r.input("qd" + k);
    in.qdd[i] = r.input("qdd" + k);
    if (L.Fc != 0.0) in.sgn_qd[i] = r.input("sgn_qd" + k);
  }
  return in;
}

Graph trace(const ref::Robot& /*robot*/, Form form, Flavour /*flavour*/, const TraceOptions& /*opt*/) {
  throw Error(std::string("dfg: form '") + form_name(form) + "' is not available yet (waiting for ref-dyn)");
}

}  // namespace neaccel::dfg
