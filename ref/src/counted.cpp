#include "neaccel/ref/counted.hpp"

namespace neaccel::ref {

namespace {
struct State {
  OpCounts totals;
  std::map<std::string, OpCounts> by_quantity;
  const char* quantity = "";
};
State& state() {
  thread_local State s;
  return s;
}
}  // namespace

namespace counting {
void reset() {
  state().totals = OpCounts{};
  state().by_quantity.clear();
}
OpCounts totals() { return state().totals; }
std::map<std::string, OpCounts> by_quantity() { return state().by_quantity; }
void record(int kind) {
  State& s = state();
  OpCounts& q = s.by_quantity[s.quantity];
  long OpCounts::*field = kind == 0 ? &OpCounts::mul : (kind == 1 ? &OpCounts::add : &OpCounts::neg);
  ++(s.totals.*field);
  ++(q.*field);
}
}  // namespace counting

ProvenanceScope<Counted>::ProvenanceScope(int /*link*/, const char* quantity, const char* /*equation*/)
    : previous_(state().quantity) {
  state().quantity = quantity;
}

ProvenanceScope<Counted>::~ProvenanceScope() { state().quantity = previous_; }

Counted operator+(const Counted& a, const Counted& b) {
  if (a.literal_ && b.literal_) return Counted(a.v_ + b.v_);
  if (a.is_literal(0.0)) return b;
  if (b.is_literal(0.0)) return a;
  counting::record(1);
  return Counted::unknown(a.v_ + b.v_);
}

Counted operator-(const Counted& a, const Counted& b) {
  if (a.literal_ && b.literal_) return Counted(a.v_ - b.v_);
  if (b.is_literal(0.0)) return a;
  if (a.is_literal(0.0)) return -b;
  counting::record(1);
  return Counted::unknown(a.v_ - b.v_);
}

Counted operator*(const Counted& a, const Counted& b) {
  if (a.literal_ && b.literal_) return Counted(a.v_ * b.v_);
  if (a.is_literal(0.0) || b.is_literal(0.0)) return Counted(0.0);
  if (a.is_literal(1.0)) return b;
  if (b.is_literal(1.0)) return a;
  if (a.is_literal(-1.0)) return -b;
  if (b.is_literal(-1.0)) return -a;
  counting::record(0);
  return Counted::unknown(a.v_ * b.v_);
}

Counted operator-(const Counted& a) {
  if (a.literal_) return Counted(-a.v_);
  counting::record(2);
  return Counted::unknown(-a.v_);
}

}  // namespace neaccel::ref
