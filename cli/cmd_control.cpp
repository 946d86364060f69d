// `neaccel control --robot R --scenario nominal|disturbance|model-error [--feedback on|off]
//                  [--format double|fp32|fixed:I.F] [--lin-format double|fp32|fixed:I.F] --out DIR [--json] [--seed N]`
// Seed 004's feedforward + adaptive least-squares feedback on a simulated arm (study::run_control_scenario, which
// writes under DIR control.csv, control_ff.csv, the plots and summary.json); prints a summary (or the JSON with
// --json). docs/control.md.
#include "command.hpp"

#include "neaccel/study/control_accel.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace {

struct Options {
  neaccel::study::ControlOptions control;
  bool json = false;
};

void print_text(const nlohmann::json& j) {
  fmt::print("control: robot {}, scenario {}, feedback {}, feedforward in {}, T = {} s, {} samples\n",
             j["robot"].get<std::string>(), j["scenario"].get<std::string>(), j["feedback"].get<std::string>(),
             j["format"].get<std::string>(), j["period_s"].get<double>(), j["samples"].get<int>());
  for (const char* key : {"run", "feedforward_only"}) {
    if (!j.contains(key)) continue;
    const nlohmann::json& r = j[key];
    fmt::print("  {:<17} max joint error {:.4g} rad, max end-effector error {:.4g} m ({:.2f}% of {:.3g} m){}{}\n",
               key, r["max_joint_error_rad"].get<double>(), r["max_ee_error_m"].get<double>(),
               r["max_ee_error_percent"].get<double>(), j["path_scale_m"].get<double>(),
               r["aborted"].get<bool>() ? fmt::format(", aborted at {:.3f} s", r["abort_time_s"].get<double>()) : "",
               r["gain_updates"].get<int>() > 0
                   ? fmt::format(", {} gain updates, {} skips, max |eig(Phi^c)| {:.4f}", r["gain_updates"].get<int>(),
                                 r["feedback_skips"].get<int>(), r["max_closed_loop_spectral_radius"].get<double>())
                   : "");
  }
  if (j.contains("format_effect"))
    fmt::print("  feedforward in {} vs double: max |tau diff| {:.4g} N m, max |q diff| {:.4g} rad\n",
               j["format"].get<std::string>(), j["format_effect"]["max_tau_ff_diff"].get<double>(),
               j["format_effect"]["max_q_diff_rad"].get<double>());
  if (j.contains("linearisation_effect")) {
    const nlohmann::json& e = j["linearisation_effect"];
    fmt::print("  linearisation in {} vs double: max joint error {:.4g} vs {:.4g} rad, max end-effector error {:.4g} "
               "vs {:.4g} m, max |q diff| {:.4g} rad, {} vs {} gain updates\n",
               j["lin_format"].get<std::string>(), e["max_joint_error_rad"].get<double>(),
               e["reference_max_joint_error_rad"].get<double>(), e["max_ee_error_m"].get<double>(),
               e["reference_max_ee_error_m"].get<double>(), e["max_q_diff_rad"].get<double>(),
               e["gain_updates"].get<int>(), e["reference_gain_updates"].get<int>());
  }
  if (j.contains("accelerator")) {
    const nlohmann::json& a = j["accelerator"];
    fmt::print("  accelerator: {}: {} cycles (bound {}) + {} I/O, {:.2f} us at {:.1f} MHz (estimated) = {:.1f} kHz "
               "update rate{}\n",
               a["design"].get<std::string>(), a["cycles"].get<int>(), a["lower_bound_cycles"].get<int>(),
               a["io_cycles"].get<int>(), a["time_us"].get<double>(), a["clock_mhz"].get<double>(),
               a["update_rate_khz"].get<double>(),
               a["fits_control_period"].get<bool>() ? "" : " (slower than the control period!)");
  }
  fmt::print("  wrote {}\n", j["out"].get<std::string>());
}

void run(const Options& o) {
  const nlohmann::json j = neaccel::study::run_control_scenario(o.control);
  if (o.json)
    std::cout << j.dump(2) << "\n";
  else
    print_text(j);
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("control", "seed 004 trajectory control (feedforward + adaptive feedback)");
  cmd->add_option("--robot", opt->control.robot, "planar2, puma560, any robot spec or file (default planar2)");
  cmd->add_option("--scenario", opt->control.scenario,
                  "nominal, disturbance (7% torque) or model-error (7% lengths, 9% inertias)");
  cmd->add_option("--feedback", opt->control.feedback, "on (default) or off (feedforward only)");
  cmd->add_option("--format", opt->control.format, "feedforward arithmetic: double, fp32 or fixed:I.F (dataflow graph)");
  cmd->add_option("--lin-format", opt->control.lin_format,
                  "gain-update linearisation: double (ref) or fp32 / fixed:I.F (dtau and mass graphs)");
  cmd->add_option("--out", opt->control.out, "output directory (default out/control)");
  cmd->add_option("--seed", opt->control.seed, "seed of the disturbance signs (default 1)");
  cmd->add_flag("--json", opt->json, "print the summary as JSON");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace

NEACCEL_COMMAND(control, 60, setup)
