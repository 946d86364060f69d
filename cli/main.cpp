// `neaccel`: the command-line front end. Subcommands live in cli/cmd_*.cpp (see command.hpp).
#include "command.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

namespace neaccel::cli {
std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}
}  // namespace neaccel::cli

int main(int argc, char** argv) {
  using namespace neaccel::cli;
  CLI::App app{"neaccel: design study of Newton-Euler dynamics accelerators"};
  app.require_subcommand(1);
  // URDF import options for every command that loads a robot (docs/robot-format.md, "URDF import"); accepted before
  // or after the subcommand. Applied as they are parsed, so they are in force when the command runs.
  app.fallthrough();
  neaccel::ref::UrdfOptions urdf;
  const auto apply = [&urdf] { neaccel::ref::set_urdf_options(urdf); };
  app.add_flag_callback("--strict-inertia", [&] { urdf.strict_inertia = true; apply(); },
                        "URDF: inertia warnings (noise-level negative moments, triangle inequality) become errors")
      ->trigger_on_parse();
  app.add_option_function<std::string>("--base", [&](const std::string& v) { urdf.base = v; apply(); },
                                       "URDF: the link that becomes the fixed base (cuts off what is above it)")
      ->trigger_on_parse();
  app.add_option_function<std::string>("--tip", [&](const std::string& v) { urdf.tip = v; apply(); },
                                       "URDF: the last link of the chain base -> tip (other branches dropped)")
      ->trigger_on_parse();
  auto entries = registry();
  std::sort(entries.begin(), entries.end(),
            [](const Entry& x, const Entry& y) { return x.order != y.order ? x.order < y.order : x.name < y.name; });
  for (const auto& e : entries) e.setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // Usage errors are one line too, naming the command when it is the unknown word.
    if (argc > 1 && argv[1][0] != '-' &&
        std::none_of(entries.begin(), entries.end(), [&](const Entry& x) { return x.name == argv[1]; }))
      std::fprintf(stderr, "neaccel: error: unknown command '%s' (neaccel --help lists them)\n", argv[1]);
    else
      std::fprintf(stderr, "neaccel: error: %s (see --help)\n", e.what());
    return 2;
  } catch (const ExitCode& e) {
    return e.code;
  } catch (const neaccel::Error& e) {
    std::fprintf(stderr, "neaccel: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "neaccel: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
