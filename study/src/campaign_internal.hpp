// The campaign engine's private part, shared by campaign_run.cpp (plan, task runner, --local, --slurm),
// campaign_spec.cpp (the YAML) and campaign_report.cpp (design choice, per-design task, report). The public entry
// points and the layout of a campaign directory are in neaccel/study/campaign.hpp.
#pragma once

#include "neaccel/ref/file_limit.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace neaccel::study {

struct CampaignRobot {
  std::string name;  // as written in the campaign file (the report's name)
  std::string spec;  // what `neaccel explore --robot` gets: built-in name, absolute file path, random:N:SEED
};

struct CampaignSpec {
  std::string name;
  std::vector<CampaignRobot> robots;
  std::vector<std::string> flavours, formats, architectures, choose, engines;
  std::string mul = "1-4", add = "1-4", lat_mul = "1-3", lat_add = "1-2", pipelined = "1,0";
  int shards = 4, restarts = 4, states = 20;
  bool synthesise = false, place_and_route = false;
  // The device the cost model estimates time and resources on (cost/targets): the LFE5U-85F, which holds the arms the
  // iCE40 HX8K does not (a campaign planned before targets existed reads as the iCE40's: campaign_spec_from_json).
  std::string target = "ecp5-85f";
  nlohmann::json to_json() const;
};

// Reads and validates a campaign file; throws neaccel::Error "FILE: FIELD: what is wrong" (one line).
CampaignSpec read_campaign_spec(const std::string& path);
CampaignSpec campaign_spec_from_json(const nlohmann::json& j);

// The design slots, fixed when the campaign is planned: robot x flavour x choice x format x architecture.
struct CampaignSlot {
  std::size_t robot = 0;
  std::string flavour, choice, format, arch;
};
std::vector<CampaignSlot> campaign_slots(const CampaignSpec& s);

// Helpers shared by the files: a file written whole or not at all (temporary file, then rename), and the path of
// the running executable (the tasks run this same binary). A file's bytes: neaccel::read_whole_file (file_limit.hpp).
void campaign_write_atomic(const std::filesystem::path& path, const std::string& text);
std::string campaign_self_exe();

}  // namespace neaccel::study
