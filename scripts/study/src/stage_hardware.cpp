// Stages 5-7: named design points, their RTL, co-simulation and synthesis.
#include "context.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

namespace neaccel::study {

namespace {
using nlohmann::json;

// The named designs of issue 6, chosen on the customised graph: fastest (fewest cycles, then smallest area),
// smallest within 10% of the fastest, best throughput per area (1 / (II * area)).
json choose(const json& rows, double max_area) {
  auto ok = [&](const json& r) { return r["flavour"] == "custom" && r["verified"].get<bool>() && (max_area <= 0 || r["area"].get<double>() <= max_area); };
  std::ptrdiff_t fastest = -1, smallest = -1, best_tpa = -1;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!ok(rows[i])) continue;
    const auto& r = rows[i];
    if (fastest < 0 || std::make_pair(r["cycles"].get<int>(), r["area"].get<double>()) <
                           std::make_pair(rows[static_cast<std::size_t>(fastest)]["cycles"].get<int>(), rows[static_cast<std::size_t>(fastest)]["area"].get<double>()))
      fastest = static_cast<std::ptrdiff_t>(i);
  }
  if (fastest < 0) throw Error(fmt::format("study: no verified design fits the budget of {} cells", max_area));
  const int fast_cycles = rows[static_cast<std::size_t>(fastest)]["cycles"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!ok(rows[i])) continue;
    const auto& r = rows[i];
    if (r["cycles"].get<int>() * 10 <= fast_cycles * 11 &&
        (smallest < 0 || r["area"].get<double>() < rows[static_cast<std::size_t>(smallest)]["area"].get<double>()))
      smallest = static_cast<std::ptrdiff_t>(i);
    auto tpa = [&](const json& x) { return 1.0 / (x["ii"].get<double>() * x["area"].get<double>()); };
    if (best_tpa < 0 || tpa(r) > tpa(rows[static_cast<std::size_t>(best_tpa)])) best_tpa = static_cast<std::ptrdiff_t>(i);
  }
  json out = json::array();
  out.push_back({{"name", "fastest"}, {"point", fastest}, {"objective", "latency"}});
  out.push_back({{"name", "smallest within 10%"}, {"point", smallest}, {"objective", "latency"}});
  out.push_back({{"name", "best throughput per area"}, {"point", best_tpa}, {"objective", "throughput"}});
  return out;
}
}  // namespace

void stage_designs(Context& ctx) {
  ctx.progress.stage("Design choice");
  const json& rows = ctx.data.at("explore")["points"];
  json designs = choose(rows, ctx.opt.max_area);
  for (auto& d : designs) d["explore"] = rows[d["point"].get<std::size_t>()];
  ctx.data.put("designs", {{"designs", designs}});
  Report& r = ctx.report;
  r.heading(2, "5. Chosen designs");
  r.para("Three named points of the customised graph's exploration:");
  std::vector<std::vector<Cell>> t;
  for (std::size_t i = 0; i < designs.size(); ++i) {
    const std::string p = "/designs/" + std::to_string(i);
    t.push_back({r.num("designs", p + "/name"), r.num("designs", p + "/explore/mul"), r.num("designs", p + "/explore/add"),
                 r.num("designs", p + "/explore/lat_mul"), r.num("designs", p + "/explore/lat_add"),
                 r.num("designs", p + "/explore/pipelined"), r.num("designs", p + "/explore/cycles"),
                 r.num("designs", p + "/explore/ii"), r.num("designs", p + "/explore/registers"),
                 r.num("designs", p + "/explore/area", 0)});
  }
  r.table({"design", "mul", "add", "lat mul", "lat add", "pipelined", "cycles", "II", "registers", "area (cells)"}, t);
  ctx.progress.done(fmt::format("fastest: {} cycles", designs[0]["explore"]["cycles"].get<int>()));
}

void stage_verify(Context& ctx) {
  ctx.progress.stage("Verification");
  ctx.fail("verification: the datapath generator is not in this build yet");
  ctx.progress.done("not available");
}

void stage_synthesis(Context& ctx) {
  ctx.progress.stage("Synthesis");
  ctx.fail("synthesis: the datapath generator is not in this build yet");
  ctx.progress.done("not available");
}

}  // namespace neaccel::study
