#include "neaccel/units/fp_vectors.hpp"

#include "fp_vectors_detail.hpp"

#include "neaccel/ref/error.hpp"

#include <cstdio>
#include <sstream>
#include <string_view>

namespace neaccel::units::fpvec {

Op parse_op(const std::string& name, const std::string& what) {
  if (name == "add") return Op::Add;
  if (name == "sub") return Op::Sub;
  if (name == "mul") return Op::Mul;
  if (name == "fma") return Op::Fma;
  if (name == "div") return Op::Div;
  throw Error(what + ": unknown operation '" + name + "' (add, sub, mul, fma or div)");
}

int operand_count(Op op) { return op == Op::Fma ? 3 : 2; }

const char* op_name(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Fma: return "fma";
    case Op::Div: return "div";
    default: return "mul";
  }
}

fp32::Result reference(Op op, uint32_t a, uint32_t b, uint32_t c) {
  switch (op) {
    case Op::Add: return fp32::add(a, b);
    case Op::Sub: return fp32::sub(a, b);
    case Op::Fma: return fp32::fma(a, b, c);
    case Op::Div: return fp32::div(a, b);
    default: return fp32::mul(a, b);
  }
}

namespace {

uint32_t pack(uint32_t sign, uint32_t exp, uint32_t mant) {
  return (sign & 1u) << 31 | (exp & 0xFFu) << 23 | (mant & 0x7FFFFFu);
}

const uint32_t kSpecials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00800000, 0x80800000,
    0x00800001, 0x3F800000, 0xBF800000, 0x3F800001, 0x3FFFFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F000000, 0x7F800000,
    0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFBFFFFF, 0x7FFFFFFF, 0x34000000, 0x0C000000};

uint32_t special(std::mt19937_64& rng) { return kSpecials[rng() % (sizeof kSpecials / sizeof kSpecials[0])]; }

uint32_t any_operand(std::mt19937_64& rng) {
  const uint64_t r = rng();
  switch (r % 8) {
    case 0: return special(rng);
    case 1: return pack(static_cast<uint32_t>(r >> 8), 0, static_cast<uint32_t>(r >> 20));  // subnormal
    case 2:
    case 3: return static_cast<uint32_t>(r >> 32);  // uniform bits
    default: return pack(static_cast<uint32_t>(r >> 8), 1 + static_cast<uint32_t>((r >> 9) % 254),
                         static_cast<uint32_t>(r >> 20));
  }
}

// Mantissa with only the top `bits` bits random: short significands make exact results and ties common.
uint32_t short_mant(std::mt19937_64& rng, int bits) {
  return static_cast<uint32_t>(rng() & ((1u << bits) - 1)) << (23 - bits);
}

Pair random_mul(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const uint32_t sa = static_cast<uint32_t>(r >> 8), sb = static_cast<uint32_t>(r >> 9);
  const uint32_t ma = static_cast<uint32_t>(r >> 10), mb = static_cast<uint32_t>(r >> 33);
  switch (r % 8) {
    case 0:
    case 1:
    case 2: return {any_operand(rng), any_operand(rng)};
    case 3:
    case 4: {  // product exponent in [-30, 5]: subnormal results, underflow, tininess boundary
      const int e = -30 + static_cast<int>(rng() % 36);
      const int ea = 1 + static_cast<int>(rng() % 126);
      const int eb = e + 127 - ea;
      if (eb < 0 || eb > 254) return {pack(sa, 1, ma), pack(sb, 0, mb)};
      return {pack(sa, static_cast<uint32_t>(ea), ma), pack(sb, static_cast<uint32_t>(eb), mb)};
    }
    case 5: {  // product exponent in [250, 257]: overflow boundary
      const int e = 250 + static_cast<int>(rng() % 8);
      const int ea = e - 127 + static_cast<int>(rng() % 126);
      const int eb = e + 127 - ea;
      return {pack(sa, static_cast<uint32_t>(ea), ma), pack(sb, static_cast<uint32_t>(eb), mb)};
    }
    default: {  // short significands: exact products and ties
      const int ea = 64 + static_cast<int>(rng() % 128), eb = 64 + static_cast<int>(rng() % 128);
      return {pack(sa, static_cast<uint32_t>(ea), short_mant(rng, 12) | (ma & 1)),
              pack(sb, static_cast<uint32_t>(eb), short_mant(rng, 13))};
    }
  }
}

Pair random_add(std::mt19937_64& rng) {
  const uint64_t r = rng();
  const uint32_t sa = static_cast<uint32_t>(r >> 8), sb = static_cast<uint32_t>(r >> 9);
  const uint32_t ma = static_cast<uint32_t>(r >> 10), mb = static_cast<uint32_t>(r >> 33);
  const uint32_t ea = static_cast<uint32_t>((r >> 56) % 255);
  switch (r % 8) {
    case 0:
    case 1: return {any_operand(rng), any_operand(rng)};
    case 2:
    case 3: {  // exponents within 2: cancellation
      const uint32_t eb = (ea + static_cast<uint32_t>(rng() % 5) + 253) % 255;
      return {pack(sa, ea, ma), pack(sb, eb, mb)};
    }
    case 4: {  // b = -(a + small delta): cancellation to zero and near it
      const uint32_t a = pack(sa, ea, ma);
      const uint32_t delta = static_cast<uint32_t>(rng() % 9) - 4u;
      return {a, (a + delta) ^ 0x80000000u};
    }
    case 5: {  // exponent difference 20..27: guard, round, sticky positions, ties
      const uint32_t d = 20 + static_cast<uint32_t>(rng() % 8);
      const uint32_t e = 28 + ea % 226;
      return {pack(sa, e, short_mant(rng, 16)), pack(sb, e - d, short_mant(rng, 4) | (mb & 1))};
    }
    case 6: {  // subnormal and smallest normal operands
      return {pack(sa, ea % 3, ma), pack(sb, (ea >> 2) % 3, mb)};
    }
    default: {  // overflow boundary
      return {pack(sa, 250 + ea % 5, ma | 0x700000u), pack(sa ^ (sb & (ea >> 3)), 230 + ea % 25, mb)};
    }
  }
}

}  // namespace

