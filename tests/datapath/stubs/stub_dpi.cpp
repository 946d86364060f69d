// TEST STUB (until branch units lands): the binary32 arithmetic behind stubs/fp32_*.sv, as C++ float.
#include "neaccel/hw/number.hpp"

#include <cstdint>

extern "C" unsigned int neaccel_stub_fp32(unsigned int op, unsigned int a, unsigned int b) {
  const neaccel::hw::NumberFormat f;  // binary32
  switch (op) {
    case 0: return neaccel::hw::add(f, a, b);
    case 1: return neaccel::hw::sub(f, a, b);
    case 2: return neaccel::hw::neg(f, b);
    default: return neaccel::hw::mul(f, a, b);
  }
}
