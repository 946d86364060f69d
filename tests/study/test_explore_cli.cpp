// `neaccel explore` carries each point's time: explore.json and explore.csv of a small sweep written by
// the CTest fixture study.explore_cli_run (a planar arm, pipelined and not) are checked here against the formulas
// of docs/scheduling.md, recomputed from the point's own cycles and the cost model's period.
#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
const fs::path kDir = fs::path(NEACCEL_TEST_OUT) / "study_explore_cli";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream ss(line);
  for (std::string c; std::getline(ss, c, ',');) f.push_back(c);
  return f;
}
}  // namespace

TEST(StudyExploreCli, JsonPointsCarryTheirTime) {
  const json ex = json::parse(read(kDir / "explore.json"));
  const json& points = ex["points"];
  ASSERT_EQ(points.size(), 8u);  // 2 mul x 2 add x pipelined/not
  int streaming = 0, latency = 0;
  for (const auto& r : points) {
    SCOPED_TRACE(r.dump());
    const double period = r["period_ns"];
    ASSERT_GT(period, 0.0);
    // planar2, inverse dynamics: per joint s, c, qd, qdd in; one torque out.
    EXPECT_EQ(r["eval_cycles"].get<int>(), r["length"].get<int>() + 8 + 2 + 2);
    EXPECT_NEAR(r["latency_ns"].get<double>(), r["eval_cycles"].get<double>() * period, 1e-9 * r["latency_ns"].get<double>());
    const double per_set_point = r["ii"].get<int>() > 0 ? std::max(r["ii"].get<int>(), 8) : r["eval_cycles"].get<int>();
    EXPECT_EQ(r["set_point_cycles"].get<double>(), per_set_point);
    EXPECT_NEAR(r["throughput_per_s"].get<double>(), 1e9 / (per_set_point * r["throughput_period_ns"].get<double>()),
                1e-9 * r["throughput_per_s"].get<double>());
    (r["throughput_mode"] == "streaming" ? streaming : latency)++;
    EXPECT_EQ(r["throughput_mode"] == "streaming", r["pipelined"].get<bool>()) << "only pipelined points have a modulo schedule";
  }
  EXPECT_EQ(streaming, 4);
  EXPECT_EQ(latency, 4);
}

TEST(StudyExploreCli, CsvHasTheTimeColumns) {
  std::istringstream csv(read(kDir / "explore.csv"));
  std::string header, line;
  ASSERT_TRUE(std::getline(csv, header));
  const auto cols = split(header);
  auto col = [&](const std::string& name) {
    const auto it = std::find(cols.begin(), cols.end(), name);
    return it == cols.end() ? -1 : static_cast<int>(it - cols.begin());
  };
  for (const char* c : {"period_ns", "latency_ns", "throughput_per_s", "eval_cycles", "area_cells"}) ASSERT_GE(col(c), 0) << c;
  int rows = 0;
  while (std::getline(csv, line)) {
    const auto f = split(line);
    ASSERT_EQ(f.size(), cols.size()) << line;
    const double lat = std::stod(f[static_cast<std::size_t>(col("latency_ns"))]);
    const double cycles = std::stod(f[static_cast<std::size_t>(col("eval_cycles"))]);
    const double expect = cycles * std::stod(f[static_cast<std::size_t>(col("period_ns"))]);
    // The CSV keeps 4 decimals of each: the period's rounding (<= 5e-5 ns) times the cycles, plus the latency's own.
    EXPECT_NEAR(lat, expect, cycles * 5e-5 + 5e-5) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 8);
}
