// Dual<S>: a forward-mode automatic-differentiation scalar (value + one directional derivative).
//
// Running the templated Newton-Euler recursion (modified_ne<S>) in Dual<double> gives tau and its derivative in
// one chosen direction (e.g. d tau / d q_j) from the same source as the torques themselves (DESIGN.md: one source
// of truth). Dual<Counted> counts what that derivative costs. Only +, -, * and unary - are defined, the operations
// the recursion uses (contract 2 in BRIEF.md); S(double) literals have a zero derivative.
#pragma once

#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>

namespace neaccel::ref::control {

template <class S>
struct Dual {
  S v{};  // value
  S d{};  // derivative along the chosen direction

  Dual() : v(S(0.0)), d(S(0.0)) {}
  explicit Dual(double x) : v(S(x)), d(S(0.0)) {}
  Dual(const S& value, const S& derivative) : v(value), d(derivative) {}

  friend Dual operator+(const Dual& a, const Dual& b) { return {a.v + b.v, a.d + b.d}; }
  friend Dual operator-(const Dual& a, const Dual& b) { return {a.v - b.v, a.d - b.d}; }
  // Product rule: (a b)' = a b' + a' b.
  friend Dual operator*(const Dual& a, const Dual& b) { return {a.v * b.v, a.v * b.d + a.d * b.v}; }
  friend Dual operator-(const Dual& a) { return {-a.v, -a.d}; }
  Dual& operator+=(const Dual& b) { return *this = *this + b; }
  Dual& operator-=(const Dual& b) { return *this = *this - b; }
  Dual& operator*=(const Dual& b) { return *this = *this * b; }
};

}  // namespace neaccel::ref::control

namespace neaccel::ref {
// Attribution passes through to the underlying scalar (so Dual<Counted> counts per quantity).
template <class S>
struct ProvenanceScope<control::Dual<S>> {
  ProvenanceScope(int link, const char* quantity, const char* equation) : inner_(link, quantity, equation) {}
  ProvenanceScope(const ProvenanceScope&) = delete;
  ProvenanceScope& operator=(const ProvenanceScope&) = delete;

 private:
  ProvenanceScope<S> inner_;
};
}  // namespace neaccel::ref

namespace Eigen {
template <class S>
struct NumTraits<neaccel::ref::control::Dual<S>> : GenericNumTraits<double> {
  using Real = neaccel::ref::control::Dual<S>;
  using NonInteger = neaccel::ref::control::Dual<S>;
  using Literal = neaccel::ref::control::Dual<S>;
  using Nested = neaccel::ref::control::Dual<S>;
  enum { IsComplex = 0, IsInteger = 0, IsSigned = 1, RequireInitialization = 1, ReadCost = 1, AddCost = 2, MulCost = 4 };
};
}  // namespace Eigen
