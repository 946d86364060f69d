#include "neaccel/hw/hardwired.hpp"

#include "neaccel/hw/interconnect.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace neaccel::hw {
namespace {

constexpr signed char kDc = -1;  // don't care: the signal is not observed in this counter value
using Table = std::vector<signed char>;  // per counter value: 0, 1 or kDc

int clog2(long n) {
  int b = 0;
  while ((1L << b) < n) ++b;
  return b;
}

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

// Decodes sets of counter values into Verilog expressions over a predecoded counter: the counter's high bits and low
// bits (at most 3: groups of 8 consecutive values, the smallest Yosys result on puma560's 1 + 1 and 8 + 6 designs
// among 1..5 low bits) each compared with constants once (dh_<h>, dl_<l>), every signal an OR over high-bit groups of
// dh & (OR of dl) with the don't cares of its table used to drop terms. Yosys/ABC share and minimise the rest.
class Decoder {
 public:
  // `prefix` names the predecode wires (<prefix>dh_<h>, <prefix>dl_<l>): one decoder per local sequencer.
  Decoder(std::string counter, int width, std::string prefix = "")
      : counter_(std::move(counter)), prefix_(std::move(prefix)), cw_(width), lb_(std::min(3, width / 2)), hb_(width - lb_) {}

  std::string expr(const Table& t) {
    std::map<std::string, std::vector<int>> by_lo;  // low-bit expression -> high groups where it applies
    bool any_zero = false, any_one = false;
    const int groups = 1 << hb_, span = 1 << lb_;
    for (int h = 0; h < groups; ++h) {
      std::vector<int> ones, zeros;
      for (int l = 0; l < span; ++l) {
        const std::size_t c = static_cast<std::size_t>(h) * span + l;
        const signed char v = c < t.size() ? t[c] : kDc;
        if (v == 1) ones.push_back(l);
        if (v == 0) zeros.push_back(l);
      }
      any_zero = any_zero || !zeros.empty();
      any_one = any_one || !ones.empty();
      if (ones.empty()) continue;
      std::string lo;
      if (!zeros.empty()) {
        const bool direct = ones.size() <= zeros.size();
        std::vector<std::string> ls;
        for (int l : direct ? ones : zeros) ls.push_back(dl(l));
        lo = ls.size() == 1 ? ls[0] : "(" + join(ls, " | ") + ")";
        if (!direct) lo = "~" + lo;
      }
      by_lo[lo].push_back(h);
    }
    if (!any_one) return "1'b0";
    if (!any_zero) return "1'b1";
    std::vector<std::string> terms;
    for (const auto& [lo, hs] : by_lo) {
      std::vector<std::string> hv;
      for (int h : hs) hv.push_back(dh(h));
      std::string hi = hv.size() == 1 ? hv[0] : "(" + join(hv, " | ") + ")";
      terms.push_back(lo.empty() ? hi : hi + " & " + lo);
    }
    if (terms.size() == 1) return terms[0];
    for (auto& s : terms) s = "(" + s + ")";
    return "(" + join(terms, " |\n      ") + ")";
  }

  // Declarations of the predecode wires used so far.
  std::string wires() const {
    std::string s;
    for (int h : hi_)
      s += fmt::format("  wire {}dh_{} = ({}[{}:{}] == {}'d{});\n", prefix_, h, counter_, cw_ - 1, lb_, hb_, h);
    for (int l : lo_) s += fmt::format("  wire {}dl_{} = ({}[{}:0] == {}'d{});\n", prefix_, l, counter_, lb_ - 1, lb_, l);
    return s;
  }

 private:
  std::string dh(int h) {
    hi_.insert(h);
    return fmt::format("{}dh_{}", prefix_, h);
  }
  std::string dl(int l) {
    lo_.insert(l);
    return fmt::format("{}dl_{}", prefix_, l);
  }

  std::string counter_, prefix_;
  int cw_, lb_, hb_;
  std::set<int> hi_, lo_;
};

// Balanced multiplexer over `src` selected by the binary code `sel` (n - 1 two-input multiplexers per bit).
std::string mux_tree(const std::vector<std::string>& src, std::size_t lo, std::size_t n, int bit, const std::string& sel) {
  if (n == 1) return src[lo];
  const std::size_t half = std::size_t{1} << bit;
  if (n <= half) return mux_tree(src, lo, n, bit - 1, sel);
  return fmt::format("({}[{}] ? {} : {})", sel, bit, mux_tree(src, lo + half, n - half, bit - 1, sel),
                     mux_tree(src, lo, half, bit - 1, sel));
}

int index_of(const std::vector<Operand>& v, const Operand& o) {
  return static_cast<int>(std::find(v.begin(), v.end(), o) - v.begin());
}

class Generator {
 public:
  Generator(const Datapath& dp, const HardwiredOptions& o)
      : dp_(dp),
        ahead_(o.decode != Decode::Combinational),
        local_(o.decode == Decode::Local),
        opreg_(o.operand_regs),
        ic_(interconnect(dp)),
        U_(static_cast<int>(dp.units.size())),
        W_(dp.config.format.width()),
        RA_(dp.config.reg_addr_bits()),
        P_(static_cast<int>(dp.program.size())),
        n_in_(static_cast<int>(dp.input_names.size())),
        K_(dp.streaming() ? 1 : std::max(1, dp.config.in_words)),
        beats_(dp.streaming() ? n_in_ : dp.load_beats()),
        n_out_(static_cast<int>(dp.output_names.size())),
        n_par_(static_cast<int>(dp.param_names.size())),
        S_(dp.streaming() ? std::max(1, dp.stream.stages) : 1),
        CW_(std::max(1, clog2(std::max({P_, n_in_, n_out_, n_par_}) + 1))),
        dec_(dp.streaming() ? "pc_q" : "idx_q", CW_) {
    if (local_) {
      for (int u = 0; u < U_; ++u)
        for (const char* part : {"", "a", "b", "c"}) {  // the unit's issue, op and write-backs; each operand port's selects
          lseq_.push_back(fmt::format("ls{}{}_", u, part));
          ldec_.emplace_back(lseq_.back() + "idx_q", CW_, lseq_.back());
        }
    }
    lused_.assign(lseq_.size(), 0);
  }

  std::string run();

 private:
  std::string operand(const Operand& o) const {
    switch (o.kind) {
      case Operand::Kind::Unit: return fmt::format("res_{}", o.index);
      case Operand::Kind::Reg: return fmt::format("r{}_q", o.index);
      case Operand::Kind::Const:
        return fmt::format("{}'h{:x}", W_, dp_.consts.at(static_cast<std::size_t>(o.index)) &
                                               (W_ >= 32 ? 0xFFFFFFFFu : ((1u << W_) - 1u)));
      case Operand::Kind::Param: return fmt::format("p{}_q", o.index);
    }
    return "";
  }

