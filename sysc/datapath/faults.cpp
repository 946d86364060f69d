#include "faults.hpp"

#include "cycle_log.hpp"

#include <memory>

namespace neaccel::sysc {
namespace {

void record(const DatapathCore& core, const CycleView& v, FaultSites* s) {
  if (!s) return;
  const long c = core.cycle();
  for (std::size_t u = 0; u < v.unit_valid.size(); ++u) {
    if (v.unit_valid[u]) s->unit_valid.emplace_back(c, static_cast<int>(u));
    if (v.wr_en[u]) s->reg_write.emplace_back(c, static_cast<int>(u));
  }
  if (core.state() == DatapathCore::State::Compute || core.state() == DatapathCore::State::Run)
    s->word.emplace_back(c, core.index());
  if (core.fifo_size() > 0) s->fifo.emplace_back(c, static_cast<int>(core.fifo_size()));
}

}  // namespace

// The same sequence of clock edges and input values as ModelBench (run.cpp): the stimulus thread acts at the falling
// edge (log line, then the next inputs from the outputs of the last rising edge); DatapathModel steps the core at the
// rising edge. Reset: the edges before rst_n rises reset the core; one edge with the initial inputs follows.
CoreRun run_core(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states, const Fault& fault,
                 long max_cycles, int stall_every, int stall_len, FaultSites* sites) {
  DatapathCore core(dp);
  core.inject(fault);
  CoreRun r;
  const bool nan_class = !dp.config.format.fixed;
  bool start = false, in_valid = false, out_ready = false;
  std::uint32_t in_data = 0;
  long n = 0;  // log line number
  auto edge = [&] { core.step(start, in_valid, in_data, out_ready); };
  auto log = [&] {
    const CycleView v = core.view(in_valid, in_data);
    record(core, v, sites);
    r.log.push_back(rtlsim::cycle_line(n++, v, nan_class));
  };
  core.reset();
  edge();
  if (dp.streaming()) {
    rtlsim::StreamBook book(states, dp.output_names.size());
    book.sink_stalls(stall_every, stall_len);
    for (long c = 0;; ++c) {
      log();
      if (c > 0 && core.done()) {
        book.r.cycles = c;
        break;
      }
      if (c > max_cycles) {
        r.timeout = true;
        break;
      }
      start = c == 0;
      in_valid = book.in_valid();
      out_ready = book.out_ready(c);
      in_data = book.in_data();
      book.cycle(c, core.in_ready(), core.out_valid(), core.out_data());
      edge();
    }
    r.stream = book.r;
    r.out = book.r.out;
    for (std::size_t k = 1; k < book.r.first_out.size(); ++k)
      r.cycles.push_back(book.r.first_out[k] - book.r.first_out[k - 1]);
    start = in_valid = false;
    edge();
  } else {
    for (const auto& graph_in : states) {
      // The port's words in load order (overlapped I/O loads them in io_overlap's order; otherwise the same words).
      const std::vector<std::uint32_t> in = hw::port_words(dp, graph_in);
      std::vector<std::uint32_t> out;
      std::size_t k = 0;
      for (long c = 0;; ++c) {
        log();
        if (c > 0 && core.done()) {
          r.cycles.push_back(c);
          break;
        }
        if (c > max_cycles) {
          r.timeout = true;
          break;
        }
        if (core.out_valid()) out.push_back(core.out_data());
        start = c == 0;
        in_valid = out_ready = true;
        in_data = k < in.size() ? in[k] : 0;
        if (core.in_ready()) ++k;
        edge();
      }
      // Overlapped I/O: back in graph output order (as run_model; a wrong word count stays as it is).
      r.out.push_back(dp.overlapped() && out.size() == dp.output_names.size() ? hw::graph_outputs(dp, out) : out);
      if (r.timeout) break;
      start = false;
      edge();
    }
  }
  r.total_cycles = core.cycle();
  if (sites) sites->cycles = r.total_cycles;
  return r;
}

const char* site_name(SiteKind k) {
  switch (k) {
    case SiteKind::UnitResult: return "unit_result";
    case SiteKind::RegWrite: return "reg_write";
    case SiteKind::Control: return "control";
    case SiteKind::FifoWord: return "fifo_word";
    case SiteKind::Const: return "const";
  }
  return "?";
}

std::vector<SiteKind> site_kinds(const hw::Datapath& dp) {
  std::vector<SiteKind> k{SiteKind::UnitResult, SiteKind::RegWrite, SiteKind::Control};
  if (dp.backpressure()) k.push_back(SiteKind::FifoWord);
  if (!dp.consts.empty()) k.push_back(SiteKind::Const);
  return k;
}

namespace {

// One control bit of a microcode word, in the layout of hw::microcode_hex (per unit {valid, op[2], stage, a, b}, per
// unit {wb, stage, dest}; streaming: {launch}, {take, write, dest}, {out valid, stage, src}).
enum class Field { IssueValid, IssueOp, IssueStage, IssueA, IssueB, WbValid, WbStage, WbDest, Launch, LoadTake,
                   LoadWrite, LoadDest, OutValid, OutStage, OutSrc };
struct ControlBit {
  Field field;
  int unit = 0;
  int bit = 0;
};
const char* field_name(Field f) {
  static const char* names[] = {"issue.valid", "issue.op",  "issue.stage", "issue.a",   "issue.b",
                                "wb.valid",    "wb.stage",  "wb.dest",     "launch",    "load.take",
                                "load.write",  "load.dest", "out.valid",   "out.stage", "out.src"};
  return names[static_cast<int>(f)];
}

std::vector<ControlBit> control_bits(const hw::Config& c) {
  std::vector<ControlBit> v;
  const int OA = c.op_addr_bits(), RA = c.reg_addr_bits(), SB = c.stream ? c.stage_bits() : 0;
  auto field = [&](Field f, int u, int bits) {
    for (int b = 0; b < bits; ++b) v.push_back({f, u, b});
  };
  for (int u = 0; u < c.num_units(); ++u) {
    field(Field::IssueValid, u, 1);
    if (u >= c.num_mul) field(Field::IssueOp, u, 2);  // multipliers ignore op
    field(Field::IssueStage, u, SB);
    field(Field::IssueA, u, OA);
    field(Field::IssueB, u, OA);
    field(Field::WbValid, u, 1);
    field(Field::WbStage, u, SB);
    field(Field::WbDest, u, RA);
  }
  if (c.stream) {
    field(Field::Launch, 0, 1);
    field(Field::LoadTake, 0, 1);
    field(Field::LoadWrite, 0, 1);
    field(Field::LoadDest, 0, RA);
    field(Field::OutValid, 0, 1);
    field(Field::OutStage, 0, SB);
    field(Field::OutSrc, 0, OA);
  }
  return v;
}

// Flips operand address bit `bit`; false when the address names no unit, register or constant.
bool flip_operand(const hw::Datapath& dp, hw::Operand& o, int bit) {
  const auto& c = dp.config;
  const std::uint32_t a = hw::operand_address(c, o) ^ (1u << bit);
  const std::uint32_t U = c.num_units(), R = c.max_regs;
  if (a < U) o = {hw::Operand::Kind::Unit, static_cast<int>(a)};
  else if (a < U + R) o = {hw::Operand::Kind::Reg, static_cast<int>(a - U)};
  else if (a - U - R < dp.consts.size()) o = {hw::Operand::Kind::Const, static_cast<int>(a - U - R)};
  else return false;
  return true;
}

// Applies the flip to `w` as the ROM holds it (fields of a disabled issue, write-back, load or output are zero
// there, so enabling one by a flip executes zeros); false when the result addresses past a resource.
bool flip(const hw::Datapath& dp, hw::Word& w, const ControlBit& cb) {
  const auto& c = dp.config;
  const int m = 1 << cb.bit;
  auto& is = w.issue[cb.unit];
  auto& wb = w.wb[cb.unit];
  const hw::Operand zero{hw::Operand::Kind::Unit, 0};
  switch (cb.field) {
    case Field::IssueValid:
      if (!is.valid) is.op = 0, is.stage = 0, is.a = is.b = zero;
      is.valid = !is.valid;
      return true;
    case Field::IssueOp: is.op = static_cast<std::uint8_t>(is.op ^ m); return is.op <= hw::kOpNeg;
    case Field::IssueStage: is.stage ^= m; return is.stage < c.max_stages;
    case Field::IssueA: return flip_operand(dp, is.a, cb.bit);
    case Field::IssueB: return flip_operand(dp, is.b, cb.bit);
    case Field::WbValid:
      if (!wb.valid) wb.dest = 0, wb.stage = 0;
      wb.valid = !wb.valid;
      return true;
    case Field::WbStage: wb.stage ^= m; return wb.stage < c.max_stages;
    case Field::WbDest: wb.dest ^= m; return wb.dest < c.max_regs;
    case Field::Launch: w.launch = !w.launch; return true;
    case Field::LoadTake:
      if (!w.load.take) w.load.write = false, w.load.dest = 0;
      w.load.take = !w.load.take;
      return true;
    case Field::LoadWrite:
      if (!w.load.write) w.load.dest = 0;
      w.load.write = !w.load.write;
      return true;
    case Field::LoadDest: w.load.dest ^= m; return w.load.dest < c.max_regs;
    case Field::OutValid:
      if (!w.out.valid) w.out.stage = 0, w.out.src = zero;
      w.out.valid = !w.out.valid;
      return true;
    case Field::OutStage: w.out.stage ^= m; return w.out.stage < c.max_stages;
    case Field::OutSrc: return flip_operand(dp, w.out.src, cb.bit);
  }
  return false;
}

template <class T>
const T& pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[rng() % v.size()];
}

}  // namespace

