// Operation counts of the control computation (seed 004 section 4), measured with ref::Counted on the same
// general n-link revolute arm as ref::count_ops (every parameter a run-time unknown, gravity along base z, no
// wrench, no friction), beside seed 004's formulas:
//   feedforward torques:   ours = modified N-E (seed 000 sec 7); seed 004 sec 4.2.1 recursive Lagrangian
//                          830n - 592 mul, 675n - 464 add
//   d tau/dq, d tau/dqd:   2n passes of the modified N-E in Dual<Counted> (forward-mode AD, linearize.hpp)
//   M (inertia matrix):    n strobing passes (qd = 0, g = 0, qdd = e_j; seed 000 sec 8)
//   A, B update:           the two rows above; seed 004 sec 4.3 (4x4 matrices) 1062n^2 - 1021n - 128 mul and
//                          Appendix B (3x3) 739n^2 + 62n - 54 mul (seed 004 states the multiplications)
// Not counted here (as in seed 004's figures): M^-1 applied to the blocks, e^{AT}, Gamma and K (section 4.1).
#pragma once

#include "neaccel/ref/counted.hpp"

#include <string>
#include <vector>

namespace neaccel::ref::control {

struct ControlCountRow {
  std::string what;         // "feedforward", "dtau/dq, dtau/dqd", "M", "A, B update"
  std::string method;       // how we compute it
  OpCounts ours;
  std::string paper;        // seed 004 source and formulas, "" if none
  double paper_mul = -1, paper_add = -1;  // -1: not given
};

// Rows for an n-link arm (n >= 1), or neaccel::Error.
std::vector<ControlCountRow> control_counts(int n);

}  // namespace neaccel::ref::control
