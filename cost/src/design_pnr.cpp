#include "neaccel/cost/design_pnr.hpp"
#include "neaccel/ref/json_error.hpp"

#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/pnr.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/cost/timing.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"

#include "pnr_wrapper.hpp"
#include "tool_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
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
  if (!o.remeasure) {
    for (int seed = o.seed; seed <= o.seed + std::max(o.other_seeds, 0); ++seed) {
      const std::string h = d.hash(seed);
      const fs::path committed = committed_cache().empty() ? fs::path() : committed_cache() / t.name / (h + ".json");
      for (const auto& [p, from] : {std::pair{d.dir / "area-cache" / h / ("pnr-" + t.name + ".json"), "design"},
                                    std::pair{committed, "committed"}}) {
        if (p.empty() || !fs::exists(p)) continue;
        json j = json::parse(read_whole_file(p));
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
  }
  std::ofstream(mine) << j.dump(2) << "\n";
  j["cache"] = "measured";
  return with_model(std::move(j), d, t);
}

}  // namespace neaccel::cost