  // A counter table: f(value) for the n values the counter takes in a phase, 0 elsewhere (exact signals).
  template <class F>
  static Table counter_table(int n, F f) {
    Table t(static_cast<std::size_t>(n), 0);
    for (int c = 0; c < n; ++c) t[static_cast<std::size_t>(c)] = f(c);
    return t;
  }
  // A program-word table: f(word index) in [0, P).
  template <class F>
  Table word_table(F f) const { return counter_table(P_, f); }

  // An exact event of the program: ev(c) = stage of the event at word c, or -1 if none. Latency: computing & decode;
  // streaming: running & OR over stages of decode(stage s) & sv_now[s].
  template <class F>
  std::string event(F ev) {
    if (!dp_.streaming())
      return "computing & " + paren(dec_.expr(word_table([&](int c) -> signed char { return ev(c) >= 0; })));
    std::vector<std::string> terms;
    for (int s = 0; s < S_; ++s) {
      const Table t = word_table([&](int c) -> signed char { return ev(c) == s; });
      if (std::find(t.begin(), t.end(), 1) == t.end()) continue;
      terms.push_back(fmt::format("({} & sv_now[{}])", paren(dec_.expr(t)), s));
    }
    if (terms.empty()) return "1'b0";
    return "running & (" + join(terms, " | ") + ")";
  }

  // Declares the exact event `name` (a wire, or with registered decode a flip-flop cleared by reset that holds at
  // word c the event decoded at word c - 1, and at word 0 the event decoded as the compute phase is entered).
  template <class F>
  void declare_event(const std::string& name, F ev) {
    if (!ahead_) {
      body_ += fmt::format("  wire {} = {};\n", name, event(ev));
      return;
    }
    const Table t = word_table([&](int c) -> signed char { return ev(c) >= 0; });
    if (local_) {  // the sequencer is running from word kLocalLead - 1 on; the words before it are empty
      check_lead(t, name);
      body_ += fmt::format("  reg {};\n  always @(posedge clk_i or negedge rst_ni)\n    if (!rst_ni) {} <= 1'b0;\n"
                           "    else {} <= {} ? {} : 1'b0;\n",
                           name, name, name, running(), paren(dec().expr(next_word(t, 0))));
      return;
    }
    const std::string first = t.empty() || t[0] == 0 ? "1'b0" : "enter_compute";
    uses_enter_ = uses_enter_ || first != "1'b0";
    body_ += fmt::format("  reg {};\n  always @(posedge clk_i or negedge rst_ni)\n    if (!rst_ni) {} <= 1'b0;\n"
                         "    else {} <= computing ? {} : {};\n",
                         name, name, name, paren(dec_.expr(next_word(t, 0))), first);
  }

  // Local sequencers: the decoder and the running flag of the sequencer now in use (seq_), and the check that the
  // program's first kLocalLead words hold nothing for it (hw::make_design delays the schedule by kLocalLead).
  Decoder& dec() {
    if (!local_ || seq_ < 0) return dec_;
    lused_[static_cast<std::size_t>(seq_)] = 1;
    return ldec_[static_cast<std::size_t>(seq_)];
  }
  std::string running() const { return local_ && seq_ >= 0 ? lseq_[static_cast<std::size_t>(seq_)] + "run_q" : "computing"; }
  // The sequencer of unit u's issue, op and write-backs (port -1), or of its operand port p's selects.
  static int seq_of(int u, int port = -1) { return 4 * u + 1 + port; }
  void sequencers(std::ostringstream& o) const;
  // `empty`: what the table holds in a word where the signal is not used (0 for an event, kDc for a select).
  void check_lead(const Table& t, const std::string& name, signed char empty = 0) const {
    for (std::size_t c = 0; c < t.size() && c < static_cast<std::size_t>(kLocalLead); ++c)
      if (t[c] != empty)
        throw Error(fmt::format("--decode local: {} is used in program word {}, but the first {} words must be empty "
                                "(the schedule delayed by {} cycles)", name, c, kLocalLead, kLocalLead));
  }

  // The table of the word after each word: next[c] = t[c + 1], `last` at the last word (the compute phase ends).
  Table next_word(const Table& t, signed char last) const {
    Table n(t.size(), last);
    for (std::size_t c = 0; c + 1 < t.size(); ++c) n[c] = t[c + 1];
    return n;
  }

  static std::string paren(const std::string& e) {
    return e.find_first_of(" ~") == std::string::npos ? e : "(" + e + ")";
  }

  // Binary select code of a multiplexer: code(c) = source index at word c or -1 (don't care). Declares `name`.
  // compute: a select of the compute phase (words = program words), which registered decode takes one word ahead
  // into flip-flops (outside the compute phase they hold word 0's code, which is what the first compute cycle needs).
  template <class F>
  void select(const std::string& name, int n, int words, F code, bool compute = true) {
    const int bits = std::max(1, clog2(n));
    const bool reg = ahead_ && compute;
    body_ += fmt::format("  wire [{}:0] {};\n", bits - 1, name);
    for (int b = 0; b < bits; ++b) {
      Table t(static_cast<std::size_t>(words), kDc);
      for (int c = 0; c < words; ++c) {
        const int k = code(c);
        if (k >= 0) t[static_cast<std::size_t>(c)] = static_cast<signed char>((k >> b) & 1);
      }
      if (!reg) {
        body_ += fmt::format("  assign {}[{}] = {};\n", name, b, dec_.expr(t));
        continue;
      }
      const std::string q = fmt::format("{}{}_q", name, b);
      if (local_) {  // the first words are don't cares (empty): the flip-flop holds 0 outside the sequencer's run
        check_lead(t, fmt::format("{}[{}]", name, b), kDc);
        body_ += fmt::format("  reg {};\n  always @(posedge clk_i) {} <= {} ? {} : 1'b0;\n  assign {}[{}] = {};\n", q,
                             q, running(), paren(dec().expr(next_word(t, kDc))), name, b, q);
        continue;
      }
      body_ += fmt::format("  reg {};\n  always @(posedge clk_i) {} <= computing ? {} : 1'b{};\n  assign {}[{}] = {};\n",
                           q, q, paren(dec_.expr(next_word(t, kDc))), !t.empty() && t[0] == 1 ? 1 : 0, name, b, q);
    }
  }

