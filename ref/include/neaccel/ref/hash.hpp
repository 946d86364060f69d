// FNV-1a 64 of a byte string: a content hash that is the same on every platform and in every run, for the
// manifest of a design directory's files and for matching a kept measurement with the source it measured. Not a
// cryptographic hash: it detects accidents (a changed or corrupted file), not an adversary.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace neaccel::ref {

inline std::uint64_t fnv1a64(const std::string& bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

// The same as 16 lower-case hexadecimal digits: the form every manifest, cache key and file name uses.
inline std::string fnv1a64_hex(const std::string& bytes) {
  char s[17];
  std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(fnv1a64(bytes)));
  return s;
}

}  // namespace neaccel::ref
