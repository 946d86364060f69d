#include "neaccel/dfg/value.hpp"

#include "neaccel/ref/error.hpp"

namespace neaccel::dfg {

namespace {
thread_local Recorder* g_current = nullptr;

NodeId checked(const Value& v, const char* what) {
  if (v.node() == kNoNode) throw Error(std::string("dfg trace: ") + what + " of a Value that refers to no node");
  return v.node();
}

Value record(Recorder& r, Op op, NodeId a, NodeId b) {
  return Value::of_node(r.builder().op(op, a, b, kNoNode, r.prov()));
}

// Literal folding (the rules of ref::Counted); returns false if nothing applies.
bool fold(Recorder& r, Op op, NodeId a, NodeId b, Value& out) {
  const auto& nodes = r.builder().graph().nodes;
  const bool la = r.is_literal(a), lb = r.is_literal(b);
  const double va = la ? nodes[a].value : 0.0, vb = lb ? nodes[b].value : 0.0;
  if (la && lb) {
    out = r.literal(op == Op::Add ? va + vb : op == Op::Sub ? va - vb : va * vb);
    return true;
  }
  const auto is = [](bool l, double v, double k) { return l && v == k; };
  switch (op) {
    case Op::Mul:
      if (is(la, va, 0.0) || is(lb, vb, 0.0)) out = r.literal(0.0);
      else if (is(la, va, 1.0)) out = Value::of_node(b);
      else if (is(lb, vb, 1.0)) out = Value::of_node(a);
      else if (is(la, va, -1.0)) out = -Value::of_node(b);
      else if (is(lb, vb, -1.0)) out = -Value::of_node(a);
      else return false;
      return true;
    case Op::Add:
      if (is(la, va, 0.0)) out = Value::of_node(b);
      else if (is(lb, vb, 0.0)) out = Value::of_node(a);
      else return false;
      return true;
    case Op::Sub:
      if (is(lb, vb, 0.0)) out = Value::of_node(a);
      else if (is(la, va, 0.0)) out = -Value::of_node(b);
      else return false;
      return true;
    default: return false;
  }
}

Value binary(Op op, const Value& a, const Value& b, const char* what) {
  Recorder& r = Recorder::current();
  const NodeId x = checked(a, what), y = checked(b, what);
  Value out;
  if (r.fold_literals() && fold(r, op, x, y, out)) return out;
  return record(r, op, x, y);
}
}  // namespace

Value::Value(double c) : id_(Recorder::current().literal(c).node()) {}

Value& Value::operator+=(const Value& b) { return *this = *this + b; }
Value& Value::operator-=(const Value& b) { return *this = *this - b; }
Value& Value::operator*=(const Value& b) { return *this = *this * b; }

Value operator+(const Value& a, const Value& b) { return binary(Op::Add, a, b, "addition"); }
Value operator-(const Value& a, const Value& b) { return binary(Op::Sub, a, b, "subtraction"); }
Value operator*(const Value& a, const Value& b) { return binary(Op::Mul, a, b, "multiplication"); }
Value operator/(const Value& a, const Value& b) {
  Recorder& r = Recorder::current();
  const NodeId x = checked(a, "division"), y = checked(b, "division");
  if (r.fold_literals()) {
    const auto& nodes = r.builder().graph().nodes;
    if (r.is_literal(x) && r.is_literal(y) && nodes[y].value != 0.0) return r.literal(nodes[x].value / nodes[y].value);
    if (r.is_literal(y) && nodes[y].value == 1.0) return Value::of_node(x);
  }
  return record(r, Op::Div, x, y);
}
Value reciprocal(const Value& x) { return Value(1.0) / x; }

Value operator-(const Value& a) {
  Recorder& r = Recorder::current();
  const NodeId x = checked(a, "negation");
  if (r.fold_literals() && r.is_literal(x)) return r.literal(-r.builder().graph().nodes[x].value);
  return Value::of_node(r.builder().op(Op::Neg, x, kNoNode, kNoNode, r.prov()));
}

Recorder::Recorder(bool hash_cons, bool fold_literals)
    : b_(hash_cons), previous_(g_current), hash_cons_(hash_cons), fold_literals_(fold_literals) { g_current = this; }
Recorder::~Recorder() { g_current = previous_; }

Recorder& Recorder::current() {
  if (!g_current) throw Error("dfg trace: a dfg::Value was used outside a dfg::Recorder");
  return *g_current;
}
Recorder* Recorder::current_or_null() { return g_current; }

Value Recorder::input(const std::string& name) { return Value::of_node(b_.input(name, prov_)); }
Value Recorder::constant(double c) { return Value::of_node(b_.constant(c, prov_)); }
Value Recorder::literal(double c) {
  const NodeId id = b_.constant(c, prov_);
  if (literal_.size() <= id) literal_.resize(id + 1, 0);
  literal_[id] = 1;
  return Value::of_node(id);
}
void Recorder::output(const std::string& name, const Value& v) { b_.output(name, checked(v, "output")); }

Graph Recorder::finish() {
  Graph g = b_.take();
  b_ = Builder(hash_cons_);
  literal_.clear();
  validate(g, "dfg trace");
  return g;
}

}  // namespace neaccel::dfg

namespace neaccel::ref {

ProvenanceScope<dfg::Value>::ProvenanceScope(int link, const char* quantity, const char* equation)
    : rec_(dfg::Recorder::current_or_null()) {
  if (!rec_) return;
  saved_ = rec_->prov();
  rec_->set_prov(rec_->builder().provenance({link, quantity, equation}));
}

ProvenanceScope<dfg::Value>::~ProvenanceScope() {
  if (rec_) rec_->set_prov(saved_);
}

}  // namespace neaccel::ref
