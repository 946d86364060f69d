#include "neaccel/ref/forms/division.hpp"

namespace neaccel::ref::forms {

namespace {
long& counter() {
  thread_local long n = 0;
  return n;
}
}  // namespace

long divisions() { return counter(); }
void reset_divisions() { counter() = 0; }

Counted reciprocal(const Counted& x) {
  if (x.literal()) return Counted(1.0 / x.value());
  ++counter();
  return Counted::unknown(1.0 / x.value());
}

}  // namespace neaccel::ref::forms
