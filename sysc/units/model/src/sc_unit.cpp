#include "neaccel/units/sc_unit.hpp"

#include "neaccel/ref/error.hpp"

namespace neaccel::units {

ScUnit::ScUnit(sc_core::sc_module_name name, const UnitConfig& config)
    : sc_core::sc_module(name), config_(config), fn_(reference_function(config)) {
  if (config.latency < 1 || config.latency > 15) {
    throw Error("unit " + describe(config) + ": latency must be in 1..15");
  }
  stages_.assign(static_cast<size_t>(config.latency), UnitOut{});
  SC_METHOD(on_edge);
  sensitive << clk_i.pos() << rst_ni.neg();
  dont_initialize();
}

void ScUnit::drive(const UnitOut& out) {
  valid_o.write(out.valid);
  result_o.write(out.result);
  flags_o.write(out.flags);
}

void ScUnit::on_edge() {
  if (!rst_ni.read()) {
    for (UnitOut& s : stages_) s.valid = false;
    count_ = 0;
    valid_o.write(false);
    return;
  }
  if (!clk_i.posedge()) return;
  const bool valid = valid_i.read();
  if (config_.pipelined) {
    for (size_t k = stages_.size() - 1; k > 0; --k) {
      const UnitOut prev = stages_[k - 1];
      stages_[k].valid = prev.valid;
      if (prev.valid) stages_[k] = prev;  // payload loads only behind a valid stage
    }
    if (valid) stages_[0] = fn_(op_i.read(), a_i.read(), b_i.read(), c_i.read());
    stages_[0].valid = valid;
    drive(stages_.back());
    return;
  }
  if (valid) {
    count_ = config_.latency;
    op_q_ = op_i.read();
    a_q_ = a_i.read();
    b_q_ = b_i.read();
    c_q_ = c_i.read();
  } else if (count_ > 0) {
    --count_;
  }
  UnitOut out = fn_(op_q_, a_q_, b_q_, c_q_);
  out.valid = (count_ == 1);
  drive(out);
}

}  // namespace neaccel::units
