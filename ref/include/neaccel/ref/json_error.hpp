// The words of a JSON reader's error without the library's tag: nlohmann-json says "[json.exception.parse_error.101]
// parse error at line 1, column 1: ...", and a user reading "FILE: not valid JSON (...)" needs only the part after the
// tag (the line, the column, what was expected), never the library's name for its exception class.
#pragma once

#include <exception>
#include <string>

namespace neaccel {

inline std::string json_problem(const std::exception& e) {
  std::string w = e.what();
  if (w.rfind("[json.exception.", 0) == 0) {
    const std::size_t close = w.find("] ");
    if (close != std::string::npos) w.erase(0, close + 2);
  }
  return w;
}

}  // namespace neaccel
