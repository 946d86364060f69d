// Operation counts of the three Newton-Euler forms, measured by running them in the Counted scalar, beside the
// seed papers' formulas (../shared/data/paper-tables.md). docs/counts.md explains the differences.
#pragma once

#include "neaccel/ref/counted.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/model.hpp"

#include <map>
#include <string>
#include <vector>

namespace neaccel::ref {

// What the counted arm looks like. The default is the papers' case: an n-link revolute serial arm with general
// (non-zero, run-time) geometric and inertial parameters, gravity along the base z axis (a_0 = (0, 0, g) as in
// seed 000), no external wrench (f_{n+1} = n_{n+1} = 0), no friction or rotor inertia.
struct CountOptions {
  DhConvention convention = DhConvention::Standard;
  bool friction = false;  // count Ia qdd + Fv qd + Fc sgn(qd) (general parameters)
};

struct FormCounts {
  Form form = Form::ModifiedNE;
  int n = 0;
  OpCounts total;
  std::map<std::string, OpCounts> per_quantity;  // ProvenanceScope quantity -> counts
};

// The counted arm and its Counted model and inputs (shared by every count in ref/: the N-E forms here, ref/forms
// and ref/control). general_arm: n revolute links, standard or modified DH, every geometric and inertial parameter,
// rotor inertia and friction non-zero (so that nothing folds by accident), gravity along the base z axis.
Robot general_arm(int n, DhConvention convention = DhConvention::Standard);
// Chain structure (gamma, b), gravity's x and y, and the external wrench are literals; friction and rotor inertia
// are literal zeros unless `friction`, gravity's z a literal zero unless `gravity`; every other parameter unknown.
// The model points to `robot`, which must outlive it.
ModelT<Counted> counted_model(const Robot& robot, bool friction = false, bool gravity = true);
// Joint inputs as run-time unknowns (values from q = qd = qdd spread over 0.1..0.7).
JointInputs<Counted> counted_inputs(const Robot& robot);

// Our counts for a general n-link revolute arm (n >= 1), measured with Counted.
FormCounts count_ops(Form form, int n, const CountOptions& options = {});

// A paper's formula for a form, evaluated at n.
struct PaperCount {
  std::string source;    // e.g. "seed 000 Table 8.1"
  std::string mul_formula, add_formula;
  double mul = 0, add = 0;
};

// The papers' counts for the form (seed 000 Table 8.1 for ne and modified-ne; seed 003 Table 9.5 Luh 80b for ne;
// for khalil, Luh 80b minus Kleinfinger's U_j saving of 21n mul, 6n add, quoted in seed 003 section 9.5.3).
std::vector<PaperCount> paper_counts(Form form, int n);

}  // namespace neaccel::ref
