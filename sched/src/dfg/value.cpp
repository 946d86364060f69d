#include "neaccel/dfg/value.hpp"

#include "neaccel/ref/error.hpp"

namespace neaccel::dfg {

namespace {
thread_local Recorder* g_current = nullptr;

NodeId checked(const Value& v, const char* what) {
  if (v.node() == kNoNode) throw Error(std::string("dfg trace: ") + what + " of a Value that refers to no node");
  return v.node();
}

Value binary(Op op, const Value& a, const Value& b, const char* what) {
  Recorder& r = Recorder::current();
  return Value::of_node(r.builder().op(op, checked(a, what), checked(b, what), kNoNode, r.prov()));
}
}  // namespace

Value::Value(double c) : id_(Recorder::current().constant(c).node()) {}

Value& Value::operator+=(const Value& b) { return *this = *this + b; }
Value& Value::operator-=(const Value& b) { return *this = *this - b; }
Value& Value::operator*=(const Value& b) { return *this = *this * b; }

Value operator+(const Value& a, const Value& b) { return binary(Op::Add, a, b, "addition"); }
Value operator-(const Value& a, const Value& b) { return binary(Op::Sub, a, b, "subtraction"); }
Value operator*(const Value& a, const Value& b) { return binary(Op::Mul, a, b, "multiplication"); }
Value operator-(const Value& a) {
  Recorder& r = Recorder::current();
  return Value::of_node(r.builder().op(Op::Neg, checked(a, "negation"), kNoNode, kNoNode, r.prov()));
}

Recorder::Recorder(bool hash_cons) : b_(hash_cons), previous_(g_current), hash_cons_(hash_cons) { g_current = this; }
Recorder::~Recorder() { g_current = previous_; }

Recorder& Recorder::current() {
  if (!g_current) throw Error("dfg trace: a dfg::Value was used outside a dfg::Recorder");
  return *g_current;
}
Recorder* Recorder::current_or_null() { return g_current; }

Value Recorder::input(const std::string& name) { return Value::of_node(b_.input(name, prov_)); }
Value Recorder::constant(double c) { return Value::of_node(b_.constant(c, prov_)); }
void Recorder::output(const std::string& name, const Value& v) { b_.output(name, checked(v, "output")); }

Graph Recorder::finish() {
  Graph g = b_.take();
  b_ = Builder(hash_cons_);
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
