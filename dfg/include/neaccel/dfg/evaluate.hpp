// Evaluation of a graph in a number format: double (reference), float (the binary32 golden model, contract 5)
// and Fixed (contract 4, fixed.hpp). Each node is computed once from its operands' values in the format, so the
// result does not depend on the (topological) order nodes are visited in.
//
// Op semantics: add, sub, mul, neg as in C++; div a/b; sqrt; fma a*b+c with one rounding; cmp(a, b) = 1 if
// a < b else 0. Constants are converted to the format (float: rounded to nearest; Fixed: contract 4). Fixed-point
// div, sqrt and fma round once to nearest and saturate (fixed.hpp states division by zero and negative sqrt).
#pragma once

#include "neaccel/dfg/fixed.hpp"
#include "neaccel/dfg/graph.hpp"

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace neaccel::dfg {

template <class T>
struct Arithmetic;

template <class F>
struct IeeeArithmetic {
  F from_double(double c) const { return static_cast<F>(c); }
  double to_double(F x) const { return static_cast<double>(x); }
  F add(F a, F b) const { return a + b; }
  F sub(F a, F b) const { return a - b; }
  F mul(F a, F b) const { return a * b; }
  F neg(F a) const { return -a; }
  F div(F a, F b) const { return a / b; }
  F sqrt(F a) const { return std::sqrt(a); }
  F fma(F a, F b, F c) const { return std::fma(a, b, c); }
  F cmp(F a, F b) const { return a < b ? F(1) : F(0); }
};

template <>
struct Arithmetic<double> : IeeeArithmetic<double> {};
template <>
struct Arithmetic<float> : IeeeArithmetic<float> {};

template <>
struct Arithmetic<Fixed> {
  FixedFormat format;
  Fixed from_double(double c) const { return {fx_from_double(c, format)}; }
  double to_double(Fixed x) const { return fx_to_double(x.raw, format); }
  Fixed add(Fixed a, Fixed b) const { return {fx_add(a.raw, b.raw, format)}; }
  Fixed sub(Fixed a, Fixed b) const { return {fx_sub(a.raw, b.raw, format)}; }
  Fixed mul(Fixed a, Fixed b) const { return {fx_mul(a.raw, b.raw, format)}; }
  Fixed neg(Fixed a) const { return {fx_neg(a.raw, format)}; }
  Fixed div(Fixed a, Fixed b) const { return {fx_div(a.raw, b.raw, format)}; }
  Fixed sqrt(Fixed a) const { return {fx_sqrt(a.raw, format)}; }
  Fixed fma(Fixed a, Fixed b, Fixed c) const { return {fx_fma(a.raw, b.raw, c.raw, format)}; }
  Fixed cmp(Fixed a, Fixed b) const { return from_double(a.raw < b.raw ? 1.0 : 0.0); }
};

// The value of node `n` from the values of its operands (already computed in `v`).
template <class T>
T evaluate_node(const Graph& g, const Node& n, const std::vector<T>& v, const std::vector<T>& inputs,
                const Arithmetic<T>& ar) {
  const auto x = [&](int k) { return v[n.arg[static_cast<std::size_t>(k)]]; };
  switch (n.op) {
    case Op::Input: return inputs[n.input];
    case Op::Const: return ar.from_double(n.value);
    case Op::Add: return ar.add(x(0), x(1));
    case Op::Sub: return ar.sub(x(0), x(1));
    case Op::Mul: return ar.mul(x(0), x(1));
    case Op::Neg: return ar.neg(x(0));
    case Op::Div: return ar.div(x(0), x(1));
    case Op::Sqrt: return ar.sqrt(x(0));
    case Op::Fma: return ar.fma(x(0), x(1), x(2));
    case Op::Cmp: return ar.cmp(x(0), x(1));
  }
  (void)g;
  return T{};
}

// Values of all nodes, visiting them in `order` (a permutation of the node ids in which every operand precedes
// its users; empty = 0, 1, 2, ...). Throws neaccel::Error on a wrong input count or an order that is not one.
template <class T>
std::vector<T> evaluate_nodes(const Graph& g, const std::vector<T>& inputs, const Arithmetic<T>& ar = {},
                              const std::vector<NodeId>& order = {});

// Output values (in Graph::outputs order).
template <class T>
std::vector<T> evaluate(const Graph& g, const std::vector<T>& inputs, const Arithmetic<T>& ar = {},
                        const std::vector<NodeId>& order = {});

// Converts double inputs to the format.
template <class T>
std::vector<T> convert_inputs(const std::vector<double>& in, const Arithmetic<T>& ar = {}) {
  std::vector<T> out;
  out.reserve(in.size());
  for (double x : in) out.push_back(ar.from_double(x));
  return out;
}

// Input vector in Graph::inputs order from a name -> value map; throws neaccel::Error naming a missing input.
std::vector<double> bind_inputs(const Graph& g, const std::map<std::string, double>& values);

}  // namespace neaccel::dfg

#include "neaccel/dfg/evaluate_impl.hpp"  // IWYU pragma: export
