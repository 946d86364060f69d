#include "neaccel/cost/pnr.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace neaccel::cost {

namespace fs = std::filesystem;

nlohmann::json PnrResult::to_json() const {
  return {{"device", device}, {"package", package}, {"seed", seed}, {"fits", fits}, {"fmax_mhz", fmax_mhz},
          {"logic_cells", logic_cells}, {"logic_cells_available", logic_cells_available}, {"ram", ram}, {"io", io},
          {"tool", "yosys synth_ice40 + nextpnr-ice40"}};
}

namespace {
long used(const nlohmann::json& u, const char* key) {
  return u.contains(key) ? u[key].value("used", 0L) : 0L;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& s) { return "'" + s + "'"; }
}  // namespace

PnrResult parse_nextpnr_report(const fs::path& report, const PnrOptions& o) {
  std::ifstream in(report);
  if (!in) throw Error(report.string() + ": cannot read the nextpnr report");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(report.string() + ": not JSON (" + e.what() + ")");
  }
  PnrResult r;
  r.device = o.device;
  r.package = o.package;
  r.seed = o.seed;
  if (!j.contains("fmax") || !j["fmax"].is_object() || j["fmax"].empty())
    throw Error(report.string() + ": no clock Fmax in the report (a design without a clocked path?)");
  bool first = true;
  for (const auto& [clk, v] : j["fmax"].items()) {
    const double f = v.value("achieved", 0.0);
    if (first || f < r.fmax_mhz) r.fmax_mhz = f;
    first = false;
  }
  r.utilization = j.value("utilization", nlohmann::json::object());
  r.logic_cells = used(r.utilization, "ICESTORM_LC");
  r.logic_cells_available = r.utilization.contains("ICESTORM_LC") ? r.utilization["ICESTORM_LC"].value("available", 0L) : 0L;
  r.ram = used(r.utilization, "ICESTORM_RAM");
  r.io = used(r.utilization, "SB_IO");
  return r;
}

PnrResult place_and_route_ice40(const std::vector<std::string>& sources, const std::string& top,
                                const std::vector<std::pair<std::string, long>>& params, const fs::path& workdir,
                                const PnrOptions& o) {
  fs::create_directories(workdir);
  const fs::path dir = fs::absolute(workdir);
  {
    std::ofstream ys(dir / "ice40.ys");
    ys << "# Written by neaccel: iCE40 synthesis for place and route (nextpnr-ice40).\n";
    // Without parameters to set, modules are elaborated only under the top (-defer): a design's nea_datapath has
    // $readmemh of its HexDir, which fails with the default parameters.
    for (const auto& s : sources) ys << (params.empty() ? "read_verilog -defer " : "read_verilog ") << fs::absolute(s).string() << '\n';
    if (!params.empty()) {
      ys << "chparam";
      for (const auto& [k, v] : params) ys << " -set " << k << ' ' << v;
      ys << ' ' << top << '\n';
    }
    ys << "synth_ice40 -top " << top << " -json " << (dir / "ice40.json").string() << '\n';
    if (!ys) throw Error((dir / "ice40.ys").string() + ": cannot write");
  }
  const std::string yosys = (o.yosys_dir.empty() ? std::string() : "cd " + quote(o.yosys_dir.string()) + " && ") + "yosys -q -l " + quote((dir / "ice40_yosys.log").string()) + " -s " +
                            quote((dir / "ice40.ys").string()) + " >/dev/null 2>&1";
  if (std::system(yosys.c_str()) != 0) throw Error("yosys synth_ice40 failed (see " + (dir / "ice40_yosys.log").string() + ")");
  const fs::path log = dir / "nextpnr.log", report = dir / "nextpnr.report.json";
  fs::remove(report);
  const std::string pnr = fmt::format(
      "nextpnr-ice40 --{} --package {} --json {} --freq {} --seed {} --timing-allow-fail --report {} -q -l {} "
      ">/dev/null 2>&1",
      o.device, o.package, quote((dir / "ice40.json").string()), o.target_mhz, o.seed, quote(report.string()),
      quote(log.string()));
  const int rc = std::system(pnr.c_str());
  if (rc != 0 || !fs::exists(report)) {
    const std::string text = read_text(log);
    if (text.find("Unable to place") != std::string::npos || text.find("too many") != std::string::npos ||
        text.find("only have") != std::string::npos || text.find("exceed") != std::string::npos) {
      PnrResult r;
      r.device = o.device;
      r.package = o.package;
      r.seed = o.seed;
      r.fits = false;
      return r;
    }
    throw Error("nextpnr-ice40 failed (see " + log.string() + ")");
  }
  return parse_nextpnr_report(report, o);
}

}  // namespace neaccel::cost
