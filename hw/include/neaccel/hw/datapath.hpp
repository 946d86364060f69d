// From a verified schedule to hardware: the datapath description (data only, docs/datapath.md).
//
// Architecture: U arithmetic unit instances (multipliers first, then adders; an adder executes add, sub, neg),
// one central register file with 2 read ports per unit + 1 read port for the output unload, 1 write port per unit
// + 1 for the input load, a constant ROM, and a microcode ROM with one word per cycle. Operands are addressed in one
// space: unit result buses (bypass of a result in the cycle it arrives), registers, constants.
//
// Protocol (cycles counted from the cycle start_i is sampled high in IDLE; in_valid_i and out_ready_i held high):
//   cycle 0                       IDLE, start sampled
//   cycles 1 .. n_in              LOAD: input k (graph input order) accepted on the in_valid/in_ready stream
//                                 (a wider port, Config::in_words = k > 1, hardwired only: b = ceil(n_in / k) beats,
//                                 beat j carrying inputs j*k .. j*k + k - 1 on lanes 0 .. k - 1; n_in below reads b)
//   next length + 1 cycles        COMPUTE: microcode word c (c = 0..length) issues the ops that start at c and
//                                 writes back the results that arrive at c (word `length` only writes back)
//   next n_out cycles             UNLOAD: tau_i, one per cycle, on the out_valid/out_ready stream
//   next cycle                    DONE: done_o high for one cycle, back to IDLE
//   => done_o is high in cycle n_in + n_out + length + 2: the I/O overhead is n_in + n_out + 2 cycles.
//
// Streaming datapaths (config.stream, built by build_stream from a modulo schedule; docs/datapath.md "Streaming"):
// a kernel of P = K * II microcode words repeats; a new set point is launched every II cycles, its n_in input words
// taken at local cycles 0 .. n_in-1, op v issued at D + start(v), output o unloaded at D + length + o, where
// D <= n_in is the smallest offset at which every op finds the inputs it reads loaded.
// Registers are renamed over K copies (modulo variable expansion); every event carries its stage
// floor(local cycle / II) and is predicated by the stage-valid bit of the set point in that stage.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/hw/number.hpp"
#include "neaccel/sched/schedule.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace neaccel::hw {

// Unit classes, in unit order: multipliers, adders, dividers (a / b), fused multiply-adders (a * b + c, one
// rounding; a third operand port c). Div and Fma units exist only in designs of graphs with div / fma nodes.
enum class UnitKind : std::uint8_t { Mul, Add, Div, Fma };
const char* unit_kind_name(UnitKind k);  // "mul", "add", "div", "fma"

// Operation codes of an adder (contract 6: op_i of fp32_add / fx_add). Multipliers ignore the op field.
enum AddOp : std::uint8_t { kOpAdd = 0, kOpSub = 1, kOpNeg = 2 };

// A hardware configuration: what one RTL parameter set (and one Verilated model) provides. Any schedule for this
// unit mix whose sizes fit the capacities runs on it; only the .hex files change.
struct Config {
  NumberFormat format;
  int num_mul = 1, num_add = 1;
  int lat_mul = 1, lat_add = 1;
  bool pipe_mul = true, pipe_add = true;
  // Dividers and FMA units after the adders (0: none; RTL parameters NumDiv.., NumFma.. only when > 0, so a
  // mul/add design keeps its wrapper text and word layout). Microcode: each FMA unit has a src_c field appended
  // after the write-back fields (docs/datapath.md).
  int num_div = 0, num_fma = 0;
  int lat_div = 1, lat_fma = 1;
  bool pipe_div = true, pipe_fma = true;
  int max_regs = 16, max_consts = 16;  // register file size, constant ROM depth
  int max_prog = 64;                   // microcode ROM depth (>= schedule length + 1)
  int max_in = 16, max_out = 8;        // input and output ROM depths (latency datapath only)
  bool stream = false;                 // streaming datapath (rtl/datapath/nea_stream.v): another word layout
  int max_stages = 1;                  // streaming: stage-valid bits (>= stages of the program)
  int out_fifo = 0;                    // streaming: output FIFO words for back-pressure (0: none, out_ready_i unused)
  // Register file as memory arrays (RTL parameter RegFile = 1, rtl/datapath/nea_regfile.v: banks per read port and
  // per write port with a live value table, asynchronous reads) instead of flip-flops and read multiplexers.
  // The program and the cycle timing are the same; only the RTL differs.
  bool regfile_mem = false;
  // Parameter memory (docs/datapath.md "Robot parameters loaded once"): words written once in a
  // configuration phase and read as operands like constants (RTL parameter MaxParams; 0: no parameter memory, the
  // RTL and the hex images are those of a design without parameter inputs).
  int max_params = 0;
  // Input port width in words per cycle (RTL parameter InWords, emitted only when > 1).
  int in_words = 1;
  // Multipliers and adders built of the deep units (rtl/units/deep via rtl/datapath/nea_unit_deep.v, docs/units.md
  // "Deep units"): the same result bits at the same latency, the pipeline cut where the device has its registers.
  // Hardwired datapaths only; the program, its cycles and its SystemC model are those of the standard units.
  bool deep_units = false;
  // Inputs loaded while the recursion runs and outputs leaving as soon as they are computed (docs/datapath.md
  // "Overlapped I/O", overlap_io below; hardwired latency datapaths): no LOAD and UNLOAD phases. The input port
  // takes beat b (in_words words, the inputs in input_names' order) with program word b; each output leaves with the
  // program word its Word::out field marks. Not an RTL parameter: designs without it keep their text.
  bool io_overlap = false;

