#include "neaccel/units/sc_run.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/sc_unit.hpp"

#include <cstdlib>

namespace neaccel::units {

std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 3>>& ops) {
  std::vector<std::array<uint32_t, 4>> ops4;
  ops4.reserve(ops.size());
  for (const auto& o : ops) ops4.push_back({o[0], o[1], o[2], 0});
  return run_sc_unit(config, ops4);
}

std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 4>>& ops) {
  using namespace sc_core;
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  sc_report_handler::set_actions("/OSCI/SystemC", SC_INFO, SC_DO_NOTHING);
  sc_clock clk("clk", sc_time(10, SC_NS), 0.5, sc_time(5, SC_NS), true);
  sc_signal<bool> rst_n{"rst_n", false}, valid{"valid", false}, valid_o{"valid_o"};
  sc_signal<uint32_t> op{"op", 0}, a{"a", 0}, b{"b", 0}, c_in{"c_in", 0}, result{"result"}, flags{"flags"};
  ScUnit unit("unit", config);
  unit.clk_i(clk);
  unit.rst_ni(rst_n);
  unit.valid_i(valid);
  unit.op_i(op);
  unit.a_i(a);
  unit.b_i(b);
  unit.c_i(c_in);
  unit.valid_o(valid_o);
  unit.result_o(result);
  unit.flags_o(flags);

  sc_start(sc_time(20, SC_NS));
  rst_n.write(true);
  const long latency = config.latency;
  const long gap = config.pipelined ? 1 : latency;
  std::vector<UnitOut> out;
  out.reserve(ops.size());
  const long cycles = static_cast<long>(ops.size()) * gap + latency;
  for (long c = 0; c < cycles; ++c) {
    const bool issue = c % gap == 0 && static_cast<size_t>(c / gap) < ops.size();
    valid.write(issue);
    if (issue) {
      const auto& o = ops[static_cast<size_t>(c / gap)];
      op.write(o[0]);
      a.write(o[1]);
      b.write(o[2]);
      c_in.write(o[3]);
    }
    sc_start(sc_time(10, SC_NS));
    const long src = c - latency + 1;
    const bool expect = src >= 0 && src % gap == 0 && static_cast<size_t>(src / gap) < ops.size();
    if (valid_o.read() != expect) {
      throw Error("SystemC model of " + describe(config) + ": valid_o wrong at cycle " + std::to_string(c));
    }
    if (expect) out.push_back({true, result.read(), flags.read()});
  }
  sc_stop();
  return out;
}

}  // namespace neaccel::units
