// Shared by every libFuzzer target: run one entry point on the input; a result or a neaccel::Error is fine, any
// other exception escapes (libFuzzer reports it as a crash), as do sanitizer reports, hangs and leaks.
#pragma once

#include "neaccel/ref/error.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace neaccel::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

template <class F>
int run_one(F&& f) {
  try {
    f();
  } catch (const neaccel::Error&) {
    // The documented outcome for bad input.
  }
  return 0;
}

}  // namespace neaccel::fuzz
