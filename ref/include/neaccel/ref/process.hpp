// Running an external tool (Verilator, Yosys, nextpnr, gnuplot, a compiler, Slurm) with its arguments as a vector and
// no shell in between: a path with spaces, quotes or "$(...)" in it is one argument, never a command. Every call
// site of neaccel that starts another program goes through here (docs/limits.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace neaccel::proc {

// One program run. Standard streams default to /dev/null for input and output, so a tool's chatter never reaches a
// user's terminal unless asked for.
struct Spawn {
  std::vector<std::string> argv;        // argv[0] is looked up on PATH (and the project's tool folder, find_program)
  std::filesystem::path cwd;            // empty: the caller's working directory
  // The paths below are the caller's: relative ones are taken from the caller's working directory, not from cwd.
  std::filesystem::path stdin_path;     // empty: /dev/null
  std::filesystem::path stdout_path;    // empty: /dev/null (unless inherit_stdout)
  std::filesystem::path stderr_path;    // empty: /dev/null (unless inherit_stderr); may equal stdout_path
  bool inherit_stdout = false;
  bool inherit_stderr = false;
  bool append = false;                  // append to stdout_path / stderr_path instead of truncating
  bool capture_stdout = false;          // collect standard output into Result::out (stdout_path is then ignored)
  double timeout_s = 0;                 // 0: no limit; else the process group is killed after this many seconds
  std::vector<std::pair<std::string, std::string>> env;  // extra environment variables (name, value)
};

struct Result {
  int exit_code = -1;      // the program's exit status when it exited
  int signal = 0;          // the signal that ended it, 0 when it exited
  bool timed_out = false;  // killed at Spawn::timeout_s
  bool not_found = false;  // the program could not be started (not on PATH, not executable)
  std::string out;         // standard output when Spawn::capture_stdout
  bool ok() const { return !not_found && !timed_out && signal == 0 && exit_code == 0; }
};

// Runs the program and waits for it. Throws neaccel::Error only when the process cannot be created at all (fork or
// pipe failure); a program that is missing comes back as Result::not_found.
Result run(const Spawn& s);

// Shorthand: run argv with stdout and stderr to /dev/null; true when it exited 0.
bool run_quiet(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {});

// The executable `name` resolves to: PATH first, then the project's tool folder (the virtual environment that
// `./run setup` creates: $NEACCEL_VENV/bin, else <source>/.venv/bin), which holds the PyPI tools (YoWASP's Yosys and
// nextpnr-ecp5). A name with a '/' is taken as a path. Empty when it is nowhere.
std::optional<std::filesystem::path> find_program(const std::string& name);

// The project's virtual environment folder (may not exist).
std::filesystem::path venv_dir();

// One line for a tool that is missing: "NAME not found (install it with ./run setup)".
std::string missing_tool(const std::string& name);

// A command line for messages and logs only (never executed): each argument quoted when it needs it.
std::string describe(const std::vector<std::string>& argv);

}  // namespace neaccel::proc
