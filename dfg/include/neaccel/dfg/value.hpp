// dfg::Value: the tracing scalar. Running a templated algorithm with S = dfg::Value records the scalar dataflow
// graph of what it computes (DESIGN.md: one recursion gives the numbers, the counts and the graph).
//
//     dfg::Recorder rec;                      // makes a graph the current one on this thread
//     dfg::Value x = rec.input("x");
//     dfg::Value y = x * x + dfg::Value(2.0); // records mul, const, add
//     rec.output("y", y);
//     dfg::Graph g = rec.finish();
//
// A Value is only a node id; the operators append nodes to the thread's current Recorder. Literal constants
// (S(2.0), Eigen's Scalar(0): numbers the algorithm writes itself) become Const nodes marked literal. By default
// the recorder folds operations on literals exactly as ref::Counted counts them (ref/counted.hpp): literal op
// literal -> literal; x*0 -> 0; x*1 -> x; x*-1 -> -x; x+0, 0+x, x-0 -> x; 0-x -> -x. So the "untouched" graph has
// exactly the operations a general implementation performs, and the same counts as Counted. Robot parameters
// given as constants (the custom flavour, Recorder::constant) are not literals: the passes fold them
// (passes.hpp). Recorder(hash_cons, false) records every operation as written.
// ProvenanceScope<Value> (specialised here) tags every node created inside the scope with link, quantity and
// equation (contract 2).
#pragma once

#include "neaccel/dfg/builder.hpp"
#include "neaccel/dfg/graph.hpp"
#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace neaccel::dfg {

class Value {
 public:
  Value() = default;  // refers to no node; using it in an operation throws neaccel::Error
  Value(double c);    // NOLINT(google-explicit-constructor): a Const node in the current recording
  static Value of_node(NodeId id) {
    Value v;
    v.id_ = id;
    return v;
  }
  NodeId node() const { return id_; }

  Value& operator+=(const Value& b);
  Value& operator-=(const Value& b);
  Value& operator*=(const Value& b);

 private:
  NodeId id_ = kNoNode;
};

Value operator+(const Value& a, const Value& b);
Value operator-(const Value& a, const Value& b);
Value operator*(const Value& a, const Value& b);
Value operator-(const Value& a);
// Division (forward dynamics divides by pivots). a / b records a Div node; literal / literal folds, and
// x / 1 -> x when literals fold. reciprocal(x) = 1 / x (a Div node with a literal 1 numerator): the overload
// ref/forms/division.hpp's templated forward methods reach by argument-dependent lookup.
Value operator/(const Value& a, const Value& b);
Value reciprocal(const Value& x);

// Makes a graph the current recording target of Values on this thread for its lifetime (recorders nest: the
// previous one is restored on destruction). With hash_cons, identical nodes are shared while recording.
class Recorder {
 public:
  explicit Recorder(bool hash_cons = false, bool fold_literals = true);
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  Value input(const std::string& name);  // one Input node per name
  Value constant(double c);  // a constant that is not a literal (never folded while recording)
  Value literal(double c);   // a literal constant (what Value(double) records)
  bool is_literal(NodeId id) const { return id < literal_.size() && literal_[id]; }
  bool fold_literals() const { return fold_literals_; }
  void output(const std::string& name, const Value& v);
  void declare_input(const std::string& name) { b_.declare_input(name); }
  Builder& builder() { return b_; }
  // The recorded graph (validated). The recorder stays current but empty afterwards.
  Graph finish();

  // The current recorder of this thread; throws neaccel::Error if there is none.
  static Recorder& current();
  static Recorder* current_or_null();

  // Provenance attached to new nodes (set by ProvenanceScope<Value>).
  std::uint32_t prov() const { return prov_; }
  void set_prov(std::uint32_t p) { prov_ = p; }

 private:
  Builder b_;
  Recorder* previous_;
  bool hash_cons_;
  bool fold_literals_;
  std::vector<char> literal_;  // per node: a literal constant
  std::uint32_t prov_ = 0;
};

}  // namespace neaccel::dfg

namespace neaccel::ref {

// Tags every node recorded in its lifetime with (link, quantity, equation); restores the previous tag on exit.
template <>
struct ProvenanceScope<dfg::Value> {
  ProvenanceScope(int link, const char* quantity, const char* equation);
  ~ProvenanceScope();
  ProvenanceScope(const ProvenanceScope&) = delete;
  ProvenanceScope& operator=(const ProvenanceScope&) = delete;

 private:
  dfg::Recorder* rec_;
  std::uint32_t saved_ = 0;
};

}  // namespace neaccel::ref

namespace Eigen {

template <>
struct NumTraits<neaccel::dfg::Value> : GenericNumTraits<double> {
  using Real = neaccel::dfg::Value;
  using NonInteger = neaccel::dfg::Value;
  using Nested = neaccel::dfg::Value;
  using Literal = neaccel::dfg::Value;
  enum {
    IsComplex = 0,
    IsInteger = 0,
    IsSigned = 1,
    RequireInitialization = 1,
    ReadCost = 1,
    AddCost = 1,
    MulCost = 1
  };
};

}  // namespace Eigen
