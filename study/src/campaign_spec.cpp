// The campaign file (docs/campaign.md): YAML read with yaml-cpp, every field checked, one-line errors naming the
// file and the field ("c.yaml: designs.verify[1]: 'spice' (systemc, verilator, cosim)").
#include "campaign_internal.hpp"

#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace neaccel::study {
namespace {

struct Reader {
  std::string file;
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw Error(fmt::format("{}: {}: {}", file, field, what));
  }
  void only(const YAML::Node& n, const std::string& field, const std::set<std::string>& keys) const {
    if (!n.IsMap()) fail(field.empty() ? "(top level)" : field, "expected a mapping");
    for (const auto& kv : n) {
      const std::string k = kv.first.as<std::string>();
      if (!keys.count(k)) {
        std::string known;
        for (const auto& x : keys) known += (known.empty() ? "" : ", ") + x;
        fail(field.empty() ? k : field + "." + k, "unknown field (known: " + known + ")");
      }
    }
  }
  std::string scalar(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar()) fail(field, "expected a value");
    return n.as<std::string>();
  }
  int integer(const YAML::Node& n, const std::string& field, int lo, int hi) const {
    const std::string s = scalar(n, field);
    std::size_t used = 0;
    long v = 0;
    try {
      v = std::stol(s, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != s.size() || s.empty()) fail(field, "'" + s + "' is not an integer");
    if (v < lo || v > hi) fail(field, fmt::format("{} (must be {}..{})", v, lo, hi));
    return static_cast<int>(v);
  }
  bool boolean(const YAML::Node& n, const std::string& field) const {
    const std::string s = scalar(n, field);
    if (s == "true" || s == "yes") return true;
    if (s == "false" || s == "no") return false;
    fail(field, "'" + s + "' (true or false)");
  }
  // A list of words from a sequence (or a single scalar), each one of `allowed` (when not empty).
  std::vector<std::string> words(const YAML::Node& n, const std::string& field, const std::vector<std::string>& allowed) const {
    std::vector<std::string> out;
    auto one = [&](const YAML::Node& x, const std::string& f) {
      const std::string w = scalar(x, f);
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), w) == allowed.end()) {
        std::string a;
        for (const auto& s : allowed) a += (a.empty() ? "" : ", ") + s;
        fail(f, "'" + w + "' (" + a + ")");
      }
      if (std::find(out.begin(), out.end(), w) != out.end()) fail(f, "'" + w + "' listed twice");
      out.push_back(w);
    };
    if (n.IsSequence()) {
      for (std::size_t i = 0; i < n.size(); ++i) one(n[i], fmt::format("{}[{}]", field, i));
    } else {
      one(n, field);
    }
    if (out.empty()) fail(field, "empty list");
    return out;
  }
  // "1-4,8", a number, or a list of numbers -> the explore option's text, checked (values >= lo, ascending ranges).
  std::string range(const YAML::Node& n, const std::string& field, int lo, int hi) const {
    std::string text;
    if (n.IsSequence()) {
      for (std::size_t i = 0; i < n.size(); ++i)
        text += (i ? "," : "") + std::to_string(integer(n[i], fmt::format("{}[{}]", field, i), lo, hi));
    } else {
      text = scalar(n, field);
    }
    std::stringstream ss(text);
    int count = 0;
    for (std::string part; std::getline(ss, part, ',');) {
      int a = 0, b = 0;
      char dash = 0, extra = 0;
      std::istringstream in(part);
      if (!(in >> a)) fail(field, "'" + part + "' is not a number or range (e.g. 1-4,8)");
      b = a;
      if (in >> dash && (dash != '-' || !(in >> b))) fail(field, "'" + part + "' is not a number or range (e.g. 1-4,8)");
      if (in >> extra) fail(field, "'" + part + "' is not a number or range (e.g. 1-4,8)");
      if (a < lo || b > hi || b < a) fail(field, fmt::format("'{}' (values {}..{}, ranges ascending)", part, lo, hi));
      count += b - a + 1;
    }
    if (count == 0) fail(field, "empty");
    return text;
  }
};

const std::vector<std::string> kFlavours = {"general", "general-dh", "custom"};
const std::vector<std::string> kArchs = {"microcoded", "hardwired"};
const std::vector<std::string> kChoices = {"fastest", "smallest-within-10%", "best-throughput-per-area", "smallest"};
const std::vector<std::string> kEngines = {"systemc", "verilator", "cosim"};

