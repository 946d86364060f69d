#include "neaccel/dfg/base_params.hpp"

#include "neaccel/dfg/khalil_k.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/khalil_ne.hpp"

#include <Eigen/Dense>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <random>

namespace neaccel::dfg {

namespace {

// The standard inertial parameters of a link, in Khalil's order, and the preference classes.
const char* const kNames[] = {"XX", "XY", "XZ", "YY", "YZ", "ZZ", "MX", "MY", "MZ", "M", "Ia"};
constexpr int kPerLink = 11;

double& field(ref::LinkParams<double>& L, int k) {
  double* f[] = {&L.XX, &L.XY, &L.XZ, &L.YY, &L.YZ, &L.ZZ, &L.MX, &L.MY, &L.MZ, &L.M, &L.Ia};
  return *f[k];
}

// 0: kept first (XX, XY, XZ, YZ, ZZ, MX, MY), 1: Ia, 2: grouped first (YY, MZ, M) (seed 003 section 9.4.2).
int preference(int k) {
  if (k == 10) return 1;
  if (k == 3 || k == 8 || k == 9) return 2;
  return 0;
}

struct Column {
  int link;  // 0-based
  int k;     // index into kNames
  std::string name() const { return kNames[k] + std::to_string(link + 1); }
};

// W: rows = samples * n, one column per candidate parameter.
Eigen::MatrixXd regressor(const ref::Robot& robot, const std::vector<Column>& cols, int samples, std::uint64_t seed) {
  const int n = robot.dof();
  ref::ModelT<double> zero = ref::model_of(robot);
  for (auto& L : zero.links) {
    for (int k = 0; k < kPerLink; ++k) field(L, k) = 0.0;
    L.Fv = L.Fc = 0.0;
  }
  // tau = W(q, qd, qdd) phi + J^T (f_e, n_e): the wrench term does not depend on phi, so W is taken without it.
  zero.fex = zero.fey = zero.fez = zero.nex = zero.ney = zero.nez = 0.0;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd W(samples * n, static_cast<Eigen::Index>(cols.size()));
  ref::NeData<double> data;
  data.resize(robot.links.size());
  for (int s = 0; s < samples; ++s) {
    Eigen::VectorXd q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) q[i] = M_PI * u(rng), qd[i] = 2 * u(rng), qdd[i] = 2 * u(rng);
    const ref::JointInputs<double> in = ref::joint_inputs(robot, q, qd, qdd);
    for (std::size_t c = 0; c < cols.size(); ++c) {
      ref::ModelT<double> m = zero;
      field(m.links[static_cast<std::size_t>(cols[c].link)], cols[c].k) = 1.0;
      // Per coordinate: the recursion runs per link, mimic joints coupled around it (ref/model.hpp).
      const std::vector<double> tau = ref::on_coordinates(m, in, [&](const ref::JointInputs<double>& links) {
        ref::khalil_ne(m, links, data);
        return data.tau;
      });
      for (int i = 0; i < n; ++i) W(s * n + i, static_cast<Eigen::Index>(c)) = tau[static_cast<std::size_t>(i)];
    }
  }
  return W;
}

std::string coefficient_text(double c, bool first) {
  const double a = std::abs(c);
  std::string s = first ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
  if (std::abs(a - 1.0) > 1e-9) s += fmt::format("{:.6g} ", a);
  return s;
}

}  // namespace

