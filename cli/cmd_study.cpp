// `neaccel study`: robot -> verified accelerator -> report (study/).
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/cost/target.hpp"
#include "neaccel/dfg/depth.hpp"

#include "neaccel/study/study.hpp"

#include <cstdio>
#include <memory>

namespace {
void setup(CLI::App& app) {
  auto opt = std::make_shared<neaccel::study::Options>();
  auto out = std::make_shared<std::string>(opt->out.string());
  auto* cmd = app.add_subcommand("study", "robot -> verified accelerators -> report (out/study/report.html)");
  cmd->add_option("--robot", opt->robot, "built-in name, random:N:SEED, YAML or URDF file")->capture_default_str();
  cmd->add_option("--out", *out, "output directory")->capture_default_str();
  cmd->add_flag("--quick", opt->quick, "smaller sweep and state sets (CI)");
  cmd->add_option("--states", opt->states, "random states per check (default 100, quick 20)")
      ->check(neaccel::cli::int_in(1, 1000000));
  cmd->add_option("--max-units", opt->max_units, "largest unit count per class in the sweep")
      ->check(neaccel::cli::int_in(1, neaccel::cli::kMaxUnits));
  cmd->add_option("--budget", opt->max_area, "largest area (Yosys cells) a chosen design may take")
      ->check(neaccel::cli::real_in(1, 1e15));
  neaccel::cli::add_device_budget(*cmd, opt->budget_lut, opt->budget_dsp, "a chosen latency design");
  cmd->add_option("--jobs", opt->jobs, "sweep threads (default: all cores)")->check(neaccel::cli::int_in(1, 4096));
  cmd->add_flag("--report-timings", opt->report_timings,
                "put the measured CPU times in the report and data/cpu.json (always in timings.json); the output is "
                "then not the same bytes run to run");
  cmd->add_flag_callback("--no-platforms", [opt] { opt->platforms = false; },
                "skip the platform table's CPU kernels and Pinocchio (docs/platforms.md)");
  auto* pin_off = cmd->add_flag_callback("--no-pinocchio", [opt] { opt->pinocchio = 0; },
                                "skip the platform table's Pinocchio row (--quick skips it: its first build takes minutes)");
  cmd->add_flag_callback("--pinocchio", [opt] { opt->pinocchio = 1; },
                "the platform table's Pinocchio row with --quick too")
      ->excludes(pin_off);
  cmd->add_option("--target", opt->target,
                  "the device the chosen designs are costed on and placed and routed on: ecp5-85f (LFE5U-85F) or "
                  "ice40-hx8k (no device section: the iCE40 figures are the exploration's); sky130-hd: the ECP5 as the device, "
                  "and the built latency datapaths also mapped onto SkyWater 130 nm standard cells, pre-layout, the "
                  "fastest by the chip's clock in the summary (committed results in data/asic-cache; --chip-flow runs "
                  "the flow)")
      ->capture_default_str();
  cmd->add_flag("--chip-flow", opt->chip_flow,
                "with --target sky130-hd: map, time and power the designs with no cached chip result (Yosys, OpenSTA "
                "and a traced co-simulation: about 2 minutes per PUMA 560 design)");
  cmd->add_flag("--pnr", opt->pnr,
                "place and route the chosen designs the device model says fit (minutes to hours each, cached by "
                "content hash; without it only results already cached, e.g. data/pnr-cache, are used)");
  cmd->add_option("--pnr-timeout", opt->pnr_timeout_s,
                  "with --pnr: seconds each place-and-route tool may run on one design (nextpnr's router need not "
                  "converge); a design over it is reported as not placed")
      ->check(CLI::Range(1.0, 1e6))
      ->capture_default_str();
  auto depth = std::make_shared<std::string>("on");
  cmd->add_option("--function", opt->function, "dynamics function of every stage: id | fd | fd-khalil | fd-strobe | "
                  "mass | dtau (docs/functions.md; the forward functions get a divider class)")->capture_default_str();
  cmd->add_option("--depth", *depth, "depth-reducing re-association of the swept and built graphs: on | off | "
                  "lookahead[:K] (the lookahead forms of the recursion over K links as candidates; inverse dynamics)")
      ->capture_default_str();
  // The study's sweep has no FMA dimension (`neaccel explore --fma` has one; the datapath has FMA units: neaccel rtl
  // --fma): refused as a usage error (exit 2), one line.
  for (const char* name : {"--fma", "--lat-fma"})
    cmd->add_option(name, "not supported by study (FMA units: explore, schedule, rtl)")->check([](const std::string&) {
      return std::string("the study's sweep has no FMA units (use neaccel explore/schedule/rtl --fma)");
    });
  cmd->callback([opt, out, depth] {
    opt->out = *out;
    neaccel::cli::as_usage([&] { return neaccel::cost::target(opt->target).name; });  // one line listing the targets
    // A standard-cell target: the chip beside the ECP5 (the device the exploration's model and section 7's place and
    // route are for); section 7 adds the built latency datapaths on the chip, pre-layout (docs/study.md).
    if (neaccel::cost::target(opt->target).is_asic()) {
      opt->chip = neaccel::cost::target(opt->target).name;
      opt->target = "ecp5-85f";
    } else if (opt->chip_flow) {
      throw neaccel::cli::UsageError("--chip-flow: only with a standard-cell target (--target sky130-hd)");
    }
    neaccel::cli::check_device_budget(opt->target, opt->budget_lut, opt->budget_dsp);
    const neaccel::dfg::DepthMode mode = neaccel::dfg::parse_depth_mode(*depth);
    opt->depth = mode.on;
    opt->lookahead = mode.lookahead;
    const auto dir = neaccel::study::run(*opt);
    std::printf("study: report written to %s/report.html (and report.md); measured figures in %s/measured/ and %s/timings.json\n",
                dir.string().c_str(), dir.string().c_str(), dir.string().c_str());
  });
}
}  // namespace

NEACCEL_COMMAND(study, 100, setup)
