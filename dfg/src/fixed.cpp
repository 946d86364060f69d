#include "neaccel/dfg/fixed.hpp"

#include "neaccel/ref/error.hpp"

#include <cstdio>

namespace neaccel::dfg {

FixedFormat parse_fixed_format(const std::string& s) {
  std::string t = s;
  if (t.rfind("fixed:", 0) == 0) t = t.substr(6);
  else if (!t.empty() && (t[0] == 'Q' || t[0] == 'q')) t = t.substr(1);
  FixedFormat f;
  int consumed = 0;
  if (std::sscanf(t.c_str(), "%d.%d%n", &f.I, &f.F, &consumed) != 2 || consumed != static_cast<int>(t.size()))
    throw Error("fixed-point format '" + s + "': expected fixed:I.F (e.g. fixed:8.24)");
  check_format(f);
  return f;
}

std::string to_string(const FixedFormat& f) { return "fixed:" + std::to_string(f.I) + "." + std::to_string(f.F); }

}  // namespace neaccel::dfg