void check_format(const Reader& r, const std::string& f, const std::string& field) {
  if (f == "fp32") return;
  int i = 0, fr = 0;
  char dot = 0, extra = 0;
  std::istringstream in(f.rfind("fixed:", 0) == 0 ? f.substr(6) : std::string("x"));
  if (!(in >> i >> dot >> fr) || dot != '.' || (in >> extra) || i < 1 || fr < 0 || i + fr > 64)
    r.fail(field, "'" + f + "' (fp32 or fixed:I.F, e.g. fixed:16.16)");
}

}  // namespace

CampaignSpec read_campaign_spec(const std::string& path) {
  Reader r{path};
  YAML::Node root;
  {
    check_file_size(path);
    std::ifstream in(path);
    if (!in) throw Error(path + ": cannot read the campaign file");
    std::stringstream ss;
    ss << in.rdbuf();
    try {
      root = YAML::Load(ss.str());
    } catch (const YAML::Exception& e) {
      throw Error(fmt::format("{}: line {}: not YAML: {}", path, e.mark.line + 1, e.msg));
    }
  }
  if (!root || root.IsNull()) throw Error(path + ": empty campaign file");
  r.only(root, "", {"name", "robots", "flavours", "formats", "units", "latencies", "pipelined", "architectures",
                    "target", "explore", "designs"});
  CampaignSpec s;
  if (!root["name"]) r.fail("name", "missing");
  s.name = r.scalar(root["name"], "name");
  if (s.name.empty() || s.name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != std::string::npos)
    r.fail("name", "'" + s.name + "' (letters, digits, - _ . only: it names Slurm jobs)");
  if (!root["robots"]) r.fail("robots", "missing");
  const YAML::Node robots = root["robots"];
  if (!robots.IsSequence() || robots.size() == 0) r.fail("robots", "expected a non-empty list");
  const fs::path base = fs::absolute(path).parent_path();
  std::set<std::string> names;
  for (std::size_t i = 0; i < robots.size(); ++i) {
    const std::string field = fmt::format("robots[{}]", i);
    const YAML::Node n = robots[i];
    CampaignRobot rb;
    if (n.IsScalar()) {
      rb.name = rb.spec = n.as<std::string>();
    } else if (n.IsMap() && n["file"]) {
      r.only(n, field, {"file", "name"});
      const std::string f = r.scalar(n["file"], field + ".file");
      const fs::path p = fs::path(f).is_absolute() ? fs::path(f) : base / f;
      if (!fs::exists(p)) r.fail(field + ".file", "'" + f + "' does not exist (relative to the campaign file)");
      rb.spec = p.lexically_normal().string();
      rb.name = n["name"] ? r.scalar(n["name"], field + ".name") : fs::path(f).stem().string();
    } else if (n.IsMap() && n["random"]) {
      r.only(n, field, {"random", "name"});
      const YAML::Node rn = n["random"];
      r.only(rn, field + ".random", {"links", "seed"});
      if (!rn["links"]) r.fail(field + ".random.links", "missing");
      const int links = r.integer(rn["links"], field + ".random.links", 1, 12);
      const int seed = rn["seed"] ? r.integer(rn["seed"], field + ".random.seed", 0, 1000000000) : 1;
      rb.spec = fmt::format("random:{}:{}", links, seed);
      rb.name = n["name"] ? r.scalar(n["name"], field + ".name") : rb.spec;
    } else {
      r.fail(field, "expected a robot name, {file: PATH} or {random: {links: N, seed: S}}");
    }
    if (rb.spec.find(',') != std::string::npos || rb.spec.find('\'') != std::string::npos)
      r.fail(field, "'" + rb.spec + "': robot paths may not contain commas or quotes");
    if (!names.insert(rb.name).second) r.fail(field, "robot '" + rb.name + "' listed twice");
    try {
      (void)ref::load_robot(rb.spec);  // built-in name known, file readable and valid, random arm well formed
    } catch (const Error& e) {
      r.fail(field, e.what());
    }
    s.robots.push_back(rb);
  }
  s.flavours = root["flavours"] ? r.words(root["flavours"], "flavours", kFlavours) : std::vector<std::string>{"custom"};
  s.formats = root["formats"] ? r.words(root["formats"], "formats", {}) : std::vector<std::string>{"fp32"};
  for (std::size_t i = 0; i < s.formats.size(); ++i) check_format(r, s.formats[i], fmt::format("formats[{}]", i));
  s.architectures = root["architectures"] ? r.words(root["architectures"], "architectures", kArchs)
                                          : std::vector<std::string>{"microcoded"};
  if (root["target"]) {
    s.target = r.scalar(root["target"], "target");
    const auto names = cost::target_names();
    if (std::find(names.begin(), names.end(), s.target) == names.end()) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      r.fail("target", "unknown target '" + s.target + "' (" + list + ")");
    }
  }
  if (root["units"]) {
    r.only(root["units"], "units", {"mul", "add"});
    if (root["units"]["mul"]) s.mul = r.range(root["units"]["mul"], "units.mul", 1, 64);
    if (root["units"]["add"]) s.add = r.range(root["units"]["add"], "units.add", 1, 64);
  }
  if (root["latencies"]) {
    r.only(root["latencies"], "latencies", {"mul", "add"});
    if (root["latencies"]["mul"]) s.lat_mul = r.range(root["latencies"]["mul"], "latencies.mul", 1, 6);
    if (root["latencies"]["add"]) s.lat_add = r.range(root["latencies"]["add"], "latencies.add", 1, 6);
  }
  if (root["pipelined"]) s.pipelined = r.range(root["pipelined"], "pipelined", 0, 1);
  if (root["explore"]) {
    r.only(root["explore"], "explore", {"shards", "restarts"});
    if (root["explore"]["shards"]) s.shards = r.integer(root["explore"]["shards"], "explore.shards", 1, 10000);
    if (root["explore"]["restarts"]) s.restarts = r.integer(root["explore"]["restarts"], "explore.restarts", 0, 1000);
  }
  s.choose = {"fastest", "smallest-within-10%", "best-throughput-per-area"};
  s.engines = {"systemc"};
  if (root["designs"]) {
    const YAML::Node d = root["designs"];
    r.only(d, "designs", {"choose", "verify", "states", "synthesise", "place_and_route"});
    if (d["choose"]) s.choose = r.words(d["choose"], "designs.choose", kChoices);
    if (d["verify"]) s.engines = r.words(d["verify"], "designs.verify", kEngines);
    if (d["states"]) s.states = r.integer(d["states"], "designs.states", 1, 100000);
    if (d["synthesise"]) s.synthesise = r.boolean(d["synthesise"], "designs.synthesise");
    if (d["place_and_route"]) s.place_and_route = r.boolean(d["place_and_route"], "designs.place_and_route");
    if (s.place_and_route && !s.synthesise) r.fail("designs.place_and_route", "needs designs.synthesise: true");
  }
  return s;
}

