#include "neaccel/dfg/accuracy.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/trace.hpp"

#include <cmath>
#include <random>

namespace neaccel::dfg {

namespace {

double rel_error(const std::vector<double>& y, const std::vector<double>& ref) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
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
  for (int s = 0; s < samples; ++s) {
    Eigen::VectorXd q(n), qd(n), qdd(n);
    for (int i = 0; i < n; ++i) {
      const bool rev = robot.links[static_cast<std::size_t>(i)].joint == ref::JointType::Revolute;
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

}  // namespace neaccel::dfg
