// Operand generators and hard-class sweeps of binary32 fma (a * b + c) and div (a / b): tests/units and
// `neaccel fpgen --op fma|div [--hard]`.
#include "fp_vectors_detail.hpp"

namespace neaccel::units::fpvec::detail {

namespace {

uint32_t pack(uint32_t sign, uint32_t exp, uint32_t mant) {
  return (sign & 1u) << 31 | (exp & 0xFFu) << 23 | (mant & 0x7FFFFFu);
}
uint32_t clamp_exp(int e) { return static_cast<uint32_t>(e < 0 ? 0 : (e > 254 ? 254 : e)); }
uint32_t short_mant(std::mt19937_64& rng, int bits) {
  return static_cast<uint32_t>(rng() & ((1u << bits) - 1)) << (23 - bits);
}
// The product rounded (the FMA's c = -round(a*b) + d ulp exposes the product's rounding error).
uint32_t product(uint32_t a, uint32_t b) { return fp32::mul(a, b).bits; }

const uint32_t kFmaSpecials[] = {0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000,
                                 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000,
                                 0xFF800001, 0x7FA00000, 0x3FC00000, 0x33800000, 0x4B800001, 0x00400000};

}  // namespace

Pair random_fma(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const uint32_t sa = static_cast<uint32_t>(r >> 8), sb = static_cast<uint32_t>(r >> 9), sc = static_cast<uint32_t>(r >> 10);
  const uint32_t ma = static_cast<uint32_t>(r >> 11), mb = static_cast<uint32_t>(r >> 34);
  const uint32_t mc = static_cast<uint32_t>(rng());
  switch (r % 12) {
    case 0: return {any_operand(rng), any_operand(rng), any_operand(rng)};
    case 1: {  // a product pair of the multiplier generator, c anywhere
      const Pair p = random_mul(rng);
      return {p.a, p.b, any_operand(rng)};
    }
    case 2:
    case 3: {  // cancellation: c = -(round(a*b) + d ulp), d in -8..8
      const Pair p = random_mul(rng);
      const uint32_t d = static_cast<uint32_t>(rng() % 17) - 8u;
      return {p.a, p.b, (product(p.a, p.b) + d) ^ 0x80000000u};
    }
    case 4: {  // exact products (short significands) and c = -a*b exactly: exact zero, sign of zero
      const uint32_t a = pack(sa, 100 + static_cast<uint32_t>(rng() % 56), short_mant(rng, 11));
      const uint32_t b = pack(sb, 100 + static_cast<uint32_t>(rng() % 56), short_mant(rng, 11));
      const uint32_t p = product(a, b);
      return {a, b, (rng() & 1) ? p ^ 0x80000000u : p};
    }
    case 5: {  // c near the product: exponents within +-3, either sign
      const Pair p = random_mul(rng);
      const uint32_t pe = (product(p.a, p.b) >> 23) & 0xFFu;
      return {p.a, p.b, pack(sc, clamp_exp(static_cast<int>(pe) + static_cast<int>(rng() % 7) - 3), mc)};
    }
    case 6: {  // subnormal results: product exponent in [-40, -100], c subnormal or tiny normal
      const int e = -100 + static_cast<int>(rng() % 40);
      const int ea = 1 + static_cast<int>(rng() % 100);
      const int eb = e + 127 - ea + 127;
      return {pack(sa, clamp_exp(ea), ma), pack(sb, clamp_exp(eb - 127), mb), pack(sc, static_cast<uint32_t>(rng() % 3), mc)};
    }
    case 7: {  // overflow boundary: product near 2^128, c large
      const int ea = 120 + static_cast<int>(rng() % 100);
      const int eb = 254 - ea + static_cast<int>(rng() % 5);
      return {pack(sa, clamp_exp(ea), ma | 0x600000u), pack(sb, clamp_exp(eb), mb),
              pack(sc, 250 + static_cast<uint32_t>(rng() % 5), mc)};
    }
    case 8: {  // ties: short significands, c a power of two near the product's rounding position
      const uint32_t a = pack(sa, 127, short_mant(rng, 12) | 1u << 11);
      const uint32_t b = pack(sb, 127 + static_cast<uint32_t>(rng() % 3), short_mant(rng, 12) | 1u << 11);
      const uint32_t pe = (product(a, b) >> 23) & 0xFFu;
      return {a, b, pack(sc, clamp_exp(static_cast<int>(pe) - 24 - static_cast<int>(rng() % 4)), short_mant(rng, 2))};
    }
    case 9: {  // c far above the product (the product is a sticky bit), or far below (c is one)
      const Pair p = random_mul(rng);
      const uint32_t pe = (product(p.a, p.b) >> 23) & 0xFFu;
      const int d = 20 + static_cast<int>(rng() % 60);
      return {p.a, p.b, pack(sc, clamp_exp(static_cast<int>(pe) + ((rng() & 1) ? d : -d)), mc)};
    }
    case 10: {  // small operands around 2^-126: subnormal inputs and results, cancellation near zero
      return {pack(sa, 60 + static_cast<uint32_t>(rng() % 10), ma), pack(sb, 60 + static_cast<uint32_t>(rng() % 10), mb),
              pack(sc, static_cast<uint32_t>(rng() % 4), mc)};
    }
    default: return {pack(sa, static_cast<uint32_t>(rng() % 255), ma), pack(sb, static_cast<uint32_t>(rng() % 255), mb),
                     pack(sc, static_cast<uint32_t>(rng() % 255), mc)};
  }
}

Pair random_div(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const uint32_t sa = static_cast<uint32_t>(r >> 8), sb = static_cast<uint32_t>(r >> 9);
  const uint32_t ma = static_cast<uint32_t>(r >> 11), mb = static_cast<uint32_t>(r >> 34);
  switch (r % 8) {
    case 0:
    case 1: return {any_operand(rng), any_operand(rng), 0};
    case 2:
    case 3: {  // quotient exponent in [-30, 4]: subnormal results, underflow, the tininess boundary
      const int e = -30 + static_cast<int>(rng() % 35);
      const int eb = 1 + static_cast<int>(rng() % 200);
      return {pack(sa, clamp_exp(e + eb - 127 + 127), ma), pack(sb, static_cast<uint32_t>(eb), mb), 0};
    }
    case 4: {  // quotient exponent in [250, 257]: overflow boundary
      const int e = 250 + static_cast<int>(rng() % 8);
      const int eb = 1 + static_cast<int>(rng() % 10);
      return {pack(sa, clamp_exp(e + eb - 127), ma), pack(sb, static_cast<uint32_t>(eb), mb), 0};
    }
    case 5: {  // exact quotients: a = b * q with short significands
      const uint32_t b = pack(sb, 60 + static_cast<uint32_t>(rng() % 130), short_mant(rng, 10));
      const uint32_t q = pack(sa, 60 + static_cast<uint32_t>(rng() % 130), short_mant(rng, 10));
      return {product(b, q), b, 0};
    }
    case 6: {  // subnormal dividends or divisors
      return {pack(sa, static_cast<uint32_t>(rng() % 2), ma), pack(sb, static_cast<uint32_t>(rng() % 256) % 255, mb), 0};
    }
    default: return {pack(sa, static_cast<uint32_t>(rng() % 255), ma), pack(sb, static_cast<uint32_t>(rng() % 255), mb), 0};
  }
}

// fma sweeps: all triples of 18 special values (5832); cancellation c = -(round(a*b) + d ulp) over 512
// significands and d in -6..6 at three product exponents (incl. subnormal); exact zeros of every sign
// combination; subnormal results; the overflow boundary; ties near the product's rounding position; c
// 20..70 binades above or below the product.
void fma_sweeps(std::vector<Pair>& out) {
  for (uint32_t a : kFmaSpecials) {
    for (uint32_t b : kFmaSpecials) {
      for (uint32_t c : kFmaSpecials) out.push_back({a, b, c});
    }
  }
  std::vector<uint32_t> ms;
  for (uint32_t k = 0; k < 512; ++k) ms.push_back((k * 0x2F1A3u + (k << 13)) & 0x7FFFFFu);
  const uint32_t mb[] = {0, 1, 0x400000, 0x7FFFFF, 0x200001, 0x555555};
  for (uint32_t m : ms) {
    for (uint32_t n : mb) {
      for (uint32_t ea : {127u, 30u, 200u}) {
        const uint32_t a = pack(0, ea, m), b = pack(1, ea == 30u ? 40u : 127u, n);
        const uint32_t p = product(a, b);
        for (int d = -6; d <= 6; ++d) out.push_back({a, b, (p + static_cast<uint32_t>(d)) ^ 0x80000000u});
      }
    }
  }
  // Exact zeros: a*b exact, c = -a*b; zero products with zero addends of each sign.
  for (uint32_t s = 0; s < 8; ++s) {
    for (uint32_t k = 0; k < 64; ++k) {
      const uint32_t a = pack(s, 120 + k % 16, (k * 0x1234u) << 12), b = pack(s >> 1, 130 - k % 8, (k * 0x55u) << 14);
      out.push_back({a, b, product(a, b) ^ ((s >> 2) == 0 ? 0x80000000u : 0u)});
    }
    out.push_back({pack(s, 0, 0), pack(s >> 1, 127, 0), pack(s >> 2, 0, 0)});
    out.push_back({pack(s, 127, 0x123), pack(s >> 1, 0, 0), pack(s >> 2, 0, 0)});
  }
  // Subnormal results: product exponent E in [-160, -120], c subnormal of either sign.
  for (uint32_t m : ms) {
    for (int e = -160; e <= -120; e += 4) {
      const uint32_t a = pack(0, 20, m), b = pack(m, static_cast<uint32_t>(e + 127 - (20 - 127)), m ^ 0x2AAAAAu);
      out.push_back({a, b, pack(m >> 3, 0, m * 7u)});
    }
  }
  // Overflow boundary: product exponent in [125, 129], c near the largest finite value.
  for (uint32_t m : ms) {
    for (uint32_t e = 125; e <= 129; ++e) {
      out.push_back({pack(0, 127 + 64, m), pack(m, e + 127 - 64, m ^ 0x7FFFFFu), pack(m >> 1, 254, m | 0x7F0000u)});
    }
  }
  // Ties: a*b exact (short significands), c = +-2^(E-24-j) moves the sum onto or next to a halfway point.
  for (uint32_t k = 0; k < 256; ++k) {
    const uint32_t a = pack(0, 127, (k * 0x9E5u) << 11 | 1u << 11), b = pack(0, 127, (k * 0x3C7u) << 11 | 1u << 11);
    const uint32_t pe = (product(a, b) >> 23) & 0xFFu;
    for (uint32_t j = 0; j < 4; ++j) {
      for (uint32_t s = 0; s < 2; ++s) out.push_back({a, b, pack(s, pe - 24 - j, (j & 1) << 22)});
    }
  }
  // c far above or below the product: exponent distance 20..70.
  for (uint32_t m : ms) {
    for (int d = 20; d <= 70; d += 10) {
      out.push_back({pack(0, 127, m), pack(0, 127, m ^ 0x155555u), pack(m, 127u + static_cast<uint32_t>(d), m * 3u)});
      out.push_back({pack(0, 127, m), pack(0, 127, m ^ 0x155555u), pack(m, 127u - static_cast<uint32_t>(d), m * 3u)});
    }
  }
}

// div sweeps (after the 24x24 special pairs): quotient exponents across the subnormal range and the tininess
// boundary; the overflow boundary; exact quotients; significand sweeps at exponent 127 / 127.
void div_sweeps(std::vector<Pair>& out) {
  std::vector<uint32_t> ms{0, 1, 0x7FFFFF, 0x400000, 0x3FFFFF, 0x400001};
  for (uint32_t k = 0; k < 512; ++k) ms.push_back((k * 0x2F1A3u + (k << 13)) & 0x7FFFFFu);
  const uint32_t mb[] = {0, 1, 0x400000, 0x7FFFFF, 0x200001, 0x555555, 0x000FFF, 0x7FF000};
  for (uint32_t m : ms) {
    for (int e = -25; e <= 1; ++e) {  // quotient exponent e: a exponent 60, b exponent 60 - e + 127 - 127
      for (uint32_t n : mb) out.push_back({pack(m, 30, m), pack(m >> 1, static_cast<uint32_t>(30 - e + 127 - 1), n)});
    }
    for (int e = 126; e <= 130; ++e) {
      for (uint32_t n : mb) out.push_back({pack(m, 254, m), pack(m >> 1, static_cast<uint32_t>(254 - e + 127 - 127), n)});
    }
    for (uint32_t n : mb) out.push_back({pack(0, 127, m), pack(0, 127, n)});
    out.push_back({pack(m, 0, m), pack(0, 127, m ^ 0x5A5A5u)});  // subnormal dividend
    out.push_back({pack(0, 127, m), pack(m, 0, m ^ 0x5A5A5u)});  // subnormal divisor
  }
  for (uint32_t i = 0; i < 64; ++i) {
    for (uint32_t j = 0; j < 64; ++j) {
      const uint32_t b = pack(0, 127, (i * 0x2Bu) << 15), q = pack(j, 100 + j, (j * 0x1Du) << 15);
      out.push_back({product(b, q), b, 0});
    }
  }
}

}  // namespace neaccel::units::fpvec::detail
