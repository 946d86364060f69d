// Deterministic sweeps of the hard classes of binary32 add and mul (tests/units and `neaccel fpgen --hard`).
#include "neaccel/units/fp_vectors.hpp"

#include "fp_vectors_detail.hpp"

namespace neaccel::units::fpvec {

namespace {

uint32_t pack(uint32_t sign, uint32_t exp, uint32_t mant) {
  return (sign & 1u) << 31 | (exp & 0xFFu) << 23 | (mant & 0x7FFFFFu);
}

// n mantissas spread over [0, 2^23): an arithmetic progression with an odd step plus the extremes.
std::vector<uint32_t> mantissas(uint32_t n) {
  std::vector<uint32_t> m{0, 1, 0x7FFFFF, 0x400000, 0x3FFFFF, 0x400001};
  for (uint32_t k = 0; k < n; ++k) m.push_back((k * 0x2F1A3u + (k << 13)) & 0x7FFFFFu);
  return m;
}

const uint32_t kSpecialValues[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000,
    0x3F800000, 0xBF800000, 0x3FC00000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
    0xFFC00000, 0x7F800001, 0xFF800001, 0x7FA00000, 0x7FFFFFFF, 0x00400000, 0x3F000000, 0x4B800000};

void specials(std::vector<Pair>& out) {
  for (uint32_t a : kSpecialValues) {
    for (uint32_t b : kSpecialValues) out.push_back({a, b});
  }
}

void mul_sweeps(std::vector<Pair>& out) {
  const std::vector<uint32_t> ma = mantissas(1024);
  const uint32_t mb[] = {0, 1, 0x400000, 0x7FFFFF, 0x200001, 0x555555, 0x000FFF, 0x7FF000};
  // Subnormal results and the tininess boundary: product exponent E in [-25, 1] (a exponent 97).
  for (uint32_t m : ma) {
    for (int e = -25; e <= 1; ++e) {
      for (uint32_t n : mb) out.push_back({pack(m, 97, m), pack(m >> 1, static_cast<uint32_t>(e + 30), n)});
    }
  }
  // Below 2^-126 but rounding to 2^-126 at 24 bits: no underflow with tininess after rounding.
  out.push_back({0x32000001, 0x0DFFFFFE});
  out.push_back({0xB2000001, 0x0DFFFFFE});
  // Subnormal operands times normal ones around 2^0 .. 2^24.
  for (uint32_t m : ma) {
    for (uint32_t eb = 120; eb <= 152; eb += 4) out.push_back({pack(m, 0, m), pack(0, eb, m ^ 0x5A5A5u)});
  }
  // Ties: b = 1 + 2^-k makes a * b = a + a * 2^-k, exactly halfway whenever the shifted-out bits are 10..0.
  for (uint32_t m : ma) {
    for (uint32_t k = 1; k <= 23; ++k) out.push_back({pack(0, 127, m), pack(0, 127, 1u << (23 - k))});
  }
  // Overflow boundary: product exponent E in [250, 257] (a exponent 190).
  for (uint32_t m : ma) {
    for (int e = 250; e <= 257; ++e) {
      for (uint32_t n : mb) out.push_back({pack(m >> 2, 190, m), pack(0, static_cast<uint32_t>(e - 63), n)});
    }
  }
}

void add_sweeps(std::vector<Pair>& out) {
  const std::vector<uint32_t> ma = mantissas(1024);
  // Cancellation to (and near) zero: b = -(a + d ulp), same and neighbouring exponent.
  for (uint32_t m : ma) {
    for (uint32_t e : {1u, 2u, 100u, 254u}) {
      const uint32_t a = pack(0, e, m);
      for (int d = -4; d <= 4; ++d) {
        out.push_back({a, (a + static_cast<uint32_t>(d)) ^ 0x80000000u});
        out.push_back({a, pack(1, e - 1, m ^ static_cast<uint32_t>(d + 4))});
      }
    }
  }
  // Subnormal and smallest-normal sums (exact by construction; underflow must stay clear).
  for (uint32_t i = 0; i < 256; ++i) {
    for (uint32_t j = 0; j < 64; ++j) {
      out.push_back({pack(i >> 7, (i & 1), i * 0x8421u), pack(j >> 5, (j >> 4) & 1, j * 0x1F0F1u)});
    }
  }
  // Alignment, guard/round/sticky and ties: exponent difference 20..27, b with few bits set.
  const uint32_t fb[] = {0, 1, 0x400000, 0x400001, 0x600000, 0x7FFFFF, 0x000002, 0x200000};
  for (uint32_t m : ma) {
    for (uint32_t d = 20; d <= 27; ++d) {
      for (uint32_t n : fb) {
        out.push_back({pack(0, 127, m), pack(0, 127 - d, n)});
        out.push_back({pack(0, 127, m), pack(1, 127 - d, n)});
      }
    }
  }
  // Overflow boundary: large a plus b with exponent 230..254.
  for (uint32_t m : ma) {
    for (uint32_t e = 230; e <= 254; e += 3) out.push_back({pack(m, 254, m | 0x700000u), pack(m, e, m ^ 0x7FFFFFu)});
  }
}

}  // namespace

std::vector<Pair> hard_pairs(Op op) {
  std::vector<Pair> out;
  if (op == Op::Fma) {
    detail::fma_sweeps(out);
    return out;
  }
  specials(out);
  if (op == Op::Mul) mul_sweeps(out);
  else if (op == Op::Div) detail::div_sweeps(out);
  else add_sweeps(out);
  return out;
}

}  // namespace neaccel::units::fpvec
