// The campaign's plan and its execution: the task lists on the filesystem (neaccel/study/campaign.hpp has the
// layout), the resumable task runner, a --local run with N workers and a --slurm run that submits one job array per
// stage (sbatch --parsable --array --dependency=afterok) and follows the jobs with squeue.
#include "campaign_internal.hpp"

#include "neaccel/study/campaign.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string_view>
#include <thread>

namespace fs = std::filesystem;
using nlohmann::json;

namespace neaccel::study {
namespace {

const std::vector<std::string> kStages = {"explore", "merge", "design", "report"};

std::string quote(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:,=+-%@") ==
                        std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string join(const std::vector<std::string>& words) {
  std::string s;
  for (const auto& w : words) s += (s.empty() ? "" : " ") + quote(w);
  return s;
}

// The inverse of join: a task line back into its arguments. Only what quote() writes is read (plain words of its safe
// characters, '...' with '\'' for a quote inside); anything else is refused, so a task line is never shell code.
std::vector<std::string> split_words(const std::string& line, const std::string& where) {
  std::vector<std::string> words;
  std::string w;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ') {
      if (in_word) words.push_back(w);
      w.clear();
      in_word = false;
    } else if (c == '\'') {
      const std::size_t end = line.find('\'', i + 1);
      if (end == std::string::npos) throw Error(where + ": unterminated quote");
      w += line.substr(i + 1, end - i - 1);
      i = end;
      in_word = true;
    } else if (c == '\\' && i + 1 < line.size() && line[i + 1] == '\'') {
      w += '\'';
      ++i;
      in_word = true;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./:,=+-%@").find(c) != std::string_view::npos) {
      w += c;
      in_word = true;
    } else {
      throw Error(fmt::format("{}: '{}' outside quotes (not a command line neaccel writes)", where, c));
    }
  }
  if (in_word) words.push_back(w);
  if (words.empty()) throw Error(where + ": empty command line");
  return words;
}

// While tasks run, Ctrl-C (SIGINT) and SIGQUIT reach them (the same process group) and this process only notes
// them, as system(3) does: the task's exit status then says it was interrupted, and the runner says so and stops. A
// handler, not SIG_IGN: exec puts a handled signal back to its default in the task, an ignored one would stay
// ignored. A signal this process already ignores (started in the background) stays ignored.
class HoldInterrupts {
 public:
  HoldInterrupts() {
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int k = 0; k < 2; ++k) {
      struct sigaction& old = old_[k];
      sigaction(kSignals[k], nullptr, &old);
      held_[k] = old.sa_handler != SIG_IGN;
      if (held_[k]) sigaction(kSignals[k], &sa, nullptr);
    }
  }
  ~HoldInterrupts() {
    for (int k = 0; k < 2; ++k)
      if (held_[k]) sigaction(kSignals[k], &old_[k], nullptr);
  }
  HoldInterrupts(const HoldInterrupts&) = delete;
  HoldInterrupts& operator=(const HoldInterrupts&) = delete;

 private:
  static constexpr int kSignals[2] = {SIGINT, SIGQUIT};
  struct sigaction old_[2] {};
  bool held_[2] = {false, false};
};

std::vector<std::string> read_lines(const fs::path& p) {
  std::vector<std::string> v;
  check_file_size(p.string());
  std::ifstream in(p);
  if (!in) throw Error(p.string() + ": cannot read (plan the campaign first: neaccel campaign FILE --out DIR ...)");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) v.push_back(line);
  return v;
}

// How many values a validated range ("1-4,8") holds.
int count_values(const std::string& text) {
  int n = 0;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, ',');) {
    int a = 0, b = 0;
    char dash = 0;
    std::istringstream in(part);
    in >> a;
    b = a;
    if (in >> dash) in >> b;
    n += b - a + 1;
  }
  return n;
}

struct Stage {
  std::string name;
  std::vector<std::string> commands;  // `neaccel ...` command lines
  std::vector<fs::path> dirs;         // each task's own output directory
};

