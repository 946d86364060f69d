// Plots as SVG through gnuplot: the study writes a self-contained .gp script (data inline) beside each SVG,
// so every plot can be regenerated and its numbers read without neaccel.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::study {

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;
  std::string style = "linespoints";  // gnuplot "with" clause: lines, points, linespoints, steps, boxes, ...
};

struct PlotSpec {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::vector<Series> series;
  int width = 820, height = 460;
  std::string extra;  // more gnuplot commands (e.g. "set key top left")
};

// Writes <svg>.gp and runs gnuplot to produce <svg>. Throws neaccel::Error when gnuplot fails or is missing.
void plot_svg(const std::filesystem::path& svg, const PlotSpec& spec);

// The gnuplot script for a spec (exposed for tests).
std::string gnuplot_script(const std::filesystem::path& svg, const PlotSpec& spec);

}  // namespace neaccel::study
