// Cycle-accurate SystemC model of every arithmetic unit (rtl/units/*.v), bit-exact through the reference
// functions of unit.hpp. Same ports as the Verilated SystemC-mode units (op_i and flags_o exist on every
// kind; multipliers ignore op_i, fixed-point units drive flags_o = 0; c_i exists on every kind, only the FMAs
// read it), same timing:
//   pipelined:     Latency register stages; valid_o follows valid_i by Latency cycles; payload registers
//                  hold the last valid value (like units_pipe.v);
//   non-pipelined: operands held, busy counter; valid_o in the Latency-th cycle after valid_i (units_hold.v).
// Reset: rst_ni low clears the valid bits (asynchronous, like the RTL).
#pragma once

#include "neaccel/units/unit.hpp"

#include <systemc>

#include <vector>

namespace neaccel::units {

class ScUnit : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<bool> valid_i{"valid_i"};
  sc_core::sc_in<uint32_t> op_i{"op_i"};
  sc_core::sc_in<uint32_t> a_i{"a_i"};
  sc_core::sc_in<uint32_t> b_i{"b_i"};
  sc_core::sc_in<uint32_t> c_i{"c_i"};  // the FMAs' addend; other kinds ignore it (bind it to any signal)
  sc_core::sc_out<bool> valid_o{"valid_o"};
  sc_core::sc_out<uint32_t> result_o{"result_o"};
  sc_core::sc_out<uint32_t> flags_o{"flags_o"};

  SC_HAS_PROCESS(ScUnit);
  // Throws neaccel::Error for latency < 1 or an invalid fixed-point format.
  ScUnit(sc_core::sc_module_name name, const UnitConfig& config);

  const UnitConfig& config() const { return config_; }

 private:
  void on_edge();
  void drive(const UnitOut& out);

  UnitConfig config_;
  UnitFunction fn_;
  std::vector<UnitOut> stages_;  // pipelined: stages_[0] is the first register stage
  int count_ = 0;                // non-pipelined: busy counter (units_hold.v cnt_q)
  uint32_t op_q_ = 0, a_q_ = 0, b_q_ = 0, c_q_ = 0;
};

}  // namespace neaccel::units
