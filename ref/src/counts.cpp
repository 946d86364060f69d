#include "neaccel/ref/counts.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <cmath>
#include <random>

namespace neaccel::ref {

namespace {

std::vector<Counted> unknowns(const std::vector<double>& v) {
  std::vector<Counted> r;
  r.reserve(v.size());
  for (double x : v) r.push_back(Counted::unknown(x));
  return r;
}

}  // namespace

Robot general_arm(int n, DhConvention convention) {
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> u(0.2, 0.9);
  Robot r;
  r.name = "general-" + std::to_string(n) + "R";
  r.convention = convention;
  for (int i = 0; i < n; ++i) {
    Link L;
    L.parent = i - 1;
    L.a = u(rng), L.alpha = u(rng), L.d = u(rng), L.theta = u(rng);
    L.mass = 1.0 + u(rng);
    L.com = Eigen::Vector3d(u(rng), u(rng), u(rng));
    const double p = u(rng), q = u(rng), s = u(rng);
    L.inertia << q + s, 0.01, 0.02, 0.01, p + s, 0.03, 0.02, 0.03, p + q;
    L.Ia = u(rng), L.Fv = u(rng), L.Fc = u(rng);
    r.links.push_back(L);
  }
  r.gravity = Eigen::Vector3d(0, 0, -9.81);
  return r;
}

ModelT<Counted> counted_model(const Robot& robot, bool friction, bool gravity) {
  return cast_model<Counted>(robot, [&](int, const std::string& name, double v) {
    const std::string base = name.substr(0, name.find_first_of("0123456789"));
    if (base == "sgamma" || base == "b") return Counted(0.0);  // chains: no gamma, b
    if (base == "cgamma") return Counted(1.0);
    if (base == "gx" || base == "gy") return Counted(0.0);     // gravity along base z
    if (base == "gz" && !gravity) return Counted(0.0);
    if (base == "fex" || base == "fey" || base == "fez" || base == "nex" || base == "ney" || base == "nez")
      return Counted(0.0);                                     // f_{n+1} = n_{n+1} = 0
    if (!friction && (base == "Ia" || base == "Fv" || base == "Fc")) return Counted(0.0);
    return Counted::unknown(v);
  });
}

JointInputs<Counted> counted_inputs(const Robot& robot) {
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(robot.dof(), 0.1, 0.7);
  const JointInputs<double> d = joint_inputs(robot, q, q, q);
  JointInputs<Counted> in;
  in.s = unknowns(d.s), in.c = unknowns(d.c), in.q = unknowns(d.q), in.qd = unknowns(d.qd);
  in.qdd = unknowns(d.qdd), in.sgn_qd = unknowns(d.sgn_qd);
  return in;
}

FormCounts count_ops(Form form, int n, const CountOptions& options) {
  if (n < 1) throw Error("counts: n must be at least 1");
  const Robot robot = general_arm(n, options.convention);
  const ModelT<Counted> model = counted_model(robot, options.friction);
  const JointInputs<Counted> in = counted_inputs(robot);
  counting::reset();
  switch (form) {
    case Form::NewtonEuler: (void)newton_euler(model, in); break;
    case Form::ModifiedNE: (void)modified_ne(model, in); break;
    case Form::Khalil: (void)khalil_ne(model, in); break;
  }
  FormCounts out;
  out.form = form;
  out.n = n;
  out.total = counting::totals();
  out.per_quantity = counting::by_quantity();
  counting::reset();
  return out;
}

std::vector<PaperCount> paper_counts(Form form, int n) {
  const double x = n;
  switch (form) {
    case Form::NewtonEuler:
      return {{"seed 000 Table 8.1", "108n - 12", "100n - 9", 108 * x - 12, 100 * x - 9},
              {"seed 003 Table 9.5 (Luh 80b)", "137n - 22", "101n - 11", 137 * x - 22, 101 * x - 11}};
    case Form::ModifiedNE:
      return {{"seed 000 Table 8.1", "90n - 27", "88n - 24", 90 * x - 27, 88 * x - 24}};
    case Form::Khalil:
      return {{"seed 003 9.5.3 (Luh 80b - Kleinfinger U_j saving)", "116n - 22", "95n - 11", 116 * x - 22,
               95 * x - 11}};
  }
  return {};
}

}  // namespace neaccel::ref
