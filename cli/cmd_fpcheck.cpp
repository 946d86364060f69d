// `neaccel fpcheck`: checks a binary32 unit (Verilated RTL or SystemC model) against TestFloat-format
// vectors; `neaccel fpgen`: writes such vectors from the reference arithmetic (docs/units.md).
#include "command.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/fp_vectors.hpp"
#include "neaccel/units/sc_run.hpp"
#include "neaccel/units/vl_unit.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

// libsystemc.so defines main() and references sc_main: the CLI's own main() wins, but the symbol must exist.
// The CLI never enters SystemC through it (the SystemC engine is run from the command callbacks).
extern "C" int sc_main(int, char**) { return 1; }

namespace {

namespace fpvec = neaccel::units::fpvec;
using neaccel::Error;
using neaccel::units::UnitConfig;
using neaccel::units::UnitKind;
using neaccel::units::UnitOut;

struct CheckOptions {
  std::string op = "mul", vectors, engine = "verilator";
  int latency = 3;
  bool non_pipelined = false;
  bool json = false;
  int max_report = 20;
};

std::string read_file(const std::string& path) {
  neaccel::check_file_size(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open vector file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<UnitOut> run_engine(const CheckOptions& o, fpvec::Op op, const std::vector<fpvec::Vector>& vs) {
  const UnitKind kind = op == fpvec::Op::Mul   ? UnitKind::Fp32Mul
                        : op == fpvec::Op::Fma ? UnitKind::Fp32Fma
                        : op == fpvec::Op::Div ? UnitKind::Fp32Div
                                               : UnitKind::Fp32Add;
  UnitConfig cfg{kind, o.latency, !o.non_pipelined, 32, 16};
  std::vector<std::array<uint32_t, 4>> ops;
  ops.reserve(vs.size());
  const uint32_t code = op == fpvec::Op::Sub ? 1u : 0u;
  for (const auto& v : vs) ops.push_back({code, v.a, v.b, v.c});
  if (o.engine == "systemc") return neaccel::units::run_sc_unit(cfg, ops);
  if (o.engine != "verilator") throw Error("--engine: unknown engine '" + o.engine + "' (verilator or systemc)");
  auto unit = neaccel::units::make_vl_unit(cfg);
  return neaccel::units::run_vl_unit(*unit, ops);
}

void run_check(const CheckOptions& o) {
  const fpvec::Op op = fpvec::parse_op(o.op, "--op");
  if (o.latency < 1 || o.latency > 6) throw Error("--latency: must be 1..6");
  const bool three = fpvec::operand_count(op) == 3;
  const auto vs = fpvec::parse_vectors(read_file(o.vectors), o.vectors, fpvec::operand_count(op));
  const std::vector<UnitOut> got = run_engine(o, op, vs);
  size_t failed = 0;
  nlohmann::json mismatches = nlohmann::json::array();
  for (size_t i = 0; i < vs.size(); ++i) {
    const auto& v = vs[i];
    const bool result_ok = neaccel::units::fp32::same_result(got[i].result, v.result);
    const bool flags_ok = got[i].flags == v.flags;
    if (result_ok && flags_ok) continue;
    ++failed;
    const std::string what = !result_ok && !flags_ok ? "result and flags" : (!result_ok ? "result" : "flags");
    if (o.json) {
      if (static_cast<int>(mismatches.size()) < o.max_report) {
        nlohmann::json m{{"line", v.line}, {"a", fmt::format("{:08X}", v.a)}, {"b", fmt::format("{:08X}", v.b)},
                         {"got", fmt::format("{:08X}", got[i].result)}, {"got_flags", fmt::format("{:02X}", got[i].flags)},
                         {"expected", fmt::format("{:08X}", v.result)},
                         {"expected_flags", fmt::format("{:02X}", v.flags)}, {"differs", what}};
        if (three) m["c"] = fmt::format("{:08X}", v.c);
        mismatches.push_back(m);
      }
    } else if (static_cast<int>(failed) <= o.max_report) {
      const std::string operands =
          three ? fmt::format("{:08X} {:08X} {:08X}", v.a, v.b, v.c) : fmt::format("{:08X} {:08X}", v.a, v.b);
      fmt::print("{}:{}: {} {}: got {:08X} {:02X}, expected {:08X} {:02X} ({} differ)\n", o.vectors, v.line, o.op,
                 operands, got[i].result, got[i].flags, v.result, v.flags, what);
    }
  }
  const size_t passed = vs.size() - failed;
  if (o.json) {
    nlohmann::json j{{"op", o.op},         {"engine", o.engine},   {"latency", o.latency},
                     {"pipelined", !o.non_pipelined}, {"vectors", o.vectors}, {"passed", passed},
                     {"failed", failed},   {"mismatches", mismatches}};
    std::cout << j.dump(2) << "\n";
  } else {
    fmt::print("{} passed, {} failed\n", passed, failed);
  }
  std::cout.flush();
  if (failed > 0) throw neaccel::cli::ExitCode{1};
}

struct GenOptions {
  std::string op = "mul", out;
  long count = 10000;
  uint64_t seed = 1;
  bool hard = false;
};

void run_gen(const GenOptions& o) {
  const fpvec::Op op = fpvec::parse_op(o.op, "--op");
  if (o.count < 0) throw Error("--count: must be >= 0");
  std::vector<fpvec::Pair> pairs;
  if (o.hard) pairs = fpvec::hard_pairs(op);
  std::mt19937_64 rng(o.seed);
  for (long i = 0; i < o.count; ++i) pairs.push_back(fpvec::random_pair(op, rng));
  std::ofstream out(o.out, std::ios::binary);
  if (!out) throw Error(o.out + ": cannot write vector file");
  for (const auto& p : pairs) {
    const auto r = fpvec::reference(op, p.a, p.b, p.c);
    out << (fpvec::operand_count(op) == 3 ? fpvec::format_line3(p.a, p.b, p.c, r.bits, r.flags)
                                          : fpvec::format_line(p.a, p.b, r.bits, r.flags))
        << "\n";
  }
  if (!out) throw Error(o.out + ": write failed");
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<CheckOptions>();
  auto* cmd = app.add_subcommand("fpcheck", "check a binary32 unit against TestFloat vectors (A B RESULT FLAGS; fma: A B C RESULT FLAGS)");
  cmd->add_option("--op", opt->op, "add | sub | mul | fma (f32_mulAdd) | div")->required();
  cmd->add_option("--vectors", opt->vectors, "TestFloat-format vector file")->required();
  cmd->add_option("--engine", opt->engine, "verilator (RTL) | systemc (model)")->capture_default_str();
  cmd->add_option("--latency", opt->latency, "unit latency 1..6")->capture_default_str();
  cmd->add_flag("--non-pipelined", opt->non_pipelined, "non-pipelined unit (verilator: latency 3, fp32 div latency 6)");
  cmd->add_option("--max-report", opt->max_report, "mismatches listed at most")->capture_default_str();
  cmd->add_flag("--json", opt->json, "JSON report");
  cmd->callback([opt] { run_check(*opt); });

  auto gen = std::make_shared<GenOptions>();
  auto* g = app.add_subcommand("fpgen", "write TestFloat-format binary32 vectors from the reference (num/fp32.hpp)");
  g->add_option("--op", gen->op, "add | sub | mul | fma | div")->required();
  g->add_option("--count", gen->count, "random vectors")->capture_default_str();
  g->add_option("--seed", gen->seed, "random seed")->capture_default_str();
  g->add_flag("--hard", gen->hard, "prepend the deterministic hard-class sweeps");
  g->add_option("--out", gen->out, "output file")->required();
  g->callback([gen] { run_gen(*gen); });
}

}  // namespace

NEACCEL_COMMAND(fpcheck, 60, setup)
