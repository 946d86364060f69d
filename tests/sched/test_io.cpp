// The schedule JSON round-trips (problem + solution), the Gantt chart is well formed, robot graphs schedule.
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"
#include "neaccel/sched/io.hpp"
#include "neaccel/sched/source.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

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

// Each kind of bad schedule JSON gives its own one-line message naming the field (the messages were untested; the
// type and range cases were found by fuzzing, fuzz/README.md).
TEST(Io, BadScheduleJsonMessages) {
  const auto g = hal_diffeq();
  Problem p;
  p.graph = &g;
  p.classes = default_classes(1, 1, 1, 1);
  const auto good = to_json(p, list_schedule(p));
  const auto message = [&](const std::function<void(nlohmann::json&)>& edit) {
    auto bad = good;
    edit(bad);
    try {
      (void)from_json(bad, "f.json");
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_EQ(m.find('\n'), std::string::npos) << m;
      return m;
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(message([](auto& j) { j["format"] = 7; }), "f.json: format: not a neaccel-schedule file");
  EXPECT_EQ(message([](auto& j) { j["version"] = "1"; }), "f.json: version: unsupported (need 1)");
  EXPECT_EQ(message([](auto& j) { j["version"] = 2; }), "f.json: version: unsupported (need 1)");
  EXPECT_EQ(message([](auto& j) { j.erase("problem"); }), "f.json.problem: missing");
  EXPECT_EQ(message([](auto& j) { j["problem"]["ii"] = "0"; }), "f.json: problem.ii: wrong type or out of range");
  EXPECT_EQ(message([](auto& j) { j["problem"]["ii"] = 1.5; }), "f.json: problem.ii: wrong type or out of range");
  EXPECT_EQ(message([](auto& j) { j["problem"]["ii"] = 4294967296.0; }),
            "f.json: problem.ii: wrong type or out of range");
  EXPECT_EQ(message([](auto& j) { j["problem"]["ii"] = 4294967296LL; }),
            "f.json: problem.ii: wrong type or out of range");
  EXPECT_EQ(message([](auto& j) { j["schedule"]["reg"] = {1, "x"}; }),
            "f.json: schedule.reg: wrong type or out of range");
  EXPECT_EQ(message([](auto& j) { j["schedule"]["slots"][0] = {0, 1}; }),
            "f.json: schedule.slots[]: need [start, cls, instance]");
  EXPECT_EQ(message([](auto& j) { j["schedule"]["slots"][2] = {0, "a", 0}; }),
            "f.json: schedule.slots[2]: need three integers [start, cls, instance]");
  EXPECT_EQ(message([](auto& j) { j["problem"]["classes"][0]["ops"] = {"mul", "pow"}; }),
            "f.json: problem.classes[].ops: unknown op 'pow'");
  auto deep = nlohmann::json::array();
  for (int k = 0; k < 70; ++k) deep = nlohmann::json::array({deep});
  EXPECT_EQ(message([&](auto& j) { j["extra"] = deep; }), "f.json: JSON nested deeper than 64");
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
  const auto g = dfg::robot_graph("puma560", true);
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
