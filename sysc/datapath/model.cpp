#include "model.hpp"

namespace neaccel::sysc {

DatapathModel::DatapathModel(sc_core::sc_module_name name, const hw::Datapath& dp)
    : sc_core::sc_module(name), core_(dp) {
  SC_METHOD(on_clock);
  sensitive << clk_i.pos();
  dont_initialize();
}

void DatapathModel::on_clock() {
  if (!rst_ni.read())
    core_.reset();
  else
    core_.step(start_i.read(), in_valid_i.read(), in_data_i.read(), out_ready_i.read());
  in_ready_o.write(core_.in_ready());
  out_valid_o.write(core_.out_valid());
  out_data_o.write(core_.out_data());
  busy_o.write(core_.busy());
  done_o.write(core_.done());
}

}  // namespace neaccel::sysc