  int num_units() const { return num_mul + num_add + num_div + num_fma; }
  int reg_addr_bits() const;   // register address width (>= 1)
  int op_addr_bits() const;    // operand address width over units + registers + constants + parameters
  int stage_bits() const;      // streaming: stage field width (>= 1)
  int word_bits() const;       // microcode word width
};

struct Unit {
  UnitKind kind = UnitKind::Mul;
  int cls = -1;        // index into Problem::classes
  int instance = -1;   // instance within the class
  int latency = 1;
  bool pipelined = true;
};

// An operand: the result bus of a unit (only in the cycle the result arrives), a register, a constant, or a word of
// the parameter memory (written in the configuration phase).
struct Operand {
  enum class Kind : std::uint8_t { Unit, Reg, Const, Param } kind = Kind::Reg;
  int index = 0;
};

struct Issue {
  bool valid = false;
  std::uint8_t op = 0;   // AddOp for adders, 0 for multipliers
  Operand a, b;          // neg reads b only
  Operand c;             // FMA units only: the addend (a * b + c)
  int stage = 0;         // streaming: stage of the set point this issue belongs to (predicate)
  dfg::NodeId node = dfg::kNoNode;  // the graph node issued (for traces; not part of the hex)
};

struct WriteBack {
  bool valid = false;
  int dest = 0;          // register written at the end of this cycle with the unit's result bus
  int stage = 0;         // streaming: predicate stage
};

// Streaming only: the input port and the output port are driven from the microcode word.
struct LoadLane {
  bool write = false;    // the word of this lane is written into register `dest` (false: not needed, or no word)
  int dest = 0;
  int input = -1;        // port input index (for traces; not part of the hex)
};
struct LoadField {
  bool take = false;     // this cycle takes one beat of the input port (in_ready_o), always stage 0
  bool write = false;    // ... and writes its word (lane 0) into register `dest` (false: the input is not needed)
  int dest = 0;
  int input = -1;        // port input index (for traces; not part of the hex)
  std::vector<LoadLane> lanes;  // lanes 1 .. in_words - 1 of a wider port (Config::in_words; empty for one word)
};

struct OutField {
  bool valid = false;    // this cycle drives out_data_o with `src` (out_valid_o)
  int stage = 0;
  Operand src;
  int output = -1;       // graph output index (for traces; not part of the hex)
};

struct Word {
  std::vector<Issue> issue;   // one per unit
  std::vector<WriteBack> wb;  // one per unit
  bool launch = false;        // streaming: a set point may be admitted in this cycle (word index % II == 0)
  LoadField load;             // streaming
  OutField out;               // streaming
};

// Streaming figures (all zero for a latency datapath).
struct StreamInfo {
  int ii = 0;          // initiation interval: cycles between successive set points (and results)
  int ii_sched = 0;    // the modulo scheduler's minimum II for this problem (before the I/O bound)
  int ii_io = 0;       // I/O bound: max(n_in, n_out) words through one port each
  int copies = 0;      // K: register copies (modulo variable expansion), kernel = K * II words
  int stages = 0;      // ceil(span / II)
  int offset = 0;      // D: op v issues at local cycle D + start(v) (D <= n_in: as soon as its inputs are loaded)
  int span = 0;        // local cycles of one set point: D + length + n_out (first input to last output)
  int max_live = 0;    // values alive at once in steady state (lower bound on registers)
  int max_lifetime = 0;
  int credits = 0;     // back-pressure: set points admitted but not yet fully unloaded, at most (0: no FIFO)
};

