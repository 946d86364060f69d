#include "neaccel/cost/design_pnr.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/pnr.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/cost/timing.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/process.hpp"

#include "pnr_wrapper.hpp"
#include "tool_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <vector>

namespace neaccel::cost {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Bump when the flow (scripts, wrapper, options, parsing) changes: every cached result is then measured again.
constexpr const char* kVersion = "design-pnr-v2";  // v2: the clock on a clock pin, the other ports unconstrained

struct Design {
  fs::path dir, top_v;
  std::vector<std::string> sources;  // the manifest's rtl_sources (absolute)
  std::string wrapper;               // nea_pnr_top: nea_top with its dbg_* ports open
  std::string flow, content;         // the cache key's parts before and after the seed (key)
  json manifest;
  // The content hash a result with nextpnr seed `seed` is cached under.
  std::string hash(int seed) const {
    return ref::fnv1a64_hex(flow + (seed != 1 ? fmt::format("|seed {}", seed) : std::string()) + content);  // seed 1's keys as they were
  }
};

Design read_design(const DesignPnrOptions& o, const Target& t) {
  Design d;
  d.dir = fs::absolute(o.dir).lexically_normal();
  if (!fs::is_directory(d.dir)) throw Error(o.dir + ": not a directory (--design names a directory written by neaccel rtl)");
  const fs::path mpath = d.dir / "manifest.json";
  if (!fs::exists(mpath)) throw Error(mpath.string() + ": no manifest (write the design with `neaccel rtl --out " + o.dir + "`)");
  try {
    d.manifest = json::parse(read_whole_file(mpath));
    for (const auto& s : d.manifest.at("files").at("rtl_sources")) d.sources.push_back(s.get<std::string>());
  } catch (const json::exception& e) {
    throw Error(mpath.string() + ": files.rtl_sources: " + json_problem(e));
  }
  if (d.sources.empty()) throw Error(mpath.string() + ": files.rtl_sources is empty");
  d.top_v = d.dir / "rtl" / "nea_top.v";
  d.wrapper = pnr_wrapper(d.top_v);
  d.flow = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", kVersion, t.name, t.part, t.device, t.package, t.speed,
                       t.data.at("yosys").value("version", ""), t.data.at("nextpnr").value("version", ""),
                       t.data.at("nextpnr").value("router", ""));
  d.flow += "|clock " + t.data.at("nextpnr").value("clock_site", "");
  for (const auto& s : d.sources) d.content += "|" + fs::path(s).filename().string() + "|" + read_whole_file(s);
  d.content += "|nea_top.v|" + read_whole_file(d.top_v) + "|nea_pnr_top.v|" + d.wrapper;
  d.content += hex_files_key(d.dir);  // ROM contents change the logic: every hex file counts
  return d;
}

fs::path committed_cache() {
#ifdef NEACCEL_SOURCE_DIR
  return fs::path(NEACCEL_SOURCE_DIR) / "data" / "pnr-cache";
#else
  return {};
#endif
}

// ---- The installed tools against the versions the target declares ----
// The cache key holds the versions cost/targets/<name>.json declares (so that the committed results are found on a
// machine without the tools); a result is only as good as that key if the tools that made it are the declared ones.
// So a tool run's result is written to the cache only when the installed tools are the declared versions, and a
// cached result is read with a one-line note when they are installed and differ.

// A distribution name as a dist-info folder spells it (PEP 503 normalisation, with '_'): lower case, '-' and '.' as '_'.
std::string dist_name(std::string name) {
  for (char& ch : name) ch = ch == '-' || ch == '.' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return name;
}

