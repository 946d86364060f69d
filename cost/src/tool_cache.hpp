// Content-hash caching of expensive tool runs (Yosys, nextpnr: unit_runs.cpp, design_area.cpp): a stable hash of
// everything a run depends on (the files' bytes through neaccel::read_whole_file), so that the same inputs find the
// same cache directory on every machine and run; and the counting of cell types in a Yosys `stat` report. Private
// to neaccel_cost.
#pragma once

#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/hash.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace neaccel::cost {


// The part of a design's cache key that its ROM contents make ($readmemh of HexDir changes the logic): every file of
// DIR/hex, sorted by name, as "|name|bytes" (empty when the design has no hex folder).
inline std::string hex_files_key(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> hex;
  if (std::filesystem::is_directory(dir / "hex"))
    for (const auto& e : std::filesystem::directory_iterator(dir / "hex")) hex.push_back(e.path());
  std::sort(hex.begin(), hex.end());
  std::string key;
  for (const auto& h : hex) key += "|" + h.filename().string() + "|" + read_whole_file(h);
  return key;
}

// The number of cells whose type starts with `prefix` ("LUT": LUT1..LUT6).
inline long sum_prefix(const std::map<std::string, long>& cells, const std::string& prefix) {
  long n = 0;
  for (const auto& [k, v] : cells)
    if (k.rfind(prefix, 0) == 0) n += v;
  return n;
}

}  // namespace neaccel::cost