struct Datapath {
  Config config;                        // sized exactly for this schedule unless fit() enlarged it
  std::vector<Unit> units;              // multipliers, adders, dividers, FMA units (config.num_units())
  int num_regs = 0;                     // registers used
  std::vector<double> const_values;     // constant ROM, graph values (exact)
  std::vector<std::uint32_t> consts;    // the same, encoded in config.format
  std::vector<std::string> input_names; // graph inputs through the input port, load order
  std::vector<int> input_graph;         // per port input: its graph input index (identity without parameters)
  std::vector<std::string> param_names; // parameter memory words (graph inputs written once), in write order
  std::vector<int> param_graph;         // per parameter word: its graph input index
  std::vector<int> input_reg;           // per input: destination register, -1 = not needed (discarded)
  std::vector<std::string> output_names;
  std::vector<Operand> output_src;      // per output: where its value is read during unload
  std::vector<Word> program;            // schedule length + 1 words (streaming: the kernel, K * II words)
  int length = 0;                       // schedule length
  StreamInfo stream;                    // streaming datapaths only

  bool streaming() const { return config.stream; }
  bool overlapped() const { return !config.stream && config.io_overlap; }  // Config::io_overlap
  // Start to done: length + n_in + n_out + 2 (see the protocol above); overlapped I/O: program words + 1 (IDLE, the
  // program words, DONE: done_o is high in cycle program.size() + 1).
  int cycles() const;
  int io_overhead() const;              // n_in + n_out + 2 (n_in in beats of config.in_words words); cycles() - length
  int load_beats() const;               // latency datapath: cycles of the LOAD phase, ceil(n_in / in_words)
  // Throughput: cycles per set point in steady state (latency datapath: cycles(); streaming: II).
  int cycles_per_set_point() const;
  // Latency of one set point: latency datapath cycles(); streaming: from the cycle its first input word is taken
  // to the cycle its last output word is valid, inclusive (= stream.span, + 1 through the output FIFO); overlapped
  // I/O: from the first input beat (program word 0) to the last output word, inclusive.
  int latency() const;
  // Graph output indices in the order they leave the output port (graph order unless overlapped: the order they are
  // computed, Word::out).
  std::vector<int> output_order() const;
  bool backpressure() const { return streaming() && stream.credits > 0; }
  bool has_params() const { return !param_names.empty(); }
  // Cycles of one configuration phase (parameters written once): IDLE (start) + one word per cycle + DONE.
  int config_cycles() const { return has_params() ? static_cast<int>(param_names.size()) + 2 : 0; }
};

// The words of one graph input vector (encoded, graph input order) that go through the input port, in load order,
// and the words written into the parameter memory in the configuration phase.
std::vector<std::uint32_t> port_words(const Datapath& dp, const std::vector<std::uint32_t>& graph_words);
std::vector<std::uint32_t> param_words(const Datapath& dp, const std::vector<std::uint32_t>& graph_words);
// The words one evaluation unloaded, in the order they left the output port (Datapath::output_order), back in graph
// output order (the same words unless the I/O is overlapped). Throws neaccel::Error on a wrong word count.
std::vector<std::uint32_t> graph_outputs(const Datapath& dp, const std::vector<std::uint32_t>& port_words);

// A run of set points between two configuration phases: the parameter words (empty without a parameter memory) and
// the set points' port words. segments() starts a new one wherever the parameter words change (a robot change:
// reset, configure, continue), so a list of graph input vectors runs on any datapath.
struct Segment {
  std::vector<std::uint32_t> params;
  std::vector<std::vector<std::uint32_t>> points;
  std::size_t first = 0;  // index of its first set point in the whole list
};
std::vector<Segment> segments(const Datapath& dp, const std::vector<std::vector<std::uint32_t>>& graph_words);

// Register map of a streaming datapath: reg[node][copy] (-1: the value needs no register), copies = K.
struct StreamRegisters {
  int copies = 0;
  int num_regs = 0;
  std::vector<std::vector<int>> reg;
};

// Builds the datapath for a verified schedule with binding and register assignment. Requirements checked here
// (neaccel::Error naming the field otherwise): every class executes only mul or only add/sub/neg; one latency
// and occupancy per kind; ii == 0 (streaming is not implemented); schedule.reg is consistent with the register
// semantics of this datapath (a value occupies its register from the end of its arrival cycle until its last
// read; outputs until the unload).
// Graph inputs that problem.resident marks become words of the parameter memory (Operand::Kind::Param), always
// available, without register or load slot; the others go through the input port.
Datapath build(const dfg::Graph& graph, const sched::Problem& problem, const sched::Schedule& schedule,
               const NumberFormat& format);