// The version of `program` installed here, in the form the target declares it: "NAME==VERSION" (a PyPI package:
// the dist-info in the virtual environment the program runs from) or "Debian PACKAGE VERSION" (dpkg's version of the
// package, which adds a Debian revision to the declared upstream version). Empty when the program is not found;
// "unknown" when it is found but not from such a package.
std::string installed_version(const std::string& program, const std::string& declared) {
  const auto exe = proc::find_program(program);
  if (!exe) return {};
  std::error_code ec;
  if (const auto eq = declared.find("=="); eq != std::string::npos) {
    const std::string name = dist_name(declared.substr(0, eq));
    const fs::path venv = fs::absolute(*exe).parent_path().parent_path();
    if (!fs::exists(venv / "pyvenv.cfg", ec) || !fs::is_directory(venv / "lib", ec)) return "unknown";
    for (const auto& py : fs::directory_iterator(venv / "lib", ec)) {
      const fs::path site = py.path() / "site-packages";
      if (!fs::is_directory(site, ec)) continue;
      for (const auto& e : fs::directory_iterator(site, ec)) {
        std::string f = e.path().filename().string();
        const std::string suffix = ".dist-info";
        if (f.size() <= suffix.size() || f.compare(f.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
        f.resize(f.size() - suffix.size());
        const auto dash = f.find('-');
        if (dash != std::string::npos && dist_name(f.substr(0, dash)) == name) return declared.substr(0, eq) + "==" + f.substr(dash + 1);
      }
    }
    return "unknown";
  }
  if (declared.rfind("Debian ", 0) == 0) {
    const std::string rest = declared.substr(7);
    const std::string package = rest.substr(0, rest.find(' '));
    const std::string where = fs::absolute(*exe).parent_path().string();
    if (where != "/usr/bin" && where != "/bin") return "unknown";
    proc::Spawn s;
    s.argv = {"dpkg-query", "-W", "-f=${Version}", package};
    s.capture_stdout = true;
    s.timeout_s = 60;
    const proc::Result r = proc::run(s);
    return r.ok() && !r.out.empty() ? "Debian " + package + " " + r.out : "unknown";
  }
  return "unknown";
}

// Whether `installed` (installed_version) is the declared version: the same, or for a Debian package the declared
// upstream version with a Debian revision after it ("Debian yosys 0.23" is installed as "Debian yosys 0.23-6").
bool same_version(const std::string& declared, const std::string& installed) {
  if (installed == declared) return true;
  return declared.rfind("Debian ", 0) == 0 && installed.rfind(declared, 0) == 0 && installed.size() > declared.size() &&
         installed[declared.size()] == '-';
}

struct ToolCheck {
  json installed = json::object();  // tool -> installed_version
  std::string differs;              // one line when a tool is installed and not the declared version
};

ToolCheck check_tools(const Target& t) {
  ToolCheck c;
  for (const char* tool : {"yosys", "nextpnr"}) {
    const std::string program = t.data.at(tool).at("program").get<std::string>();
    const std::string declared = t.data.at(tool).value("version", "");
    const std::string installed = installed_version(program, declared);
    c.installed[tool] = installed;
    if (!installed.empty() && !same_version(declared, installed) && c.differs.empty()) {
      c.differs = fmt::format("{}: installed {} is {}, not the declared {} (cost/targets/{}.json)", t.name, program,
                              installed == "unknown" ? "of a version that cannot be told" : installed, declared, t.name);
    }
  }
  return c;
}

// Says `line` on standard error, once per process.
void say_once(const std::string& line) {
  static std::mutex m;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(m);
  if (said.insert(line).second) std::fprintf(stderr, "neaccel: note: %s\n", line.c_str());
}

double share(long used, long have) { return have > 0 ? std::round(1000.0 * static_cast<double>(used) / static_cast<double>(have)) / 10.0 : 0.0; }

// The design's cost point (its manifest) and, where the target has a device model, the model's estimate beside the
// measurement: what the calibration fits (cost/calibration/ecp5/designs.sh) and what a user compares.
// A directory that is not a datapath of `neaccel rtl` (a synthetic test design without a spec) has no cost point:
// its result goes without them.
json with_model(json j, const Design& d, const Target& t) {
  try {
    CostPoint p = cost_point_from_manifest(d.manifest);
    p.target = t.name;
    j["point"] = to_json(p);
    j["estimate"] = estimate_cost(p).to_json();
  } catch (const Error& e) {
    j["estimate"] = {{"none", e.what()}};
  }
  return j;
}

}  // namespace

std::string design_pnr_key(const DesignPnrOptions& o) {
  const Target& t = target(o.target);
  return read_design(o, t).hash(o.seed);
}

DefaultPnrTarget default_pnr_target(const std::string& dir) {
  const fs::path mpath = fs::path(dir) / "manifest.json";
  // No design there: the iCE40 flow says so, as it always has.
  if (!fs::is_regular_file(mpath)) return {"ice40-hx8k", {}};
  try {
    CostPoint p = cost_point_from_manifest(json::parse(read_whole_file(mpath)));
    p.target = "ice40-hx8k";
    const DeviceFit fit = device_fit(estimate_cost(p));
    return {default_target(fit.est_logic_cells).name, fit};
  } catch (const json::exception& e) {
    throw Error(mpath.string() + ": " + json_problem(e));
  } catch (const Error& e) {
    throw Error(mpath.string() + ": " + e.what());
  }
}

json design_pnr(const DesignPnrOptions& o) {
  const Target& t = target(o.target);
  const Design d = read_design(o, t);
  const std::string hash = d.hash(o.seed);
  const fs::path cache = d.dir / "area-cache" / hash;
  const fs::path mine = cache / ("pnr-" + t.name + ".json");
  // The design's own cache, then the committed one; at o.seed, then (other_seeds) at the seeds after it.
  const ToolCheck tools_here = check_tools(t);
  if (!o.remeasure) {
    for (int seed = o.seed; seed <= o.seed + std::max(o.other_seeds, 0); ++seed) {
      const std::string h = d.hash(seed);
      const fs::path committed = committed_cache().empty() ? fs::path() : committed_cache() / t.name / (h + ".json");
      for (const auto& [p, from] : {std::pair{d.dir / "area-cache" / h / ("pnr-" + t.name + ".json"), "design"},
                                    std::pair{committed, "committed"}}) {
        if (p.empty() || !fs::exists(p)) continue;
        json j = json::parse(read_whole_file(p));
        // The key holds the declared versions: a result that records other installed tools is not theirs.
        if (j.contains("installed") && j["installed"].is_object()) {
          bool theirs = true;
          for (const char* tool : {"yosys", "nextpnr"})
            theirs = theirs && same_version(t.data.at(tool).value("version", ""), j["installed"].value(tool, ""));
          if (!theirs) {
            say_once(p.string() + ": made by other tools than cost/targets/" + t.name + ".json declares; not used");
            continue;
          }
        }
        // Installed tools of other versions would give another result: the cached one is the declared tools'.
        if (!tools_here.differs.empty()) {
          say_once(tools_here.differs + "; cached results are the declared tools'");
          j["tools_differ"] = tools_here.differs;
        }
        j["cache"] = from;
        return with_model(std::move(j), d, t);
      }
    }
  }
  if (o.cached_only)
    return with_model({{"target", t.name}, {"part", t.part}, {"hash", hash}, {"cache", "none"}}, d, t);
  fs::create_directories(cache);
  const fs::path wrapper = cache / "nea_pnr_top.v";
  std::ofstream(wrapper) << d.wrapper;
  std::vector<std::string> sources = d.sources;
  sources.push_back(d.top_v.string());
  sources.push_back(wrapper.string());
  PnrOptions po = pnr_options(t);
  po.yosys_dir = d.dir;  // the wrapper's HexDir is relative to the design directory
  po.timeout_s = o.timeout_s;
  po.seed = o.seed;
  po.target_mhz = t.family == "ecp5" ? 50 : 100;
  po.clock_port = "clk_i";  // nea_pnr_top's clock
  po.clock_site = t.data.at("nextpnr").value("clock_site", "");
  const json tools{{"yosys", tool_version(t.yosys)}, {"nextpnr", tool_version(t.nextpnr)}};
  const auto t0 = std::chrono::steady_clock::now();
  const PnrResult r = place_and_route(sources, "nea_pnr_top", {}, cache / t.name, po);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  json j{{"target", t.name}, {"part", t.part}, {"hash", hash}, {"fits", r.fits}, {"tools", tools},
         {"seed", po.seed}, {"freq_mhz", po.target_mhz}, {"ports", "nea_top without its dbg_* trace ports"},
         {"seconds", std::round(secs)}};
  if (!r.fits) {
    j["overflow"] = r.overflow;
  } else {
    const long lut = t.family == "ecp5" ? r.lut : r.logic_cells;
    j["fmax_mhz"] = std::round(r.fmax_mhz * 100.0) / 100.0;
    j["period_ns"] = r.fmax_mhz > 0 ? std::round(100000.0 / r.fmax_mhz) / 100.0 : 0.0;
    j["lut"] = lut;
    j["ff"] = r.family == "ecp5" ? r.ff : r.logic_cells;
    j["dsp"] = r.dsp;
    j["bram"] = r.ram;
    j["io"] = r.io;
    j["available"] = {{"lut", t.lut}, {"ff", t.ff}, {"dsp", t.dsp}, {"bram", t.bram}, {"io", t.io}};
    j["percent"] = {{"lut", share(lut, t.lut)}, {"ff", share(j["ff"].get<long>(), t.ff)}, {"dsp", share(r.dsp, t.dsp)},
                    {"bram", share(r.ram, t.bram)}, {"io", share(r.io, t.io)}};
    j["utilization"] = r.utilization;
    if (!r.critical_path.empty()) j["critical_path"] = r.critical_path;
  }
  // Cached under the declared versions only when they made it.
  if (tools_here.differs.empty()) {
    j["installed"] = tools_here.installed;
    std::ofstream(mine) << j.dump(2) << "\n";
    j["cache"] = "measured";
  } else {
    say_once(tools_here.differs + "; the result is not cached");
    j["tools_differ"] = tools_here.differs;
    j["cache"] = "measured, not cached";
  }
  return with_model(std::move(j), d, t);
}

}  // namespace neaccel::cost
