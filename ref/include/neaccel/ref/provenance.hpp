// Provenance hook for the templated algorithms.
//
// An algorithm opens a scope before computing a quantity:
//     ProvenanceScope<S> scope(i + 1, "omega", "seed000 eq 7.1");
// For S = double it does nothing (and costs nothing). Scalar types that care specialise it: the dataflow-graph
// tracer (sched/, dfg::Value) tags every node created inside the scope with link, quantity and equation, and the
// counting scalar (Counted) attributes operations to the quantity (seed 000 Tables 8.4/8.5 rows).
// Scopes nest; the innermost one wins, and the previous one is restored on exit.
#pragma once

namespace neaccel::ref {

template <class S>
struct ProvenanceScope {
  ProvenanceScope(int /*link (1-based, 0 = none)*/, const char* /*quantity*/, const char* /*equation*/) {}
  ProvenanceScope(const ProvenanceScope&) = delete;
  ProvenanceScope& operator=(const ProvenanceScope&) = delete;
};

}  // namespace neaccel::ref
