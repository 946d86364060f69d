// fork + execv with the arguments as given: no /bin/sh, so no word splitting, globbing or command substitution.
#include "neaccel/ref/process.hpp"

#include "neaccel/ref/error.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace neaccel::proc {

namespace {

bool executable(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

// In the child only: open `path` onto descriptor `fd`; _exit(127) on failure (the parent sees "exit 127").
void redirect(int fd, const fs::path& path, int flags) {
  const int f = ::open(path.empty() ? "/dev/null" : path.c_str(), flags, 0644);
  if (f < 0) ::_exit(127);
  if (f != fd) {
    ::dup2(f, fd);
    ::close(f);
  }
}

}  // namespace

fs::path venv_dir() {
  if (const char* v = std::getenv("NEACCEL_VENV"); v && *v) return v;
#ifdef NEACCEL_SOURCE_DIR
  return fs::path(NEACCEL_SOURCE_DIR) / ".venv";
#else
  return {};
#endif
}

std::optional<fs::path> find_program(const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (executable(name)) return fs::path(name);
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = dirs.find(':', start);
    const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty() && executable(fs::path(dir) / name)) return fs::path(dir) / name;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  const fs::path venv = venv_dir();
  if (!venv.empty() && executable(venv / "bin" / name)) return venv / "bin" / name;
  return std::nullopt;
}

std::string missing_tool(const std::string& name) { return name + " not found (install it with ./run setup)"; }

std::string describe(const std::vector<std::string>& argv) {
  std::string s;
  for (const auto& a : argv) {
    if (!s.empty()) s += ' ';
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                         "-_./=:,+@%") == std::string::npos;
    if (plain) {
      s += a;
      continue;
    }
    s += '\'';
    for (char c : a) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
    s += '\'';
  }
  return s;
}

Result run(const Spawn& s) {
  Result r;
  if (s.argv.empty()) throw Error("process: empty argument list");
  const auto exe = find_program(s.argv[0]);
  if (!exe) {
    r.not_found = true;
    return r;
  }
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : s.env) env_strings.push_back(k + "=" + v);
  std::vector<char*> argv;
  for (const auto& a : s.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const std::string exe_path = fs::absolute(*exe).string();
  // Redirection paths are the caller's (relative to its working directory, not to Spawn::cwd, which the child
  // enters first).
  auto caller_path = [](const fs::path& p) { return p.empty() ? p : fs::absolute(p); };
  const fs::path in_path = caller_path(s.stdin_path), out_path = caller_path(s.stdout_path),
                 err_path = caller_path(s.stderr_path);

  int out_pipe[2] = {-1, -1};
  if (s.capture_stdout && ::pipe2(out_pipe, O_CLOEXEC) != 0) throw Error(std::string("process: pipe: ") + std::strerror(errno));
  const int out_flags = O_WRONLY | O_CREAT | O_CLOEXEC | (s.append ? O_APPEND : O_TRUNC);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("process: fork: ") + std::strerror(errno));
  if (pid == 0) {
    if (s.timeout_s > 0) ::setpgid(0, 0);
    if (!s.cwd.empty() && ::chdir(s.cwd.c_str()) != 0) ::_exit(127);
    redirect(0, in_path, O_RDONLY | O_CLOEXEC);
    if (s.capture_stdout) {
      ::dup2(out_pipe[1], 1);
    } else if (!s.inherit_stdout) {
      redirect(1, out_path, out_flags);
    }
    if (!s.inherit_stderr) {
      if (!err_path.empty() && err_path == out_path && !s.capture_stdout)
        ::dup2(1, 2);
      else
        redirect(2, err_path, out_flags);
    }
    for (const auto& e : env_strings) ::putenv(const_cast<char*>(e.c_str()));
    ::execv(exe_path.c_str(), argv.data());
    ::_exit(127);
  }
  const auto t0 = std::chrono::steady_clock::now();
  auto remaining_ms = [&]() -> int {
    if (s.timeout_s <= 0) return -1;
    const double left = s.timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return left <= 0 ? 0 : static_cast<int>(left * 1000) + 1;
  };
  auto kill_it = [&] {
    r.timed_out = true;
    ::kill(-pid, SIGKILL);
    ::kill(pid, SIGKILL);
  };
  if (s.capture_stdout) {
    ::close(out_pipe[1]);
    char buf[65536];
    for (;;) {
      pollfd p{out_pipe[0], POLLIN, 0};
      const int ms = remaining_ms();
      if (ms == 0) {
        kill_it();
        break;
      }
      const int n = ::poll(&p, 1, ms);
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) {
        kill_it();
        break;
      }
      const ssize_t got = ::read(out_pipe[0], buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;
      r.out.append(buf, static_cast<std::size_t>(got));
    }
    ::close(out_pipe[0]);
  }
  int status = 0;
  for (;;) {
    const pid_t w = ::waitpid(pid, &status, s.timeout_s > 0 && !r.timed_out ? WNOHANG : 0);
    if (w == pid) break;
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw Error(std::string("process: waitpid: ") + std::strerror(errno));
    if (remaining_ms() == 0) kill_it();
    else std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

bool run_quiet(const std::vector<std::string>& argv, const fs::path& cwd) {
  Spawn s;
  s.argv = argv;
  s.cwd = cwd;
  return run(s).ok();
}

}  // namespace neaccel::proc