nlohmann::json CampaignSpec::to_json() const {
  nlohmann::json rb = nlohmann::json::array();
  for (const auto& r : robots) rb.push_back({{"name", r.name}, {"spec", r.spec}});
  return {{"name", name}, {"robots", rb}, {"flavours", flavours}, {"formats", formats},
          {"architectures", architectures}, {"mul", mul}, {"add", add}, {"lat_mul", lat_mul}, {"lat_add", lat_add},
          {"pipelined", pipelined}, {"shards", shards}, {"restarts", restarts}, {"choose", choose},
          {"verify", engines}, {"states", states}, {"synthesise", synthesise}, {"place_and_route", place_and_route},
          {"target", target}};
}

CampaignSpec campaign_spec_from_json(const nlohmann::json& j) {
  CampaignSpec s;
  s.name = j.at("name");
  for (const auto& r : j.at("robots")) s.robots.push_back({r.at("name"), r.at("spec")});
  s.flavours = j.at("flavours").get<std::vector<std::string>>();
  s.formats = j.at("formats").get<std::vector<std::string>>();
  s.architectures = j.at("architectures").get<std::vector<std::string>>();
  s.mul = j.at("mul");
  s.add = j.at("add");
  s.lat_mul = j.at("lat_mul");
  s.lat_add = j.at("lat_add");
  s.pipelined = j.at("pipelined");
  s.shards = j.at("shards");
  s.restarts = j.at("restarts");
  s.choose = j.at("choose").get<std::vector<std::string>>();
  s.engines = j.at("verify").get<std::vector<std::string>>();
  s.states = j.at("states");
  s.synthesise = j.at("synthesise");
  s.place_and_route = j.at("place_and_route");
  s.target = j.value("target", std::string("ice40-hx8k"));  // campaigns planned before targets existed: the iCE40
  return s;
}

std::vector<CampaignSlot> campaign_slots(const CampaignSpec& s) {
  std::vector<CampaignSlot> out;
  for (std::size_t r = 0; r < s.robots.size(); ++r)
    for (const auto& f : s.flavours)
      for (const auto& c : s.choose)
        for (const auto& fmt : s.formats)
          for (const auto& a : s.architectures) out.push_back({r, f, c, fmt, a});
  return out;
}

}  // namespace neaccel::study