// The task lists of a campaign: explore shards -> merge -> one task per design slot -> report.
std::vector<Stage> plan_stages(const CampaignSpec& s, const fs::path& dir, int shard_jobs) {
  std::vector<Stage> st(4);
  std::string robots;
  for (const auto& r : s.robots) robots += (robots.empty() ? "" : ",") + r.spec;
  std::string flavours;
  for (const auto& f : s.flavours) flavours += (flavours.empty() ? "" : ",") + f;
  st[0].name = "explore";
  // At most one shard per point: an empty shard would write no CSV for the merge.
  const long points = static_cast<long>(s.robots.size() * s.flavours.size()) * count_values(s.mul) * count_values(s.add) *
                      count_values(s.lat_mul) * count_values(s.lat_add) * count_values(s.pipelined);
  const int shards = static_cast<int>(std::min<long>(s.shards, points));
  // The sweep is ranked on the microcoded datapath's figures (campaign_report.cpp: estimate re-costs each chosen
  // slot in its own architecture); the shards need not bind the hardwired datapath of every point.
  std::vector<std::string> merge = {"neaccel", "explore", "--no-plot", "--arch", "microcoded", "--target", s.target, "--out",
                                    (dir / "explore" / "merged").string(), "--merge"};
  for (int k = 1; k <= shards; ++k) {
    const fs::path d = dir / "explore" / fmt::format("shard-{}", k);
    st[0].commands.push_back(join({"neaccel", "explore", "--robot", robots, "--flavour", flavours, "--mul", s.mul, "--add", s.add,
                                   "--lat-mul", s.lat_mul, "--lat-add", s.lat_add, "--pipelined", s.pipelined,
                                   "--restarts", std::to_string(s.restarts), "--jobs", std::to_string(shard_jobs),
                                   "--arch", "microcoded", "--no-plot", "--shard", fmt::format("{}/{}", k, shards),
                                   "--out", d.string()}));
    st[0].dirs.push_back(d);
    merge.push_back((d / fmt::format("explore-{}-of-{}.csv", k, shards)).string());
  }
  st[1].name = "merge";
  st[1].commands.push_back(join(merge));
  st[1].dirs.push_back(dir / "explore" / "merged");
  st[2].name = "design";
  const std::size_t n = campaign_slots(s).size();
  for (std::size_t k = 0; k < n; ++k) {
    st[2].commands.push_back(join({"neaccel", "campaign-task", "design", dir.string(), std::to_string(k)}));
    st[2].dirs.push_back(dir / "designs" / fmt::format("{:03d}", k));
  }
  st[3].name = "report";
  st[3].commands.push_back(join({"neaccel", "campaign-task", "report", dir.string()}));
  st[3].dirs.push_back(dir / "report");
  return st;
}

void write_stages(const fs::path& dir, const std::vector<Stage>& st) {
  fs::create_directories(dir / "stages");
  for (const auto& s : st) {
    std::string c, d;
    for (std::size_t i = 0; i < s.commands.size(); ++i) {
      c += s.commands[i] + "\n";
      d += s.dirs[i].string() + "\n";
    }
    campaign_write_atomic(dir / "stages" / (s.name + ".tasks"), c);
    campaign_write_atomic(dir / "stages" / (s.name + ".dirs"), d);
  }
}

Stage load_stage(const fs::path& dir, const std::string& name) {
  Stage s;
  s.name = name;
  s.commands = read_lines(dir / "stages" / (name + ".tasks"));
  for (const auto& l : read_lines(dir / "stages" / (name + ".dirs"))) s.dirs.emplace_back(l);
  if (s.commands.size() != s.dirs.size()) throw Error((dir / "stages" / name).string() + ".tasks/.dirs: different lengths");
  return s;
}

bool done(const fs::path& taskdir) { return fs::exists(taskdir / ".done"); }

