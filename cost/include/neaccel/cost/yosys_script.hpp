// Writing file names into a Yosys script. Yosys reads a script line by line and runs a line that starts with '!'
// through the shell, so a name taken from the command line is written only in a form the script cannot misread.
#pragma once

#include "neaccel/ref/error.hpp"

#include <string>

namespace neaccel::cost {

// A file name as a Yosys script argument: as it is when plain, else in double quotes (the frontends take a quoted
// name, so a space, ';' or '#' in it stays part of it). A double quote or a line break cannot be written there (a
// new line that starts with '!' would be a shell command), so such a path is refused in one line.
inline std::string yosys_path(const std::string& p) {
  if (p.find_first_of("\"\n\r") != std::string::npos) {
    std::string shown;  // the message stays one line
    for (char c : p) shown += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
    throw Error("'" + shown + "': a path with a double quote or a line break cannot be named in a Yosys script");
  }
  if (!p.empty() && p.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./+-=,:@%") ==
                        std::string::npos)
    return p;
  return "\"" + p + "\"";
}

}  // namespace neaccel::cost
