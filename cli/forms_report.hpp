// The files of the formulation counts shared by `neaccel counts --out` and `neaccel formulations counts --out`:
// the JSON rows, the plot's data and gnuplot script (ref/count_tables.hpp), and the SVG gnuplot draws from them.
#pragma once

#include "neaccel/ref/count_tables.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace neaccel::cli {

inline void write_text_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  if (!out || !(out << text) || !out.flush()) throw Error(fmt::format("{}: cannot write file", p.string()));
}

// Writes DIR/formulation-counts.{json,dat,gp} and runs gnuplot for DIR/formulation-counts.svg (multiplications
// against n, log axes; our counts of every formulation and of the Luh-Walker-Paul N-E as the reference line).
inline void write_forms_outputs(const std::filesystem::path& dir,
                                const std::vector<std::vector<ref::forms::CountRow>>& by_n) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  write_text_file(dir / "formulation-counts.json", ref::forms::count_rows_json(by_n).dump(2) + "\n");
  if (by_n.size() < 2) return;  // a single n is not a curve
  const ref::forms::CountPlot plot = ref::forms::count_plot(by_n);
  write_text_file(dir / "formulation-counts.dat", plot.data);
  write_text_file(dir / "formulation-counts.gp", plot.script);
  proc::Spawn gp;  // in DIR: the script names its files without a directory
  gp.argv = {"gnuplot", "formulation-counts.gp"};
  gp.cwd = dir;
  gp.inherit_stdout = gp.inherit_stderr = true;
  const proc::Result r = proc::run(gp);
  if (r.not_found) throw Error(fmt::format("{}: {}", (dir / "formulation-counts.gp").string(), proc::missing_tool("gnuplot")));
  if (!r.ok())
    throw Error(fmt::format("{}: gnuplot failed (is gnuplot installed?)", (dir / "formulation-counts.gp").string()));
}

}  // namespace neaccel::cli
