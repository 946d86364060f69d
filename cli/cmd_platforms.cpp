// `neaccel platforms --robot R --function F --out DIR`: the robot's customised graph as generated kernels for this
// machine's CPU (one state on one core, batched on one core and on all cores) and, where one is present, its GPU,
// measured side by side (dfg/platforms.hpp, docs/platforms.md). JSON in DIR/platforms.json, a plot of states/s
// against batch size in DIR/platforms.svg, a table on stdout.
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/platforms.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace {

using namespace neaccel;

struct Options {
  dfg::PlatformOptions p;
  std::string batches = "1,10,100,1000,10000,100000,1000000";
  std::string scalars = "double,float";
  bool json = false, quiet = false;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

void setup(CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("platforms", "the robot's graph as generated CPU (one core, batched) and GPU kernels, "
                                              "measured on this machine (docs/platforms.md)");
  cmd->add_option("--robot", o->p.robot, "built-in name, random:N:SEED or a .yaml/.urdf file")->capture_default_str();
  cmd->add_option("--function", o->p.function, "id | fd | fd-khalil | fd-strobe | mass | dtau (docs/functions.md)")
      ->capture_default_str();
  cmd->add_option("--out", o->p.out, "output directory (kernels/, platforms.json)")->capture_default_str();
  cmd->add_option("--batch", o->batches, "comma list of batch sizes (states per call, >= 1)")->capture_default_str();
  cmd->add_option("--scalar", o->scalars, "comma list: double, float")->capture_default_str();
  cmd->add_option("--repeats", o->p.repeats, "timed runs per point (the fastest is kept)")
      ->check(cli::int_in(1, 1000))
      ->capture_default_str();
  cmd->add_option("--target-ms", o->p.target_ms, "each timed run lasts at least this long (ms)")
      ->check(cli::real_in(0.01, 10000))
      ->capture_default_str();
  cmd->add_flag_callback("--no-pinocchio", [o] { o->p.pinocchio = false; },
                "skip the Pinocchio row (its benchmark takes minutes to build the first time)");
  cmd->add_flag("--json", o->json, "print platforms.json instead of the table");
  cmd->add_flag("--quiet", o->quiet, "no progress lines on stderr");
  cmd->callback([o] {
    o->p.batches.clear();
    for (const std::string& b : split(o->batches))
      o->p.batches.push_back(cli::parse_int(b, "--batch", 1, 1000000000000LL));
    if (o->p.batches.empty()) throw cli::UsageError("--batch: no batch size");
    cli::as_usage([&] { return dfg::function_from_name(o->p.function); });
    o->p.scalars = split(o->scalars);
    for (const std::string& s : o->p.scalars)
      if (s != "double" && s != "float") throw cli::UsageError("--scalar: unknown '" + s + "' (double, float)");
    if (!o->quiet) o->p.progress = [](const std::string& s) { std::fprintf(stderr, "platforms: %s\n", s.c_str()); };
    const nlohmann::json r = dfg::measure_platforms(o->p);
    if (o->json)
      std::cout << r.dump(1) << "\n";
    else
      std::cout << dfg::platforms_table(r) << "results: " << (o->p.out / "platforms.json").string()
                << "\nplot: " << (o->p.out / "platforms.svg").string() << "\n";
  });
}

}  // namespace

NEACCEL_COMMAND(platforms, 45, setup)
