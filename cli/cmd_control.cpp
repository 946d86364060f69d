// `neaccel control --robot R --scenario nominal|disturbance|model-error [--feedback on|off]
//                  [--format double|fp32|fixed:I.F] [--lin-format double|fp32|fixed:I.F] --out DIR [--json] [--seed N]`
// Seed 004's feedforward + adaptive least-squares feedback on a simulated arm (ref/control). Writes under DIR:
// control.csv (this run), control_ff.csv (feedforward only, for comparison, when feedback is on), path.svg,
// joints.svg, xy.svg (gnuplot) and summary.json; prints a summary (or the JSON with --json). docs/control.md.
#include "command.hpp"
#include "control_accel.hpp"

#include "neaccel/ref/control/scenario.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace {

namespace ctl = neaccel::ref::control;
using neaccel::Error;

struct Options {
  std::string robot = "planar2", scenario = "nominal", feedback = "on", format = "double", lin_format = "double", out = "out/control";
  bool json = false;
  std::uint64_t seed = 1;
};

// Largest distance of the desired end effector from the base origin: the scale of "position error in %".
double path_scale(const ctl::DesiredTrajectory& d) {
  double m = 0.0;
  for (const Eigen::Vector3d& p : d.ee) m = std::max(m, p.norm());
  return m;
}

void write_csv(const std::string& path, const ctl::ControlSetup& s, const ctl::ControlRun& r) {
  std::ofstream f(path);
  if (!f) throw Error("--out: cannot write " + path);
  const int n = s.model.dof();
  f << "t";
  for (int i = 1; i <= n; ++i) f << fmt::format(",q_des{0},q{0},qd_des{0},qd{0},tau_ff{0},u{0}", i);
  f << ",ee_des_x,ee_des_y,ee_des_z,ee_x,ee_y,ee_z,norm_x,action\n";
  for (std::size_t k = 0; k < r.t.size(); ++k) {
    f << fmt::format("{:.6f}", r.t[k]);
    for (int i = 0; i < n; ++i)
      f << fmt::format(",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g}", s.desired.q[k][i], r.q[k][i], s.desired.qd[k][i],
                       r.qd[k][i], r.tau_ff[k][i], r.u[k][i]);
    const Eigen::Vector3d& e = s.desired.ee[k];
    f << fmt::format(",{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{:.9g},{}\n", e.x(), e.y(), e.z(), r.ee[k].x(),
                     r.ee[k].y(), r.ee[k].z(), r.norm_x[k], r.action[k]);
  }
}

// gnuplot script for the three figures of seed 004 (Figs 3.1-3.3): end-effector path, joints, x/y against time.
std::string plot_script(int n, bool with_ff, const std::string& title) {
  const int ee = 1 + 6 * n;  // column of ee_des_x (1-based gnuplot columns: t is 1)
  const std::string ff = with_ff ? "'control_ff.csv'" : "";
  std::string s = "set datafile separator ','\nset key autotitle columnhead\nset grid\n";
  s += "set terminal svg size 640,560 dynamic font 'sans,11'\nset output 'path.svg'\n";
  s += fmt::format("set title 'End-effector path ({})'\nset xlabel 'x (m)'\nset ylabel 'y (m)'\nset size ratio -1\n", title);
  s += fmt::format("plot 'control.csv' using {0}:{1} with lines lw 2 title 'desired', 'control.csv' using {2}:{3} "
                   "with lines title 'actual'",
                   ee + 1, ee + 2, ee + 4, ee + 5);
  if (with_ff) s += fmt::format(", {} using {}:{} with lines dt 2 title 'feedforward only'", ff, ee + 4, ee + 5);
  s += "\nset size noratio\nunset title\n";
  s += fmt::format("set terminal svg size 720,{} dynamic font 'sans,10'\nset output 'joints.svg'\n", 220 * n);
  s += fmt::format("set multiplot layout {},1 title 'Joint trajectories ({})'\nset xlabel 't (s)'\n", n, title);
  for (int i = 0; i < n; ++i) {
    const int c = 2 + 6 * i;
    s += fmt::format("set ylabel 'q{} (rad or m)'\nplot 'control.csv' using 1:{} with lines lw 2 title 'desired', "
                     "'control.csv' using 1:{} with lines title 'actual'",
                     i + 1, c, c + 1);
    if (with_ff) s += fmt::format(", {} using 1:{} with lines dt 2 title 'feedforward only'", ff, c + 1);
    s += "\n";
  }
  s += "unset multiplot\nset terminal svg size 720,480 dynamic font 'sans,10'\nset output 'xy.svg'\n";
  s += fmt::format("set multiplot layout 2,1 title 'End-effector x and y against time ({})'\n", title);
  for (int a = 0; a < 2; ++a) {
    s += fmt::format("set ylabel '{} (m)'\nplot 'control.csv' using 1:{} with lines lw 2 title 'desired', "
                     "'control.csv' using 1:{} with lines title 'actual'",
                     a == 0 ? "x" : "y", ee + a, ee + 3 + a);
    if (with_ff) s += fmt::format(", {} using 1:{} with lines dt 2 title 'feedforward only'", ff, ee + 3 + a);
    s += "\n";
  }
  return s + "unset multiplot\n";
}

