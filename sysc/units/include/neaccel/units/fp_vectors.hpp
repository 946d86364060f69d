// binary32 test vectors: random operands biased towards the hard classes, deterministic sweeps of the hard
// classes, and TestFloat's vector line format (`A B RESULT FLAGS`, hex). No SystemC.
#pragma once

#include "neaccel/units/fp32.hpp"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace neaccel::units::fpvec {

enum class Op { Add, Sub, Mul };

// "add" | "sub" | "mul" -> Op; throws neaccel::Error naming `what` otherwise.
Op parse_op(const std::string& name, const std::string& what);
const char* op_name(Op op);
// The reference result (fp32.hpp) of op.
fp32::Result reference(Op op, uint32_t a, uint32_t b);

struct Pair {
  uint32_t a = 0;
  uint32_t b = 0;
};

// A random operand pair: a mix of uniform bit patterns, specials, subnormals, operands whose product or sum
// lands near the subnormal range, the overflow boundary, in cancellation, or on rounding ties.
Pair random_pair(Op op, std::mt19937_64& rng);

// Deterministic sweeps of the hard classes for op (all pairs of special values; subnormal results; ties;
// overflow boundary; cancellation to zero), documented in hard_pairs.cpp.
std::vector<Pair> hard_pairs(Op op);

// One TestFloat line: "%08X %08X %08X %02X".
std::string format_line(uint32_t a, uint32_t b, uint32_t result, uint32_t flags);

struct Vector {
  uint32_t a = 0, b = 0, result = 0, flags = 0;
  int line = 0;
};
// Parses TestFloat lines (blank lines skipped); throws neaccel::Error "FILE:LINE: ..." on a malformed line.
std::vector<Vector> parse_vectors(const std::string& text, const std::string& file);

}  // namespace neaccel::units::fpvec