std::string now() {
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string hostname() {
  char buf[256] = {0};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// campaign.log: what ran where and when (never part of the results).
void log_line(const fs::path& dir, const std::string& text) {
  std::ofstream(dir / "campaign.log", std::ios::app) << now() << " " << hostname() << " " << text << "\n";
}

// `neaccel campaign-task run DIR STAGE K`: one task, resumable.
int run_task(const fs::path& dir, const std::string& stage, std::size_t k) {
  const Stage s = load_stage(dir, stage);
  if (k >= s.commands.size()) throw Error(fmt::format("{}: task {} (the stage has {})", stage, k, s.commands.size()));
  const fs::path td = s.dirs[k];
  if (done(td)) return 0;
  fs::create_directories(td);
  fs::remove(td / ".failed");
  proc::Spawn run;
  run.argv = split_words(s.commands[k], fmt::format("{}: task {}", (dir / "stages" / (stage + ".tasks")).string(), k));
  if (run.argv.front() == "neaccel") run.argv.front() = campaign_self_exe();
  run.env = {{"SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1"}};
  run.stdout_path = run.stderr_path = td / "task.log";
  proc::Result rc;
  {
    const HoldInterrupts hold;
    rc = proc::run(run);
  }
  if (!rc.ok()) {
    const int code = rc.signal ? 128 + rc.signal : rc.not_found ? 127 : rc.exit_code;
    if (rc.not_found) std::ofstream(td / "task.log") << proc::missing_tool(run.argv.front()) << "\n";
    campaign_write_atomic(td / ".failed", fmt::format("exit {}\n", code));
    std::fprintf(stderr, "neaccel: error: task %s/%zu failed (exit %d): see %s\n", stage.c_str(), k, code,
                 (td / "task.log").c_str());
    // Interrupted (Ctrl-C, SIGTERM): say so, so that --local stops instead of starting the next task.
    return code == 128 + SIGINT || code == 128 + SIGTERM ? 130 : 1;
  }
  campaign_write_atomic(td / ".done", "ok\n");  // last: the task's outputs are complete
  return 0;
}

// Plans (or re-reads) the campaign in DIR; returns its stages.
std::vector<Stage> plan(const CampaignOptions& o, fs::path& dir) {
  const CampaignSpec spec = read_campaign_spec(o.file);
  dir = fs::absolute(o.out).lexically_normal();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error(fmt::format("--out {}: cannot create ({})", o.out, ec.message()));
  const std::string sj = spec.to_json().dump(1) + "\n";
  // The same campaign when the stored spec reads back to this one: a spec.json written before a field existed
  // (target) reads with the field's default, so a campaign planned then resumes.
  auto same = [&](const fs::path& stored) {
    try {
      return campaign_spec_from_json(nlohmann::json::parse(read_whole_file(stored))).to_json() == spec.to_json();
    } catch (const std::exception&) {
      return false;
    }
  };
  if (fs::exists(dir / "spec.json") && !same(dir / "spec.json"))
    throw Error(fmt::format("--out {}: holds another campaign (its spec.json differs from {}); use a new directory",
                            o.out, o.file));
  if (!fs::exists(dir / "spec.json")) campaign_write_atomic(dir / "spec.json", sj);
  campaign_write_atomic(dir / "plan.json", json({{"neaccel", campaign_self_exe()}, {"dir", dir.string()}}).dump(1) + "\n");
  const auto st = plan_stages(spec, dir, std::max(1, o.cpus_per_task));
  write_stages(dir, st);
  return st;
}

std::vector<std::size_t> pending(const Stage& s) {
  std::vector<std::size_t> v;
  for (std::size_t i = 0; i < s.dirs.size(); ++i)
    if (!done(s.dirs[i])) v.push_back(i);
  return v;
}

// Failed tasks of a stage: one line each with the log and the command that reruns it alone.
std::size_t report_failures(const fs::path& dir, const Stage& s) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.dirs.size(); ++i) {
    if (done(s.dirs[i])) continue;
    ++n;
    std::fprintf(stderr, "neaccel: error: task %s/%zu not done%s: log %s; rerun alone: neaccel campaign-task run %s %s %zu\n",
                 s.name.c_str(), i, fs::exists(s.dirs[i] / ".failed") ? " (failed)" : "",
                 (s.dirs[i] / "task.log").c_str(), quote(dir.string()).c_str(), s.name.c_str(), i);
  }
  return n;
}

