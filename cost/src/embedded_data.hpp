// The measured data files the cost library embeds at build time (cost/CMakeLists.txt), by their path in the
// repository: "data/ecp5-85f/designs.json", ... Private to neaccel_cost.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cost {

// The file's parsed text. Throws neaccel::Error naming the file when it is not embedded or does not parse.
const nlohmann::json& embedded_data(const std::string& file);

}  // namespace neaccel::cost
