// `neaccel study`: placeholder until the study issue lands (robot -> verified accelerator -> report).
#include "command.hpp"

#include <cstdio>

namespace {
void setup(CLI::App& app) {
  auto* cmd = app.add_subcommand("study", "robot -> verified accelerator -> report (not yet available)");
  cmd->allow_extras();
  cmd->callback([] {
    std::fprintf(stderr, "neaccel: study is not yet available\n");
    throw neaccel::cli::ExitCode{2};
  });
}
}  // namespace

NEACCEL_COMMAND(study, 100, setup)
