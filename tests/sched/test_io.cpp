// The schedule JSON round-trips (problem + solution), the Gantt chart is well formed, robot graphs schedule.
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/io.hpp"
#include "neaccel/sched/source.hpp"

#include <gtest/gtest.h>

namespace neaccel::sched {
namespace {

TEST(Io, ScheduleJsonRoundTrips) {
  const auto g = random_dag(120, 9);
  Problem p;
  p.graph = &g;
  p.classes = default_classes(2, 3, 3, 2, true, false);
  p.max_registers = 500;
  auto s = list_schedule(p);
  allocate_registers(p, s);
  const auto j = to_json(p, s);
  const auto back = from_json(nlohmann::json::parse(j.dump()), "mem");
  EXPECT_EQ(to_json(back->problem, back->schedule), j);
  EXPECT_TRUE(verify(back->problem, back->schedule).empty());
  EXPECT_EQ(back->schedule.length, s.length);
}

TEST(Io, BadFilesGiveOneLineErrors) {
  const auto g = hal_diffeq();
  Problem p;
  p.graph = &g;
  p.classes = default_classes(1, 1, 1, 1);
  auto j = to_json(p, list_schedule(p));
  auto bad = j;
  bad["graph"]["nodes"][8]["args"] = {9, 1};  // operand after the node
  EXPECT_THROW(from_json(bad, "f.json"), Error);
  bad = j;
  bad["problem"]["classes"][0]["count"] = 0;
  try {
    from_json(bad, "f.json");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("count"), std::string::npos);
  }
  bad = j;
  bad["format"] = "other";
  EXPECT_THROW(from_json(bad, "f.json"), Error);
  EXPECT_THROW(load_graph("/nonexistent/graph.json"), Error);
  EXPECT_THROW(builtin_graph("nope"), Error);
}

TEST(Io, GanttAndUtilisation) {
  const auto g = hal_diffeq();
  Problem p;
  p.graph = &g;
  p.classes = default_classes(2, 1, 2, 1);
  const auto s = list_schedule(p);
  const auto svg = gantt_svg(p, s, "hal <test>");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_NE(svg.find("hal &lt;test&gt;"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  const auto use = utilisation(p, s);
  ASSERT_EQ(use.size(), 2u);
  EXPECT_EQ(use[0].ops, 6);  // HAL: 6 mul, 5 ALU ops
  EXPECT_EQ(use[1].ops, 5);
  EXPECT_EQ(use[0].capacity, 2L * s.length);
}

// Puma 560, general modified N-E graph, 7 + 7 unit-latency units: the list schedule is verified and within the
// bound (the n = 6 target is <= 80 cycles; see docs/scheduling.md for the bound on this graph).
TEST(Robot, Puma560GeneralSchedules) {
  const auto g = robot_graph("puma560", true);
  Problem p;
  p.graph = &g;
  p.classes = default_classes(7, 7, 1, 1);
  check(p);
  auto s = list_schedule(p);
  allocate_registers(p, s);
  EXPECT_TRUE(verify(p, s).empty());
  EXPECT_GE(s.length, lower_bound(p));
  EXPECT_LE(s.length, lower_bound(p) * 105 / 100);
  auto m = modulo_schedule(p);
  p.ii = m.ii;
  EXPECT_TRUE(verify(p, m).empty());
  EXPECT_EQ(m.ii, res_mii(p));
}

}  // namespace
}  // namespace neaccel::sched
