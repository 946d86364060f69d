// Helpers shared by the dynamics commands (cmd_dynamics.cpp, cmd_simulate.cpp): vector options and output.
#pragma once

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/robot.hpp"

#include <Eigen/Core>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace neaccel::cli {

// Parses "v1,v2,...,vn" (the --q style options, and rows of files). Empty text (the option not given) = n zeros.
// Errors name the option: "--q: expected 6 comma-separated values, got 5", "--qd: 'abc' is not a number", "--q: entry
// 2 is not finite". As options, the entries are checked when the line is parsed (validate.hpp real_list: a usage
// error, exit 2); what is left here is the count, which depends on the robot (exit 1), and the rows of files.
inline Eigen::VectorXd parse_vector(const std::string& text, int n, const std::string& option) {
  if (text.empty()) return Eigen::VectorXd::Zero(n);
  std::vector<double> values;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const char* b = item.c_str();
    char* end = nullptr;
    const double v = std::strtod(b, &end);
    if (item.empty() || end == b || *end != '\0') throw Error(fmt::format("{}: '{}' is not a number", option, item));
    if (!std::isfinite(v)) throw Error(fmt::format("{}: entry {} is not finite", option, values.size() + 1));
    values.push_back(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (static_cast<int>(values.size()) != n)
    throw Error(fmt::format("{}: expected {} comma-separated values, got {}", option, n, values.size()));
  return Eigen::Map<const Eigen::VectorXd>(values.data(), n);
}

inline nlohmann::json vector_json(const Eigen::VectorXd& v) {
  nlohmann::json j = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) j.push_back(v[i]);
  return j;
}

inline std::string vector_text(const Eigen::VectorXd& v) {
  std::string s;
  for (Eigen::Index i = 0; i < v.size(); ++i) s += fmt::format("{}{:.10g}", i ? " " : "", v[i]);
  return s;
}

}  // namespace neaccel::cli
