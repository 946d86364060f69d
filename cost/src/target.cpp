#include "neaccel/cost/target.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/ref/error.hpp"

#include <map>

namespace neaccel::cost {

// cost/targets/*.json, embedded by cost/CMakeLists.txt (one "name\x1ftext" entry per file, kTargetCount of them).
extern const char* const kTargetJson[];
extern const int kTargetCount;

namespace {

Target parse(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  Target t;
  try {
    t.name = j.at("name").get<std::string>();
    t.kind = j.value("kind", std::string("fpga"));
    t.part = j.at("part").get<std::string>();
    t.family = j.at("family").get<std::string>();
    t.yosys = j.at("yosys").at("program").get<std::string>();
    if (t.kind == "asic") {
      // A standard-cell library: no device to place on, no resources; the liberty file, the timing tool.
      t.liberty = j.at("liberty").get<std::string>();
      t.sta = j.at("sta").at("program").get<std::string>();
      t.data = j;
      return t;
    }
    if (t.kind != "fpga") throw Error("cost/targets/" + t.name + ".json: kind must be fpga or asic (got '" + t.kind + "')");
    t.synth = j.at("yosys").at("synth").get<std::string>();
    t.nextpnr = j.at("nextpnr").at("program").get<std::string>();
    t.device = j.at("nextpnr").at("device").get<std::string>();
    t.package = j.at("nextpnr").at("package").get<std::string>();
    t.speed = j.at("nextpnr").value("speed", std::string());
    const auto& r = j.at("resources");
    t.lut = r.at("lut").get<long>();
    t.ff = r.at("ff").get<long>();
    t.dsp = r.at("dsp").get<long>();
    t.bram = r.at("bram").get<long>();
    t.io = r.at("io").get<long>();
    t.report_cells = j.at("report_cells");
  } catch (const nlohmann::json::exception& e) {
    throw Error("cost/targets/" + j.value("name", std::string("?")) + ".json: " + json_problem(e));
  }
  if (t.family != "ice40" && t.family != "ecp5")
    throw Error("cost/targets/" + t.name + ".json: family must be ice40 or ecp5 (got '" + t.family + "')");
  t.data = j;
  return t;
}

const std::map<std::string, Target>& all() {
  static const std::map<std::string, Target> targets = [] {
    std::map<std::string, Target> m;
    for (int i = 0; i < kTargetCount; ++i) {
      Target t = parse(kTargetJson[i]);
      m.emplace(t.name, std::move(t));
    }
    return m;
  }();
  return targets;
}

}  // namespace

std::vector<std::string> target_names() {
  std::vector<std::string> v;
  for (const auto& [k, t] : all()) v.push_back(k);
  return v;
}

const Target& target(const std::string& name) {
  const auto& m = all();
  if (auto it = m.find(name); it != m.end()) return it->second;
  std::string list;
  for (const auto& n : target_names()) list += (list.empty() ? "" : ", ") + n;
  throw Error("--target: unknown target '" + name + "' (" + list + ")");
}

const Target& default_target(double lut) {
  const Target& small = target("ice40-hx8k");
  return lut <= static_cast<double>(small.lut) ? small : target("ecp5-85f");
}

}  // namespace neaccel::cost
