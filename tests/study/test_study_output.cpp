// Checks a quick study's output directory (written by the CTest fixture study.quick_run): the report's numbers
// match its JSON data, the expected artefacts exist, and the plots are real SVG.
#include "neaccel/study/report.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;

namespace {
const fs::path kDir = fs::path(NEACCEL_TEST_OUT) / "study_quick";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST(StudyOutput, ReportNumbersMatchTheirData) {
  const auto problems = neaccel::study::check_report(kDir);
  for (const auto& p : problems) ADD_FAILURE() << p;
  const auto manifest = nlohmann::json::parse(read(kDir / "numbers.json"));
  EXPECT_GT(manifest.size(), 100u) << "the report should quote its data, not its own numbers";
}

TEST(StudyOutput, ArtefactsExist) {
  for (const char* f : {"report.md", "report.html", "numbers.json", "data/reference.json", "data/counts.json",
                        "data/graphs.json", "data/explore.json", "data/table86.json", "data/designs.json",
                        "data/status.json"})
    EXPECT_TRUE(fs::exists(kDir / f)) << f;
}

TEST(StudyOutput, PlotsAreSvgWithData) {
  int plots = 0;
  for (const auto& e : fs::directory_iterator(kDir / "plots")) {
    if (e.path().extension() != ".svg") continue;
    ++plots;
    const std::string svg = read(e.path());
    EXPECT_NE(svg.find("<svg"), std::string::npos) << e.path();
    EXPECT_GT(svg.size(), 4000u) << e.path() << " looks empty";
    const std::string html = read(kDir / "report.html");
    EXPECT_NE(html.find("plots/" + e.path().filename().string()), std::string::npos) << "report does not show " << e.path();
  }
  EXPECT_GE(plots, 4);
}

TEST(StudyOutput, StatusPasses) {
  const auto status = nlohmann::json::parse(read(kDir / "data" / "status.json"));
  EXPECT_TRUE(status.at("pass").get<bool>()) << status.dump();
}
