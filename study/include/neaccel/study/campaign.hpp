// `neaccel campaign` (docs/campaign.md): a campaign file (YAML) -> task lists on the filesystem -> run locally or
// as Slurm job arrays -> a campaign report. Each task is a `neaccel ...` command line run through this same
// executable by `neaccel campaign-task run DIR STAGE K`, which skips a task whose done-marker exists and writes the
// marker last (atomic rename): a rerun resumes, a failed task can be rerun alone. No scheduler or daemon of our own:
// Slurm distributes, the filesystem carries the data.
//
// Layout of a campaign directory DIR (--out):
//   spec.json                    the campaign file, validated and normalised (a rerun must match it)
//   plan.json                    the neaccel binary and DIR, absolute (shared filesystem); not part of the results
//   stages/<stage>.tasks         one task per line: a `neaccel ...` command line
//   explore/shard-K/             stage explore: `neaccel explore --shard K/N`
//   explore/merged/              stage merge:   `neaccel explore --merge`
//   designs/NNN/                 stage design:  `neaccel campaign-task design DIR NNN` (rtl, sim, area)
//   report/                      stage report:  report.json, report.md, report.html
//   <task dir>/task.log          the task's output; <task dir>/.done written last (atomic rename), .failed on error
//   slurm/<stage>.sbatch         --slurm: one script per stage, submitted as a job array; slurm/logs/
//   campaign.log                 host names, times, job ids (never in the report)
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::study {

// The options of `neaccel campaign`.
struct CampaignOptions {
  std::string file, out;  // the campaign file (YAML) and the campaign directory
  bool local = false, slurm = false, no_wait = false, plan_only = false;
  int jobs = 0;         // --local: parallel tasks (0: the machine's cores)
  int max_running = 0;  // --slurm: at most this many tasks of a stage at once (0: no limit)
  std::string partition, account, time, mem;  // --slurm: passed to sbatch when not empty
  int cpus_per_task = 0;                      // --slurm: sbatch --cpus-per-task (also the explore threads)
  std::vector<std::string> sbatch_args;       // --slurm: extra sbatch arguments
};

// What a campaign run did, for the command's closing lines.
struct CampaignOutcome {
  std::filesystem::path dir;   // the campaign directory, absolute
  bool planned_only = false;   // --plan-only: the task lists were written, nothing ran
  bool nothing_to_submit = false;  // --slurm: every task was done already, nothing submitted
  std::vector<std::pair<std::string, std::string>> submitted;  // --slurm --no-wait: (stage, job id), in order
  bool report_done = false;    // the report stage is done (DIR/report/.done)
};

// Plans the campaign (or re-reads its plan: DIR must hold the same campaign), then with --local runs the stages'
// unfinished tasks here, with --slurm submits each stage as a job array (sbatch --dependency=afterok) and follows
// the jobs unless --no-wait. Progress and unfinished tasks go to stderr. Throws neaccel::Error (one line) on a bad
// campaign file or directory, without one of --local/--slurm/--plan-only, or when a stage has unfinished tasks
// (finished tasks are kept: a rerun resumes).
CampaignOutcome run_campaign(const CampaignOptions& options);

// `neaccel campaign-task run DIR STAGE K`: task K of a stage, skipped when done; its output in the task's task.log.
// Returns 0 when done, 1 when it failed (.failed written, one line on stderr), 130 when it was interrupted.
int campaign_task_run(const std::filesystem::path& dir, const std::string& stage, std::size_t k);

// `neaccel campaign-task design DIR K`: design slot K: the chosen point's RTL (neaccel rtl), its simulation with
// every engine of designs.verify (neaccel sim, random states with a fixed seed), and with designs.synthesise its
// Yosys area (neaccel area --design, --pnr with designs.place_and_route). Writes DIR/designs/NNN/result.json;
// returns 1 (one line on stderr) when the design failed verification, else 0.
int campaign_task_design(const std::filesystem::path& dir, std::size_t k);

// `neaccel campaign-task report DIR`: DIR/report/report.json, and report.md and report.html rendered from it.
void campaign_task_report(const std::filesystem::path& dir);

}  // namespace neaccel::study
