#include "neaccel/units/sc_run.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/units/sc_unit.hpp"

#include <cstdlib>
#include <deque>

namespace neaccel::units {

std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 3>>& ops) {
  std::vector<std::array<uint32_t, 4>> ops4;
  ops4.reserve(ops.size());
  for (const auto& o : ops) ops4.push_back({o[0], o[1], o[2], 0});
  return run_sc_unit(config, ops4);
}

std::vector<UnitOut> run_sc_unit(const UnitConfig& config, const std::vector<std::array<uint32_t, 4>>& ops) {
  std::vector<UnitOut> out;
  out.reserve(ops.size());
  std::size_t i = 0;
  stream_sc_unit(
      config,
      [&](std::array<uint32_t, 4>& o) {
        if (i == ops.size()) return false;
        o = ops[i++];
        return true;
      },
      [&](const UnitOut& r) { out.push_back(r); });
  return out;
}

void stream_sc_unit(const UnitConfig& config, const std::function<bool(std::array<uint32_t, 4>&)>& next,
                    const std::function<void(const UnitOut&)>& sink) {
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
  // Issue cycles of the operations in flight, oldest first (at most Latency of them).
  std::deque<long> in_flight;
  std::array<uint32_t, 4> o{};
  bool more = next(o);
  long c = 0;
  for (; more || !in_flight.empty(); ++c) {
    const bool issue = more && c % gap == 0;
    valid.write(issue);
    if (issue) {
      op.write(o[0]);
      a.write(o[1]);
      b.write(o[2]);
      c_in.write(o[3]);
      in_flight.push_back(c);
    }
    sc_start(sc_time(10, SC_NS));
    const bool expect = !in_flight.empty() && in_flight.front() == c - latency + 1;
    if (valid_o.read() != expect) {
      throw Error("SystemC model of " + describe(config) + ": valid_o wrong at cycle " + std::to_string(c));
    }
    if (expect) {
      in_flight.pop_front();
      sink({true, result.read(), flags.read()});
    }
    if (issue) more = next(o);
  }
  // Latency more cycles with nothing issued: nothing may come out.
  valid.write(false);
  for (const long end = c + latency; c < end; ++c) {
    sc_start(sc_time(10, SC_NS));
    if (valid_o.read())
      throw Error("SystemC model of " + describe(config) + ": valid_o wrong at cycle " + std::to_string(c));
  }
  sc_stop();
}

}  // namespace neaccel::units
