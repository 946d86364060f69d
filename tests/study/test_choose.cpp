// The study's choice of its three designs (choose.hpp) on made-up exploration rows: only what fits the device and
// lies within what has routed on it is chosen, the throughput pick's own design must fit too, and when nothing lies
// within what has routed the choice falls back to what fits and says so.
#include "neaccel/study/choose.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

using nlohmann::json;

namespace {

// One explored point on a device target: latency in ns, LUT4, throughput per cell, and the device fit flags.
json row(double latency_ns, double lut, double tpa, bool fits, bool routable, bool throughput_routable = true) {
  return {{"flavour", "custom"}, {"verified", true}, {"area", lut * 2}, {"latency_ns", latency_ns},
          {"throughput_per_s_per_cell", tpa},
          {"target",
           {{"latency", {{"lut", lut}, {"fits", fits}, {"routable", routable}}},
            {"within_budget", fits && routable},
            {"fits_budget", fits},
            {"throughput_within_budget", fits && routable && throughput_routable}}}};
}

int pick(const json& out, int k) { return out[static_cast<std::size_t>(k)]["point"].get<int>(); }

}  // namespace

TEST(StudyChoice, OnlyRoutablePointsAreChosen) {
  // 0: fastest but beyond what has routed; 1: fits and routes; 2: slower, smaller, routes; 3: the best throughput
  // per area but its streaming design is beyond what has routed; 4: does not fit at all.
  const json rows = json::array({row(1000, 70000, 9, true, false), row(2000, 30000, 2, true, true),
                                 row(2100, 10000, 3, true, true), row(2500, 20000, 8, true, true, false),
                                 row(500, 90000, 20, false, false)});
  const json out = neaccel::study::choose_designs(rows, 0, false);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(pick(out, 0), 1);  // fastest that routes
  EXPECT_EQ(pick(out, 1), 2);  // smallest within 10 % of 2000 ns
  EXPECT_EQ(pick(out, 2), 2);  // best throughput per area whose throughput design routes (3 is left out)
  for (const auto& d : out) EXPECT_FALSE(d.contains("beyond_routed")) << d.dump();
}

TEST(StudyChoice, FallsBackToWhatFitsWhenNothingHasRouted) {
  const json rows = json::array({row(1000, 70000, 9, true, false), row(900, 60000, 4, true, false),
                                 row(500, 90000, 20, false, false)});
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
