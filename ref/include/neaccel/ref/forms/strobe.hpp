// Explicit M(q), Christoffel symbols C^i_jk and G(q) by "strobing" a Newton-Euler recursion (seed 000 end of
// section 8): with gravity, friction and the external wrench off,
//   column j of M   = tau(q, qd = 0, qdd = e_j)
//   C^i_jj          = tau_i(q, qd = e_j, qdd = 0)
//   C^i_jk (j != k) = 1/2 (tau_i(q, qd = e_j + e_k, 0) - C^i_jj - C^i_kk)
// and G = tau(q, 0, 0) with gravity only; so that tau = M qdd + sum_jk C^i_jk qd_j qd_k + G (+ friction, wrench).
// The strobe inputs 0 and 1 are literals S(0.0), S(1.0), so Counted counts only the work that remains.
//
// The recursion is any functor id(const ModelT<S>&, const JointInputs<S>&) -> std::vector<S>; by default the
// modified Newton-Euler of seed 000 section 7 (ref/modified_ne.hpp).
#pragma once

#include "neaccel/ref/forms/common.hpp"
#include "neaccel/ref/modified_ne.hpp"

#include <memory>
#include <vector>

namespace neaccel::ref::forms {

template <class S>
struct ExplicitDynamics {
  int n = 0;
  std::vector<S> M;  // n x n, M[i * n + j]
  std::vector<S> C;  // n x n x n, C[(i * n + j) * n + k] = C^i_jk
  std::vector<S> G;  // n
  const S& M_at(int i, int j) const { return M[static_cast<std::size_t>(i * n + j)]; }
  const S& C_at(int i, int j, int k) const { return C[static_cast<std::size_t>((i * n + j) * n + k)]; }
};

struct DefaultId {
  template <class S>
  std::vector<S> operator()(const ModelT<S>& m, const JointInputs<S>& in) const {
    return modified_ne(m, in);
  }
};

// Which parts of the explicit form to compute.
struct StrobeParts {
  bool M = true, C = true, G = true;
};

template <class S, class Id = DefaultId>
ExplicitDynamics<S> strobe(const ModelT<S>& m, const JointInputs<S>& in, const StrobeParts& parts = {},
                           const Id& id = Id{});

}  // namespace neaccel::ref::forms

#include "neaccel/ref/forms/strobe_impl.hpp"  // IWYU pragma: export