  void fsm_latency(std::ostringstream& o) const;
  void fsm_overlap(std::ostringstream& o) const;
  void fsm_stream(std::ostringstream& o) const;
  void units();
  void registers();
  void params();
  void io();
  // Lane l of the input port ("in_data_i" itself for a one-word port).
  std::string lane_word(int l) const {
    return K_ == 1 ? std::string("in_data_i") : fmt::format("in_data_i[{}:{}]", (l + 1) * W_ - 1, l * W_);
  }
  // What a loaded register takes from lane l: the port itself, or with local sequencers (Decode::Local) the lane
  // registered one cycle (the loads land a cycle late, before the first word that reads them: the program's first
  // kLocalLead words are empty), so that no load enable or port word crosses the device in the cycle it is used.
  std::string load_word(int l) const { return local_ ? fmt::format("in_lane{}_q", l) : lane_word(l); }
  // Declares a load enable `name` = `expr`: a wire, or registered with local sequencers (see load_word).
  void load_enable(const std::string& name, const std::string& expr) {
    if (!local_) {
      body_ += fmt::format("  wire {} = {};\n", name, expr);
      return;
    }
    body_ += fmt::format("  wire {0}_now = {1};  // the load as the port takes it (the trace shows it)\n  reg {0};\n"
                         "  always @(posedge clk_i or negedge rst_ni)\n    if (!rst_ni) {0} <= 1'b0;\n"
                         "    else {0} <= {0}_now;\n", name, expr);
  }
  // The lane on which register r is loaded (each loaded register is the destination of one input).
  int load_lane(int r) const {
    if (K_ == 1) return 0;  // (a streaming datapath has no input_reg: its loads are program fields)
    for (int j = 0; j < n_in_; ++j)
      if (dp_.input_reg[static_cast<std::size_t>(j)] == r) return j % K_;
    return 0;
  }
  // The lanes on which register r is loaded: more than one only with overlapped I/O, where inputs arriving later
  // reuse the registers of values that died before them.
  std::set<int> load_lanes(int r) const {
    std::set<int> lanes;
    for (int j = 0; j < n_in_ && K_ > 1; ++j)
      if (dp_.input_reg[static_cast<std::size_t>(j)] == r) lanes.insert(j % K_);
    return lanes;
  }
  // The word register r is loaded with: its lane, or (loaded on several lanes) a multiplexer over them that the beat
  // counter selects (ldd_r<r>, declared by io()).
  std::string load_data(int r) const {
    return load_lanes(r).size() > 1 ? fmt::format("ldd_r{}", r) : lane_word(load_lane(r));
  }

