// The study's plots (study/src/plot.cpp) with hostile text: a directory whose name holds quotes, a ';', '$(...)' and
// backquotes, and titles with a double quote, a backslash, a backquoted command and a line break. gnuplot runs with
// an argument vector in the plot's directory, and every string in its script is quoted so that gnuplot runs no
// command (it would run a backquoted one anywhere outside single quotes) and the text is drawn as written.
#include "neaccel/study/plot.hpp"

#include "neaccel/ref/process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using namespace neaccel::study;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(StudyPlot, ScriptLinesHoldNoBackquoteOrLineBreakOfTheText) {
  PlotSpec spec{"a\"b\\c`touch GP`\nd", "x", "y", false, false, {{"s'1", {{1, 2}, {3, 4}}, "lines"}}, 100, 100, ""};
  const std::string gp = gnuplot_script("out.svg", spec);
  EXPECT_EQ(gp.find('`'), std::string::npos) << gp;
  EXPECT_NE(gp.find("set title \"a\\\"b\\\\c\\140touch GP\\140\\nd\""), std::string::npos) << gp;
}

TEST(StudyPlot, HostileDirectoryAndTitlesRunNothing) {
  if (!neaccel::proc::find_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed";
  const fs::path root = fs::path(NEACCEL_TEST_OUT) / "study_unit" / "plot_quoting";
  fs::remove_all(root);
  const fs::path dir = root / "p l'o\"t;touch X; $(touch PWNED) `touch PWNED`";
  PlotSpec spec{"title \"q\" 'q' `touch GP` $(touch PWNED) @x\nsecond line", "x`touch GP`", "y\\", false, false,
                {{"series 'one' `touch GP`", {{1, 2}, {3, 4}}, "lines"}}, 200, 150, ""};
  // From inside `root`: a shell or gnuplot that ran the text would create its files here or in `dir`.
  fs::create_directories(root);
  const fs::path cwd = fs::current_path();
  fs::current_path(root);
  try {
    plot_svg(dir / "p.svg", spec);
  } catch (...) {
    fs::current_path(cwd);
    throw;
  }
  fs::current_path(cwd);
  const std::string svg = read(dir / "p.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("`touch GP`"), std::string::npos) << "the backquoted text is drawn as written";
  EXPECT_NE(svg.find("second line"), std::string::npos);
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name != "GP" && name != "X" && name != "PWNED") << "a command in the text ran: " << e.path();
  }
}