void progress(bool tty, const std::string& text) {
  if (tty) std::fprintf(stderr, "\r\033[K%s", text.c_str());
}

std::string active_jobs(const fs::path& dir, bool strict);

void run_local(const CampaignOptions& o, const fs::path& dir, const std::vector<Stage>& st) {
  const bool tty = isatty(STDERR_FILENO);
  const int workers = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::string running = active_jobs(dir, false);
  if (!running.empty())
    throw Error("--local: this campaign's Slurm jobs " + running + " are still queued or running (wait for them, or "
                "scancel them first)");
  log_line(dir, fmt::format("local run, {} worker(s)", workers));
  for (const auto& s : st) {
    const auto todo = pending(s);
    std::atomic<std::size_t> next{0}, finished{0}, failed{0};
    std::atomic<bool> interrupted{false};
    const std::size_t before = s.dirs.size() - todo.size();
    std::mutex mu;
    auto show = [&] {
      std::lock_guard<std::mutex> lock(mu);
      progress(tty, fmt::format("campaign: {} {}/{} done{}", s.name, before + finished - failed, s.dirs.size(),
                                failed ? fmt::format(", {} failed", failed.load()) : ""));
    };
    show();
    std::vector<std::thread> pool;
    const std::string exe = campaign_self_exe();
    const HoldInterrupts hold;
    for (int w = 0; w < std::min<int>(workers, static_cast<int>(todo.size())); ++w)
      pool.emplace_back([&] {
        for (std::size_t i; !interrupted && (i = next++) < todo.size();) {
          proc::Spawn run;  // the task's own output goes to its task.log; its error line is reported below
          run.argv = {exe, "campaign-task", "run", dir.string(), s.name, std::to_string(todo[i])};
          run.inherit_stdout = true;
          const proc::Result rc = proc::run(run);
          if (!rc.ok()) ++failed;
          if (rc.exit_code == 130 || rc.signal == SIGINT) interrupted = true;
          ++finished;
          show();
        }
      });
    for (auto& t : pool) t.join();
    if (tty) std::fprintf(stderr, "\n");
    if (interrupted) {
      log_line(dir, "interrupted in stage " + s.name);
      throw Error("campaign: interrupted in stage " + s.name + "; finished tasks are kept: rerun the same command to resume");
    }
    if (report_failures(dir, s)) {
      log_line(dir, "stage " + s.name + " failed");
      throw Error(fmt::format("campaign: stage {} has unfinished tasks (listed above); finished tasks are kept: rerun "
                              "the same command to resume", s.name));
    }
  }
  log_line(dir, "local run finished");
}

// Runs a command, returns (exit status, stdout, stderr's last line).
struct Ran {
  int rc = 0;
  std::string out, err;
};
Ran run_capture(const std::vector<std::string>& argv, const fs::path& errfile) {
  Ran r;
  proc::Spawn run;
  run.argv = argv;
  run.capture_stdout = true;
  run.stderr_path = errfile;
  const proc::Result res = proc::run(run);
  r.out = res.out;
  r.rc = res.signal || res.timed_out ? 1 : res.not_found ? 127 : res.exit_code;
  if (res.not_found) {
    r.err = proc::missing_tool(argv.front());
    return r;
  }
  std::ifstream in(errfile);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) r.err = line;
  return r;
}

bool on_path(const std::string& prog) { return proc::find_program(prog).has_value(); }

// "0-3,5,7-8" from sorted indices.
std::string ranges(const std::vector<std::size_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ",") + (i == j ? std::to_string(v[i]) : fmt::format("{}-{}", v[i], v[j]));
    i = j + 1;
  }
  return s;
}

