// `neaccel sim`: runs the datapath written by `neaccel rtl --out DIR` on joint states with one engine (systemc,
// verilator, cosim) and checks every output against the graph evaluated in the number format (bit for bit) and
// against the double reference (max relative error); or runs a fault campaign on it. The work is neaccel_sim
// (sysc/sim, neaccel/sim/sim.hpp); this prints torques, cycles, max error, mismatches (--json for scripts). Streaming
// designs (neaccel rtl --ii) report the measured throughput and latency beside the claimed ones.
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/sim/sim.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

// libsystemc.so refers to sc_main; the CLI has its own main and calls sc_start directly. Weak: another command
// (cmd_fpcheck.cpp) may define it too.
extern "C" __attribute__((weak)) int sc_main(int, char**) { return 0; }

namespace {

using namespace neaccel;

struct Options {
  sim::Options sim;
  bool json = false;
};

void print_campaign(const sim::Result& r, bool json) {
  if (json) {
    std::printf("%s\n", r.json.dump(1).c_str());
  } else {
    std::printf("fault campaign: %d flips on %s (%s, %s)\n", r.flips, r.robot.c_str(), r.format.c_str(),
                r.mode.c_str());
    std::printf("%-12s %8s %9s %7s %7s\n", "site", "flips", "detected", "masked", "silent");
    for (const auto& [k, t] : r.json["by_site"].items())
      std::printf("%-12s %8ld %9ld %7ld %7ld\n", k.c_str(), t["flips"].get<long>(), t["detected"].get<long>(),
                  t["masked"].get<long>(), t["silent"].get<long>());
  }
}

void print_run(const sim::Result& r) {
  const sim::Checked& c = r.checked;
  const std::size_t show = std::min<std::size_t>(r.states, 5);
  for (std::size_t k = 0; k < show; ++k) {
    std::printf("state %zu: tau =", k);
    for (double t : c.torques[k]) std::printf(" %.9g", t);
    std::printf("\n");
  }
  if (show < r.states) std::printf("... (%zu states; --json prints all)\n", r.states);
  if (r.streaming) {
    std::printf("engine %s: %zu set points streamed; throughput %d cycles per set point (II; measured %ld..%ld), "
                "latency %d cycles (measured %ld..%ld), cycle-count errors %ld\n",
                r.engine.c_str(), r.states, r.cycles_per_set_point, c.ii_min, c.ii_max, r.latency, c.lat_min,
                c.lat_max, c.cycle_errors);
  } else if (r.latency != r.cycles) {  // overlapped I/O (a latency design's latency is otherwise its cycles)
    std::printf("engine %s: %zu states, %d cycles each from start to done (overlapped I/O: %d from the first input word "
                "to the last output word; schedule length %d), cycle-count errors %ld\n",
                r.engine.c_str(), r.states, r.cycles, r.latency, r.length, c.cycle_errors);
  } else {
    std::printf("engine %s: %zu states, %d cycles each (length %d + I/O %d), cycle-count errors %ld\n",
                r.engine.c_str(), r.states, r.cycles, r.length, r.io_overhead, c.cycle_errors);
  }
  if (r.has_params)
    std::printf("parameter memory: %zu words written in %ld configuration phase%s of %d cycles each\n",
                r.param_words, r.configurations, r.configurations == 1 ? "" : "s", r.config_cycles);
  std::printf("mismatches vs the graph in %s: %ld; max relative error vs double: %.3g\n", r.format.c_str(),
              c.mismatches, c.max_err);
  if (r.cycle_mismatches >= 0)
    std::printf("co-simulation (%s): %ld of %ld cycles where RTL and SystemC model differ%s%s\n",
                r.cosim_kind.c_str(), r.cycle_mismatches, r.compared_cycles, r.messages.empty() ? "" : "; first: ",
                r.messages.empty() ? "" : r.messages[0].c_str());
}

// What failed, in one line (the run's or the campaign's figures are printed above it).
std::string failure(const sim::Result& r) {
  if (r.campaign)
    return "sim: fault campaign: " + std::to_string(r.faults.silent) + " of " + std::to_string(r.flips) +
           " faults silent (changed a result, no check fired)";
  const sim::Checked& c = r.checked;
  std::string what;
  const auto add = [&what](const std::string& s) { what += (what.empty() ? "" : "; ") + s; };
  if (c.mismatches)
    add(std::to_string(c.mismatches) + " mismatch" + (c.mismatches == 1 ? "" : "es") + " against the golden model in " +
        r.format + " (first at state " + std::to_string(c.first_mismatch) + ")");
  if (c.cycle_errors)
    add(std::to_string(c.cycle_errors) + " cycle-count error" + (c.cycle_errors == 1 ? "" : "s") +
        " (first at state " + std::to_string(c.first_cycle_error) + ")");
  if (r.cycle_mismatches > 0)
    add("co-simulation (" + r.cosim_kind + "): " + std::to_string(r.cycle_mismatches) + " of " +
        std::to_string(r.compared_cycles) + " cycles where RTL and SystemC model differ" +
        (r.messages.empty() ? "" : " (first: " + r.messages[0] + ")"));
  return "sim: " + what;
}

void run(const Options& o) {
  const sim::Result r = sim::run(o.sim);
  if (r.campaign) {
    print_campaign(r, o.json);
    if (!o.sim.quiet)
      std::fprintf(stderr, "neaccel sim: fault campaign: %d flips, %ld detected, %ld masked, %ld silent (%.1f s)\n",
                   r.flips, r.faults.detected, r.faults.masked, r.faults.silent, r.seconds);
  } else if (o.json) {
    std::printf("%s\n", r.json.dump(1).c_str());
  } else {
    print_run(r);
  }
  if (!r.passed) {  // a verification mismatch: exit 3, with its one error line
    std::fprintf(stderr, "neaccel: error: %s\n", failure(r).c_str());
    throw neaccel::cli::ExitCode{3};
  }
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  sim::Options& s = opt->sim;
  auto* cmd = app.add_subcommand("sim", "simulate a datapath written by `neaccel rtl` and check it");
  cmd->add_option("--out", s.out, "directory written by neaccel rtl");
  cmd->add_option("--engine", s.engine, "systemc, verilator or cosim");
  cmd->add_option("--states", s.states_file, "file: per line q1..qn qd1..qdn qdd1..qddn (tau1..taun for fd)");
  cmd->add_option("--function", s.function, "check that the design computes this function (rtl --function)");
  // At most 10^6 states: the golden model and the results of every state are held in memory (and the SystemC engine
  // takes about a millisecond per state), so a larger set is a mistake, not a test.
  cmd->add_option("--random", s.random, "N random states (q in [-pi, pi], qd, qdd in [-1, 1]; N <= 10^6)")
      ->check(neaccel::cli::int_in(1, 1000000));
  cmd->add_option("--seed", s.seed, "seed of --random");
  cmd->add_option("--vcd", s.vcd, "verilator engine: write a VCD trace to this file");
  cmd->add_option("--sink-stalls", s.sink_stalls,
                  "EVERY,LEN: the sink holds out_ready low LEN of every EVERY cycles (--backpressure designs)");
  cmd->add_option("--robot-change", s.robot_change,
                  "ROBOT: the second half of the --random set points use this robot's parameters (a design with "
                  "parameters loaded once: reset, configure again, continue)");
  cmd->add_flag("--quiet", s.quiet, "no progress messages");
  cmd->add_option("--fault-cycle", s.fault_cycle, "")->group("");  // hidden: tests of the co-simulation checks
  cmd->add_option("--rtl-fault-word", s.rtl_fault_word, "")->group("");  // hidden: likewise, on the RTL side
  cmd->add_option("--fault-campaign", s.fault_campaign,
                  "cosim: N runs with one random single-bit flip each in the model; counts detected/masked/silent")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--campaign-checks", s.campaign_checks, "")->delimiter(',')->group("");  // hidden: tests
  cmd->add_flag("--json", opt->json, "machine-readable output");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace

NEACCEL_COMMAND(sim, 61, setup)
