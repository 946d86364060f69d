// Fixed-point reference arithmetic of the units (contract 4, bit-exact with rtl/units/fx_*.v): the arithmetic is
// neaccel::num::fixed (num/, the one implementation), re-exported here under units::fixed, plus the adder op codes
// of contract 6.
#pragma once

#include "neaccel/num/fixed.hpp"

#include <cstdint>

namespace neaccel::units::fixed {

// Everything of num::fixed (Format, from_double, mul, ..., to_bits) is visible as units::fixed::...
using namespace num::fixed;  // a deliberate re-export

// The fx_add op codes (contract 6): 0 a + b, 1 a - b, 2 -b, 3 as 0.
inline int64_t add_op(uint32_t op, int64_t a, int64_t b, const Format& f) {
  switch (op & 3u) {
    case 1: return sub(a, b, f);
    case 2: return neg(b, f);
    default: return add(a, b, f);
  }
}

}  // namespace neaccel::units::fixed
