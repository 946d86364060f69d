// The one division the recursive forward-dynamics methods need per joint (1 / H_j, seed 003 eq. 9.116;
// G_i = L_i^-1 of seed 001 eq. 2.1.11 reduces to it). BRIEF contract 2 keeps division out of the inverse
// dynamics; forward dynamics cannot avoid it, so it goes through reciprocal(), which the counting scalar
// overloads: Counted records it in a separate division counter (the papers count divisions with the
// multiplications; docs/formulations.md reports both).
#pragma once

#include "neaccel/ref/counted.hpp"

namespace neaccel::ref::forms {

inline double reciprocal(double x) { return 1.0 / x; }

// Divisions performed with Counted since the last reset_divisions() (this thread).
long divisions();
void reset_divisions();

Counted reciprocal(const Counted& x);

}  // namespace neaccel::ref::forms
