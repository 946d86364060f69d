// The top that place and route sees for a design: nea_top with its dbg_* trace ports left open (they only copy unit
// results and microcode fields, and would take more pins than any package has). Shared by the iCE40 flow
// (design_area.cpp) and the per-target flow (design_pnr.cpp).
#pragma once

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <string>

namespace neaccel::cost {

inline std::string pnr_wrapper(const std::filesystem::path& top_v) {
  const std::string text = read_whole_file(top_v);
  const auto mod = text.find("module nea_top");
  const auto end = text.find(");", mod);
  if (mod == std::string::npos || end == std::string::npos) throw Error(top_v.string() + ": no `module nea_top (...);` port list");
  const std::string ports = text.substr(mod, end - mod);
  const std::regex port(R"((input|output)\s+wire\s*(\[[^\]]*\])?\s*([A-Za-z_][A-Za-z0-9_]*))");
  std::string decl, conn;
  for (std::sregex_iterator it(ports.begin(), ports.end(), port), e; it != e; ++it) {
    const std::string dir = (*it)[1], range = (*it)[2], name = (*it)[3];
    if (!conn.empty()) conn += ", ";
    if (name.rfind("dbg_", 0) == 0) {
      conn += "." + name + "()";
      continue;
    }
    decl += fmt::format("{}  {} wire {} {}", decl.empty() ? "" : ",\n", dir, range, name);
    conn += "." + name + "(" + name + ")";
  }
  if (decl.empty()) throw Error(top_v.string() + ": no ports found in nea_top");
  return "`timescale 1ns/1ps\n// Written by `neaccel area --design --pnr`: nea_top with its dbg_* ports open.\nmodule nea_pnr_top (\n" +
         decl + "\n);\n  nea_top u_top (" + conn + ");\nendmodule\n";
}

}  // namespace neaccel::cost