// The jobs this campaign submitted (DIR/slurm/jobs: one "stage id" per line) that squeue still lists (queued or
// running), as "id,id,..."; empty when none (or when squeue does not know them any more).
// strict = false (--local): when squeue cannot answer (controller down), assume none, and note it in campaign.log.
std::string active_jobs(const fs::path& dir, bool strict) {
  const fs::path f = dir / "slurm" / "jobs";
  if (!fs::exists(f) || !on_path("squeue")) return "";
  std::string ids;
  for (const auto& line : read_lines(f)) ids += (ids.empty() ? "" : ",") + line.substr(line.find(' ') + 1);
  if (ids.empty()) return "";
  const Ran q = run_capture({"squeue", "-h", "-o", "%A", "-j", ids}, dir / "slurm" / "squeue.err");
  if (q.rc != 0) {
    if (q.err.find("Invalid job id") != std::string::npos) return "";
    if (!strict) {
      log_line(dir, "squeue failed (" + q.err + "); assuming no job of this campaign still runs");
      return "";
    }
    throw Error("--slurm: squeue failed (" + q.err + "); cannot tell whether this campaign's jobs still run");
  }
  std::string active;
  std::istringstream in(q.out);
  for (std::string id; in >> id;)
    if (("," + active + ",").find("," + id + ",") == std::string::npos) active += (active.empty() ? "" : ",") + id;
  return active;
}

