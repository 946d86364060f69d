#include "neaccel/ref/control/counts.hpp"

#include "neaccel/ref/control/linearize.hpp"
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/modified_ne.hpp"

#include <fmt/format.h>


namespace neaccel::ref::control {

namespace {

OpCounts count_jacobians(const Robot& robot) {
  const ModelT<Dual<Counted>> model = dual_model(counted_model(robot, false, true));
  const JointInputs<Counted> in = counted_inputs(robot);
  counting::reset();
  for (std::size_t j = 0; j < robot.links.size(); ++j) {
    (void)tau_derivative(model, in, Direction::Q, j);
    (void)tau_derivative(model, in, Direction::Qd, j);
  }
  const OpCounts c = counting::totals();
  counting::reset();
  return c;
}

OpCounts count_strobing(const Robot& robot) {
  const ModelT<Counted> model = counted_model(robot, false, false);
  JointInputs<Counted> in = counted_inputs(robot);
  const std::size_t n = robot.links.size();
  in.qd.assign(n, Counted(0.0));
  in.sgn_qd.assign(n, Counted(0.0));
  counting::reset();
  for (std::size_t j = 0; j < n; ++j) {
    in.qdd.assign(n, Counted(0.0));
    in.qdd[j] = Counted(1.0);
    (void)modified_ne(model, in);
  }
  const OpCounts c = counting::totals();
  counting::reset();
  return c;
}

}  // namespace

std::vector<ControlCountRow> control_counts(int n) {
  if (n < 1) throw Error("counts: n must be at least 1");
  const Robot robot = general_arm(n);
  const double x = n;
  std::vector<ControlCountRow> rows;
  rows.push_back({"feedforward", "modified N-E (seed 000 sec 7)", count_ops(Form::ModifiedNE, n).total,
                  "seed 004 sec 4.2.1 recursive Lagrangian: 830n - 592 mul, 675n - 464 add", 830 * x - 592,
                  675 * x - 464});
  const OpCounts jac = count_jacobians(robot), m = count_strobing(robot);
  rows.push_back({"dtau/dq, dtau/dqd", "2n modified N-E passes in Dual<Counted> (forward-mode AD)", jac, "", -1, -1});
  rows.push_back({"M", "n strobing passes of modified N-E (seed 000 sec 8)", m, "", -1, -1});
  OpCounts ab = jac;
  ab += m;
  rows.push_back({"A, B update", "the two rows above (M^-1 products not included)", ab,
                  fmt::format("seed 004 sec 4.3 (4x4): 1062n^2 - 1021n - 128 mul = {:.0f}; App. B (3x3): "
                              "739n^2 + 62n - 54 mul = {:.0f}",
                              1062 * x * x - 1021 * x - 128, 739 * x * x + 62 * x - 54),
                  739 * x * x + 62 * x - 54, -1});
  return rows;
}

}  // namespace neaccel::ref::control
