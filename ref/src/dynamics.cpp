#include "neaccel/ref/dynamics.hpp"

#include "finite_checks.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include <cmath>
#include <utility>

namespace neaccel::ref {

Form parse_form(const std::string& name) {
  if (name == "ne") return Form::NewtonEuler;
  if (name == "modified-ne") return Form::ModifiedNE;
  if (name == "khalil") return Form::Khalil;
  throw Error("--form: unknown form '" + name + "' (expected ne, modified-ne or khalil)");
}

std::string form_name(Form form) {
  switch (form) {
    case Form::NewtonEuler: return "ne";
    case Form::ModifiedNE: return "modified-ne";
    case Form::Khalil: return "khalil";
  }
  return "?";
}

std::vector<Form> all_forms() { return {Form::NewtonEuler, Form::ModifiedNE, Form::Khalil}; }

void check_vector(const Robot& robot, const Eigen::VectorXd& v, const std::string& what) {
  if (v.size() != robot.dof())
    throw Error(what + ": expected " + std::to_string(robot.dof()) + " values for robot '" + robot.name + "', got " +
                std::to_string(v.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) throw Error(what + ": entry " + std::to_string(i + 1) + " is not finite");
}

namespace {

Eigen::VectorXd run(const ModelT<double>& model, const JointInputs<double>& in, Form form) {
  std::vector<double> tau;
  switch (form) {
    case Form::NewtonEuler: tau = newton_euler(model, in); break;
    case Form::ModifiedNE: tau = modified_ne(model, in); break;
    case Form::Khalil: tau = khalil_ne(model, in); break;
  }
  return Eigen::Map<const Eigen::VectorXd>(tau.data(), static_cast<Eigen::Index>(tau.size()));
}

Robot without_gravity_and_wrench(const Robot& robot, bool keep_gravity) {
  Robot r = robot;
  if (!keep_gravity) r.gravity.setZero();
  r.f_e.setZero();
  r.n_e.setZero();
  return r;
}

Eigen::Matrix3d skew(const Eigen::Vector3d& v) {
  Eigen::Matrix3d m;
  m << 0, -v.z(), v.y(), v.z(), 0, -v.x(), -v.y(), v.x(), 0;
  return m;
}

}  // namespace

Eigen::VectorXd inverse_dynamics(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& qdd, Form form) {
  check_vector(robot, q, "q");
  check_vector(robot, qd, "qd");
  check_vector(robot, qdd, "qdd");
  const Eigen::VectorXd tau = run(model_of(robot), joint_inputs(robot, q, qd, qdd), form);
  internal::require_finite(tau, "inverse dynamics", "torque", "tau");
  return tau;
}

Eigen::VectorXd gravity_torque(const Robot& robot, const Eigen::VectorXd& q, Form form) {
  check_vector(robot, q, "q");
  const Robot r = without_gravity_and_wrench(robot, true);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(robot.dof());
  const Eigen::VectorXd g = run(model_of(r), joint_inputs(r, q, zero, zero), form);
  internal::require_finite(g, "gravity torques", "torque", "G");
  return g;
}

namespace {
Eigen::VectorXd bias(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Form form,
                     const std::string& stage) {
  check_vector(robot, q, "q");
  check_vector(robot, qd, "qd");
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(robot.dof());
  const Eigen::VectorXd h = run(model_of(robot), joint_inputs(robot, q, qd, zero), form);
  internal::require_finite(h, stage, "bias torque (Coriolis, centrifugal, gravity, friction)", "h");
  return h;
}
}  // namespace

Eigen::VectorXd bias_torque(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd, Form form) {
  return bias(robot, q, qd, form, "bias torques");
}

Eigen::MatrixXd mass_matrix_strobing(const Robot& robot, const Eigen::VectorXd& q, Form form) {
  check_vector(robot, q, "q");
  const Robot r = without_gravity_and_wrench(robot, false);
  const ModelT<double> model = model_of(r);
  const int n = robot.dof();
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  Eigen::MatrixXd M(n, n);
  for (int j = 0; j < n; ++j) M.col(j) = run(model, joint_inputs(r, q, zero, Eigen::VectorXd::Unit(n, j)), form);
  internal::require_finite(M, "strobing");
  return M;
}

std::vector<Eigen::Matrix4d> link_poses(const Robot& robot, const Eigen::VectorXd& q) {
  check_vector(robot, q, "q");
  const Eigen::VectorXd ql = link_positions(robot, q);  // mimic joints at multiplier q_followed + offset
  std::vector<Eigen::Matrix4d> T(robot.links.size());
  for (std::size_t i = 0; i < robot.links.size(); ++i) {
    const Link& L = robot.links[i];
    const bool rev = L.joint == JointType::Revolute;
    const double th = rev ? L.theta + ql[static_cast<Eigen::Index>(i)] : L.theta;
    const double d = rev ? L.d : L.d + ql[static_cast<Eigen::Index>(i)];
    Eigen::Affine3d X = Eigen::Affine3d::Identity();
    if (L.placement) {
      X.translate(L.placement->p).rotate(L.placement->R);
      X.rotate(Eigen::AngleAxisd(th, Eigen::Vector3d::UnitZ())).translate(Eigen::Vector3d(0, 0, d));
    } else if (robot.convention == DhConvention::Standard) {
      X.rotate(Eigen::AngleAxisd(th, Eigen::Vector3d::UnitZ())).translate(Eigen::Vector3d(0, 0, d));
      X.translate(Eigen::Vector3d(L.a, 0, 0)).rotate(Eigen::AngleAxisd(L.alpha, Eigen::Vector3d::UnitX()));
    } else {
      X.rotate(Eigen::AngleAxisd(L.gamma, Eigen::Vector3d::UnitZ())).translate(Eigen::Vector3d(0, 0, L.b));
      X.rotate(Eigen::AngleAxisd(L.alpha, Eigen::Vector3d::UnitX())).translate(Eigen::Vector3d(L.a, 0, 0));
      X.rotate(Eigen::AngleAxisd(th, Eigen::Vector3d::UnitZ())).translate(Eigen::Vector3d(0, 0, d));
    }
    T[i] = (L.parent < 0 ? Eigen::Matrix4d::Identity() : T[static_cast<std::size_t>(L.parent)]) * X.matrix();
  }
  return T;
}

Eigen::MatrixXd mass_matrix_crba(const Robot& robot, const Eigen::VectorXd& q) {
  const std::vector<Eigen::Matrix4d> T = link_poses(robot, q);
  const std::vector<Link> links = detail::links_with_payload(robot);
  const int n = static_cast<int>(links.size());  // per link; reduced to the coordinates at the end
  using Mat6 = Eigen::Matrix<double, 6, 6>;
  using Vec6 = Eigen::Matrix<double, 6, 1>;
  std::vector<Mat6> Ic(static_cast<std::size_t>(n));
  std::vector<Vec6> s(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const Link& L = links[k];
    const Eigen::Matrix3d R = T[k].block<3, 3>(0, 0);
    // Joint axis and a point on it, in the base frame (standard DH: z_{i-1} through O_{i-1}; modified: z_i, O_i).
    const Eigen::Matrix4d Tj = robot.convention == DhConvention::Standard
                                   ? (L.parent < 0 ? Eigen::Matrix4d::Identity() : T[static_cast<std::size_t>(L.parent)])
                                   : T[k];
    const Eigen::Vector3d z = Tj.block<3, 1>(0, 2), j = Tj.block<3, 1>(0, 3);
    // Motion subspace in Plücker coordinates about the base origin (angular; linear velocity of the origin point).
    s[k] << (L.joint == JointType::Revolute ? z : Eigen::Vector3d::Zero()),
        (L.joint == JointType::Revolute ? Eigen::Vector3d(j.cross(z)) : z);
    // Spatial inertia about the base origin: [[Ic + m cx cx^T, m cx], [m cx^T, m 1]].
    const Eigen::Vector3d c = T[k].block<3, 1>(0, 3) + R * L.com;
    const Eigen::Matrix3d cx = skew(c);
    Ic[k].block<3, 3>(0, 0) = R * L.inertia * R.transpose() + L.mass * cx * cx.transpose();
    Ic[k].block<3, 3>(0, 3) = L.mass * cx;
    Ic[k].block<3, 3>(3, 0) = L.mass * cx.transpose();
    Ic[k].block<3, 3>(3, 3) = L.mass * Eigen::Matrix3d::Identity();
  }
  // Composite inertias: children before parents (parent index < child index).
  for (int i = n - 1; i >= 0; --i)
    if (links[static_cast<std::size_t>(i)].parent >= 0)
      Ic[static_cast<std::size_t>(links[static_cast<std::size_t>(i)].parent)] += Ic[static_cast<std::size_t>(i)];
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    const Vec6 F = Ic[k] * s[k];
    M(i, i) = s[k].dot(F) + links[k].Ia;
    for (int j = links[k].parent; j >= 0; j = links[static_cast<std::size_t>(j)].parent) {
      M(i, j) = M(j, i) = s[static_cast<std::size_t>(j)].dot(F);
    }
  }
  if (robot.has_mimic()) {
    // The generalized coordinates: qd_links = G qd, so M = G^T M_links G (mimic joints, robot.hpp Mimic).
    const Eigen::MatrixXd G = coupling_matrix(robot);
    M = (G.transpose() * M * G).eval();
  }
  internal::require_finite(M, "CRBA");
  return M;
}

Eigen::VectorXd forward_dynamics(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                                 const Eigen::VectorXd& tau, Form form) {
  check_vector(robot, tau, "tau");
  const Eigen::MatrixXd M = mass_matrix_crba(robot, q);
  const Eigen::VectorXd h = bias(robot, q, qd, form, "forward dynamics");
  return internal::solve_mass(robot, M, tau - h, "forward dynamics");
}

double total_energy(const Robot& robot, const Eigen::VectorXd& q, const Eigen::VectorXd& qd) {
  check_vector(robot, qd, "qd");
  const Eigen::MatrixXd M = mass_matrix_crba(robot, q);
  const std::vector<Eigen::Matrix4d> T = link_poses(robot, q);
  const std::vector<Link> links = detail::links_with_payload(robot);
  double potential = 0.0;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const Eigen::Vector3d c = T[i].block<3, 1>(0, 3) + T[i].block<3, 3>(0, 0) * links[i].com;
    potential -= links[i].mass * robot.gravity.dot(c);
  }
  const double energy = 0.5 * qd.dot(M * qd) + potential;
  if (!std::isfinite(energy))
    throw Error("total energy: not finite (" + internal::value_text(energy) + ") for the given state");
  return energy;
}

