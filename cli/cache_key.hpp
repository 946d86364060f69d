// Content-hash caching of expensive tool runs (`neaccel area`: Yosys, nextpnr): a file's bytes and a stable hash of
// everything a run depends on, so that the same inputs find the same cache directory on every machine and run.
#pragma once

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace neaccel::cli {

inline std::string slurp(const std::filesystem::path& p) {
  check_file_size(p.string());
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(p.string() + ": cannot read");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// FNV-1a 64: stable across platforms and runs (std::hash is not).
inline std::uint64_t fnv1a(const std::string& s, std::uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace neaccel::cli