namespace detail {
uint32_t any_operand(std::mt19937_64& rng) { return fpvec::any_operand(rng); }
Pair random_mul(std::mt19937_64& rng) { return fpvec::random_mul(rng); }
}  // namespace detail

Pair random_pair(Op op, std::mt19937_64& rng) {
  switch (op) {
    case Op::Mul: return random_mul(rng);
    case Op::Fma: return detail::random_fma(rng);
    case Op::Div: return detail::random_div(rng);
    default: return random_add(rng);
  }
}

std::string format_line(uint32_t a, uint32_t b, uint32_t result, uint32_t flags) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%08X %08X %08X %02X", a, b, result, flags);
  return buf;
}

std::string format_line3(uint32_t a, uint32_t b, uint32_t c, uint32_t result, uint32_t flags) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%08X %08X %08X %08X %02X", a, b, c, result, flags);
  return buf;
}

namespace {
bool parse_hex(std::string_view tok, size_t max_digits, uint32_t& out) {
  if (tok.empty() || tok.size() > max_digits) return false;
  uint32_t v = 0;
  for (char c : tok) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    v = v << 4 | static_cast<uint32_t>(d);
  }
  out = v;
  return true;
}
}  // namespace

VectorReader::VectorReader(std::istream& in, std::string file, int operands)
    : in_(in), file_(std::move(file)), fields_(operands == 3 ? 5 : 4) {}

bool VectorReader::next(Vector& v) {
  char buf[kMaxLine + 2];  // a full line, its '\r' and the terminating NUL
  for (;;) {
    if (in_.eof()) return false;
    in_.getline(buf, sizeof buf);
    const std::streamsize got = in_.gcount();
    if (in_.bad()) throw Error(file_ + ": read error after line " + std::to_string(line_));
    if (in_.fail()) {
      if (got == 0) return false;  // end of input: nothing was left to read
      // getline stored sizeof buf - 1 characters without meeting the end of the line.
      throw Error(file_ + ":" + std::to_string(line_ + 1) + ": line longer than " + std::to_string(kMaxLine) +
                  " characters (a TestFloat line is under 50)");
    }
    ++line_;
    // got counts the '\n' when one was read (the stream is not at its end then).
    size_t len = static_cast<size_t>(got) - (in_.eof() ? 0 : 1);
    if (len > 0 && buf[len - 1] == '\r') --len;
    const std::string_view text(buf, len);
    std::string_view tok[6];
    size_t count = 0;
    for (size_t i = 0; i < len;) {
      while (i < len && (text[i] == ' ' || text[i] == '\t')) ++i;
      if (i == len) break;
      const size_t b = i;
      while (i < len && text[i] != ' ' && text[i] != '\t') ++i;
      if (count < 6) tok[count] = text.substr(b, i - b);
      ++count;
    }
    if (count == 0) continue;
    const size_t fields = static_cast<size_t>(fields_);
    const std::string where = file_ + ":" + std::to_string(line_) + ": ";
    if (count != fields) {
      throw Error(where + "expected " + std::to_string(fields) + " hex fields `" +
                  (fields == 5 ? "A B C RESULT FLAGS" : "A B RESULT FLAGS") + "`, got " + std::to_string(count));
    }
    v = Vector{};
    v.line = line_;
    const char* names2[] = {"A", "B", "RESULT"};
    const char* names3[] = {"A", "B", "C", "RESULT"};
    uint32_t* dst2[] = {&v.a, &v.b, &v.result};
    uint32_t* dst3[] = {&v.a, &v.b, &v.c, &v.result};
    const char** names = fields == 5 ? names3 : names2;
    uint32_t** dst = fields == 5 ? dst3 : dst2;
    for (size_t i = 0; i + 1 < fields; ++i) {
      if (!parse_hex(tok[i], 8, *dst[i])) {
        throw Error(where + "field " + names[i] + " '" + std::string(tok[i]) + "' is not 1-8 hex digits");
      }
    }
    if (!parse_hex(tok[fields - 1], 2, v.flags) || v.flags > 0x1F) {
      throw Error(where + "field FLAGS '" + std::string(tok[fields - 1]) + "' is not a hex flag set (00-1F)");
    }
    return true;
  }
}

std::vector<Vector> parse_vectors(const std::string& text, const std::string& file, int operands) {
  std::istringstream in(text);
  VectorReader reader(in, file, operands);
  std::vector<Vector> out;
  for (Vector v; reader.next(v);) out.push_back(v);
  return out;
}

}  // namespace neaccel::units::fpvec