Fault draw_fault(SiteKind k, const hw::Datapath& dp, const FaultSites& s, std::mt19937_64& rng, std::string* what) {
  Fault f;
  const int W = dp.config.format.width();
  auto data_bit = [&] { return 1u << (rng() % static_cast<unsigned>(W)); };
  auto describe = [&](const std::string& d) {
    if (what) *what = d;
  };
  switch (k) {
    case SiteKind::UnitResult:
    case SiteKind::RegWrite: {
      const auto& list = k == SiteKind::UnitResult ? s.unit_valid : s.reg_write;
      if (list.empty()) break;
      const auto [cycle, u] = pick(list, rng);
      f = {k == SiteKind::UnitResult ? Fault::Kind::UnitResult : Fault::Kind::RegWrite, cycle, u, data_bit(), nullptr};
      describe("unit " + std::to_string(u));
      break;
    }
    case SiteKind::FifoWord: {
      if (s.fifo.empty()) break;
      const auto [cycle, words] = pick(s.fifo, rng);
      const int i = static_cast<int>(rng() % static_cast<unsigned>(words));
      f = {Fault::Kind::FifoWord, cycle, i, data_bit(), nullptr};
      describe("fifo word " + std::to_string(i));
      break;
    }
    case SiteKind::Const: {
      if (dp.consts.empty() || s.cycles < 2) break;
      const long cycle = 1 + static_cast<long>(rng() % static_cast<unsigned long>(s.cycles - 1));
      const int i = static_cast<int>(rng() % dp.consts.size());
      f = {Fault::Kind::Const, cycle, i, data_bit(), nullptr};
      describe("const " + std::to_string(i));
      break;
    }
    case SiteKind::Control: {
      if (s.word.empty()) break;
      const auto bits = control_bits(dp.config);
      for (int tries = 0; tries < 1000; ++tries) {
        const auto [cycle, pc] = pick(s.word, rng);
        const ControlBit cb = pick(bits, rng);
        auto w = std::make_shared<hw::Word>(dp.program[pc]);
        if (!flip(dp, *w, cb)) continue;
        f = {Fault::Kind::Control, cycle, cb.unit, 0, std::move(w)};
        describe(std::string("word ") + std::to_string(pc) + " " + field_name(cb.field) + " unit " +
                 std::to_string(cb.unit) + " bit " + std::to_string(cb.bit));
        break;
      }
      return f;
    }
  }
  if (f.kind != Fault::Kind::None && f.kind != Fault::Kind::Control && what)
    *what += " bit mask " + std::to_string(f.mask);
  return f;
}

}  // namespace neaccel::sysc
