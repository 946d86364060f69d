// dp.design_dir.*: a design directory checks itself (hw::check_design_files, hw::check_design): a file changed
// together with the hash the manifest records for it, or a manifest field changed, is still caught against the
// design rebuilt from the manifest's spec; each error names the file or field.
#include "neaccel/hw/artifacts.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/hash.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace neaccel {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
}

// planar2 customised, fp32, 1 mul + 2 add (the design the CLI tests damage), written into a fresh directory.
struct DesignDir : ::testing::Test {
  hw::Design d;
  std::string dir, rtl = "/no-rtl-dir";
  void SetUp() override {
    hw::DesignSpec s;
    s.robot = "planar2";
    s.custom = true;
    s.mul = 1;
    s.add = 2;
    s.lat_mul = 2;
    s.lat_add = 1;
    d = hw::make_design(s);
    dir = (fs::temp_directory_path() / ("neaccel-design-dir-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name()))
              .string();
    fs::remove_all(dir);
    hw::write_artifacts(d, dir, rtl);
  }
  void TearDown() override { fs::remove_all(dir); }

  // Changes a file and records its new size and hash in the manifest, as a careful forger would.
  nlohmann::json forge(const std::string& rel, const std::string& text) {
    write(fs::path(dir) / rel, text);
    nlohmann::json m = hw::read_manifest(dir);
    m["checksums"][rel] = {{"bytes", text.size()}, {"fnv1a64", ref::fnv1a64_hex(text)}};
    write(fs::path(dir) / "manifest.json", m.dump(1) + "\n");
    return m;
  }

  // The message of the Error that check_design throws ("" when it throws none).
  std::string design_error(const nlohmann::json& m) {
    try {
      hw::check_design_files(dir, m);
      hw::check_design(d, dir, m, rtl);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
};

TEST_F(DesignDir, WrittenDesignPasses) {
  const nlohmann::json m = hw::read_manifest(dir);
  EXPECT_EQ(design_error(m), "");
  EXPECT_TRUE(m.at("checksums").contains("hex/const.hex"));
  EXPECT_TRUE(m.at("checksums").contains("rtl/nea_top.v"));
  EXPECT_EQ(m.at("checksums").size(), hw::artifact_files(d, rtl).size());
}

TEST_F(DesignDir, FlippedBitWithItsHashUpdatedIsCaught) {
  std::string text = read(fs::path(dir) / "hex/const.hex");
  ASSERT_FALSE(text.empty());
  text[0] = static_cast<char>(text[0] ^ 1);  // one bit of one byte
  const auto m = forge("hex/const.hex", text);
  const std::string e = design_error(m);
  EXPECT_NE(e.find("hex/const.hex: does not match the manifest's design"), std::string::npos) << e;
}

TEST_F(DesignDir, ChangedTopWithItsHashUpdatedIsCaught) {
  const auto m = forge("rtl/nea_top.v", read(fs::path(dir) / "rtl/nea_top.v") + "// changed\n");
  const std::string e = design_error(m);
  EXPECT_NE(e.find("rtl/nea_top.v: does not match the manifest's design"), std::string::npos) << e;
}

TEST_F(DesignDir, ChangedManifestFieldIsNamed) {
  nlohmann::json m = hw::read_manifest(dir);
  m["datapath"]["registers"] = m["datapath"]["registers"].get<int>() + 1;
  const std::string e = design_error(m);
  EXPECT_NE(e.find("manifest.json: datapath.registers: "), std::string::npos) << e;
  EXPECT_NE(e.find("the design rebuilt from the manifest's spec has"), std::string::npos) << e;
}

TEST_F(DesignDir, FileLeftOutOfTheChecksumsIsNamed) {
  nlohmann::json m = hw::read_manifest(dir);
  m["checksums"].erase("hex/in.hex");
  const std::string e = design_error(m);
  EXPECT_NE(e.find("checksums: no entry for hex/in.hex"), std::string::npos) << e;
}

TEST_F(DesignDir, PathOutsideTheDesignIsRefused) {
  nlohmann::json m = hw::read_manifest(dir);
  m["checksums"]["../manifest.json"] = {{"bytes", 1}, {"fnv1a64", "0000000000000000"}};
  const std::string e = design_error(m);
  EXPECT_NE(e.find("checksums: '../manifest.json' is not a file of the design directory"), std::string::npos) << e;
}

}  // namespace
}  // namespace neaccel
