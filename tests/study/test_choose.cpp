// The study's choice of its three designs (choose.hpp) on made-up exploration rows: only what fits the device and
// lies within what has routed on it is chosen, the throughput pick's own design must fit too, and when nothing lies
// within what has routed the choice falls back to what fits and says so.
#include "neaccel/study/choose.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

using nlohmann::json;

namespace {

// One explored point on a device target: latency in ns, LUT4, throughput per LUT4 on the device (and per generic
// cell, half of it unless given), and the device fit flags.
json row(double latency_ns, double lut, double tpa, bool fits, bool routable, bool throughput_routable = true,
         double tpa_cell = -1) {
  return {{"flavour", "custom"}, {"verified", true}, {"area", lut * 2}, {"latency_ns", latency_ns},
          {"throughput_per_s_per_cell", tpa_cell >= 0 ? tpa_cell : tpa / 2},
          {"target",
           {{"latency", {{"lut", lut}, {"fits", fits}, {"routable", routable}}},
            {"within_budget", fits && routable},
            {"fits_budget", fits},
            {"throughput_within_budget", fits && routable && throughput_routable},
            {"throughput_per_s_per_lut", tpa}}}};
}

int pick(const json& out, int k) { return out[static_cast<std::size_t>(k)]["point"].get<int>(); }

}  // namespace

TEST(StudyChoice, OnlyRoutablePointsAreChosen) {
  // 0: fastest but beyond what has routed; 1: fits and routes; 2: slower, smaller, routes; 3: the best throughput
  // per area but its streaming design is beyond what has routed; 4: does not fit at all.
  // Throughput per LUT4 above any latency datapath's (1e9 / 2100 / 10000 = 47.6 at most), so the throughput designs
  // decide.
  const json rows = json::array({row(1000, 70000, 90, true, false), row(2000, 30000, 50, true, true),
                                 row(2100, 10000, 60, true, true), row(2500, 20000, 100, true, true, false),
                                 row(500, 90000, 200, false, false)});
  const json out = neaccel::study::choose_designs(rows, 0, false);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(pick(out, 0), 1);  // fastest that routes
  EXPECT_EQ(pick(out, 1), 2);  // smallest within 10 % of 2000 ns
  EXPECT_EQ(pick(out, 2), 2);  // best throughput per area whose throughput design routes (3 is left out)
  EXPECT_EQ(out[2]["objective"], "throughput");
  for (const auto& d : out) EXPECT_FALSE(d.contains("beyond_routed")) << d.dump();
}

// On a device, best throughput per area counts the device's LUT4 (as "smallest" does), not the generic cells: the
// two disagree where the cells-to-LUT4 ratio differs between designs (the default study's top streaming designs
// differ by 5 % either way). Without a device (no "target" in the rows), the generic cells.
TEST(StudyChoice, ThroughputPerAreaCountsTheDevicesLut4) {
  // Above the latency datapaths' 19 per LUT4 and 9.5 per cell, so the throughput designs decide.
  json rows = json::array({row(2000, 30000, 100, true, true, true, 50), row(2100, 25000, 90, true, true, true, 60)});
  EXPECT_EQ(pick(neaccel::study::choose_designs(rows, 0, false), 2), 0);
  for (auto& r : rows) r.erase("target");
  EXPECT_EQ(pick(neaccel::study::choose_designs(rows, 0, false), 2), 1);
}

// A point's latency datapath competes for best throughput per area: one set point per evaluation (1e9 / latency_ns)
// on its LUT4. Here point 0's streaming design gives 10 set points/s per LUT4, but point 1's latency datapath
// 1e9 / 2000 / 25000 = 20: the pick is point 1 as a latency design.
TEST(StudyChoice, ALatencyDatapathCanBeTheBestThroughputPerArea) {
  const json rows = json::array({row(2100, 30000, 10, true, true), row(2000, 25000, 5, true, true)});
  const json out = neaccel::study::choose_designs(rows, 0, false);
  EXPECT_EQ(pick(out, 2), 1);
  EXPECT_EQ(out[2]["objective"], "latency");
  // Where the streaming design gives more (40 > 1e9 / 2100 / 30000 = 15.9), it is the pick, as a throughput design.
  const json rows2 = json::array({row(2100, 30000, 40, true, true), row(2000, 25000, 5, true, true)});
  const json out2 = neaccel::study::choose_designs(rows2, 0, false);
  EXPECT_EQ(pick(out2, 2), 0);
  EXPECT_EQ(out2[2]["objective"], "throughput");
}

TEST(StudyChoice, FallsBackToWhatFitsWhenNothingHasRouted) {
  const json rows = json::array({row(1000, 70000, 90, true, false), row(900, 60000, 40, true, false),
                                 row(500, 90000, 200, false, false)});
  const json out = neaccel::study::choose_designs(rows, 0, false);
  EXPECT_EQ(pick(out, 0), 1);
  EXPECT_EQ(pick(out, 2), 0);
  for (const auto& d : out) EXPECT_TRUE(d.value("beyond_routed", false)) << d.dump();
}

