// Base inertial parameters (seed 003 section 9.4), computed numerically (seed 003 Appendix 5, [Gautier 91]):
// the torques are linear in the standard parameters of each link j, phi_j = (XX, XY, XZ, YY, YZ, ZZ, MX, MY, MZ, M,
// Ia)_j (Khalil's form, ref/khalil_ne.hpp), tau = W(q, qd, qdd) phi. Columns of W come from Khalil's recursion in
// double with unit parameter vectors, stacked over random states. Parameters whose value is zero in the robot
// (a simplified zero pattern, seed 003 Example 9.3) are not parameters. Columns are then taken greedily in
// Khalil's order of preference (XX, XY, XZ, YZ, ZZ, MX, MY of every link, then Ia, then YY, MZ, M), keeping a
// column when it is independent of those kept (Gram-Schmidt with re-orthogonalisation): the kept ones are the base
// parameters, each dependent column W_k = sum_i beta_ik W_i is grouped into them, phi_R_i = phi_i + sum_k beta_ik
// phi_k, and a zero column has no effect. Friction (Fv, Fc) is not reduced (each acts alone on its joint) and is
// not counted, as in seed 003 Tables 9.3 and 9.4. An external wrench adds J^T (f_e, n_e), which does not depend on
// the inertial parameters: W is taken without it, and trace_base keeps it (TraceOptions::wrench_input: as inputs).
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/robot.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::dfg {

struct BaseParameter {
  std::string name;        // "ZZR1" when other parameters are grouped into ZZ1, else "ZZ1"
  std::string standard;    // the standard parameter it stands on, "ZZ1"
  std::vector<std::pair<std::string, double>> grouped;  // (standard name, coefficient) added to it
  double value = 0;        // its value for the robot
};

struct BaseParameters {
  int rank = 0;                        // number of base parameters
  std::vector<BaseParameter> base;     // in preference order
  std::vector<std::string> no_effect;  // standard parameters (non-zero in the robot) that do not act on tau
  std::vector<std::string> relations;  // printable grouping relations, "ZZR1 = ZZ1 + Ia1 + YY2 + 0.2025 M3 + ..."
};

// Computes the base parameters of `robot` from `samples` random states (0 = enough for the parameter count).
BaseParameters base_parameters(const ref::Robot& robot, int samples = 0, std::uint64_t seed = 1);

// The customised graph in the base parameters: eliminated and grouped parameters are zero, the base ones carry
// their regrouped values (all other robot numbers are constants). Untouched (no passes applied). The form must be
// linear in the standard parameters: Khalil, KhalilK (default) or KhalilMix (the cheapest of the three, at the
// cost of a few traces to choose); others throw neaccel::Error.
Graph trace_base(const ref::Robot& robot, const BaseParameters& bp, Form form = Form::KhalilK,
                 const TraceOptions& opt = {});

// The parameter function trace_base uses (base inertial parameters as constants, the rest of the robot's numbers
// constants, the wrench as trace.hpp says): for tracing other functions in the base parameters (functions.hpp).
ParamFn base_param_fn(const BaseParameters& bp, const TraceOptions& opt = {});

}  // namespace neaccel::dfg