// Overlapped I/O (docs/datapath.md "Overlapped I/O"; Config::io_overlap) for a latency datapath that build() or
// build_bound() made from a schedule whose problem gives input release times (sched::Problem::release): the port
// inputs in `input_order` (graph input indices, sched::io_overlap's load order), in_words per beat, beat b taken with
// program word b and in its register from word b + 1; every output leaves in the first free cycle from the one its
// value is computed, in the order they are computed (ties in graph output order), one word per cycle (Word::out,
// output_src: the unit's result bus in its arrival cycle, else its register). The program is extended to the last
// output word. Throws neaccel::Error (one line) when an op reads an input before the word is in its register, when
// the release times disagree with the load order, or on a streaming datapath.
void overlap_io(Datapath& dp, const dfg::Graph& graph, const sched::Problem& problem, const sched::Schedule& schedule,
                int in_words, const std::vector<int>& input_order);

// Builds the streaming datapath for a verified modulo schedule (schedule.ii > 0, slots and binding filled; its
// register fields are ignored): input load, issue, write-back and unload events at the local cycles above, K
// register copies with K = ceil(longest lifetime / II), registers assigned by first fit on the circle of P = K * II
// cycles, microcode of P words with stage predicates. `regs` replaces the register assignment (tests; nothing
// checks it here: verify_stream does). Throws neaccel::Error if n_in or n_out exceeds II (one port each; the
// caller raises II to the I/O bound) or on the schedule errors build() reports.
// in_words > 1: an input port of that many words per cycle; port input j is taken at local cycle
// j / in_words on lane j % in_words, so the I/O bound is max(ceil(n_in / in_words), n_out).
Datapath build_stream(const dfg::Graph& graph, const sched::Problem& problem, const sched::Schedule& schedule,
                      const NumberFormat& format, const StreamRegisters* regs = nullptr, int in_words = 1);

// Back-pressure for a streaming datapath: results go through an output FIFO of credits x n_out words and a set
// point is admitted only with a free credit (credits = stages + 1: enough that a sink taking every word loses no
// throughput); out_ready_i low holds results in the FIFO and, once the credits run out, refuses admissions (in_ready_o
// low at launch words). Latency + 1 (the FIFO's register). Throws neaccel::Error on a latency datapath.
void enable_backpressure(Datapath& dp);

// The register map build_stream chose (for tests that break it).
StreamRegisters stream_registers(const dfg::Graph& graph, const sched::Problem& problem,
                                 const sched::Schedule& schedule);

// Independent check of a streaming datapath against its graph, by symbolic execution of the microcode over
// stages + copies + 2 consecutive set points: registers and unit pipelines carry (set point, node) tags; every
// issue must find the tags of its own set point's operands (so two live values sharing a register in any cycle, of
// one or of overlapped set points, is caught), execute the node's operation on a unit of the right kind, once per
// set point; loads take inputs in order; outputs leave in order (set point by set point, tau_1..tau_n), each the
// right node's value, results exactly II cycles apart. Does not use build_stream's data. Returns one line per
// violation (empty = valid), at most `max_messages`.
std::vector<std::string> verify_stream(const dfg::Graph& graph, const Datapath& dp, std::size_t max_messages = 20);

// The same program re-targeted to a larger configuration (same unit mix, latencies and format; capacities >=).
Datapath fit(const Datapath& dp, const Config& hw);

// Address of an operand in the operand space of `c`: units, then registers, then constants.
std::uint32_t operand_address(const Config& c, const Operand& o);

// Packed hex images ($readmemh, one word per line, most significant digit first), see docs/datapath.md.
std::vector<std::string> microcode_hex(const Datapath& dp);
std::vector<std::string> const_hex(const Datapath& dp);
std::vector<std::string> input_hex(const Datapath& dp);   // per input {valid, reg}
std::vector<std::string> output_hex(const Datapath& dp);  // per output operand address
std::vector<std::string> meta_hex(const Datapath& dp);    // n_in, program words, n_out (streaming: + stages, credits)

// Writes ucode.hex, const.hex, in.hex, out.hex, meta.hex into `dir` (created; streaming: no in.hex, out.hex).
// Same datapath, same bytes.
void write_hex(const Datapath& dp, const std::string& dir);

// Verilog parameter list of the configuration (for the generated top wrapper and -G options).
std::vector<std::pair<std::string, long>> rtl_parameters(const Config& c);

nlohmann::json to_json(const Config& c);
nlohmann::json to_json(const Datapath& dp);  // configuration, sizes, cycle counts (the manifest's core)

}  // namespace neaccel::hw
