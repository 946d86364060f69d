// The report's numbers are traceable: every recorded number comes from the data, and check_report catches a
// report that no longer matches its data.
#include "neaccel/study/plot.hpp"
#include "neaccel/study/report.hpp"

#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace fs = std::filesystem;
using namespace neaccel::study;
using nlohmann::json;

namespace {
fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::path(NEACCEL_TEST_OUT) / "study_unit" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

void write(const fs::path& p, const std::string& s) {
  std::ofstream out(p);
  out << s;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A small report: one sentence, one table.
fs::path make_report(const std::string& name) {
  const fs::path dir = fresh_dir(name);
  DataDir data(dir / "data");
  data.put("x", {{"cycles", 82}, {"err", 1.25e-7}, {"rows", {{{"name", "fast"}, {"area", 1234.5}}}}});
  Report r(data);
  r.para("It takes {} cycles with error {}.", {r.num("x", "/cycles"), r.num("x", "/err", 2)});
  r.table({"design", "area"}, {{r.num("x", "/rows/0/name"), r.num("x", "/rows/0/area", 1)}});
  data.flush();
  write(dir / "report.md", r.markdown());
  write(dir / "numbers.json", r.numbers().dump());
  return dir;
}
}  // namespace

TEST(StudyReport, NumbersComeFromTheData) {
  DataDir data("unused");
  data.put("x", {{"a", 3}, {"b", 0.5}});
  Report r(data);
  EXPECT_EQ(r.num("x", "/a").text, "3");
  EXPECT_EQ(r.num("x", "/b", 3).text, "0.500");
  EXPECT_THROW(r.num("x", "/missing"), neaccel::Error);
  EXPECT_THROW(r.num("nofile", "/a"), neaccel::Error);
  EXPECT_EQ(r.refs().size(), 2u);
}

TEST(StudyReport, PlaceholdersMustMatchNumbers) {
  DataDir data("unused");
  data.put("x", {{"a", 3}});
  Report r(data);
  EXPECT_THROW(r.para("{} and {}", {r.num("x", "/a")}), neaccel::Error);
  EXPECT_THROW(r.para("none", {r.num("x", "/a")}), neaccel::Error);
  EXPECT_THROW(r.table({"one", "two"}, {{Report::label("only one")}}), neaccel::Error);
}

TEST(StudyReport, ConsistentReportPassesTheCheck) {
  const fs::path dir = make_report("consistent");
  EXPECT_TRUE(check_report(dir).empty());
  EXPECT_NE(read(dir / "report.md").find("It takes 82 cycles with error 1.25e-07."), std::string::npos);
}

TEST(StudyReport, CheckCatchesChangedData) {
  const fs::path dir = make_report("changed_data");
  json x = json::parse(read(dir / "data" / "x.json"));
  x["cycles"] = 81;
  write(dir / "data" / "x.json", x.dump());
  const auto problems = check_report(dir);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("data says 81, report says 82"), std::string::npos);
}

TEST(StudyReport, CheckCatchesEditedReport) {
  const fs::path dir = make_report("edited_report");
  std::string md = read(dir / "report.md");
  md.replace(md.find("1234.5"), 6, "1000.0");
  write(dir / "report.md", md);
  const auto problems = check_report(dir);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].find("not in report.md"), std::string::npos);
}

TEST(StudyReport, HtmlEscapesAndContainsTables) {
  DataDir data("unused");
  data.put("x", {{"a", 7}});
  Report r(data);
  r.heading(1, "A <b> & c");
  r.table({"k"}, {{r.num("x", "/a")}});
  const std::string h = r.html("t");
  EXPECT_NE(h.find("A &lt;b&gt; &amp; c"), std::string::npos);
  EXPECT_NE(h.find("<td class=\"num\">7</td>"), std::string::npos);
}

TEST(StudyPlot, ScriptHoldsTheDataInline) {
  PlotSpec spec{"t", "x", "y", false, true, {{"s", {{1, 2}, {3, 4}}, "lines"}}, 100, 100, ""};
  const std::string gp = gnuplot_script("out.svg", spec);
  EXPECT_NE(gp.find("set logscale y"), std::string::npos);
  EXPECT_NE(gp.find("$d0 << EOD\n1 2\n3 4\nEOD"), std::string::npos);
  EXPECT_NE(gp.find("set output \"out.svg\""), std::string::npos);
}

