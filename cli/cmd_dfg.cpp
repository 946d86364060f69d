// `neaccel dfg`: trace a robot's inverse dynamics (or import a graph), run passes, print counts, emit files.
//   neaccel dfg --robot puma560 --custom --emit json --emit dot --emit cpp --out out/
//   neaccel dfg --graph kernel.dot --json
// The report (tracing, passes, depth pass, accuracy, emitted files) is dfg's (neaccel/dfg/graph_report.hpp).
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/dfg/graph_report.hpp"
#include "neaccel/num/format_spec.hpp"

#include <iostream>
#include <cstdlib>
#include <memory>

namespace {

using namespace neaccel;

struct Args {
  dfg::GraphRequest request;
  bool json = false;
};

void run(const Args& a) {
  const dfg::GraphReport report = dfg::graph_report(a.request);
  if (a.json) {
    std::cout << report.json.dump(1) << "\n";
    return;
  }
  std::cout << dfg::graph_report_text(report);
}

void setup(CLI::App& app) {
  auto args = std::make_shared<Args>();
  dfg::GraphRequest& r = args->request;
  auto* cmd = app.add_subcommand("dfg", "trace the dynamics into a dataflow graph, run passes, count, export");
  cmd->add_option("--robot", r.robot, "robot: built-in name, random:N:SEED, or a .yaml/.urdf file");
  cmd->add_option("--graph", r.graph_file, "import a graph instead (.json or .dot)");
  cmd->add_option("--function", r.function, "id | fd | fd-khalil | fd-strobe | mass | dtau (docs/functions.md)")
      ->capture_default_str();
  cmd->add_option("--form", r.form, "modified-ne | ne | khalil | khalil-k | khalil-mix")->capture_default_str();
  cmd->add_flag("--general", r.general, "robot parameters are run-time inputs");
  cmd->add_flag("--custom", r.custom, "robot parameters are constants (default)");
  cmd->add_flag("--base-params", r.base, "trace in the base inertial parameters (customised)");
  cmd->add_option("--passes", r.passes, "pass pipeline, e.g. fold,cse,dce (none = untouched)")->capture_default_str();
  cmd->add_option("--depth", r.depth, "depth-reducing re-association after the passes: on | off | lookahead[:K] (the recursion by lookahead over K links, kept when shorter; K = 2, 3 when not given)")->capture_default_str();
  cmd->add_option("--lat-mul", r.lat_mul, "multiplier latency the depth pass shapes for")
      ->check(cli::int_in(1, cli::kMaxLatency))->capture_default_str();
  cmd->add_option("--lat-add", r.lat_add, "adder latency the depth pass shapes for")
      ->check(cli::int_in(1, cli::kMaxLatency))->capture_default_str();
  cmd->add_option("--emit", r.emit, "write json, dot and/or cpp (repeatable)");
  cmd->add_option("--out", r.out, "output directory")->capture_default_str();
  cmd->add_option("--accuracy", r.samples, "random states for the float/fixed accuracy report (0 = none)")
      ->check(cli::int_in(0, 1000000));
  // The format names through num's one parser, so a refused name is a usage error before any tracing.
  cmd->add_option("--fixed", r.fixed, "fixed-point formats for --accuracy, e.g. fixed:12.20 (repeatable)")
      ->check(CLI::Validator(
          [](std::string& s) {
            try {
              num::parse_fixed_spec(s, "format", num::FixedPrefix::Optional);
              return std::string();
            } catch (const Error& e) {
              return std::string(e.what()).substr(8);  // after "format: ": CLI11 puts "--fixed: " in front
            }
          },
          ""));
  cmd->add_option("--near", r.near, "forward functions: near-singular states per kind for --accuracy (zero, wrist, worst-cond; 0 = none)");
  cmd->add_option("--target", r.target, "forward functions: find the smallest fixed format with max rel error <= this")
      ->check(CLI::Validator([](std::string& v) {  // a relative error > 0: no finite format reaches 0
        const double x = std::strtod(v.c_str(), nullptr);
        return x > 0 ? std::string() : fmt::format("{} (need a relative error > 0)", v);
      }, ""));
  cmd->add_flag("--json", args->json, "machine-readable output");
  cmd->callback([args] { run(*args); });
}

}  // namespace

NEACCEL_COMMAND(dfg, 30, setup)
