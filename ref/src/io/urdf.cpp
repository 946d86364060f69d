// URDF import (io.hpp): placeholder until the converter lands.
#include "io_detail.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

namespace neaccel::ref {

Robot robot_from_urdf(const std::string&, const std::string& source) {
  throw Error(source + ": URDF import is not yet available");
}

Robot robot_from_urdf_file(const std::string& path) { return robot_from_urdf(detail::read_text_file(path), path); }

}  // namespace neaccel::ref