// Runs gnuplot in `dir`; returns false (plots skipped) when gnuplot is missing or fails.
bool run_gnuplot(const std::filesystem::path& dir, const std::string& script) {
  const std::filesystem::path gp = dir / "plots.gp";
  std::ofstream(gp) << script;
  const std::string cmd = "cd '" + dir.string() + "' && gnuplot plots.gp > /dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

nlohmann::json run_json(const ctl::ControlRun& r, double scale) {
  return {{"max_joint_error_rad", r.max_joint_error},
          {"max_ee_error_m", r.max_ee_error},
          {"max_ee_error_percent", 100.0 * r.max_ee_error / scale},
          {"gain_updates", r.updates},
          {"feedback_skips", r.skips},
          {"aborted", r.aborted},
          {"abort_time_s", r.abort_time},
          {"max_closed_loop_spectral_radius", r.max_rho}};
}

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
  if (o.feedback != "on" && o.feedback != "off") throw Error("--feedback: expected on or off, got '" + o.feedback + "'");
  const ctl::Scenario scenario = ctl::parse_scenario(o.scenario);
  const neaccel::ref::Robot robot = neaccel::ref::load_robot(o.robot);
  ctl::ScenarioOptions so;
  so.seed = o.seed;
  ctl::ControlSetup setup = ctl::make_setup(robot, scenario, o.feedback == "on", so);
  setup.feedforward = neaccel::cli::format_feedforward(setup.model, o.format);  // throws on a bad --format
  setup.linearize = neaccel::cli::format_linearize(setup.model, o.lin_format);  // throws on a bad --lin-format
  const std::filesystem::path dir(o.out);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw Error("--out: cannot create directory " + o.out + ": " + ec.message());
  const ctl::ControlRun r = ctl::run_control(setup);
  write_csv((dir / "control.csv").string(), setup, r);
  const double scale = path_scale(setup.desired);
  nlohmann::json j{{"robot", robot.name},     {"scenario", o.scenario}, {"feedback", o.feedback},
                   {"format", o.format},      {"seed", o.seed},         {"period_s", setup.desired.T},
                   {"samples", static_cast<int>(setup.desired.t.size())}, {"path_scale_m", scale},
                   {"run", run_json(r, scale)}, {"out", o.out}};
  const bool with_ff = setup.feedback;
  if (with_ff) {
    ctl::ControlSetup ff = setup;
    ff.feedback = false;
    const ctl::ControlRun rf = ctl::run_control(ff);
    write_csv((dir / "control_ff.csv").string(), ff, rf);
    j["feedforward_only"] = run_json(rf, scale);
  }
  if (o.format != "double") {
    ctl::ControlSetup ref = setup;
    ref.feedforward = nullptr;
    const ctl::ControlRun rd = ctl::run_control(ref);
    j["format_effect"] = neaccel::cli::format_effect(r, rd);
    j["accelerator"] = neaccel::cli::accelerator_timing(setup.model, o.format, setup.desired.T);
  }
  j["lin_format"] = o.lin_format;
  if (o.lin_format != "double" && setup.feedback) {
    ctl::ControlSetup ref = setup;
    ref.linearize = nullptr;
    const ctl::ControlRun rd = ctl::run_control(ref);
    j["linearisation_effect"] = neaccel::cli::format_effect(r, rd);
    j["linearisation_effect"]["reference_gain_updates"] = rd.updates;
    j["linearisation_effect"]["gain_updates"] = r.updates;
  }
  const std::string title = fmt::format("{}, {}, feedback {}", robot.name, o.scenario, o.feedback);
  j["plots"] = run_gnuplot(dir, plot_script(robot.dof(), with_ff, title))
                   ? nlohmann::json{"path.svg", "joints.svg", "xy.svg"}
                   : nlohmann::json::array();
  std::ofstream(dir / "summary.json") << j.dump(2) << "\n";
  if (o.json)
    std::cout << j.dump(2) << "\n";
  else
    print_text(j);
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("control", "seed 004 trajectory control (feedforward + adaptive feedback)");
  cmd->add_option("--robot", opt->robot, "planar2, puma560, any robot spec or file (default planar2)");
  cmd->add_option("--scenario", opt->scenario, "nominal, disturbance (7% torque) or model-error (7% lengths, 9% "
                                               "inertias)");
  cmd->add_option("--feedback", opt->feedback, "on (default) or off (feedforward only)");
  cmd->add_option("--format", opt->format, "feedforward arithmetic: double, fp32 or fixed:I.F (dataflow graph)");
  cmd->add_option("--lin-format", opt->lin_format,
                  "gain-update linearisation: double (ref) or fp32 / fixed:I.F (dtau and mass graphs)");
  cmd->add_option("--out", opt->out, "output directory (default out/control)");
  cmd->add_option("--seed", opt->seed, "seed of the disturbance signs (default 1)");
  cmd->add_flag("--json", opt->json, "print the summary as JSON");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace

NEACCEL_COMMAND(control, 60, setup)
