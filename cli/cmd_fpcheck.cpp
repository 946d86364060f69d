// `neaccel fpcheck`: checks a binary32 unit (Verilated RTL or SystemC model) against TestFloat-format
// vectors; `neaccel fpgen`: writes such vectors from the reference arithmetic (docs/units.md).
//
// Both stream: fpcheck reads its vectors line by line (a file, or standard input for `-`, as in
// `testfloat_gen f32_mulAdd | neaccel fpcheck --op fma --vectors -`) and fpgen writes its lines as it makes them,
// so memory stays constant whatever the number of vectors (TestFloat's level-1 f32_mulAdd set is 6,133,248 lines).
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/fp_vectors.hpp"
#include "neaccel/units/sc_run.hpp"
#include "neaccel/units/vl_unit.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

// libsystemc.so defines main() and references sc_main: the CLI's own main() wins, but the symbol must exist.
// The CLI never enters SystemC through it (the SystemC engine is run from the command callbacks).
extern "C" int sc_main(int, char**) { return 1; }

namespace {

namespace fpvec = neaccel::units::fpvec;
using neaccel::Error;
using neaccel::cli::UsageError;
using neaccel::units::UnitConfig;
using neaccel::units::UnitKind;
using neaccel::units::UnitOut;

// fpgen --count: at most 10^8 random vectors (about 3.9 GB of f32_mulAdd lines and a minute or two of output), 16
// times TestFloat's level-1 sets (6,133,248 lines for f32_mulAdd); larger streams are made by running fpgen with
// several seeds.
constexpr long long kMaxGenCount = 100000000;
// fpcheck --max-report: mismatches listed at most.
constexpr long long kMaxReport = 1000000;
// Vectors run through the Verilated unit at a time: the memory fpcheck holds, whatever the input's length.
constexpr std::size_t kChunk = std::size_t{1} << 16;

struct CheckOptions {
  std::string op = "mul", vectors, engine = "verilator";
  int latency = 3;
  bool non_pipelined = false;
  bool deep = false;
  bool json = false;
  int max_report = 20;
};

// What one vector against the unit's output adds to the report.
class Tally {
 public:
  Tally(const CheckOptions& o, std::string name, bool three) : o_(o), name_(std::move(name)), three_(three) {}

  void add(const fpvec::Vector& v, const UnitOut& got) {
    ++total_;
    const bool result_ok = neaccel::units::fp32::same_result(got.result, v.result);
    const bool flags_ok = got.flags == v.flags;
    if (result_ok && flags_ok) return;
    ++failed_;
    if (failed_ == 1) first_line_ = v.line;
    const std::string what = !result_ok && !flags_ok ? "result and flags" : (!result_ok ? "result" : "flags");
    if (failed_ > static_cast<unsigned long>(o_.max_report)) return;
    if (o_.json) {
      nlohmann::json m{{"line", v.line},
                       {"a", fmt::format("{:08X}", v.a)},
                       {"b", fmt::format("{:08X}", v.b)},
                       {"got", fmt::format("{:08X}", got.result)},
                       {"got_flags", fmt::format("{:02X}", got.flags)},
                       {"expected", fmt::format("{:08X}", v.result)},
                       {"expected_flags", fmt::format("{:02X}", v.flags)},
                       {"differs", what}};
      if (three_) m["c"] = fmt::format("{:08X}", v.c);
      mismatches_.push_back(m);
    } else {
      const std::string operands =
          three_ ? fmt::format("{:08X} {:08X} {:08X}", v.a, v.b, v.c) : fmt::format("{:08X} {:08X}", v.a, v.b);
      fmt::print("{}:{}: {} {}: got {:08X} {:02X}, expected {:08X} {:02X} ({} differ)\n", name_, v.line, o_.op,
                 operands, got.result, got.flags, v.result, v.flags, what);
    }
  }

  // The summary on stdout; a mismatch is exit status 3 with one error line, no vectors at all is an input error.
  void finish() {
    if (total_ == 0)
      throw Error(name_ + ": no vectors (expected lines `" + (three_ ? "A B C RESULT FLAGS" : "A B RESULT FLAGS") +
                  "`, hex)");
    const unsigned long passed = total_ - failed_;
    if (o_.json) {
      nlohmann::json j{{"op", o_.op},         {"engine", o_.engine},           {"latency", o_.latency},
                       {"pipelined", !o_.non_pipelined}, {"vectors", o_.vectors}, {"passed", passed},
                       {"failed", failed_},   {"mismatches", mismatches_}};
      fmt::print("{}\n", j.dump(2));
    } else {
      fmt::print("{} passed, {} failed\n", passed, failed_);
    }
    std::fflush(stdout);
    if (failed_ == 0) return;
    std::fprintf(stderr, "neaccel: error: fpcheck: %lu of %lu %s vectors differ from the %s unit (first at %s:%ld)\n",
                 failed_, total_, o_.op.c_str(), o_.engine == "systemc" ? "SystemC model of the" : "Verilated",
                 name_.c_str(), first_line_);
    throw neaccel::cli::ExitCode{3};
  }

