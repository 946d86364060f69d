#include "neaccel/study/plot.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace neaccel::study {

namespace {
// A gnuplot double-quoted string holding `s` as it is. Gnuplot runs a backquoted command anywhere on a line except
// in single quotes, and a line starting with '!' is a shell command, so a backquote is written as its octal escape
// \140 and a line break as \n: the script line never holds either character.
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '`') out += "\\140";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else out += c;
  }
  return out + "\"";
}
}  // namespace

std::string gnuplot_script(const std::filesystem::path& svg, const PlotSpec& spec) {
  std::ostringstream gp;
  gp << fmt::format("set terminal svg size {},{} dynamic noenhanced font 'sans,12' background rgb 'white'\n",
                    spec.width, spec.height);
  gp << "set output " << quoted(svg.filename().string()) << '\n';
  gp << "set title " << quoted(spec.title) << "\nset xlabel " << quoted(spec.xlabel) << "\nset ylabel "
     << quoted(spec.ylabel) << '\n';
  gp << "set grid\nset key outside right top\n";
  // Log axes in base 2: a tick (and a grid line) every factor of 2 instead of every decade, so a range such as
  // 20k..400k cells or 40..600 cycles fills the plot and every tick is labelled; large numbers as 16k, 262k.
  if (spec.logx) gp << "set logscale x 2\nset format x \"%.0s%c\"\n";
  if (spec.logy) gp << "set logscale y 2\nset format y \"%.0s%c\"\n";
  gp << spec.extra << '\n';
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    gp << "$d" << i << " << EOD\n";
    for (const auto& [x, y] : spec.series[i].points) gp << fmt::format("{} {}\n", x, y);
    gp << "EOD\n";
  }
  gp << "plot ";
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    if (i) gp << ", \\\n     ";
    gp << "$d" << i << " using 1:2 with " << spec.series[i].style << " title " << quoted(spec.series[i].title);
  }
  gp << '\n';
  return gp.str();
}

void plot_svg(const std::filesystem::path& svg, const PlotSpec& spec) {
  if (spec.series.empty()) throw Error("plot " + svg.string() + ": no data series");
  std::filesystem::create_directories(svg.parent_path());
  const auto script = std::filesystem::path(svg).replace_extension(".gp");
  {
    std::ofstream out(script);
    out << gnuplot_script(svg, spec);
    if (!out) throw Error("plot: cannot write " + script.string());
  }
  // In the plot's directory: the script names its SVG without a directory (set output "NAME.svg").
  proc::Spawn gp;
  gp.argv = {"gnuplot", script.filename().string()};
  gp.cwd = svg.parent_path();
  gp.inherit_stdout = true;
  const proc::Result r = proc::run(gp);
  if (r.not_found) throw Error("plot " + svg.string() + ": " + proc::missing_tool("gnuplot"));
  if (!r.ok()) throw Error("plot: gnuplot failed on " + script.string() + " (is gnuplot-nox installed?)");
}

}  // namespace neaccel::study
