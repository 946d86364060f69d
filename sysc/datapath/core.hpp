// The cycle-accurate behaviour of a datapath (hw::Datapath) executing its microcode: sequencer, register file,
// constant ROM and units whose results appear `latency` cycles after issue, with the bit-exact arithmetic of
// hw/number.hpp. Plain C++ (no SystemC): the SystemC module (model.hpp) clocks it; tests can step it directly.
// It mirrors rtl/datapath/nea_datapath.v (latency datapath) and rtl/datapath/nea_stream.v (streaming datapath,
// dp.streaming()) signal for signal (the co-simulation compares them every cycle).
#pragma once

#include "cycle_log.hpp"
#include "neaccel/hw/datapath.hpp"

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace neaccel::sysc {

// What the co-simulation compares each cycle (the state before the clock edge that ends the cycle): the cycle-log
// sample (unit result buses, register write enables and addresses, input load, handshakes, status) and the data
// the model writes.
struct CycleView : rtlsim::CycleSample {
  std::vector<std::uint32_t> wr_data;  // value written per unit (the unit result bus)
  std::uint32_t load_data = 0;         // word written by the input load
  std::vector<std::pair<int, std::uint32_t>> lane_writes;  // wider input port: (register, word) of lanes 1..k-1
};

// A fault for the injection tests and the fault campaign (faults.hpp): XOR `mask` into a value at `cycle` (cycles
// since reset). RegWrite / UnitResult: unit `unit`'s register write data / result bus in that cycle. Const: constant
// ROM word `unit` from that cycle on (a flipped storage bit stays flipped). FifoWord: output FIFO word `unit` (0 =
// head) after the clock edge that starts that cycle, until it leaves. Control: the microcode word executed in that
// cycle is replaced by `word` (a copy of it with one control bit flipped; hardwired: one select/enable).
struct Fault {
  enum class Kind { None, RegWrite, UnitResult, Control, FifoWord, Const } kind = Kind::None;
  long cycle = -1;
  int unit = 0;
  std::uint32_t mask = 1;
  std::shared_ptr<const hw::Word> word;  // Control
};

class DatapathCore {
 public:
  // Run: streaming datapaths. Config: the configuration phase of a datapath with a parameter memory (the first
  // start after reset writes the parameter words, docs/datapath.md "Robot parameters loaded once").
  enum class State { Idle, Load, Compute, Unload, Done, Run, Config };

  explicit DatapathCore(const hw::Datapath& dp);

  void reset();  // the parameter memory keeps its contents but is marked unconfigured (as in the RTL)
  // One rising clock edge with these inputs sampled.
  void step(bool start, bool in_valid, std::uint32_t in_data, bool out_ready);
  // The outputs and internal write traffic of the current cycle, given the current inputs.
  CycleView view(bool in_valid, std::uint32_t in_data) const;

  bool in_ready() const;
  bool out_valid() const;
  bool done() const { return state_ == State::Done; }
  bool busy() const { return state_ != State::Idle; }
  std::uint32_t out_data() const;
  long cycle() const { return cycle_; }
  State state() const { return state_; }
  int index() const { return index_; }                       // program counter (Compute, Run), I/O index
  std::size_t fifo_size() const { return fifo_.size(); }     // back-pressure: words in the output FIFO

  void inject(const Fault& f) { fault_ = f; }
  // A wider input port (Config::in_words > 1): the words of lanes 1 .. k-1 in the current cycle (lane 0 is the
  // in_data argument of step() and view()). Set before view() / step() of the cycle.
  void set_lanes(std::vector<std::uint32_t> words) { lanes_ = std::move(words); }

 private:
  struct Stage {
    bool valid = false;
    std::uint32_t value = 0;
  };
  std::uint32_t read(const hw::Operand& o) const;
  const hw::Word& word() const;                // the microcode word of this cycle (with an injected fault)
  bool run_ready() const;                     // streaming: in_ready of the RUN state
  bool step_config(bool start, bool in_valid, std::uint32_t in_data);  // Idle/Config/Done of a configuration
  std::uint32_t bus(int u) const;             // result bus of unit u (with an injected fault)
  std::uint32_t execute(int u, const hw::Issue& is) const;
  // Streaming: whether the set point in `stage` is valid in this cycle; in a launch word stage 0 is the set point
  // being admitted (admit = in_valid_i), stage j >= 1 the one admitted j launches ago.
  bool pred(int stage, bool admit) const;
  void step_stream(bool start, bool in_valid, std::uint32_t in_data, bool out_ready, const CycleView& v);
  // Streaming: a set point may be admitted in a launch word (back-pressure: a credit is free).
  bool credit_ok() const { return !dp_.backpressure() || credits_ > 0; }
  // Streaming: a set point offered in a launch word is admitted.
  bool admits(bool in_valid) const { return in_valid && credit_ok(); }
  // Streaming: the microcode drives a result word in this cycle (to the port, or into the output FIFO).
  bool out_now() const;
  // The clock edge of the units and the register file: every unit pipeline shifts and takes its new issue
  // (operands were read before any write of this edge), then the register writes and the input load of `v`.
  void clock_units(const std::vector<Stage>& issued, const CycleView& v);

  const hw::Datapath& dp_;
  State state_ = State::Idle;
  int index_ = 0;  // input/output index in Load/Unload, program counter in Compute and Run
  std::vector<bool> sv_;  // streaming: stage-valid bits (bit j: the set point in stage j is valid)
  long cycle_ = 0;
  std::vector<std::uint32_t> regs_;
  std::vector<std::uint32_t> params_;      // parameter memory (not cleared by reset)
  std::vector<std::uint32_t> lanes_;       // lanes 1.. of the input port this cycle
  bool configured_ = false;
  int cfg_index_ = 0;                      // configuration phase: parameter words written
  std::vector<std::vector<Stage>> pipes_;  // per unit, latency stages; the last one drives the result bus
  std::deque<std::uint32_t> fifo_;         // back-pressure: output FIFO (rtl/datapath/nea_stream.v g_fifo)
  int credits_ = 0;                        // back-pressure: set points that may still be admitted
  int popped_ = 0;                         // back-pressure: words of the current set point taken by the sink
  Fault fault_;
};

}  // namespace neaccel::sysc