  const Datapath& dp_;
  const bool ahead_;  // registered or local decode (latency datapaths: hardwired_verilog refuses a streaming one)
  const bool local_;  // local sequencers (Decode::Local)
  int seq_ = -1;      // the sequencer that decodes what is declared now (seq_of; -1: the central counter)
  std::vector<std::string> lseq_;  // Decode::Local: per sequencer its name prefix (ls<u>_, ls<u>a_, ...)
  std::vector<Decoder> ldec_;      // and its decoder
  std::vector<char> lused_;        // and whether anything is decoded from it
  const bool overlap_ = dp_.overlapped();  // overlapped I/O: no LOAD or UNLOAD phase (Config::io_overlap)
  const bool opreg_;  // operand registers (HardwiredOptions::operand_regs)
  const Interconnect ic_;
  // K_: input port words per cycle (latency datapaths; 1 otherwise); beats_: cycles of the LOAD phase.
  const int U_, W_, RA_, P_, n_in_, K_, beats_, n_out_, n_par_, S_, CW_;
  Decoder dec_;
  std::string body_;
  std::string writes_;  // register updates and write traces (after every wire they use is declared)
  bool uses_enter_ = false;  // registered decode: some event is in word 0 (declare_event reads enter_compute)
  std::vector<std::vector<std::string>> we_;  // per register, per writer index: write-enable wire names
  std::vector<std::vector<int>> wb_of_unit_;  // per unit: registers it writes
  std::vector<std::string> load_we_;          // per register: load enable wire ("" none)
};

void Generator::fsm_latency(std::ostringstream& o) const {
  const auto c = [&](int v) { return fmt::format("{}'d{}", CW_, v); };
  const bool par = n_par_ > 0;
  o << "  localparam [2:0] StIdle = 3'd0, StLoad = 3'd1, StCompute = 3'd2, StUnload = 3'd3, StDone = 3'd4"
    << (par ? ", StConfig = 3'd5" : "") << ";\n"
    << "  reg [2:0] state_q, state_d;\n"
    << fmt::format("  reg [{}:0] idx_q, idx_d;  // {}input word, program word or output word of the state\n", CW_ - 1,
                   par ? "parameter word, " : "")
    << (par ? "  wire need_cfg;  // parameter memory not written since reset: the next start configures\n" : "")
    << "  always @* begin\n    state_d = state_q;\n    idx_d = idx_q;\n    case (state_q)\n"
    << "      StIdle: if (start_i) begin\n"
    << fmt::format("        state_d = {}{};\n", par ? "need_cfg ? StConfig : " : "", n_in_ ? "StLoad" : "StCompute")
    << "        idx_d = " << c(0) << ";\n"
    << "      end\n";
  if (par)
    o << "      StConfig: if (in_valid_i) begin\n        idx_d = idx_q + " << c(1) << ";\n"
      << "        if (idx_d == " << c(n_par_) << ") begin\n          state_d = StDone;\n          idx_d = " << c(0)
      << ";\n        end\n      end\n";
  o
    << "      StLoad: if (in_valid_i) begin\n        idx_d = idx_q + " << c(1) << ";\n"
    << "        if (idx_d == " << c(beats_) << ") begin\n          state_d = StCompute;\n          idx_d = " << c(0)
    << ";\n        end\n      end\n"
    << "      StCompute: begin\n        idx_d = idx_q + " << c(1) << ";\n        if (idx_d == " << c(P_)
    << ") begin\n" << fmt::format("          state_d = {};\n", n_out_ ? "StUnload" : "StDone")
    << "          idx_d = " << c(0) << ";\n        end\n      end\n"
    << "      StUnload: if (out_ready_i) begin\n        idx_d = idx_q + " << c(1) << ";\n"
    << "        if (idx_d == " << c(n_out_) << ") begin\n          state_d = StDone;\n          idx_d = " << c(0)
    << ";\n        end\n      end\n"
    << "      default: state_d = StIdle;  // StDone\n    endcase\n  end\n"
    << "  always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n      state_q <= StIdle;\n"
    << "      idx_q <= " << c(0) << ";\n    end else begin\n      state_q <= state_d;\n      idx_q <= idx_d;\n"
    << "    end\n  end\n"
    << "  wire loading = (state_q == StLoad);\n  wire computing = (state_q == StCompute);\n"
    << "  wire unloading = (state_q == StUnload);\n";
  if (par) o << "  wire configuring = (state_q == StConfig);\n";
  // Registered decode: the cycle before the first compute word, in which word 0's events are decoded.
  if (ahead_) o << "  wire enter_compute = (state_d == StCompute) & ~computing;\n";
}

// Local sequencers (Decode::Local): go_q is high in compute word 0, each sequencer's go flip-flop in word 1, and each
// copy counts from word kLocalLead - 1 in step with idx_q to the last word; its decode flip-flops hold word c + 1's
// events at word c. Only the sequencers something is decoded from.
void Generator::sequencers(std::ostringstream& o) const {
  o << "  // Local sequencers (docs/datapath.md \"Local sequencers\"): per unit and per operand port a copy of the\n"
    << fmt::format("  // compute-phase counter, started through go_q and its own go flip-flop: it counts word {} in step with idx_q.\n",
                   kLocalLead - 1)
    << "  reg go_q;\n  always @(posedge clk_i or negedge rst_ni)\n    if (!rst_ni) go_q <= 1'b0;\n"
    << "    else go_q <= enter_compute;\n";
  for (std::size_t k = 0; k < lseq_.size(); ++k) {
    if (!lused_[k]) continue;
    o << fmt::format("  reg {0}go_q, {0}run_q;\n  reg [{1}:0] {0}idx_q;\n"
                     "  always @(posedge clk_i or negedge rst_ni)\n"
                     "    if (!rst_ni) begin\n      {0}go_q <= 1'b0;\n      {0}run_q <= 1'b0;\n"
                     "      {0}idx_q <= {2}'d0;\n    end else begin\n      {0}go_q <= go_q;\n"
                     "      if ({0}go_q) begin\n        {0}run_q <= 1'b1;\n        {0}idx_q <= {2}'d{3};\n"
                     "      end else if ({0}run_q) begin\n        {0}run_q <= ({0}idx_q != {2}'d{4});\n"
                     "        {0}idx_q <= {0}idx_q + {2}'d1;\n      end\n    end\n",
                     lseq_[k], CW_ - 1, CW_, kLocalLead - 1, P_ - 1);
    o << ldec_[k].wires();
  }
}

// Overlapped I/O (docs/datapath.md "Overlapped I/O"): IDLE -> COMPUTE (the program words; beat b of the input port
// with word b, results as the program's out fields say) -> DONE. No LOAD or UNLOAD phase.
void Generator::fsm_overlap(std::ostringstream& o) const {
  const auto c = [&](int v) { return fmt::format("{}'d{}", CW_, v); };
  const bool par = n_par_ > 0;
  o << "  localparam [1:0] StIdle = 2'd0, StCompute = 2'd1, StDone = 2'd2" << (par ? ", StConfig = 2'd3" : "") << ";\n"
    << "  reg [1:0] state_q, state_d;\n"
    << fmt::format("  reg [{}:0] idx_q, idx_d;  // program word (input beat b with word b){}\n", CW_ - 1,
                   par ? "; parameter word in StConfig" : "")
    << (par ? "  wire need_cfg;  // parameter memory not written since reset: the next start configures\n" : "")
    << "  always @* begin\n    state_d = state_q;\n    idx_d = idx_q;\n    case (state_q)\n"
    << "      StIdle: if (start_i) begin\n"
    << fmt::format("        state_d = {}StCompute;\n", par ? "need_cfg ? StConfig : " : "")
    << "        idx_d = " << c(0) << ";\n      end\n";
  if (par)
    o << "      StConfig: if (in_valid_i) begin\n        idx_d = idx_q + " << c(1) << ";\n"
      << "        if (idx_d == " << c(n_par_) << ") begin\n          state_d = StDone;\n          idx_d = " << c(0)
      << ";\n        end\n      end\n";
  o << "      StCompute: begin\n        idx_d = idx_q + " << c(1) << ";\n        if (idx_d == " << c(P_)
    << ") begin\n          state_d = StDone;\n          idx_d = " << c(0) << ";\n        end\n      end\n"
    << "      default: state_d = StIdle;  // StDone\n    endcase\n  end\n"
    << "  always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n      state_q <= StIdle;\n"
    << "      idx_q <= " << c(0) << ";\n    end else begin\n      state_q <= state_d;\n      idx_q <= idx_d;\n"
    << "    end\n  end\n"
    << "  wire computing = (state_q == StCompute);\n";
  if (par) o << "  wire configuring = (state_q == StConfig);\n";
  // (enter_compute, registered decode: declared by run() where some event is in word 0; with overlapped I/O word 0
  // often issues nothing, every input still on its way.)
}

void Generator::fsm_stream(std::ostringstream& o) const {
  const auto c = [&](int v) { return fmt::format("{}'d{}", CW_, v); };
  const bool par = n_par_ > 0;
  o << "  localparam [1:0] StIdle = 2'd0, StRun = 2'd1, StDone = 2'd2" << (par ? ", StConfig = 2'd3" : "") << ";\n"
    << "  reg [1:0] state_q, state_d;\n"
    << fmt::format("  reg [{}:0] pc_q, pc_d;  // kernel word{}\n", CW_ - 1, par ? " (configuration: parameter word)" : "")
    << (par ? "  wire need_cfg;  // parameter memory not written since reset: the next start configures\n" : "")
    << fmt::format("  reg [{}:0] sv_q, sv_d;  // stage-valid bits\n", S_ - 1)
    << "  wire running = (state_q == StRun);\n"
    << "  wire launch;\n  wire admit = launch & in_valid_i;\n";
  if (S_ > 1)
    o << fmt::format("  wire [{}:0] sv_shift = {{sv_q[{}:0], admit}};\n", S_ - 1, S_ - 2);
  else
    o << "  wire [0:0] sv_shift = admit;\n";
  o << fmt::format("  wire [{}:0] sv_now = launch ? sv_shift : sv_q;\n", S_ - 1)
    << fmt::format("  wire drained = launch & (sv_shift == {}'d0);\n", S_)
    << "  always @* begin\n    state_d = state_q;\n    pc_d = pc_q;\n    sv_d = sv_q;\n    case (state_q)\n"
    << fmt::format("      StIdle: if (start_i) begin\n        state_d = {}StRun;\n", par ? "need_cfg ? StConfig : " : "")
    << "        pc_d = " << c(0) << ";\n" << fmt::format("        sv_d = {}'d0;\n", S_) << "      end\n";
  if (par)
    o << "      StConfig: if (in_valid_i) begin\n        pc_d = pc_q + " << c(1) << ";\n"
      << "        if (pc_d == " << c(n_par_) << ") begin\n          state_d = StDone;\n          pc_d = " << c(0)
      << ";\n        end\n      end\n";
  o
    << "      StRun: begin\n        sv_d = sv_now;\n        if (drained) begin\n          state_d = StDone;\n"
    << "          pc_d = " << c(0) << ";\n        end else begin\n"
    << "          pc_d = (pc_q + " << c(1) << " == " << c(P_) << ") ? " << c(0) << " : pc_q + " << c(1) << ";\n"
    << "        end\n      end\n"
    << "      default: state_d = StIdle;  // StDone\n    endcase\n  end\n"
    << "  always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) begin\n      state_q <= StIdle;\n"
    << "      pc_q <= " << c(0) << ";\n" << fmt::format("      sv_q <= {}'d0;\n", S_)
    << "    end else begin\n      state_q <= state_d;\n      pc_q <= pc_d;\n      sv_q <= sv_d;\n    end\n  end\n";
  if (par) o << "  wire configuring = (state_q == StConfig);\n";
}

void Generator::units() {
  const bool st = dp_.streaming();
  for (int u = 0; u < U_; ++u) {
    const Unit& un = dp_.units[static_cast<std::size_t>(u)];
    const bool adder = un.kind == UnitKind::Add;
    const int ports = un.kind == UnitKind::Fma ? 3 : 2;
    const auto& iss = [&](int c) -> const Issue& { return dp_.program[static_cast<std::size_t>(c)].issue[static_cast<std::size_t>(u)]; };
    const char* what = adder ? "adder" : un.kind == UnitKind::Mul ? "multiplier" : un.kind == UnitKind::Div ? "divider"
                                                                                                      : "fused multiply-add";
    body_ += fmt::format("  // unit {} ({}, latency {}{})\n", u, what, un.latency, un.pipelined ? ", pipelined" : "");
    seq_ = seq_of(u);  // its issue and op from its own sequencer, each port's selects from the port's (Decode::Local)
    declare_event(fmt::format("iss_{}", u), [&](int c) { return iss(c).valid ? (st ? iss(c).stage : 0) : -1; });
    std::string op = "2'b00";
    if (adder) {
      select(fmt::format("op_{}", u), 4, P_, [&](int c) { return iss(c).valid ? static_cast<int>(iss(c).op) : -1; });
      op = fmt::format("op_{}", u);
    }
    std::string port[3];
    for (int p = 0; p < ports; ++p) {
      // Select codes in order of first use (the high code bits then change slowly over the schedule and decode to a
      // few counter ranges), constants last (a subtree of constants folds into logic of the select).
      std::vector<Operand> src = ic_.unit_sources[static_cast<std::size_t>(u)][static_cast<std::size_t>(p)];
      {
        std::map<std::pair<int, int>, int> first;  // (kind, index) -> first word using it here
        for (int c = P_ - 1; c >= 0; --c) {
          const Issue& is = iss(c);
          if (!is.valid || (p == 0 && adder && is.op == kOpNeg)) continue;
          const Operand& o = p == 2 ? is.c : p ? is.b : is.a;
          first[{static_cast<int>(o.kind), o.index}] = c;
        }
        std::stable_sort(src.begin(), src.end(), [&](const Operand& x, const Operand& y) {
          const bool cx = x.kind == Operand::Kind::Const, cy = y.kind == Operand::Kind::Const;
          if (cx != cy) return cy;
          return first[{static_cast<int>(x.kind), x.index}] < first[{static_cast<int>(y.kind), y.index}];
        });
      }
      const std::string name = fmt::format("{}_{}", p == 2 ? "c" : p ? "b" : "a", u);
      if (src.empty()) {
        port[p] = fmt::format("{{{}{{1'b0}}}}", W_);
        continue;
      }
      std::vector<std::string> in;
      for (const Operand& o : src) in.push_back(operand(o));
      if (src.size() > 1) {
        seq_ = seq_of(u, p);
        select(name + "_sel", static_cast<int>(src.size()), P_, [&](int c) {
          const Issue& is = iss(c);
          if (!is.valid || (p == 0 && adder && is.op == kOpNeg)) return -1;
          return index_of(src, p == 2 ? is.c : p ? is.b : is.a);
        });
        seq_ = seq_of(u);
      }
      body_ += fmt::format("  wire [{}:0] {} = {};  // {} source{}\n", W_ - 1, name,
                           mux_tree(in, 0, in.size(), std::max(0, clog2(static_cast<long>(in.size())) - 1), name + "_sel"),
                           src.size(), src.size() == 1 ? "" : "s");
      port[p] = name;
    }
    // Operand registers: the multiplexer outputs, the issue and the adder's op one cycle on; the unit one stage
    // shorter, so that its result still arrives `latency` cycles after the issue.
    std::string valid = fmt::format("iss_{}", u);
    int latency = un.latency;
    if (opreg_) {
      body_ += fmt::format("  // operand registers: the first of the unit's {} cycles\n", un.latency);
      for (int p = 0; p < ports; ++p) {
        if (port[p].front() == '{') continue;  // a port nothing is routed to: constant zero
        body_ += fmt::format("  reg [{}:0] {}_q;\n  always @(posedge clk_i) {}_q <= {};\n", W_ - 1, port[p], port[p], port[p]);
        port[p] += "_q";
      }
      body_ += fmt::format("  reg {}_q;\n  always @(posedge clk_i or negedge rst_ni)\n    if (!rst_ni) {}_q <= 1'b0;\n"
                           "    else {}_q <= {};\n", valid, valid, valid, valid);
      valid += "_q";
      if (adder) {
        body_ += fmt::format("  reg [1:0] {}_q;\n  always @(posedge clk_i) {}_q <= {};\n", op, op, op);
        op += "_q";
      }
      latency -= 1;
    }
    if (un.kind == UnitKind::Fma) {  // rtl/datapath/nea_fma_unit.v: the unit with a third operand port
      body_ += fmt::format(
          "  nea_fma_unit #(\n    .IsFixed({}), .Width({}), .Frac({}), .Latency({}), .Pipelined({})\n"
          "  ) u_unit{} (\n    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i({}), .a_i({}), .b_i({}), .c_i({}),\n"
          "    .valid_o(unit_valid[{}]), .result_o(res_{}));\n",
          dp_.config.format.fixed ? 1 : 0, W_, dp_.config.format.fixed ? dp_.config.format.frac_bits : 0, latency,
          un.pipelined ? 1 : 0, u, valid, port[0], port[1], port[2], u, u);
      continue;
    }
    // The deep units (rtl/datapath/nea_unit_deep.v) for multipliers and adders where the datapath has them: the
    // same ports and result bits, always pipelined, so no Pipelined parameter.
    const bool deep = dp_.config.deep_units && un.kind != UnitKind::Div;
    body_ += fmt::format(
        "  {} #(\n    .Kind({}), .IsFixed({}), .Width({}), .Frac({}), .Latency({}){}\n"
        "  ) u_unit{} (\n    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i({}), .op_i({}), .a_i({}), .b_i({}),\n"
        "    .valid_o(unit_valid[{}]), .result_o(res_{}));\n",
        deep ? "nea_unit_deep" : "nea_unit", un.kind == UnitKind::Div ? 2 : adder ? 1 : 0,
        dp_.config.format.fixed ? 1 : 0, W_, dp_.config.format.fixed ? dp_.config.format.frac_bits : 0, latency,
        deep ? "" : fmt::format(", .Pipelined({})", un.pipelined ? 1 : 0), u, valid, op, port[0], port[1], u, u);
  }
}

void Generator::io() {
  const bool st = dp_.streaming();
  // Input port. Overlapped I/O: beat b with program word b, so the counter values of the beats are those of the LOAD
  // phase's counter and the decode below serves both.
  if (overlap_)
    body_ += fmt::format("  wire loading = computing & {};  // the words that take an input beat\n",
                         paren(dec_.expr(word_table([&](int c) -> signed char { return c < beats_; }))));
  if (!st) body_ += n_par_ ? "  assign in_ready_o = loading | configuring;\n" : "  assign in_ready_o = loading;\n";
  if (!st && K_ > 1) {
    // A beat of K_ words: the beat counter decodes which registers its lanes write. With the phases each loaded
    // register is the destination of one input, so its data is that input's lane; with overlapped I/O a register may
    // take inputs of several beats (on one lane, or on several through a lane multiplexer below). The trace
    // (dbg_load_*) shows lane 0's write.
    auto dest = [&](int j) { return j < n_in_ ? dp_.input_reg[static_cast<std::size_t>(j)] : -1; };
    std::set<int> loaded;
    for (int j = 0; j < n_in_ && !overlap_; ++j)
      if (dest(j) >= 0 && !loaded.insert(dest(j)).second)
        throw Error(fmt::format("--in-words: register {} is the destination of two inputs", dest(j)));
    body_ += "  wire load_beat = loading & in_valid_i;\n";
    body_ += fmt::format("  wire load_en = load_beat & {};\n",
                         paren(dec_.expr(counter_table(beats_, [&](int b) -> signed char { return dest(b * K_) >= 0; }))));
    for (std::size_t r = 0; r < load_we_.size(); ++r) {
      if (load_we_[r].empty()) continue;
      const Table t = counter_table(beats_, [&](int b) -> signed char {
        bool any = false;
        for (int l = 0; l < K_; ++l) {
          if (dest(b * K_ + l) == static_cast<int>(r)) return 1;
          any = any || dest(b * K_ + l) >= 0;
        }
        return any ? 0 : kDc;
      });
      load_enable(load_we_[r], "load_beat & " + paren(dec_.expr(t)));
      const std::set<int> lanes = load_lanes(static_cast<int>(r));
      if (lanes.size() < 2) continue;
      // Overlapped I/O: a register loaded on several lanes (inputs of different beats sharing it). Its data is the
      // lane of the beat, selected by the beat counter; its lane-0 loads for the trace (dbg_load_*).
      const std::vector<int> lv(lanes.begin(), lanes.end());
      select(fmt::format("ldd_r{}_sel", r), static_cast<int>(lv.size()), beats_, [&](int b) {
        for (int l = 0; l < K_; ++l)
          if (dest(b * K_ + l) == static_cast<int>(r)) return static_cast<int>(std::find(lv.begin(), lv.end(), l) - lv.begin());
        return -1;
      }, false);
      std::vector<std::string> words;
      for (int l : lv) words.push_back(lane_word(l));
      body_ += fmt::format("  wire [{}:0] ldd_r{} = {};\n", W_ - 1, r,
                           mux_tree(words, 0, words.size(), std::max(0, clog2(static_cast<long>(words.size())) - 1),
                                    fmt::format("ldd_r{}_sel", r)));
      if (lanes.count(0) && r != 0)  // (register 0 sets no address bit of the trace)
        body_ += fmt::format("  wire ld0_r{} = load_beat & {};\n", r,
                             paren(dec_.expr(counter_table(beats_, [&](int b) -> signed char {
                               return dest(b * K_) < 0 ? kDc : dest(b * K_) == static_cast<int>(r);
                             }))));
    }
    std::vector<bool> used(static_cast<std::size_t>(K_), false);
    for (int j = 0; j < n_in_; ++j)
      if (dest(j) >= 0) used[static_cast<std::size_t>(j % K_)] = true;
    if (local_)
      for (int l = 0; l < K_; ++l)
        if (used[static_cast<std::size_t>(l)])
          body_ += fmt::format("  reg [{0}:0] in_lane{1}_q;\n  always @(posedge clk_i) in_lane{1}_q <= {2};\n", W_ - 1, l,
                               lane_word(l));
    used[0] = used[0] || n_par_ > 0;  // the configuration phase takes lane 0
    for (int l = 0; l < K_; ++l)
      if (!used[static_cast<std::size_t>(l)])
        body_ += fmt::format("  /* verilator lint_off UNUSEDSIGNAL */\n  wire [{}:0] unused_lane{} = {};  // no input "
                             "this lane carries is read\n  /* verilator lint_on UNUSEDSIGNAL */\n",
                             W_ - 1, l, lane_word(l));
  } else if (!st) {
    body_ += fmt::format("  wire load_en = loading & in_valid_i & {};\n",
                         paren(dec_.expr(counter_table(n_in_, [&](int k) -> signed char { return dp_.input_reg[static_cast<std::size_t>(k)] >= 0; }))));
    for (std::size_t r = 0; r < load_we_.size(); ++r) {
      if (load_we_[r].empty()) continue;
      const Table t = counter_table(n_in_, [&](int k) -> signed char {
        const int d = dp_.input_reg[static_cast<std::size_t>(k)];
        return d < 0 ? kDc : d == static_cast<int>(r);
      });
      load_enable(load_we_[r], "load_en & " + paren(dec_.expr(t)));
    }
    if (local_)
      body_ += fmt::format("  reg [{0}:0] in_lane0_q;\n  always @(posedge clk_i) in_lane0_q <= in_data_i;\n", W_ - 1);
  } else {
    const auto& prog = dp_.program;
    body_ += fmt::format("  assign launch = running & {};\n",
                         paren(dec_.expr(word_table([&](int c) -> signed char { return prog[static_cast<std::size_t>(c)].launch; }))));
    body_ += fmt::format("  wire ld_take = {};\n",
                         paren(dec_.expr(word_table([&](int c) -> signed char { return prog[static_cast<std::size_t>(c)].load.take; }))));
    if (n_par_)
      body_ += "  wire run_ready = running & ld_take & (launch | sv_q[0]);\n"
               "  assign in_ready_o = run_ready | configuring;\n";
    else
      body_ += "  assign in_ready_o = running & ld_take & (launch | sv_q[0]);\n";
    body_ += fmt::format("  wire load_en = {} & in_valid_i & {};\n", n_par_ ? "run_ready" : "in_ready_o",
                         paren(dec_.expr(word_table([&](int c) -> signed char {
                           const LoadField& l = prog[static_cast<std::size_t>(c)].load;
                           return l.take ? static_cast<signed char>(l.write) : kDc;
                         }))));
    for (std::size_t r = 0; r < load_we_.size(); ++r) {
      if (load_we_[r].empty()) continue;
      const Table t = word_table([&](int c) -> signed char {
        const LoadField& l = prog[static_cast<std::size_t>(c)].load;
        return l.take && l.write ? l.dest == static_cast<int>(r) : kDc;
      });
      body_ += fmt::format("  wire {} = load_en & {};\n", load_we_[r], paren(dec_.expr(t)));
    }
  }
  std::vector<std::string> la;
  for (int b = 0; b < RA_; ++b) {
    std::vector<std::string> terms;
    for (std::size_t r = 0; r < load_we_.size(); ++r) {
      if (load_we_[r].empty() || !((r >> b) & 1)) continue;
      if (load_lanes(static_cast<int>(r)).size() > 1) {  // overlapped I/O: its lane-0 loads only
        if (load_lanes(static_cast<int>(r)).count(0)) terms.push_back(fmt::format("ld0_r{}", r));
      } else if (load_lane(static_cast<int>(r)) == 0) {
        terms.push_back(load_we_[r] + (local_ ? "_now" : ""));
      }
    }
    la.push_back(terms.empty() ? "1'b0" : join(terms, " | "));
  }
  std::reverse(la.begin(), la.end());
  body_ += fmt::format("  assign dbg_load_en_o = load_en;\n  assign dbg_load_addr_o = {{{}}};\n", join(la, ", "));

  // Output port.
  const auto& src = ic_.output_sources;
  std::vector<std::string> in;
  for (const Operand& o : src) in.push_back(operand(o));
  std::string valid;
  int words = 0;
  std::function<int(int)> code;
  if (!st && !overlap_) {
    valid = "unloading";
    words = n_out_;
    code = [&](int k) { return index_of(src, dp_.output_src[static_cast<std::size_t>(k)]); };
  } else {
    body_ += fmt::format("  wire out_now = {};\n", event([&](int c) {
                           const OutField& f = dp_.program[static_cast<std::size_t>(c)].out;
                           return f.valid ? f.stage : -1;
                         }));
    valid = "out_now";
    words = P_;
    code = [&](int c) {
      const OutField& f = dp_.program[static_cast<std::size_t>(c)].out;
      return f.valid ? index_of(src, f.src) : -1;
    };
  }
  if (in.empty()) {
    body_ += fmt::format("  assign out_valid_o = {};\n  assign out_data_o = {{{}{{1'b0}}}};\n", valid, W_);
    return;
  }
  // (Overlapped I/O: the output select is decoded from the counter as used, as the input port's.)
  if (in.size() > 1) select("out_sel", static_cast<int>(in.size()), words, code, st);
  body_ += fmt::format("  wire [{}:0] out_word = {};  // {} source{}\n", W_ - 1,
                       mux_tree(in, 0, in.size(), std::max(0, clog2(static_cast<long>(in.size())) - 1), "out_sel"),
                       in.size(), in.size() == 1 ? "" : "s");
  body_ += fmt::format("  assign out_valid_o = {};\n  assign out_data_o = {} ? out_word : {{{}{{1'b0}}}};\n", valid, valid,
                       W_);
}

// The indices of the operands of `kind` (registers, parameter words) that some unit port or output reads.
std::set<int> read_by_ports(const Interconnect& ic, Operand::Kind kind) {
  std::set<int> read;
  auto note = [&](const Operand& o) {
    if (o.kind == kind) read.insert(o.index);
  };
  for (const auto& ports : ic.unit_sources)
    for (const auto& v : ports)
      for (const Operand& o : v) note(o);
  for (const Operand& o : ic.output_sources) note(o);
  return read;
}

// Parameter memory (docs/datapath.md "Robot parameters loaded once"): one W-bit register per parameter
// word some port reads (a word no port reads is taken in the configuration phase and dropped), written in CONFIG
// when the counter is its index; the configured flag, cleared by reset, sends the next start to CONFIG.
void Generator::params() {
  if (n_par_ == 0) return;
  const std::set<int> read = read_by_ports(ic_, Operand::Kind::Param);
  std::string s = fmt::format("  // Parameter memory: {} words written in the configuration phase, {} read.\n", n_par_, read.size());
  s += "  reg cfgd_q;\n  assign need_cfg = ~cfgd_q;\n"
       "  always @(posedge clk_i or negedge rst_ni) begin\n    if (!rst_ni) cfgd_q <= 1'b0;\n"
       "    else if (configuring & (state_d == StDone)) cfgd_q <= 1'b1;\n  end\n"
       "  wire cfg_we = configuring & in_valid_i;\n";
  for (int k : read) {
    Table t(static_cast<std::size_t>(n_par_), 0);
    t[static_cast<std::size_t>(k)] = 1;
    s += fmt::format("  reg [{}:0] p{}_q;  // {}\n  always @(posedge clk_i) if (cfg_we & {}) p{}_q <= {};\n", W_ - 1,
                     k, dp_.param_names[static_cast<std::size_t>(k)], paren(dec_.expr(t)), k, lane_word(0));
  }
  body_ += s;
}

void Generator::registers() {
  const bool st = dp_.streaming();
  const std::size_t R = ic_.reg_writers.size();
  we_.assign(R, {});
  load_we_.assign(R, "");
  wb_of_unit_.assign(static_cast<std::size_t>(U_), {});
  // Registers some port reads (the others are written only: kept, their value unused).
  const std::set<int> read = read_by_ports(ic_, Operand::Kind::Reg);

  std::string regs;
  for (std::size_t r = 0; r < R; ++r) {
    const auto& writers = ic_.reg_writers[r];
    if (writers.empty()) continue;
    std::vector<int> units;
    std::vector<std::string> en;
    for (int w : writers) {
      if (w == kInputLoad) {
        load_we_[r] = fmt::format("ld_r{}", r);
        en.push_back(load_we_[r]);
        continue;
      }
      units.push_back(w);
      wb_of_unit_[static_cast<std::size_t>(w)].push_back(static_cast<int>(r));
      const std::string name = fmt::format("we_r{}_u{}", r, w);
      we_[r].push_back(name);
      en.push_back(name);
      seq_ = seq_of(w);  // the writer's sequencer (Decode::Local)
      declare_event(name, [&](int c) {
        const WriteBack& wb = dp_.program[static_cast<std::size_t>(c)].wb[static_cast<std::size_t>(w)];
        return wb.valid && wb.dest == static_cast<int>(r) ? (st ? wb.stage : 0) : -1;
      });
      seq_ = -1;
    }
    std::string data;
    if (!units.empty()) {
      std::vector<std::string> in;
      for (int w : units) in.push_back(fmt::format("res_{}", w));
      const std::string sel = fmt::format("r{}_sel", r);
      seq_ = seq_of(units.front());  // the first writer's sequencer (Decode::Local)
      if (units.size() > 1)
        select(sel, static_cast<int>(units.size()), P_, [&](int c) {
          for (std::size_t k = 0; k < units.size(); ++k) {
            const WriteBack& wb = dp_.program[static_cast<std::size_t>(c)].wb[static_cast<std::size_t>(units[k])];
            if (wb.valid && wb.dest == static_cast<int>(r)) return static_cast<int>(k);
          }
          return -1;
        });
      seq_ = -1;
      data = mux_tree(in, 0, in.size(), std::max(0, clog2(static_cast<long>(in.size())) - 1), sel);
    }
    if (!load_we_[r].empty()) {
      const std::string in = local_ ? load_word(load_lane(static_cast<int>(r))) : load_data(static_cast<int>(r));
      data = data.empty() ? in : fmt::format("{} ? {} : {}", load_we_[r], in, data);
    }
    const bool unused = !read.count(static_cast<int>(r));
    regs += fmt::format("{}  reg [{}:0] r{}_q;{}\n", unused ? "  /* verilator lint_off UNUSEDSIGNAL */\n" : "", W_ - 1, r,
                        unused ? "  // written, never read\n  /* verilator lint_on UNUSEDSIGNAL */" : "");
    writes_ += fmt::format("  always @(posedge clk_i) if ({}) r{}_q <= {};  // {} writer{}\n", join(en, " | "), r, data,
                         writers.size(), writers.size() == 1 ? "" : "s");
  }
  body_ = regs + body_;
  // Trace: per unit its write-back enable and the register it writes (the program's register index).
  for (int u = 0; u < U_; ++u) {
    std::vector<std::string> en;
    std::vector<std::string> addr;
    for (int r : wb_of_unit_[static_cast<std::size_t>(u)]) en.push_back(fmt::format("we_r{}_u{}", r, u));
    for (int b = RA_ - 1; b >= 0; --b) {
      std::vector<std::string> t;
      for (int r : wb_of_unit_[static_cast<std::size_t>(u)])
        if ((r >> b) & 1) t.push_back(fmt::format("we_r{}_u{}", r, u));
      addr.push_back(t.empty() ? "1'b0" : join(t, " | "));
    }
    writes_ += fmt::format("  assign dbg_wr_en_o[{}] = {};\n", u, en.empty() ? "1'b0" : join(en, " | "));
    writes_ += fmt::format("  assign dbg_wr_addr_o[{}:{}] = {{{}}};\n", (u + 1) * RA_ - 1, u * RA_, join(addr, ", "));
  }
}

std::string Generator::run() {
  std::ostringstream o;
  const auto& c = dp_.config;
  o << "`timescale 1ns/1ps\n"
    << fmt::format("// Generated by `neaccel rtl --arch hardwired` (do not edit): the hardwired {} datapath of one schedule\n",
                   dp_.streaming() ? "streaming" : "latency")
    << fmt::format("// ({}, {} mul + {} add{}{}, {} program words, {} registers; docs/datapath.md \"Hardwired architecture\").\n",
                   c.format.name(), c.num_mul, c.num_add, c.num_div ? fmt::format(" + {} div", c.num_div) : "",
                   c.num_fma ? fmt::format(" + {} fma", c.num_fma) : "", P_, dp_.num_regs)
    << (overlap_ ? fmt::format("// Ports of nea_datapath; overlapped I/O: inputs taken while the recursion runs, results "
                               "leaving as computed\n// (docs/datapath.md \"Overlapped I/O\"); multiplexer inputs {} "
                               "(hw::interconnect).\n", ic_.mux_inputs())
                 : fmt::format("// Ports, protocol and cycle timing of {}; multiplexer inputs {} (hw::interconnect).\n",
                               dp_.streaming() ? "nea_stream" : "nea_datapath", ic_.mux_inputs()))
    << "module nea_top (\n"
    << "  input  wire              clk_i,\n  input  wire              rst_ni,\n  input  wire              start_i,\n"
    << "  input  wire              in_valid_i,\n"
    << fmt::format("  input  wire [{}:0]       in_data_i,{}\n", K_ * W_ - 1,
                   K_ > 1 ? fmt::format("  // {} words per beat, input j*{} + l on lane l (bits [l*{} +: {}])", K_, K_, W_, W_) : "")
    << "  output wire              in_ready_o,\n  output wire              out_valid_o,\n"
    << fmt::format("  output wire [{}:0]       out_data_o,\n", W_ - 1)
    << "  input  wire              out_ready_i,\n  output wire              busy_o,\n  output wire              done_o,\n"
    << fmt::format("  output wire [{}:0]       dbg_unit_valid_o,\n", U_ - 1)
    << fmt::format("  output wire [{}:0]       dbg_unit_result_o,\n", U_ * W_ - 1)
    << fmt::format("  output wire [{}:0]       dbg_wr_en_o,\n", U_ - 1)
    << fmt::format("  output wire [{}:0]       dbg_wr_addr_o,\n", U_ * RA_ - 1)
    << "  output wire              dbg_load_en_o,\n"
    << fmt::format("  output wire [{}:0]       dbg_load_addr_o\n", RA_ - 1) << ");\n";
  if (dp_.streaming() || overlap_) {
    if (overlap_)
      fsm_overlap(o);
    else
      fsm_stream(o);
    // The results leave in the cycles the program says (no back-pressure): out_ready_i is not read.
    o << "  /* verilator lint_off UNUSEDSIGNAL */\n  wire unused_out_ready = out_ready_i;\n"
      << "  /* verilator lint_on UNUSEDSIGNAL */\n";
  } else {
    fsm_latency(o);
  }
  o << fmt::format("  wire [{}:0] unit_valid;\n", U_ - 1);
  for (int u = 0; u < U_; ++u) o << fmt::format("  wire [{}:0] res_{};\n", W_ - 1, u);
  registers();
  params();
  units();
  seq_ = -1;
  io();
  if (overlap_ && ahead_ && uses_enter_) o << "  wire enter_compute = (state_d == StCompute) & ~computing;\n";
  o << "  // Counter predecode.\n" << dec_.wires();
  if (local_) sequencers(o);
  o << body_ << writes_;
  std::vector<std::string> res;
  for (int u = U_ - 1; u >= 0; --u) res.push_back(fmt::format("res_{}", u));
  o << "  assign busy_o = (state_q != StIdle);\n  assign done_o = (state_q == StDone);\n"
    << "  assign dbg_unit_valid_o = unit_valid;\n"
    << fmt::format("  assign dbg_unit_result_o = {{{}}};\n", join(res, ", ")) << "endmodule\n";
  return o.str();
}

}  // namespace

std::string decode_name(Decode d) {
  return d == Decode::Registered ? "registered" : d == Decode::Local ? "local" : "combinational";
}

Decode parse_decode(const std::string& name, const std::string& what) {
  if (name == "combinational") return Decode::Combinational;
  if (name == "registered") return Decode::Registered;
  if (name == "local") return Decode::Local;
  throw Error(fmt::format("{}: '{}' (combinational, registered, local)", what, name));
}

std::string hardwired_verilog(const Datapath& dp, const HardwiredOptions& options) {
  if (dp.backpressure()) throw Error("--arch hardwired: back-pressure (--backpressure) is not implemented");
  if (dp.units.empty()) throw Error("--arch hardwired: a datapath without units");
  if (options.decode != Decode::Combinational && dp.streaming())
    throw Error(fmt::format("--decode {}: implemented for latency datapaths (not with --ii)", decode_name(options.decode)));
  if (options.operand_regs)
    for (const Unit& u : dp.units)
      if (u.latency < 2)
        throw Error(fmt::format("--operand-regs: a unit of latency {} (the operand register is the first of a unit's "
                                "cycles: every latency >= 2)", u.latency));
  return Generator(dp, options).run();
}

}  // namespace neaccel::hw