// Submits the stages' unfinished tasks (or follows the jobs of an earlier submission); with --no-wait returns the
// jobs in `out.submitted`, else waits for them and throws when a task is left unfinished.
void run_slurm(const CampaignOptions& o, const fs::path& dir, const std::vector<Stage>& st, const std::string& name,
               CampaignOutcome& out) {
  if (!on_path("sbatch")) throw Error("sbatch not found (--slurm needs Slurm's client commands; install them with ./run setup, or use --local)");
  const bool tty = isatty(STDERR_FILENO);
  fs::create_directories(dir / "slurm" / "logs");
  // Jobs of an earlier submission still queued or running: follow them instead of submitting the tasks twice.
  const std::string running = active_jobs(dir, true);
  std::vector<std::pair<std::string, std::string>> jobs;  // stage, job id
  if (!running.empty()) {
    log_line(dir, "following jobs still in the queue: " + running);
    std::stringstream ss(running);
    for (std::string id; std::getline(ss, id, ',');) jobs.emplace_back("earlier", id);
  }
  std::vector<std::string> pass;
  if (!o.partition.empty()) pass.push_back("--partition=" + o.partition);
  if (!o.account.empty()) pass.push_back("--account=" + o.account);
  if (!o.time.empty()) pass.push_back("--time=" + o.time);
  if (!o.mem.empty()) pass.push_back("--mem=" + o.mem);
  if (o.cpus_per_task > 0) pass.push_back(fmt::format("--cpus-per-task={}", o.cpus_per_task));
  for (const auto& a : o.sbatch_args) pass.push_back(a);
  std::string prev;
  for (const auto& s : st) {
    if (!running.empty()) break;
    // A stage after a submitted one waits for it, so all of its tasks are submitted; a stage with nothing before it
    // submits only its unfinished tasks (a rerun resubmits the failed ones).
    const auto todo = prev.empty() ? pending(s) : [&] {
      std::vector<std::size_t> v(s.dirs.size());
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = i;
      return v;
    }();
    if (todo.empty()) continue;
    const fs::path script = dir / "slurm" / (s.name + ".sbatch");
    campaign_write_atomic(script, fmt::format("#!/bin/bash\n# Written by `neaccel campaign --slurm`: stage {} of campaign {}, one array "
                                     "task per line of stages/{}.tasks.\n#SBATCH --job-name=neaccel-{}-{}\n#SBATCH "
                                     "--output={}/slurm-%A_%a.out\nexport SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1\nexec {} "
                                     "campaign-task run {} {} \"$SLURM_ARRAY_TASK_ID\"\n",
                                     s.name, name, s.name, name, s.name, (dir / "slurm" / "logs").string(),
                                     quote(campaign_self_exe()), quote(dir.string()), s.name));
    std::vector<std::string> cmd = {"sbatch", "--parsable",
                                    "--array=" + ranges(todo) + (o.max_running > 0 ? fmt::format("%{}", o.max_running) : "")};
    if (!prev.empty()) cmd.push_back("--dependency=afterok:" + prev);
    cmd.insert(cmd.end(), pass.begin(), pass.end());
    cmd.push_back(script.string());
    const Ran r = run_capture(cmd, dir / "slurm" / "sbatch.err");
    std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
    if (r.rc != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
      log_line(dir, "sbatch failed for stage " + s.name + ": " + r.err);
      std::string already;
      for (const auto& [stage, j] : jobs) already += fmt::format(" {} (job {})", stage, j);
      throw Error(fmt::format("--slurm: sbatch failed for stage {}: {}{}; finished tasks are kept, rerun to resume",
                              s.name, r.err.empty() ? fmt::format("exit {}", r.rc) : r.err,
                              already.empty() ? "" : "; already submitted:" + already));
    }
    log_line(dir, fmt::format("submitted stage {} as job {}: {}", s.name, id, join(cmd)));
    std::ofstream(dir / "slurm" / "jobs", std::ios::app) << s.name << " " << id << "\n";
    jobs.emplace_back(s.name, id);
    prev = id;
  }
  if (jobs.empty()) {
    out.nothing_to_submit = true;
    return;
  }
  if (o.no_wait) {
    out.submitted = jobs;
    return;
  }
  std::string idlist;
  for (const auto& [stage, j] : jobs) idlist += (idlist.empty() ? "" : ",") + j;
  // Wait: squeue says which of our jobs are still queued or running; the done-markers say how far each stage is.
  for (;;) {
    const Ran q = run_capture({"squeue", "-h", "-o", "%i %T %r", "-j", idlist}, dir / "slurm" / "squeue.err");
    if (q.rc != 0 && q.err.find("Invalid job id") == std::string::npos) {
      log_line(dir, "squeue failed: " + q.err);
      throw Error("--slurm: squeue failed (" + q.err + "); the jobs stay with Slurm: rerun the same command later to "
                  "follow them or resume");
    }
    std::vector<std::string> dead;
    std::istringstream lines(q.out);
    bool any = false;
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      any = true;
      if (line.find("DependencyNeverSatisfied") != std::string::npos) dead.push_back(line.substr(0, line.find(' ')));
    }
    if (tty) {
      std::string p = "campaign:";
      for (const auto& s : st) {
        std::size_t d = 0;
        for (const auto& t : s.dirs) d += done(t);
        p += fmt::format(" {} {}/{}", s.name, d, s.dirs.size());
      }
      progress(true, p + (any ? "" : " (no job left)"));
    }
    if (!dead.empty()) {  // an earlier stage failed: its dependants can never start
      std::vector<std::string> scancel = {"scancel"};
      scancel.insert(scancel.end(), dead.begin(), dead.end());
      proc::run_quiet(scancel);
      std::string ids;
      for (const auto& id : dead) ids += " " + id;
      log_line(dir, "cancelled jobs whose dependency failed:" + ids);
      break;
    }
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  if (tty) std::fprintf(stderr, "\n");
  std::size_t bad = 0;
  for (const auto& s : st) bad += report_failures(dir, s);
  log_line(dir, fmt::format("slurm jobs finished, {} task(s) not done", bad));
  if (bad) throw Error("campaign: unfinished tasks (listed above); finished tasks are kept: rerun the same command to resume");
}

}  // namespace

CampaignOutcome run_campaign(const CampaignOptions& o) {
  if (o.local == o.slurm && !o.plan_only) throw Error("--local/--slurm: give exactly one of them (or --plan-only)");
  CampaignOutcome out;
  fs::path& dir = out.dir;
  const auto st = plan(o, dir);
  const CampaignSpec spec = campaign_spec_from_json(json::parse(read_whole_file(dir / "spec.json")));
  if (o.plan_only) {
    out.planned_only = true;
    return out;
  }
  if (o.local) run_local(o, dir, st);
  else run_slurm(o, dir, st, spec.name, out);
  out.report_done = fs::exists(dir / "report" / ".done");
  return out;
}

int campaign_task_run(const fs::path& dir, const std::string& stage, std::size_t k) { return run_task(dir, stage, k); }

}  // namespace neaccel::study