 private:
  const CheckOptions& o_;
  std::string name_;
  bool three_;
  unsigned long total_ = 0, failed_ = 0;
  long first_line_ = 0;
  nlohmann::json mismatches_ = nlohmann::json::array();
};

std::array<uint32_t, 4> operation(fpvec::Op op, const fpvec::Vector& v) {
  return {op == fpvec::Op::Sub ? 1u : 0u, v.a, v.b, v.c};
}

void run_check(const CheckOptions& o) {
  const fpvec::Op op = neaccel::cli::as_usage([&] { return fpvec::parse_op(o.op, "--op"); });
  if (o.engine != "verilator" && o.engine != "systemc")
    throw UsageError("--engine: unknown engine '" + o.engine + "' (verilator or systemc)");
  const int operands = fpvec::operand_count(op);
  const UnitKind kind = op == fpvec::Op::Mul   ? UnitKind::Fp32Mul
                        : op == fpvec::Op::Fma ? UnitKind::Fp32Fma
                        : op == fpvec::Op::Div ? UnitKind::Fp32Div
                                               : UnitKind::Fp32Add;
  // The deep units (rtl/units/deep: mul and add, latencies 1..8) differ from the others in their Verilog only; the
  // SystemC model is the same arithmetic at the same latency, so --deep names a Verilated model.
  if (o.deep && o.engine != "verilator")
    throw UsageError("--deep: only with --engine verilator (the SystemC model does not depend on the unit's pipeline)");
  if (o.deep && o.non_pipelined) throw UsageError("--deep: the deep units are always pipelined (drop --non-pipelined)");
  if (o.deep && kind != UnitKind::Fp32Mul && kind != UnitKind::Fp32Add)
    throw UsageError("--deep: the deep units are mul, add and sub, not " + o.op);
  if (o.latency > (o.deep ? 8 : 6))
    throw UsageError("--latency: " + std::to_string(o.latency) + " is beyond 1.." + (o.deep ? "8" : "6") +
                     (o.deep ? "" : " (1..8 with --deep)"));
  const UnitConfig cfg{kind, o.latency, !o.non_pipelined, 32, 16, o.deep};
  // The Verilated unit first: a configuration that was not built is refused before any input is read.
  std::unique_ptr<neaccel::units::VlUnit> unit;
  if (o.engine == "verilator") unit = neaccel::units::make_vl_unit(cfg);

  const bool from_stdin = o.vectors == "-";
  const std::string name = from_stdin ? "<stdin>" : o.vectors;
  std::ifstream file;
  if (from_stdin) {
    // A buffered std::cin (synchronised with stdio it reads a character at a time); stdout stays with stdio.
    std::ios::sync_with_stdio(false);
  } else {
    file.open(o.vectors, std::ios::binary);
    if (!file) throw Error(o.vectors + ": cannot open vector file");
  }
  fpvec::VectorReader reader(from_stdin ? std::cin : file, name, operands);
  Tally tally(o, name, operands == 3);

  if (unit) {
    std::vector<fpvec::Vector> chunk;
    std::vector<std::array<uint32_t, 4>> ops;
    chunk.reserve(kChunk);
    ops.reserve(kChunk);
    for (bool more = true; more;) {
      chunk.clear();
      ops.clear();
      for (fpvec::Vector v; chunk.size() < kChunk && (more = reader.next(v));) {
        chunk.push_back(v);
        ops.push_back(operation(op, v));
      }
      if (chunk.empty()) break;
      const std::vector<UnitOut> got = neaccel::units::run_vl_unit(*unit, ops);
      for (std::size_t i = 0; i < chunk.size(); ++i) tally.add(chunk[i], got[i]);
    }
  } else {
    std::deque<fpvec::Vector> in_flight;  // at most the unit's latency of them
    neaccel::units::stream_sc_unit(
        cfg,
        [&](std::array<uint32_t, 4>& ops) {
          fpvec::Vector v;
          if (!reader.next(v)) return false;
          in_flight.push_back(v);
          ops = operation(op, v);
          return true;
        },
        [&](const UnitOut& got) {
          tally.add(in_flight.front(), got);
          in_flight.pop_front();
        });
  }
  tally.finish();
}

struct GenOptions {
  std::string op = "mul", out;
  long long count = 10000;
  uint64_t seed = 1;
  bool hard = false;
};

// Writes the vectors as they are made (constant memory): to --out, or to standard output for `-` or no --out.
void run_gen(const GenOptions& o) {
  const fpvec::Op op = neaccel::cli::as_usage([&] { return fpvec::parse_op(o.op, "--op"); });
  // No vectors at all is what fpcheck refuses as an input error ("no vectors"): refused here before a file is made.
  if (o.count == 0 && !o.hard)
    throw UsageError("--count: 0 random vectors without --hard writes no vector (fpcheck refuses an empty file); give "
                     "--count 1 or more, or --hard for the hard-class sweeps alone");
  const bool to_stdout = o.out.empty() || o.out == "-";
  const std::string name = to_stdout ? "standard output" : o.out;
  if (!to_stdout) {  // a missing parent directory is made, as for every other --out of the CLI
    const std::filesystem::path parent = std::filesystem::path(o.out).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (ec) throw Error(o.out + ": cannot make its directory (" + ec.message() + ")");
  }
  std::FILE* f = to_stdout ? stdout : std::fopen(o.out.c_str(), "wb");
  if (!f) throw Error(o.out + ": cannot write vector file (" + std::strerror(errno) + ")");
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> owned(to_stdout ? nullptr : f, &std::fclose);
  static char buffer[1 << 16];
  std::setvbuf(f, buffer, _IOFBF, sizeof buffer);
  const bool three = fpvec::operand_count(op) == 3;
  const auto write = [&](const fpvec::Pair& p) {
    const auto r = fpvec::reference(op, p.a, p.b, p.c);
    char line[64];
    const int n = three ? std::snprintf(line, sizeof line, "%08X %08X %08X %08X %02X\n", p.a, p.b, p.c, r.bits, r.flags)
                        : std::snprintf(line, sizeof line, "%08X %08X %08X %02X\n", p.a, p.b, r.bits, r.flags);
    if (std::fwrite(line, 1, static_cast<std::size_t>(n), f) != static_cast<std::size_t>(n))
      throw Error(name + ": write failed (" + std::strerror(errno) + ")");
  };
  if (o.hard)
    for (const auto& p : fpvec::hard_pairs(op)) write(p);
  std::mt19937_64 rng(o.seed);
  for (long long i = 0; i < o.count; ++i) write(fpvec::random_pair(op, rng));
  if (std::fflush(f) != 0 || std::ferror(f)) throw Error(name + ": write failed (" + std::strerror(errno) + ")");
  if (!to_stdout && std::fclose(owned.release()) != 0)
    throw Error(name + ": write failed (" + std::strerror(errno) + ")");
}

void setup_check(CLI::App& app) {
  using neaccel::cli::int_in;
  auto opt = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand("fpcheck", "check a binary32 unit against TestFloat vectors (A B RESULT FLAGS; fma: A B C RESULT FLAGS)");
  cmd->add_option("--op", opt->op, "add | sub | mul | fma (f32_mulAdd) | div")->required();
  cmd->add_option("--vectors", opt->vectors, "TestFloat-format vector file, read as a stream; - reads standard input")
      ->required();
  cmd->add_option("--engine", opt->engine, "verilator (RTL) | systemc (model)")->capture_default_str();
  cmd->add_option("--latency", opt->latency, "unit latency 1..6 (1..8 with --deep)")->capture_default_str()->check(int_in(1, 8));
  cmd->add_flag("--deep", opt->deep, "the deep unit of rtl/units/deep (mul, add, sub; verilator engine)");
  cmd->add_flag("--non-pipelined", opt->non_pipelined, "non-pipelined unit (verilator: latency 3, fp32 div latency 6)");
  cmd->add_option("--max-report", opt->max_report, "mismatches listed at most (0..1000000; 0 = none listed, the exit status and error line still report them)")
      ->capture_default_str()
      ->check(int_in(0, kMaxReport));
  cmd->add_flag("--json", opt->json, "JSON report");
  cmd->callback([opt] { run_check(*opt); });
}

void setup_gen(CLI::App& app) {
  using neaccel::cli::int_in;
  auto gen = std::make_shared<GenOptions>();
  auto* g = app.add_subcommand("fpgen", "write TestFloat-format binary32 vectors from the reference (num/fp32.hpp)");
  g->add_option("--op", gen->op, "add | sub | mul | fma | div")->required();
  g->add_option("--count", gen->count, "random vectors, 0..100000000 (0 = none: with --hard, the hard-class sweeps alone)")->capture_default_str()->check(int_in(0, kMaxGenCount));
  g->add_option("--seed", gen->seed, "random seed")->capture_default_str();
  g->add_flag("--hard", gen->hard, "prepend the deterministic hard-class sweeps");
  g->add_option("--out", gen->out, "output file; - or none: standard output");
  g->callback([gen] { run_gen(*gen); });
}

}  // namespace

NEACCEL_COMMAND(fpcheck, 60, setup_check)
NEACCEL_COMMAND(fpgen, 60, setup_gen)
