// binary32 reference arithmetic of the units (contract 5, results and TestFloat flags): the arithmetic is
// neaccel::num::fp32 (num/, the one implementation), re-exported here under units::fp32, plus the adder op codes
// of contract 6.
#pragma once

#include "neaccel/num/fp32.hpp"

#include <cstdint>

namespace neaccel::units::fp32 {

// Everything of num::fp32 (Result, mul, add, sub, neg, flags, bit helpers) is visible as units::fp32::...
using namespace num::fp32;  // a deliberate re-export

// The fp32_add op codes (contract 6): 0 a + b, 1 a - b, 2 -b, 3 as 0.
inline Result add_op(uint32_t op, uint32_t a, uint32_t b) {
  switch (op & 3u) {
    case 1: return sub(a, b);
    case 2: return neg(b);
    default: return add(a, b);
  }
}

}  // namespace neaccel::units::fp32
