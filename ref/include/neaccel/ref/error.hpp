// The one exception type of neaccel: a one-line message naming the file/field at fault.
#pragma once

#include <stdexcept>
#include <string>

namespace neaccel {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace neaccel
