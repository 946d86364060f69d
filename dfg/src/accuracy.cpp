#include "neaccel/dfg/accuracy.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/dynamics.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <limits>

#include <cmath>
#include <random>

namespace neaccel::dfg {

namespace {

// Largest absolute error over the largest reference magnitude. A non-finite output or reference (nan, inf) is an
// infinite error, a failure against any tolerance: std::max drops a NaN operand, which would have reported 0.
double rel_error(const std::vector<double>& y, const std::vector<double>& ref) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    if (!std::isfinite(y[i]) || !std::isfinite(ref[i])) return std::numeric_limits<double>::infinity();
    err = std::max(err, std::abs(y[i] - ref[i]));
    scale = std::max(scale, std::abs(ref[i]));
  }
  return scale > 0 ? err / scale : err;
}

struct Accumulator {
  AccuracyResult r;
  double sum_sq = 0;
  void add(double e) {
    r.max_rel = std::max(r.max_rel, e);
    sum_sq += e * e;
  }
};

}  // namespace

std::vector<AccuracyResult> accuracy_report(const Graph& g, const ref::Robot& robot,
                                            const std::vector<FixedFormat>& formats, int samples, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Accumulator> acc(1 + formats.size());
  acc[0].r.format = "float";
  for (std::size_t k = 0; k < formats.size(); ++k) {
    check_format(formats[k]);
    acc[k + 1].r.format = to_string(formats[k]);
  }
  const int n = robot.dof();
  const std::vector<int> links = ref::coordinate_links(robot);  // the link of each coordinate
  for (int s = 0; s < samples; ++s) {
    Eigen::VectorXd q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) {
      const bool rev = robot.links[static_cast<std::size_t>(links[static_cast<std::size_t>(i)])].joint ==
                       ref::JointType::Revolute;
      q[i] = rev ? M_PI * u(rng) : 0.2 * u(rng);
      qd[i] = 2.0 * u(rng);
      qdd[i] = 5.0 * u(rng);
    }
    const std::vector<double> in = function_input_vector(g, robot, q, qd, qdd);  // tau<i> = qdd<i> draw
    const std::vector<double> ref = evaluate<double>(g, in);
    const std::vector<float> yf = evaluate<float>(g, convert_inputs<float>(in));
    acc[0].add(rel_error(std::vector<double>(yf.begin(), yf.end()), ref));
    for (std::size_t k = 0; k < formats.size(); ++k) {
      const Arithmetic<Fixed> ar{formats[k]};
      const std::vector<Fixed> v = evaluate_nodes<Fixed>(g, convert_inputs(in, ar), ar);
      std::vector<double> y;
      for (const Output& o : g.outputs) y.push_back(ar.to_double(v[o.node]));
      for (const Fixed& x : v)
        if (x.raw == formats[k].max_raw() || x.raw == formats[k].min_raw()) acc[k + 1].r.saturated = true;
      acc[k + 1].add(rel_error(y, ref));
    }
  }
  std::vector<AccuracyResult> out;
  for (Accumulator& a : acc) {
    a.r.rms_rel = samples > 0 ? std::sqrt(a.sum_sq / samples) : 0.0;
    out.push_back(a.r);
  }
  return out;
}

namespace {

double condition_number(const Eigen::MatrixXd& m) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(m, Eigen::EigenvaluesOnly);
  const Eigen::VectorXd ev = es.eigenvalues().cwiseAbs();
  return ev.minCoeff() > 0 ? ev.maxCoeff() / ev.minCoeff() : std::numeric_limits<double>::infinity();
}

}  // namespace

