// SystemC model of a scheduled datapath: the ports of rtl/datapath/nea_datapath.v (without the debug ports),
// clocked on the rising edge, executing the microcode of a hw::Datapath through DatapathCore.
#pragma once

#include "core.hpp"

#include <systemc>

#include <cstdint>

namespace neaccel::sysc {

SC_MODULE(DatapathModel) {
  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_in<bool> rst_ni{"rst_ni"};
  sc_core::sc_in<bool> start_i{"start_i"};
  sc_core::sc_in<bool> in_valid_i{"in_valid_i"};
  sc_core::sc_in<std::uint32_t> in_data_i{"in_data_i"};
  sc_core::sc_in<bool> out_ready_i{"out_ready_i"};
  sc_core::sc_out<bool> in_ready_o{"in_ready_o"};
  sc_core::sc_out<bool> out_valid_o{"out_valid_o"};
  sc_core::sc_out<std::uint32_t> out_data_o{"out_data_o"};
  sc_core::sc_out<bool> busy_o{"busy_o"};
  sc_core::sc_out<bool> done_o{"done_o"};

  SC_HAS_PROCESS(DatapathModel);
  DatapathModel(sc_core::sc_module_name name, const hw::Datapath& dp);

  DatapathCore& core() { return core_; }

 private:
  void on_clock();
  DatapathCore core_;
};

}  // namespace neaccel::sysc
