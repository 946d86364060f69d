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

  // Reset for two cycles (the parameter memory keeps its contents but is unconfigured afterwards).
  void reset_pulse() {
    rst_n.write(false);
    start.write(false);
    in_valid.write(false);
    out_ready.write(false);
    wait();
    wait();
    rst_n.write(true);
    wait();
  }

  // The configuration phase (a datapath with a parameter memory, after reset): start, the parameter words on
  // in_valid/in_ready, DONE. The same stimulus as rtlsim::Driver::run.
  void configure(const std::vector<std::uint32_t>& words) {
    std::size_t k = 0;
    for (long c = 0;; ++c) {
      log_cycle_line();
      if (c > 0 && done.read()) break;
      start.write(c == 0);
      in_valid.write(true);
      out_ready.write(true);
      in_data.write(k < words.size() ? words[k] : 0);
      if (in_ready.read()) ++k;
      wait();
    }
    start.write(false);
    wait();
  }

  void stream_stimulus(const hw::Datapath& dp, const std::vector<std::vector<std::uint32_t>>& states) {
    rtlsim::StreamBook book(states, dp.output_names.size());
    book.sink_stalls(opt.stall_every, opt.stall_len);
    const int lanes = dp.config.in_words;
    book.set_in_words(lanes);
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
      if (lanes > 1) {  // lanes 1.. of a wider input port go to the core directly (the model's port is lane 0)
        std::vector<std::uint32_t> more;
        for (int l = 1; l < lanes; ++l) more.push_back(book.in_data(l));
        model.core().set_lanes(std::move(more));
      }
      book.cycle(c, in_ready.read(), out_valid.read(), out_data.read());
      wait();
    }
    // Several segments (robot changes): results appended, stream cycles of each segment since its own start.
    auto& r = result.stream;
    r.out.insert(r.out.end(), book.r.out.begin(), book.r.out.end());
    r.first_in.insert(r.first_in.end(), book.r.first_in.begin(), book.r.first_in.end());
    r.first_out.insert(r.first_out.end(), book.r.first_out.begin(), book.r.first_out.end());
    r.last_out.insert(r.last_out.end(), book.r.last_out.begin(), book.r.last_out.end());
    r.cycles += book.r.cycles;
    result.out.insert(result.out.end(), book.r.out.begin(), book.r.out.end());
    for (std::size_t k = 1; k < book.r.first_out.size(); ++k)
      result.cycles.push_back(book.r.first_out[k] - book.r.first_out[k - 1]);
    start.write(false);
    in_valid.write(false);
    wait();
  }

  // Same stimulus as the co-simulation bench and the Verilator driver (in_valid, out_ready held high).
  void stimulus() {
    wait();
    wait();
    rst_n.write(true);
    wait();
    const auto segs = hw::segments(dp_, states);
    for (std::size_t g = 0; g < segs.size(); ++g) {
      if (g > 0 && dp_.has_params()) reset_pulse();  // a robot change: reset, then configure again
      if (dp_.has_params()) configure(segs[g].params);
      if (dp_.streaming())
        stream_stimulus(dp_, segs[g].points);
      else
        latency_stimulus(segs[g].points);
    }
    result.total_cycles = model.core().cycle();
    sc_core::sc_stop();
  }

  // One word per cycle, or a beat of in_words words (a wider port: lanes 1.. go to the core directly).
  void latency_stimulus(const std::vector<std::vector<std::uint32_t>>& points) {
    const std::size_t lanes = static_cast<std::size_t>(std::max(1, dp_.config.in_words));
    for (const auto& in : points) {
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
        if (lanes > 1) {
          std::vector<std::uint32_t> more;
          for (std::size_t l = 1; l < lanes; ++l) more.push_back(k + l < in.size() ? in[k + l] : 0);
          model.core().set_lanes(std::move(more));
        }
        if (in_ready.read()) k += lanes;
        wait();
      }
      // Overlapped I/O: the results left in the order they were computed; back in graph output order (a wrong
      // word count stays as it is, for the checker to report).
      result.out.push_back(dp_.overlapped() && out.size() == dp_.output_names.size() ? hw::graph_outputs(dp_, out) : out);
      start.write(false);
      wait();
    }
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