std::vector<FdState> fd_states(const ref::Robot& robot, int random, int near, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int n = robot.dof();
  const std::vector<int> links = ref::coordinate_links(robot);  // the link of each coordinate
  const auto draw = [&](FdState& s) {
    s.q.resize(n);
    s.qd.resize(n);
    s.qdd.resize(n);
    for (int i = 0; i < n; ++i) {
      const bool rev = robot.links[static_cast<std::size_t>(links[static_cast<std::size_t>(i)])].joint ==
                       ref::JointType::Revolute;
      s.q[i] = rev ? M_PI * u(rng) : 0.2 * u(rng);
      s.qd[i] = 2.0 * u(rng);
      s.qdd[i] = 5.0 * u(rng);
    }
  };
  std::vector<FdState> out;
  for (int k = 0; k < random; ++k) {
    FdState s;
    s.set = "random";
    draw(s);
    out.push_back(s);
  }
  if (near > 0) {
    FdState z;
    z.set = "zero";
    draw(z);
    z.q.setZero();
    out.push_back(z);
    if (n >= 6)
      for (int k = 0; k < near; ++k) {
        FdState s;
        s.set = "wrist";
        draw(s);
        s.q[4] = k % 2 == 0 ? 1e-3 : -1e-3;
        out.push_back(s);
      }
    std::vector<FdState> pool;
    for (int k = 0; k < 50 * near; ++k) {
      FdState s;
      s.set = "worst-cond";
      draw(s);
      s.cond = condition_number(ref::mass_matrix_crba(robot, s.q));
      pool.push_back(s);
    }
    std::stable_sort(pool.begin(), pool.end(), [](const FdState& a, const FdState& b) { return a.cond > b.cond; });
    for (int k = 0; k < near; ++k) out.push_back(pool[static_cast<std::size_t>(k)]);
  }
  for (FdState& s : out) {
    s.tau = ref::inverse_dynamics(robot, s.q, s.qd, s.qdd);
    s.cond = condition_number(ref::mass_matrix_crba(robot, s.q));
  }
  return out;
}

std::vector<double> fd_inputs(const Graph& g, const ref::Robot& robot, const FdState& s) {
  return function_input_vector(g, robot, s.q, s.qd, s.tau);
}

StateError float_error(const Graph& g, const std::vector<double>& in) {
  const std::vector<double> ref = evaluate<double>(g, in);
  const std::vector<float> yf = evaluate<float>(g, convert_inputs<float>(in));
  return {rel_error(std::vector<double>(yf.begin(), yf.end()), ref), false};
}

StateError fixed_error(const Graph& g, const std::vector<double>& in, const FixedFormat& f) {
  check_format(f);
  const std::vector<double> ref = evaluate<double>(g, in);
  const Arithmetic<Fixed> ar{f};
  const std::vector<Fixed> v = evaluate_nodes<Fixed>(g, convert_inputs(in, ar), ar);
  StateError e;
  std::vector<double> y;
  for (const Output& o : g.outputs) y.push_back(ar.to_double(v[o.node]));
  for (const Fixed& x : v)
    if (x.raw == f.max_raw() || x.raw == f.min_raw()) e.saturated = true;
  e.rel = rel_error(y, ref);
  return e;
}

FormatScan smallest_fixed_format(const Graph& g, const ref::Robot& robot, const std::vector<FdState>& states,
                                 double target, int min_width) {
  std::vector<std::vector<double>> ins;
  for (const FdState& s : states) ins.push_back(fd_inputs(g, robot, s));
  FormatScan scan;
  for (int w = std::max(1, min_width); w <= 32 && !scan.found; ++w) {
    WidthBest best;
    best.width = w;
    best.max_rel = std::numeric_limits<double>::infinity();
    std::vector<int> meeting;
    for (int f = 0; f <= w - 1; ++f) {
      const FixedFormat fmt{w - f, f};
      double worst = 0;
      // Stop a format as soon as it is worse than the best one at this width and misses the target.
      for (const auto& in : ins) {
        worst = std::max(worst, fixed_error(g, in, fmt).rel);
        if (worst > target && worst >= best.max_rel) break;
      }
      if (worst <= target) meeting.push_back(f);
      if (worst < best.max_rel) {
        best.max_rel = worst;
        best.best = fmt;
      }
    }
    scan.widths.push_back(best);
    if (!meeting.empty()) {
      scan.found = true;
      scan.format = best.best;
      scan.max_rel = best.max_rel;
      scan.fractions_meeting = meeting;
    }
  }
  return scan;
}

}  // namespace neaccel::dfg