BaseParameters base_parameters(const ref::Robot& robot, int samples, std::uint64_t seed) {
  const int n = robot.dof();
  const ref::ModelT<double> model = ref::model_of(robot);
  // Candidates: non-zero standard parameters, in preference order (class, then link, then Khalil's order).
  std::vector<Column> cols;
  for (int cls = 0; cls < 3; ++cls)
    for (int j = 0; j < static_cast<int>(model.links.size()); ++j)
      for (int k = 0; k < kPerLink; ++k) {
        ref::LinkParams<double> L = model.links[static_cast<std::size_t>(j)];
        if (preference(k) == cls && std::abs(field(L, k)) > 1e-12) cols.push_back({j, k});
      }
  if (samples <= 0) samples = std::max(20, 3 * static_cast<int>(cols.size()) / std::max(n, 1) + 10);
  const Eigen::MatrixXd W = regressor(robot, cols, samples, seed);
  const double max_norm = W.colwise().norm().maxCoeff();
  // Greedy selection with Gram-Schmidt: relative residual below 1e-8 = dependent (exact dependencies leave
  // ~1e-15; independent columns on random states leave > 1e-4).
  std::vector<Eigen::VectorXd> Q;
  std::vector<std::size_t> sel, dep;
  BaseParameters bp;
  for (std::size_t c = 0; c < cols.size(); ++c) {
    Eigen::VectorXd w = W.col(static_cast<Eigen::Index>(c));
    const double norm = w.norm();
    if (norm <= 1e-10 * max_norm) {
      bp.no_effect.push_back(cols[c].name());
      continue;
    }
    for (int pass = 0; pass < 2; ++pass)
      for (const Eigen::VectorXd& qv : Q) w -= qv.dot(w) * qv;
    if (w.norm() > 1e-8 * norm) {
      Q.push_back(w / w.norm());
      sel.push_back(c);
    } else {
      dep.push_back(c);
    }
  }
  // beta: W_sel beta = W_dep (least squares; exact in theory).
  Eigen::MatrixXd Ws(W.rows(), static_cast<Eigen::Index>(sel.size())), Wd(W.rows(), static_cast<Eigen::Index>(dep.size()));
  for (std::size_t i = 0; i < sel.size(); ++i) Ws.col(static_cast<Eigen::Index>(i)) = W.col(static_cast<Eigen::Index>(sel[i]));
  for (std::size_t i = 0; i < dep.size(); ++i) Wd.col(static_cast<Eigen::Index>(i)) = W.col(static_cast<Eigen::Index>(dep[i]));
  const Eigen::MatrixXd beta = Ws.colPivHouseholderQr().solve(Wd);
  auto value = [&](const Column& c) {
    ref::LinkParams<double> L = model.links[static_cast<std::size_t>(c.link)];
    return field(L, c.k);
  };
  bp.rank = static_cast<int>(sel.size());
  for (std::size_t i = 0; i < sel.size(); ++i) {
    BaseParameter b;
    const Column& c = cols[sel[i]];
    b.standard = c.name();
    b.value = value(c);
    for (std::size_t d = 0; d < dep.size(); ++d) {
      double coef = beta(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(d));
      if (std::abs(coef) < 1e-9) continue;
      if (std::abs(coef - std::round(coef)) < 1e-9) coef = std::round(coef);
      b.grouped.emplace_back(cols[dep[d]].name(), coef);
      b.value += coef * value(cols[dep[d]]);
    }
    b.name = b.grouped.empty() ? b.standard : std::string(kNames[c.k]) + "R" + std::to_string(c.link + 1);
    if (!b.grouped.empty()) {
      std::string r = b.name + " = " + b.standard;
      for (const auto& [name, coef] : b.grouped) r += coefficient_text(coef, false) + name;
      bp.relations.push_back(r);
    }
    bp.base.push_back(std::move(b));
  }
  return bp;
}

Graph trace_base(const ref::Robot& robot, const BaseParameters& bp, Form form, const TraceOptions& opt) {
  if (form != Form::Khalil && form != Form::KhalilK && form != Form::KhalilMix)
    throw Error(std::string("dfg: base parameters need a form linear in the inertial parameters (khalil, "
                            "khalil-k or khalil-mix), not ") + form_name(form));
  const ParamFn params = base_param_fn(bp, opt);
  if (form == Form::Khalil)
    return trace_algorithm(robot, params, opt, [](const auto& m, const auto& in) { return ref::khalil_ne(m, in); });
  if (form == Form::KhalilMix) return trace_khalil_mix(robot, params, opt);
  return trace_algorithm(robot, params, opt, [](const auto& m, const auto& in) { return khalil_k(m, in); });
}

ParamFn base_param_fn(const BaseParameters& bp, const TraceOptions& opt) {
  std::map<std::string, double> base;
  for (const BaseParameter& b : bp.base) base[b.standard] = b.value;
  return [base, wrench_input = opt.wrench_input](int, const std::string& name, double v) -> Value {
    Recorder& r = Recorder::current();
    std::size_t k = name.size();
    while (k > 0 && std::isdigit(static_cast<unsigned char>(name[k - 1]))) --k;
    const std::string stem = name.substr(0, k);
    for (const char* s : kNames)
      if (stem == s) {
        auto it = base.find(name);
        return r.constant(it == base.end() ? 0.0 : it->second);
      }
    if (stem == "fex" || stem == "fey" || stem == "fez" || stem == "nex" || stem == "ney" || stem == "nez")
      return wrench_input ? r.input(name) : r.literal(v);
    return r.constant(v);
  };
}

}  // namespace neaccel::dfg