TEST(StudyPlot, GnuplotWritesAnSvg) {
  const fs::path dir = fresh_dir("plot");
  PlotSpec spec{"t", "x", "y", false, false, {{"s", {{1, 2}, {3, 4}}, "lines"}}, 200, 150, ""};
  plot_svg(dir / "p.svg", spec);
  EXPECT_NE(read(dir / "p.svg").find("<svg"), std::string::npos);
  EXPECT_THROW(plot_svg(dir / "empty.svg", PlotSpec{}), neaccel::Error);
}

TEST(StudyReport, BlocksWrittenLastCanBeShownFirst) {
  DataDir data("unused");
  data.put("x", {{"a", 7}});
  Report r(data);
  r.heading(1, "Title");
  const std::size_t at = r.position();
  r.heading(2, "1. Body");
  const std::size_t from = r.position();
  r.heading(2, "Summary");
  r.para("a is {}.", {r.num("x", "/a")});
  r.move_to(from, at);
  EXPECT_EQ(r.markdown(), "# Title\n\n## Summary\n\na is 7.\n\n## 1. Body\n\n");
  EXPECT_THROW(r.move_to(1, 2), neaccel::Error);
  EXPECT_THROW(r.move_to(0, 99), neaccel::Error);
}

TEST(StudyReport, ListItemsBecomeOneHtmlList) {
  DataDir data("unused");
  Report r(data);
  r.para("Intro.");
  r.para("- one");
  r.para("- two");
  r.para("After.");
  const std::string h = r.html("t");
  EXPECT_NE(h.find("<p>Intro.</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<p>After.</p>"), std::string::npos) << h;
  EXPECT_NE(r.markdown().find("- one\n\n- two\n\n"), std::string::npos);
}

// Measured figures: from the measured DataDir, only inside a measured part, in measured/numbers.json (not
// numbers.json), checked against their data like every other number, and marked in both renderings.
TEST(StudyReport, MeasuredPartsAreMarkedAndChecked) {
  const fs::path dir = fresh_dir("measured");
  DataDir data(dir / "data"), measured(dir / "measured");
  data.put("x", {{"cycles", 82}});
  measured.put("t", {{"ns", 74.25}});
  Report r(data, &measured);
  r.para("It takes {} cycles.", {r.num("x", "/cycles")});
  EXPECT_THROW(r.num("measured/t", "/ns", 1), neaccel::Error) << "a measured figure outside a measured part";
  EXPECT_THROW(r.end_measured(), neaccel::Error);
  r.begin_measured();
  EXPECT_THROW(r.begin_measured(), neaccel::Error) << "measured parts do not nest";
  r.para("One core: {} ns.", {r.num("measured/t", "/ns", 1)});
  r.end_measured();
  EXPECT_EQ(r.numbers().size(), 1u);
  ASSERT_EQ(r.measured_numbers().size(), 1u);
  EXPECT_EQ(r.measured_numbers()[0]["file"], "t");
  const std::string md = r.markdown();
  EXPECT_NE(md.find("<!-- measured: begin -->\n\nOne core: 74.2 ns.\n\n<!-- measured: end -->"), std::string::npos) << md;
  const std::string html = r.html("t");
  EXPECT_NE(html.find("<!-- measured: begin -->\n<div class=\"measured\">"), std::string::npos);
  EXPECT_NE(html.find("</div>\n<!-- measured: end -->"), std::string::npos);
  data.flush();
  measured.flush();
  write(dir / "report.md", md);
  write(dir / "numbers.json", r.numbers().dump());
  write(dir / "measured" / "numbers.json", r.measured_numbers().dump());
  EXPECT_TRUE(check_report(dir).empty());
  // The measured data changed after the report was written: caught, naming the measured file.
  write(dir / "measured" / "t.json", R"({"ns": 80.0})");
  const auto problems = check_report(dir);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems[0].find("measured/t.json/ns"), std::string::npos) << problems[0];
  // A measured number that appears only outside the measured parts is caught too.
  write(dir / "measured" / "t.json", R"({"ns": 74.25})");
  std::string moved = md;
  moved.replace(moved.find("One core: 74.2 ns."), 18, "One core: ? ns.");
  write(dir / "report.md", "74.2\n" + moved);
  EXPECT_FALSE(check_report(dir).empty());
}
