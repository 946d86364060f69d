#include "harness.hpp"

#include "neaccel/units/fp32.hpp"
#include "neaccel/units/fp_vectors.hpp"

#include <cstdio>

namespace neaccel::units::test {

std::vector<Operation> random_operations(const UnitConfig& c, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Operation> ops(n);
  const bool adder = c.kind == UnitKind::Fp32Add || c.kind == UnitKind::FxAdd;
  for (Operation& o : ops) {
    const uint64_t r = rng();
    o.op = adder ? static_cast<uint32_t>(r % 20 < 9 ? 0 : (r % 20 < 18 ? 1 : 2)) : 0;
    if (!is_fixed(c.kind)) {
      const fpvec::Op op = c.kind == UnitKind::Fp32Mul   ? fpvec::Op::Mul
                           : c.kind == UnitKind::Fp32Fma ? fpvec::Op::Fma
                           : c.kind == UnitKind::Fp32Div ? fpvec::Op::Div
                                                         : fpvec::Op::Add;
      const fpvec::Pair p = fpvec::random_pair(op, rng);
      o.a = p.a;
      o.b = p.b;
      o.c = p.c;
      continue;
    }
    const uint32_t mask = c.width >= 32 ? ~0u : ((1u << c.width) - 1u);
    const uint32_t one = 1u << c.frac;
    auto operand = [&](uint64_t k) -> uint32_t {
      switch (k % 6) {
        case 0: return static_cast<uint32_t>(rng() % 65) - 32u;                       // near 0
        case 1: return one + static_cast<uint32_t>(rng() % 9) - 4u;                   // near +1
        case 2: return (mask >> 1) - static_cast<uint32_t>(rng() % 5);                // near max
        case 3: return (one << ((rng() % 8) * (c.width - c.frac) / 8)) ^ static_cast<uint32_t>(rng() & 0xFF);
        default: return static_cast<uint32_t>(rng());
      }
    };
    o.a = operand(r >> 8) & mask;
    o.b = operand(r >> 16) & mask;
    if (c.kind == UnitKind::FxFma) o.c = operand(r >> 24) & mask;
    // Divisors: small ones (|b| < 2^F: quotients beyond the range, saturation) and zero (saturation by sign).
    if (c.kind == UnitKind::FxDiv && (r >> 40) % 4 == 0) o.b = (static_cast<uint32_t>(rng() % 9) - 4u) & mask;
  }
  return ops;
}

}  // namespace neaccel::units::test
