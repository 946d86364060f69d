// binary32 test vectors: random operands biased towards the hard classes, deterministic sweeps of the hard
// classes, and TestFloat's vector line format (`A B RESULT FLAGS`, hex). No SystemC.
#pragma once

#include "neaccel/units/fp32.hpp"

#include <cstdint>
#include <istream>
#include <random>
#include <string>
#include <vector>

namespace neaccel::units::fpvec {

// Fma: a * b + c (TestFloat's f32_mulAdd, three operands); Div: a / b (f32_div).
enum class Op { Add, Sub, Mul, Fma, Div };

// "add" | "sub" | "mul" | "fma" | "div" -> Op; throws neaccel::Error naming `what` otherwise.
Op parse_op(const std::string& name, const std::string& what);
const char* op_name(Op op);
// 3 for Fma, 2 otherwise.
int operand_count(Op op);
// The reference result (fp32.hpp) of op (c: Fma's addend, ignored otherwise).
fp32::Result reference(Op op, uint32_t a, uint32_t b, uint32_t c = 0);

struct Pair {
  uint32_t a = 0;
  uint32_t b = 0;
  uint32_t c = 0;  // Fma only
};

// A random operand pair (triple for Fma): a mix of uniform bit patterns, specials, subnormals, operands whose
// product, sum or quotient lands near the subnormal range, the overflow boundary, in cancellation, or on rounding
// ties (fma_vectors.cpp for Fma and Div).
Pair random_pair(Op op, std::mt19937_64& rng);

// Deterministic sweeps of the hard classes for op (all pairs of special values; subnormal results; ties;
// overflow boundary; cancellation to zero), documented in hard_pairs.cpp.
std::vector<Pair> hard_pairs(Op op);

// One TestFloat line: "%08X %08X %08X %02X".
std::string format_line(uint32_t a, uint32_t b, uint32_t result, uint32_t flags);
// A three-operand TestFloat line (f32_mulAdd): "%08X %08X %08X %08X %02X".
std::string format_line3(uint32_t a, uint32_t b, uint32_t c, uint32_t result, uint32_t flags);

struct Vector {
  uint32_t a = 0, b = 0, c = 0, result = 0, flags = 0;
  long line = 0;  // 1-based line number in the input
};

// Reads TestFloat lines of `operands` operands (2: `A B RESULT FLAGS`; 3: `A B C RESULT FLAGS`) one at a time from
// a stream (a file, a pipe, standard input), in constant memory whatever the input's length: TestFloat's level-1
// f32_mulAdd set is 6 million lines and is usually piped from testfloat_gen. Blank lines are skipped; a malformed
// line, or one longer than kMaxLine characters, throws neaccel::Error "FILE:LINE: ...".
class VectorReader {
 public:
  static constexpr int kMaxLine = 255;
  VectorReader(std::istream& in, std::string file, int operands);
  // The next vector into v; false at the end of the input. Throws "FILE: read error" when the stream fails.
  bool next(Vector& v);
  // Lines read so far (blank ones included).
  long lines() const { return line_; }

 private:
  std::istream& in_;
  std::string file_;
  int fields_;
  long line_ = 0;
};

// All the vectors of `text` (a VectorReader over it).
std::vector<Vector> parse_vectors(const std::string& text, const std::string& file, int operands = 2);

}  // namespace neaccel::units::fpvec