TEST(StudyChoice, NothingThatFitsIsAnError) {
  const json rows = json::array({row(500, 90000, 20, false, false)});
  try {
    (void)neaccel::study::choose_designs(rows, 0, false);
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    EXPECT_STREQ(e.what(), "study: no verified design fits the device (--target)");
  }
  try {
    (void)neaccel::study::choose_designs(rows, 0, true);
    FAIL() << "no error";
  } catch (const neaccel::Error& e) {
    EXPECT_STREQ(e.what(), "study: no verified design fits the device within --budget-lut/--budget-dsp");
  }
}

// The shortlist the study costs as generated before it chooses: the hardwired rows among the first k by each
// objective (latency; LUT4 within 10 % of the fastest latency; a latency datapath's set points per second per LUT4),
// among the rows that fit the device whether or not they lie within what has routed (the generated binding's
// narrower multiplexers can bring a row inside); microcoded rows, rows that do not fit and the general flavour are
// never on it.
TEST(StudyChoice, ShortlistTakesTheFirstHardwiredRowsByEachObjective) {
  auto hw = [](json r) {
    r["arch"] = "hardwired";
    return r;
  };
  json rows = json::array({
      hw(row(1000, 40000, 1, true, true)),   // 0: fastest
      hw(row(1050, 30000, 1, true, false)),  // 1: second fastest, smallest within 10 %; beyond what has routed
      hw(row(2000, 5000, 1, true, true)),    // 2: best latency datapath per LUT4 (1e9 / 2000 / 5000 = 100)
      hw(row(3000, 50000, 1, true, true)),   // 3: last by every objective
      row(1000, 10000, 1, true, true),       // 4: microcoded: as fast, smaller; never on the list
      hw(row(800, 1000, 1, false, false)),   // 5: does not fit the device
  });
  rows[4]["arch"] = "microcoded";
  json general = hw(row(950, 1000, 1, true, true));
  general["flavour"] = "general";
  rows.push_back(general);  // 6
  using V = std::vector<std::size_t>;
  EXPECT_EQ(neaccel::study::choice_shortlist(rows, 0, 1), (V{0, 1, 2}));
  EXPECT_EQ(neaccel::study::choice_shortlist(rows, 0, 2), (V{0, 1, 2}));
  EXPECT_EQ(neaccel::study::choice_shortlist(rows, 0, 3), (V{0, 1, 2}));
  EXPECT_EQ(neaccel::study::choice_shortlist(rows, 0, 4), (V{0, 1, 2, 3}));
  EXPECT_EQ(neaccel::study::choice_shortlist(rows, 0, 0), V{});
  // --budget (generic cells, twice the LUT4 here): row 0 (80,000 cells) is out, row 1 the fastest.
  EXPECT_EQ(neaccel::study::choice_shortlist(rows, 70000, 1), (V{1, 2}));
}

// The bound the study checks its choice against once it stands on re-costed rows: a row whose most favourable cost
// (its bound) could displace one of the three picks is a contender, to be costed as generated; one whose bound
// cannot, or does not fit the device, is not.
TEST(StudyChoice, ContendersAreTheRowsWhoseBoundCouldDisplaceAPick) {
  // Picks: 0 fastest (1000 ns), 1 smallest within 10 % (20,000 LUT4 at 1050 ns), 2 best throughput per area as a
  // latency datapath (1e9 / 2000 / 5000 = 100 per LUT4). Throughput per LUT4 of their throughput designs below that.
  const json rows = json::array({row(1000, 40000, 1, true, true), row(1050, 20000, 1, true, true),
                                 row(2000, 5000, 1, true, true), row(3000, 9000, 1, true, true)});
  const json picks = neaccel::study::choose_designs(rows, 0, false);
  ASSERT_EQ(pick(picks, 0), 0);
  ASSERT_EQ(pick(picks, 1), 1);
  ASSERT_EQ(pick(picks, 2), 2);
  using V = std::vector<std::size_t>;
  auto contenders = [&](const std::map<std::size_t, json>& bounds) {
    return neaccel::study::choice_contenders(rows, picks, bounds, 0);
  };
  // Row 3's bound: faster than the fastest; within 10 % and smaller than the smallest; more per LUT4 (1e9 / 2500 /
  // 3000 = 133); none of these; and faster but not fitting the device, or only fitting where the picks route.
  EXPECT_EQ(contenders({{3, row(990, 9000, 1, true, true)}}), V{3});
  EXPECT_EQ(contenders({{3, row(1090, 19000, 1, true, true)}}), V{3});
  EXPECT_EQ(contenders({{3, row(2500, 3000, 1, true, true)}}), V{3});
  EXPECT_EQ(contenders({{3, row(2500, 9000, 1, true, true)}}), V{});
  EXPECT_EQ(contenders({{3, row(1110, 15000, 1, true, true)}}), V{}) << "smaller, but beyond 10 % of the fastest";
  EXPECT_EQ(contenders({{3, row(990, 9000, 1, false, false)}}), V{});
  EXPECT_EQ(contenders({{3, row(990, 9000, 1, true, false)}}), V{}) << "fits, but beyond what has routed";
  EXPECT_EQ(neaccel::study::choice_contenders(rows, picks, {{3, row(990, 9000, 1, true, true)}}, 10000), V{})
      << "beyond --budget (18,000 generic cells)";
  EXPECT_EQ(contenders({{0, row(990, 9000, 1, true, true)}, {3, row(2500, 3000, 1, true, true)}}), (V{0, 3}));
}
