// The size cap on every file neaccel reads (docs/limits.md): readers hold a file whole in memory and
// their memory grows with it (about 26 bytes per byte of graph JSON, 100 per byte of robot YAML), so a file over
// the cap is refused in one line naming it before it is read, instead of the reader being killed for memory.
#pragma once

#include "error.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace neaccel {

inline constexpr std::uintmax_t kMaxInputFileBytes = std::uintmax_t{64} << 20;  // 64 MiB

// Throws when `path` is a file larger than kMaxInputFileBytes (anything else is left to the reader's own checks).
inline void check_file_size(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return;
  const std::uintmax_t n = std::filesystem::file_size(path, ec);
  if (!ec && n > kMaxInputFileBytes)
    throw Error(path + ": " + std::to_string(n) + " bytes, over the limit of 64 MiB on input files");
}

// The whole file as bytes, within the cap: "PATH: cannot read" when it cannot be opened. For the readers that take a
// file whole (cache keys of tool runs, JSON a command wrote earlier).
inline std::string read_whole_file(const std::filesystem::path& path) {
  check_file_size(path.string());
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path.string() + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace neaccel
