#include "run.hpp"

#include "cycle_log.hpp"
#include "model.hpp"

#include <memory>

namespace neaccel::sysc {
namespace {

SC_MODULE(ModelBench) {
  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS};
  sc_core::sc_signal<bool> rst_n{"rst_n", false}, start{"start", false}, in_valid{"in_valid", false},
      out_ready{"out_ready", false};
  sc_core::sc_signal<std::uint32_t> in_data{"in_data", 0};
  sc_core::sc_signal<bool> in_ready{"in_ready"}, out_valid{"out_valid"}, busy{"busy"}, done{"done"};
  sc_core::sc_signal<std::uint32_t> out_data{"out_data"};
  DatapathModel model;
  const hw::Datapath& dp_;
  const std::vector<std::vector<std::uint32_t>>& states;
  ModelRunOptions opt;
  long log_cycle = 0;
  ModelRun result;

  SC_HAS_PROCESS(ModelBench);
  ModelBench(sc_core::sc_module_name name, const hw::Datapath& dp,
             const std::vector<std::vector<std::uint32_t>>& inputs)
      : sc_core::sc_module(name), model("model", dp), dp_(dp), states(inputs) {
    model.clk_i(clk);
    model.rst_ni(rst_n);
    model.start_i(start);
    model.in_valid_i(in_valid);
    model.in_data_i(in_data);
    model.out_ready_i(out_ready);
    model.in_ready_o(in_ready);
    model.out_valid_o(out_valid);
    model.out_data_o(out_data);
    model.busy_o(busy);
    model.done_o(done);
    SC_THREAD(stimulus);
    sensitive << clk.negedge_event();
    dont_initialize();
  }

  // The cycle-log line of this cycle (what the lockstep co-simulation compares, from the model's side).
  void log_cycle_line() {
    if (!opt.cycle_log) return;
    *opt.cycle_log << rtlsim::cycle_line(log_cycle++, model.core().view(in_valid.read(), in_data.read()),
                               !dp_.config.format.fixed)
         << '\n';
  }

  void stream_stimulus(const hw::Datapath& dp) {
    rtlsim::StreamBook book(states, dp.output_names.size());
    book.sink_stalls(opt.stall_every, opt.stall_len);
    for (long c = 0;; ++c) {
      log_cycle_line();
      if (c > 0 && done.read()) {
        book.r.cycles = c;
        break;
      }
      start.write(c == 0);
      in_valid.write(book.in_valid());
      out_ready.write(book.out_ready(c));
      in_data.write(book.in_data());
      book.cycle(c, in_ready.read(), out_valid.read(), out_data.read());
      wait();
    }
    result.stream = book.r;
    result.out = book.r.out;
    for (std::size_t k = 1; k < book.r.first_out.size(); ++k)
      result.cycles.push_back(book.r.first_out[k] - book.r.first_out[k - 1]);
    start.write(false);
    in_valid.write(false);
    wait();
    result.total_cycles = model.core().cycle();
    sc_core::sc_stop();
  }

  // Same stimulus as the co-simulation bench and the Verilator driver (in_valid, out_ready held high).
  void stimulus() {
    wait();
    wait();
    rst_n.write(true);
    wait();
    if (dp_.streaming()) return stream_stimulus(dp_);
    for (const auto& in : states) {
      std::vector<std::uint32_t> out;
      std::size_t k = 0;
      for (long c = 0;; ++c) {
        log_cycle_line();
        if (c > 0 && done.read()) {
          result.cycles.push_back(c);
          break;
        }
        if (out_valid.read()) out.push_back(out_data.read());
        start.write(c == 0);
        in_valid.write(true);
        out_ready.write(true);
        in_data.write(k < in.size() ? in[k] : 0);
        if (in_ready.read()) ++k;
        wait();
      }
      result.out.push_back(out);
      start.write(false);
      wait();
    }
    result.total_cycles = model.core().cycle();
    sc_core::sc_stop();
  }
};

}  // namespace

ModelRun run_model(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states,
                   const ModelRunOptions& opt) {
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  auto bench = std::make_unique<ModelBench>("model_bench", dp, states);
  bench->opt = opt;
  bench->model.core().inject(opt.fault);
  sc_core::sc_start();
  return bench->result;
}

}  // namespace neaccel::sysc
