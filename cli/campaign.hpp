// `neaccel campaign` (docs/campaign.md): a campaign file (YAML) -> task lists on the filesystem -> run locally or
// as Slurm job arrays -> a campaign report. This header is the part shared by cmd_campaign.cpp (plan, run, submit),
// campaign_spec.cpp (the YAML) and campaign_report.cpp (design choice, per-design task, report).
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

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace neaccel::campaign {

struct Robot {
  std::string name;  // as written in the campaign file (the report's name)
  std::string spec;  // what `neaccel explore --robot` gets: built-in name, absolute file path, random:N:SEED
};

struct Spec {
  std::string name;
  std::vector<Robot> robots;
  std::vector<std::string> flavours, formats, architectures, choose, engines;
  std::string mul = "1-4", add = "1-4", lat_mul = "1-3", lat_add = "1-2", pipelined = "1,0";
  int shards = 4, restarts = 4, states = 20;
  bool synthesise = false, place_and_route = false;
  nlohmann::json to_json() const;
};

// Reads and validates a campaign file; throws neaccel::Error "FILE: FIELD: what is wrong" (one line).
Spec read_spec(const std::string& path);
Spec spec_from_json(const nlohmann::json& j);

// The design slots, fixed when the campaign is planned: robot x flavour x choice x format x architecture.
struct Slot {
  std::size_t robot = 0;
  std::string flavour, choice, format, arch;
};
std::vector<Slot> slots(const Spec& s);

// Stage tasks run by `neaccel campaign-task`.
int task_design(const std::filesystem::path& dir, std::size_t index);
void task_report(const std::filesystem::path& dir);

// Helpers shared by the files.
void write_atomic(const std::filesystem::path& path, const std::string& text);
std::string slurp(const std::filesystem::path& path);
std::string self_exe();

}  // namespace neaccel::campaign