Trajectory simulate_rk4(const Robot& robot, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0,
                        const TorqueFn& torque, const ForwardFn& forward, double dt, double t_end) {
  if (!(dt > 0) || !std::isfinite(dt)) throw Error("--dt: time step must be positive and finite");
  if (!(t_end >= 0) || !std::isfinite(t_end)) throw Error("--t: duration must be non-negative and finite");
  check_vector(robot, q0, "q0");
  check_vector(robot, qd0, "qd0");
  const auto steps = static_cast<long>(std::llround(t_end / dt));
  Trajectory traj;
  Eigen::VectorXd q = q0, qd = qd0;
  // An error inside a step (a non-finite torque or acceleration, a singular mass matrix) names the time it came at.
  const auto at = [](double t, const std::function<Eigen::VectorXd()>& f) {
    try {
      return f();
    } catch (const Error& e) {
      throw Error("simulate: at t = " + internal::value_text(t) + " s: " + e.what());
    }
  };
  const auto tau_at = [&](double t, const Eigen::VectorXd& x, const Eigen::VectorXd& v) {
    return at(t, [&] {
      const Eigen::VectorXd u = torque(t, x, v);
      internal::require_finite(u, "torque input", "torque", "tau");
      return u;
    });
  };
  auto accel = [&](double t, const Eigen::VectorXd& x, const Eigen::VectorXd& v) {
    const Eigen::VectorXd u = tau_at(t, x, v);
    return at(t, [&] {
      const Eigen::VectorXd a = forward(x, v, u);
      internal::require_finite(a, "forward dynamics", "acceleration", "qdd");
      return a;
    });
  };
  for (long k = 0;; ++k) {
    const double t = static_cast<double>(k) * dt;
    // The state is finite at the start and each step adds finite terms: only an overflow makes it non-finite.
    for (Eigen::Index i = 0; i < q.size(); ++i)
      for (const auto& [x, name] : {std::pair{q[i], "q"}, std::pair{qd[i], "qd"}})
        if (!std::isfinite(x))
          throw Error("simulate: at t = " + internal::value_text(t) + " s: the state overflowed (" + name + "_" +
                      std::to_string(i + 1) + " = " + internal::value_text(x) + "); a smaller --dt may help");
    traj.t.push_back(t);
    traj.q.push_back(q);
    traj.qd.push_back(qd);
    traj.tau.push_back(tau_at(t, q, qd));
    if (k == steps) break;
    // Classic RK4 on (q, qd).
    const Eigen::VectorXd k1q = qd, k1v = accel(t, q, qd);
    const Eigen::VectorXd k2q = qd + 0.5 * dt * k1v, k2v = accel(t + 0.5 * dt, q + 0.5 * dt * k1q, k2q);
    const Eigen::VectorXd k3q = qd + 0.5 * dt * k2v, k3v = accel(t + 0.5 * dt, q + 0.5 * dt * k2q, k3q);
    const Eigen::VectorXd k4q = qd + dt * k3v, k4v = accel(t + dt, q + dt * k3q, k4q);
    q += dt / 6.0 * (k1q + 2.0 * k2q + 2.0 * k3q + k4q);
    qd += dt / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
  }
  return traj;
}

Trajectory simulate(const Robot& robot, const Eigen::VectorXd& q0, const Eigen::VectorXd& qd0, const TorqueFn& torque,
                    double dt, double t_end, Form form) {
  return simulate_rk4(robot, q0, qd0, torque,
                      [&](const Eigen::VectorXd& q, const Eigen::VectorXd& qd, const Eigen::VectorXd& tau) {
                        return forward_dynamics(robot, q, qd, tau, form);
                      },
                      dt, t_end);
}

}  // namespace neaccel::ref
