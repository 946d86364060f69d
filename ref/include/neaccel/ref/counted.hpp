// Counted: a scalar that counts the arithmetic operations the templated algorithms perform.
//
// A Counted holds a double value and whether it is a LITERAL, i.e. a constant the algorithm wrote itself with
// S(double) (the zeros the recursion starts from, the 1 of a joint axis). Robot parameters and joint inputs are
// NOT literals: create them with Counted::unknown (cast_model's callback in counts.cpp does), so a count is that of
// "general" hardware that takes every parameter at run time.
//
// Rules (what a general implementation would not have to compute is free):
//   literal (op) literal          -> literal, free (constant folding)
//   x * 0, 0 * x                  -> literal 0, free
//   x * 1, 1 * x                  -> x, free
//   x * (-1), (-1) * x            -> -x, counted as a negation
//   x + 0, 0 + x, x - 0           -> x, free;   0 - x -> -x, counted as a negation
//   -x (x not literal)            -> counted as a negation
//   everything else               -> one multiplication or one addition (a subtraction is an addition, as in
//                                    seed 000 Table 8.1)
// Negations are reported separately (the papers do not count them; in hardware they are a sign flip).
//
// Counters are thread_local (thread-safe); attribution to a quantity (seed 000 Table 8.4/8.5 rows) goes through
// ProvenanceScope<Counted>(link, quantity, equation): the innermost open scope receives each operation.
#pragma once

#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>

#include <map>
#include <string>

namespace neaccel::ref {

struct OpCounts {
  long mul = 0;
  long add = 0;  // additions and subtractions
  long neg = 0;  // negations (sign flips), not in the papers' counts
  OpCounts& operator+=(const OpCounts& o) {
    mul += o.mul;
    add += o.add;
    neg += o.neg;
    return *this;
  }
};

class Counted {
 public:
  Counted() = default;  // literal 0
  explicit Counted(double v) : v_(v), literal_(true) {}
  static Counted unknown(double v) {
    Counted c(v);
    c.literal_ = false;
    return c;
  }
  double value() const { return v_; }
  bool literal() const { return literal_; }
  bool is_literal(double k) const { return literal_ && v_ == k; }

  friend Counted operator+(const Counted& a, const Counted& b);
  friend Counted operator-(const Counted& a, const Counted& b);
  friend Counted operator*(const Counted& a, const Counted& b);
  friend Counted operator-(const Counted& a);
  Counted& operator+=(const Counted& b) { return *this = *this + b; }
  Counted& operator-=(const Counted& b) { return *this = *this - b; }
  Counted& operator*=(const Counted& b) { return *this = *this * b; }

 private:
  double v_ = 0.0;
  bool literal_ = true;
};

namespace counting {
// Clears this thread's counters (totals and per-quantity).
void reset();
// Totals since the last reset.
OpCounts totals();
// Per quantity (the ProvenanceScope quantity name; "" = outside any scope) since the last reset.
std::map<std::string, OpCounts> by_quantity();
// Internal: record one operation of the given kind (0 mul, 1 add, 2 neg) for the current scope.
void record(int kind);
}  // namespace counting

// Attribution scope for Counted (see provenance.hpp).
template <>
struct ProvenanceScope<Counted> {
  ProvenanceScope(int link, const char* quantity, const char* equation);
  ~ProvenanceScope();
  ProvenanceScope(const ProvenanceScope&) = delete;
  ProvenanceScope& operator=(const ProvenanceScope&) = delete;

 private:
  const char* previous_;
};

}  // namespace neaccel::ref

namespace Eigen {
template <>
struct NumTraits<neaccel::ref::Counted> : GenericNumTraits<double> {
  using Real = neaccel::ref::Counted;
  using NonInteger = neaccel::ref::Counted;
  using Literal = neaccel::ref::Counted;
  using Nested = neaccel::ref::Counted;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 1, MulCost = 1 };
};
}  // namespace Eigen
