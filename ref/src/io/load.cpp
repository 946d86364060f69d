// load_robot(): built-in names, random specs and files (io.hpp).
#include "io_detail.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <regex>

namespace neaccel::ref {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

constexpr int kMaxRandomLinks = 1000;

// "random:N:SEED" / "randomtree:N:SEED" with 1 <= N <= kMaxRandomLinks and SEED a 64-bit unsigned integer.
Robot random_from_spec(const std::string& spec) {
  static const std::regex form("(random|randomtree):([0-9]{1,9}):([0-9]{1,20})");
  std::smatch m;
  const auto bad = [&] {
    return Error(fmt::format("{}: expected random:N:SEED or randomtree:N:SEED with N in 1..{} and SEED an unsigned "
                             "64-bit integer", spec, kMaxRandomLinks));
  };
  if (!std::regex_match(spec, m, form)) throw bad();
  const int n = std::stoi(m[2]);
  if (n < 1 || n > kMaxRandomLinks) throw bad();
  std::uint64_t seed = 0;
  try {
    std::size_t used = 0;
    seed = std::stoull(m[3], &used);
  } catch (const std::exception&) {
    throw bad();
  }
  return random_robot(n, seed, m[1] == "randomtree");
}

// A built-in URDF (data/robots/*.urdf, e.g. iiwa): imported with the process-wide URDF options (--urdf-verbatim,
// --strict-inertia, --base, --tip) but without warnings: its snapped values (pi written with 12 digits) are
// documented in docs/robot-format.md, and the robot is named by its built-in name rather than the URDF's.
Robot builtin_urdf(const std::string& text, const std::string& name) {
  UrdfOptions options = urdf_options();
  options.warn = [](const std::string&) {};
  Robot r = robot_from_urdf(text, "builtin:" + name, options);
  r.name = name;
  return r;
}

Robot builtin(const std::string& name) {
  for (std::size_t k = 0; k < detail::kEmbeddedRobotCount; ++k) {
    if (name == detail::kEmbeddedRobots[k].name) {
      const char* text = detail::kEmbeddedRobots[k].yaml;
      const char* first = text + std::strspn(text, " \t\r\n");
      if (*first == '<') return builtin_urdf(text, name);  // data/robots/*.urdf (ref/CMakeLists.txt)
      return robot_from_yaml(text, "builtin:" + name);
    }
  }
  std::string names;
  for (const auto& n : builtin_robot_names()) names += (names.empty() ? "" : ", ") + n;
  throw Error(fmt::format("unknown robot '{}' (built-in: {}; or random:N:SEED, randomtree:N:SEED, a .yaml/.yml or "
                          ".urdf file)", name, names));
}

}  // namespace

std::vector<std::string> builtin_robot_names() {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < detail::kEmbeddedRobotCount; ++k) names.emplace_back(detail::kEmbeddedRobots[k].name);
  std::sort(names.begin(), names.end());
  return names;
}

Robot load_robot(const std::string& spec) {
  if (spec.rfind("random", 0) == 0 && spec.find(':') != std::string::npos) {
    Robot r = random_from_spec(spec);
    validate(r);
    return r;
  }
  if (ends_with(spec, ".yaml") || ends_with(spec, ".yml")) return robot_from_yaml_file(spec);
  if (ends_with(spec, ".urdf")) return robot_from_urdf_file(spec);
  return builtin(spec);
}

}  // namespace neaccel::ref
