// `neaccel`: the command-line front end. Subcommands live in cli/cmd_*.cpp (see command.hpp); the checks every
// option gets, and the usage errors, are validate.hpp's. Exit status (docs/user-guide.md, "Exit codes"): 0 success,
// 1 bad input data or a failed step, 2 a usage error on the command line, 3 a verification mismatch; every failure
// prints exactly one `neaccel: error: ...` line on stderr.
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <ios>
#include <new>
#include <string>

#ifndef NEACCEL_VERSION
#define NEACCEL_VERSION "unknown"
#endif

namespace neaccel::cli {
std::vector<Entry>& registry() {
  static std::vector<Entry> entries;
  return entries;
}
}  // namespace neaccel::cli

namespace {

// The command word of the line: the first argument that is neither an option of the top level nor its value
// (--base and --tip take one), or "" when there is none.
std::string command_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--base" || a == "--tip") {
      ++i;
      continue;
    }
    if (!a.empty() && a[0] == '-') continue;
    return a;
  }
  return "";
}

// One line for anything that is not a neaccel::Error: it names the command that failed, never only the library's
// own words ("stoul", "std::bad_alloc").
std::string describe(const std::string& command, const std::exception& e) {
  const std::string where = command.empty() ? std::string("neaccel") : "neaccel " + command;
  if (dynamic_cast<const std::bad_alloc*>(&e))
    return fmt::format("out of memory while running '{}' (the input or an option asks for more memory than there is)",
                       where);
  if (dynamic_cast<const std::ios_base::failure*>(&e))
    return fmt::format("'{}': a file could not be read ({})", where, e.what());
  if (dynamic_cast<const std::invalid_argument*>(&e) || dynamic_cast<const std::out_of_range*>(&e))
    return fmt::format("'{}': a value could not be read as a number ({})", where, e.what());
  return fmt::format("'{}' failed: {}", where, e.what());
}

// "--name: ..." or "--a/--b: ...", also after the command's own name ("dfg: --emit: ..."): the message starts with
// the option it is about.
bool names_option(const char* what) {
  const char* p = what;
  while ((*p >= 'a' && *p <= 'z') || *p == '-') ++p;  // a command word, "dfg" or "campaign-task"
  if (p != what && p[0] == ':' && p[1] == ' ' && p[2] == '-') what = p + 2;
  return std::strncmp(what, "--", 2) == 0 && what[2] >= 'a' && what[2] <= 'z';
}

// `neaccel --list-options` (hidden): every command and every option it registers, as JSON on stdout, read from the
// CLI11 app itself so that nothing registered can be missing from it. tests/hostile/hostile.py compares it with its
// table: an option neither given hostile values nor exempted there with a reason fails the harness. One entry per
// command path ("" for the top level, "robot show" for a nested command); per option its names ("--out", "-h";
// a positional is "@" and its name, e.g. "@robot"), whether it is a flag (takes no value), a positional or a value,
// CLI11's type name, whether it is hidden (no group, so --help leaves it out) and its help text.
void list_commands(const CLI::App& app, const std::string& path, nlohmann::json& out) {
  nlohmann::json options = nlohmann::json::array();
  for (const CLI::Option* opt : app.get_options()) {
    nlohmann::json names = nlohmann::json::array();
    for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
    for (const auto& s : opt->get_snames()) names.push_back("-" + s);
    const bool positional = !opt->nonpositional();
    if (positional) names.push_back("@" + opt->get_single_name());
    options.push_back({{"names", names},
                       {"kind", positional ? "positional" : (opt->get_expected_max() == 0 ? "flag" : "value")},
                       {"type", opt->get_type_name()},
                       {"hidden", opt->get_group().empty()},
                       {"help", opt->get_description()}});
  }
  nlohmann::json subs = nlohmann::json::array();
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    subs.push_back(path.empty() ? sub->get_name() : path + " " + sub->get_name());
  out.push_back({{"command", path}, {"options", options}, {"subcommands", subs}});
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    list_commands(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace neaccel::cli;
  CLI::App app{"neaccel: design study of Newton-Euler dynamics accelerators", "neaccel"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", std::string("neaccel ") + NEACCEL_VERSION);
  // URDF import options for every command that loads a robot (docs/robot-format.md, "URDF import"); accepted before
  // or after the subcommand. Applied as they are parsed, so they are in force when the command runs.
  app.fallthrough();
  neaccel::ref::UrdfOptions urdf;
  const auto apply = [&urdf] { neaccel::ref::set_urdf_options(urdf); };
  app.add_flag_callback("--strict-inertia", [&] { urdf.strict_inertia = true; apply(); },
                        "URDF: inertia warnings (noise-level negative moments, triangle inequality) become errors")
      ->trigger_on_parse();
  app.add_flag_callback("--urdf-verbatim", [&] { urdf.verbatim = true; apply(); },
                        "URDF: keep the file's values (no snapping of near multiples of pi/2 and near zeros)")
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
  add_common_checks(app);  // every option of every command: no empty value, plain decimal integers, finite numbers
  app.add_flag_callback(
         "--list-options",
         [&app] {
           nlohmann::json all = nlohmann::json::array();
           list_commands(app, "", all);
           std::printf("%s\n", all.dump(1).c_str());
           throw CLI::Success();
         },
         "every command and option as JSON (for tests/hostile/hostile.py)")
      ->group("")  // hidden: a tool for the tests, not for users
      ->trigger_on_parse();
  // "--opt=" is an option given an empty value: CLI11 would take the next argument as its value instead, so it is
  // passed on as "--opt" "" and refused by the common checks ("--opt: empty value").
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.back() == '=' && a.find('=') == a.size() - 1) {
      args.push_back(a.substr(0, a.size() - 1));
      args.emplace_back();
    } else {
      args.push_back(a);
    }
  }
  const std::string command = command_word(argc, argv);
  try {
    std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
    app.parse(args);
    if (app.get_subcommands().empty()) throw CLI::RequiredError("a command");
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // Usage errors are one line too: the unknown command word, or the command and CLI11's words on its options.
    const auto known = app.get_subcommands([&](CLI::App* s) { return s->get_name() == command; });
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    if (!command.empty() && known.empty())
      std::fprintf(stderr, "neaccel: error: unknown command '%s' (neaccel --help lists them)\n", command.c_str());
    else if (command.empty())
      std::fprintf(stderr, "neaccel: error: %s (see neaccel --help)\n", what.c_str());
    else if (!what.empty() && what[0] == '-')  // CLI11's words already name the option: "--mul: 0 is out of range (1..4096)"
      std::fprintf(stderr, "neaccel: error: %s\n", what.c_str());
    else
      std::fprintf(stderr, "neaccel: error: %s: %s (see neaccel %s --help)\n", command.c_str(), what.c_str(),
                   command.c_str());
    return 2;
  } catch (const ExitCode& e) {
    return e.code;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "neaccel: error: %s\n", e.what());
    return 2;
  } catch (const neaccel::Error& e) {
    // An error that begins with an option's name ("--form: unknown form 'x'") is about the command line, wherever it
    // was found (the libraries check the names and values they are given): a usage error, as the same mistake caught
    // by the option checks above, so one mistake has one exit code on every command.
    std::fprintf(stderr, "neaccel: error: %s\n", e.what());
    return names_option(e.what()) ? 2 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "neaccel: error: %s\n", describe(command, e).c_str());
    return 1;
  }
  return 0;
}
