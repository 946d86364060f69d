// `neaccel campaign FILE.yaml --out DIR (--local [--jobs N] | --slurm [sbatch options])` (docs/campaign.md) and
// `neaccel campaign-task run DIR STAGE K | design DIR K | report DIR`: the options of the campaign engine
// (study::run_campaign and the study::campaign_task_* functions, neaccel/study/campaign.hpp) and its closing lines.
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/study/campaign.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

namespace {

using namespace neaccel;

void run(const study::CampaignOptions& o) {
  const study::CampaignOutcome r = study::run_campaign(o);
  if (r.planned_only) {
    std::printf("campaign: task lists in %s\n", (r.dir / "stages").c_str());
    return;
  }
  if (r.nothing_to_submit)
    std::printf("campaign: every task is done; report in %s\n", (r.dir / "report" / "report.html").c_str());
  if (!r.submitted.empty()) {
    std::string ids;
    for (const auto& [stage, j] : r.submitted) ids += fmt::format(" {}={}", stage, j);
    std::printf("campaign: submitted%s; rerun the same command to follow or resume\n", ids.c_str());
  }
  if (r.report_done)
    std::printf("campaign: report written to %s (and report.md, report.json)\n", (r.dir / "report" / "report.html").c_str());
}

void setup(CLI::App& app) {
  auto o = std::make_shared<study::CampaignOptions>();
  auto* cmd = app.add_subcommand("campaign", "many robots, formats and architectures: explore, verify, synthesise, report "
                                             "(--local or as Slurm job arrays)");
  cmd->add_option("file", o->file, "campaign file (YAML, docs/campaign.md)")->required();
  cmd->add_option("--out", o->out, "campaign directory (on a shared filesystem for --slurm)")->required();
  cmd->add_flag("--local", o->local, "run the tasks on this machine");
  cmd->add_option("--jobs", o->jobs, "--local: parallel tasks (default: cores)")->check(cli::int_in(1, 4096));
  cmd->add_flag("--slurm", o->slurm, "submit each stage as a Slurm job array (sbatch)");
  cmd->add_option("--partition", o->partition, "--slurm: sbatch --partition");
  cmd->add_option("--account", o->account, "--slurm: sbatch --account");
  cmd->add_option("--time", o->time, "--slurm: sbatch --time (per task)");
  cmd->add_option("--mem", o->mem, "--slurm: sbatch --mem (per task)");
  cmd->add_option("--cpus-per-task", o->cpus_per_task, "--slurm: sbatch --cpus-per-task (also explore threads)")
      ->check(cli::int_in(1, 4096));
  cmd->add_option("--sbatch-arg", o->sbatch_args, "--slurm: extra sbatch argument (repeatable), e.g. --sbatch-arg=--qos=short")
      ->expected(1)
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_option("--array-max", o->max_running, "--slurm: at most this many tasks of a stage at once (--array=...%M)")
      ->check(cli::int_in(1, 1000000));
  cmd->add_flag("--no-wait", o->no_wait, "--slurm: submit and return (rerun the command to follow or resume)");
  cmd->add_flag("--plan-only", o->plan_only, "write the task lists only");
  cmd->callback([o] { run(*o); });
}

void setup_task(CLI::App& app) {
  auto args = std::make_shared<std::vector<std::string>>();
  auto* cmd = app.add_subcommand("campaign-task", "one task of a campaign: run DIR STAGE K | design DIR K | report DIR");
  cmd->add_option("args", *args, "run DIR STAGE K | design DIR K | report DIR")->required();
  cmd->callback([args] {
    const auto& a = *args;
    auto index = [](const std::string& s) {
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        throw cli::UsageError("campaign-task: '" + s + "' is not a task index");
      return static_cast<std::size_t>(cli::parse_int(s, "campaign-task: task index", 0, 1000000000));
    };
    int rc = 0;
    if (a.size() == 4 && a[0] == "run") {
      // The stages a campaign plans (docs/campaign.md): any other word is a mistake on the line, not a missing file.
      if (a[2] != "explore" && a[2] != "merge" && a[2] != "design" && a[2] != "report")
        throw cli::UsageError("campaign-task: unknown stage '" + a[2] + "' (explore, merge, design, report)");
      rc = study::campaign_task_run(a[1], a[2], index(a[3]));
    }
    else if (a.size() == 3 && a[0] == "design") rc = study::campaign_task_design(a[1], index(a[2]));
    else if (a.size() == 2 && a[0] == "report") study::campaign_task_report(a[1]);
    else throw cli::UsageError("campaign-task: run DIR STAGE K | design DIR K | report DIR");
    if (rc) throw neaccel::cli::ExitCode{rc};
  });
}

}  // namespace

NEACCEL_COMMAND(campaign, 95, setup)
static const ::neaccel::cli::Registrar neaccel_registrar_campaign_task{"campaign-task", 96, setup_task};
