#include "neaccel/cost/asic.hpp"

#include "neaccel/cost/activity.hpp"

#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"
#include "neaccel/ref/json_error.hpp"
#include "neaccel/ref/process.hpp"

#include "pnr_wrapper.hpp"
#include "tool_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

namespace neaccel::cost {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Bump when the flow (scripts, parsing, result fields) changes: every cached result is then measured again.
// v2: internal power halved (OpenSTA 2019 charges rise + fall per transition); v3: the netlist cached apart from the
// activity, per-net activity from co-simulation.
constexpr const char* kVersion = "asic-v3";
// The unit rows' key: their flow (global activity) is v2's, so the committed unit table's hashes stay valid.
constexpr const char* kUnitVersion = "asic-v2";

fs::path source_dir() {
#ifdef NEACCEL_SOURCE_DIR
  return fs::path(NEACCEL_SOURCE_DIR);
#else
  return fs::current_path();
#endif
}

// A whole file of ours (a netlist can pass the input-file limit of read_whole_file).
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw Error(p.string() + ": cannot be read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes `text` to `p` through a temporary file and a rename, so that a reader never sees half a file.
void write_atomic(const fs::path& p, const std::string& text) {
  const fs::path tmp = p.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary);
    out << text;
    if (!out) throw Error(tmp.string() + ": cannot be written");
  }
  fs::rename(tmp, p);
}

double num(const std::string& s) { return std::stod(s); }

// v to the nearest multiple of step (a power of ten): divided, not multiplied, so that 7321 * 0.01 prints as 73.21.
double round_to(double v, double step) {
  const double inv = std::round(1.0 / step);
  return std::round(v * inv) / inv;
}

void need_tool(const std::string& program) {
  if (!proc::find_program(program)) throw Error(proc::missing_tool(program));
}

proc::Result run_tool(const std::vector<std::string>& argv, const fs::path& cwd, const fs::path& log, double timeout_s) {
  proc::Spawn s;
  s.argv = argv;
  s.cwd = cwd;
  s.stdout_path = log;
  s.stderr_path = log;
  s.timeout_s = timeout_s;
  proc::Result r = proc::run(s);
  if (r.not_found) throw Error(proc::missing_tool(argv[0]));
  if (r.timed_out) throw Error(fmt::format("{}: stopped after {:.0f} s (see {})", argv[0], timeout_s, log.string()));
  return r;
}

}  // namespace

// ---- The liberty file ----

std::map<std::string, LibertyCell> liberty_cells(const std::string& liberty) {
  std::map<std::string, LibertyCell> cells;
  static const std::regex cell_re(R"re(^\s*cell\s*\(\s*"?([A-Za-z0-9_$]+)"?\s*\)\s*\{)re");
  static const std::regex area_re(R"(^\s*area\s*:\s*([0-9.eE+-]+)\s*;)");
  static const std::regex seq_re(R"(^\s*(ff|latch|ff_bank|latch_bank)\s*\()");
  std::istringstream in(liberty);
  std::string line, current;
  int depth = 0, cell_depth = -1;
  std::smatch m;
  while (std::getline(in, line)) {
    if (cell_depth < 0 && std::regex_search(line, m, cell_re)) {
      current = m[1];
      cells[current];
      cell_depth = depth;  // the depth outside the cell group
    } else if (cell_depth >= 0 && depth == cell_depth + 1) {
      if (std::regex_search(line, m, area_re)) cells[current].area = num(m[1]);
      else if (std::regex_search(line, m, seq_re)) cells[current].sequential = true;
    }
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (cell_depth >= 0 && depth <= cell_depth) cell_depth = -1;
  }
  if (cells.empty()) throw Error("liberty: no cell groups");
  return cells;
}

std::string liberty_without(const std::string& liberty, const std::vector<std::string>& prefixes) {
  static const std::regex cell_re(R"re(^\s*cell\s*\(\s*"?([A-Za-z0-9_$]+)"?\s*\)\s*\{)re");
  std::string out;
  out.reserve(liberty.size());
  std::istringstream in(liberty);
  std::string line;
  int depth = 0, skip_depth = -1;
  std::smatch m;
  while (std::getline(in, line)) {
    if (skip_depth < 0 && std::regex_search(line, m, cell_re)) {
      const std::string name = m[1];
      for (const auto& p : prefixes)
        if (name.rfind(p, 0) == 0) skip_depth = depth;
    }
    const bool skipping = skip_depth >= 0;
    for (char c : line) depth += c == '{' ? 1 : c == '}' ? -1 : 0;
    if (!skipping) out += line + "\n";
    if (skipping && depth <= skip_depth) skip_depth = -1;
  }
  return out;
}

std::string read_liberty(const Target& t) {
  const fs::path p = source_dir() / t.liberty;
  if (!fs::is_regular_file(p)) throw Error(p.string() + ": no such file (the liberty file of target " + t.name + ")");
  proc::Spawn s;
  s.argv = {"xz", "-dc", p.string()};
  s.capture_stdout = true;
  const proc::Result r = proc::run(s);
  if (r.not_found) throw Error(proc::missing_tool("xz"));
  if (!r.ok() || r.out.empty()) throw Error(p.string() + ": xz -dc failed (not an xz file?)");
  return r.out;
}

// ---- Reports ----

AsicStat parse_yosys_stat(const std::string& report) {
  AsicStat s;
  static const std::regex cells_re(R"(^\s*Number of cells:\s*(\d+)\s*$)");
  static const std::regex row_re(R"(^\s+([A-Za-z_$\\][^\s]*)\s+(\d+)\s*$)");
  static const std::regex area_re(R"(^\s*Chip area for (top )?module\s*'?([^':]*)'?:\s*([0-9.eE+-]+)\s*$)");
  std::istringstream in(report);
  std::string line;
  std::smatch m;
  bool in_cells = false, have_cells = false, have_area = false, top_area = false;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, cells_re)) {
      // A second module's table (the netlist is flat: one module) would mix counts: the report says so.
      if (have_cells) throw Error("yosys stat: more than one module's cell table (the netlist was not flattened)");
      s.cells = std::stol(m[1]);
      in_cells = have_cells = true;
      continue;
    }
    if (in_cells && std::regex_match(line, m, row_re)) {
      s.counts[m[1]] += std::stol(m[2]);
      continue;
    }
    if (std::regex_match(line, m, area_re)) {
      if (!top_area) s.area_um2 = num(m[3]);
      top_area = top_area || m[1].matched;
      have_area = true;
    }
    if (in_cells && !line.empty() && line.find_first_not_of(" \t") != std::string::npos) in_cells = false;
  }
  if (!have_cells) throw Error("yosys stat: no \"Number of cells\" line");
  if (!have_area) throw Error("yosys stat: no \"Chip area\" line (stat run without -liberty?)");
  long sum = 0;
  for (const auto& [k, v] : s.counts) sum += v;
  if (sum != s.cells) throw Error(fmt::format("yosys stat: the cell rows add up to {}, not the {} cells it states", sum, s.cells));
  return s;
}

std::map<std::string, long> netlist_cells(const std::string& netlist) {
  std::map<std::string, long> counts;
  static const std::regex inst_re(R"(^\s*([A-Za-z_][A-Za-z0-9_$]*)\s+(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)\s*\($)");
  std::istringstream in(netlist);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (line.empty() || line.back() != '(') continue;
    if (std::regex_match(line, m, inst_re) && m[1] != "module") ++counts[m[1]];
  }
  return counts;
}

StaPath parse_sta_path(const std::string& report) {
  StaPath p;
  if (report.find("No paths") != std::string::npos) throw Error("sta: no register-to-register path (\"No paths.\")");
  static const std::regex start_re(R"(^Startpoint:\s*(\S+))");
  static const std::regex end_re(R"(^Endpoint:\s*(\S+))");
  static const std::regex arrival_re(R"(^\s*([-0-9.]+)\s+data arrival time\s*$)");
  static const std::regex required_re(R"(^\s*([-0-9.]+)\s+data required time\s*$)");
  static const std::regex setup_re(R"(^\s*([-0-9.]+)\s+([-0-9.]+)\s+library setup time\s*$)");
  static const std::regex slack_re(R"(^\s*([-0-9.]+)\s+slack\s*\((MET|VIOLATED)\)\s*$)");
  // The Time column is the number just before the description (with -fields, Cap and Slew columns come first).
  static const std::regex clock_re(R"(([-0-9.]+)\s+clock \S+ \(rise edge\)\s*$)");
  static const std::regex pin_re(R"(([-0-9.]+)\s+[\^v]\s+([^\s/]+)/\S+\s+\(\S+\)\s*$)");
  std::istringstream in(report);
  std::string line;
  std::smatch m;
  bool start = false, end = false, arrival = false, required = false, slack = false;
  std::vector<std::string> instances;  // the cells the path passes, in order (startpoint first, endpoint last)
  while (std::getline(in, line)) {
    if (!start && std::regex_search(line, m, start_re)) { p.startpoint = m[1]; start = true; continue; }
    if (start && !end && std::regex_search(line, m, end_re)) { p.endpoint = m[1]; end = true; continue; }
    if (!end || slack) continue;
    if (std::regex_search(line, m, clock_re)) p.clock_ns = std::max(p.clock_ns, num(m[1]));
    else if (!arrival && std::regex_search(line, m, pin_re)) {
      if (instances.empty() || instances.back() != m[2]) instances.push_back(m[2]);
    }
    else if (!arrival && std::regex_match(line, m, arrival_re)) { p.arrival_ns = num(m[1]); arrival = true; }
    else if (std::regex_match(line, m, setup_re)) p.setup_ns = -num(m[1]);
    else if (!required && std::regex_match(line, m, required_re)) { p.required_ns = num(m[1]); required = true; }
    else if (std::regex_match(line, m, slack_re)) { p.slack_ns = num(m[1]); slack = true; }
  }
  if (!start || !end || !arrival || !required || !slack)
    throw Error("sta: report_checks: no complete path (Startpoint, Endpoint, data arrival and required time, slack)");
  // Stages: the cells whose output the path goes through, the startpoint's clock-to-Q included, the endpoint not.
  p.stages = std::max(0, static_cast<int>(instances.size()) - 1);
  return p;
}

StaPower parse_sta_power(const std::string& report) {
  StaPower p;
  static const std::regex row_re(R"(^(Sequential|Combinational|Total)\s+([-0-9.eE+]+)\s+([-0-9.eE+]+)\s+([-0-9.eE+]+)\s+([-0-9.eE+]+)\s+[-0-9.]+%\s*$)");
  std::istringstream in(report);
  std::string line;
  std::smatch m;
  bool total = false;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, row_re)) continue;
    StaPowerRow r{num(m[2]), num(m[3]), num(m[4]), num(m[5])};
    if (m[1] == "Sequential") p.sequential = r;
    else if (m[1] == "Combinational") p.combinational = r;
    else { p.total = r; total = true; }
  }
  if (!total) throw Error("sta: report_power: no Total row");
  return p;
}

// The net on `pin` of instance `inst` in a netlist written by Yosys (one connection per line), as OpenSTA names it;
// empty where there is none.
std::string instance_pin_net(const std::string& netlist, const std::string& inst, const std::string& pin) {
  const std::string head = " " + inst + " (\n";
  const std::size_t at = netlist.find(head);
  if (at == std::string::npos) return {};
  const std::size_t end = netlist.find(");", at);
  const std::string conn = "." + pin + "(";
  const std::size_t p = netlist.find(conn, at);
  if (p == std::string::npos || p > end) return {};
  // The connection is one line, `.Q(\name )` with a comma after it unless it is the last.
  const std::size_t eol = netlist.find('\n', p);
  std::string net = netlist.substr(p + conn.size(), eol == std::string::npos ? std::string::npos : eol - p - conn.size());
  while (!net.empty() && (net.back() == ',' || net.back() == ' ')) net.pop_back();
  if (net.empty() || net.back() != ')') return {};
  net.pop_back();
  while (!net.empty() && net.back() == ' ') net.pop_back();
  if (!net.empty() && net[0] == '\\') net.erase(0, 1);
  return net;
}

// ---- The flow ----

namespace {

struct LibertyFiles {
  fs::path full, synth;
  std::map<std::string, LibertyCell> cells;
};

// The decompressed library (for stat and OpenSTA) and its synthesis copy without the dont_use cells, kept under
// dir/<hash of the compressed file and the dont_use list>/ and made once.
LibertyFiles liberty_files(const Target& t, const fs::path& dir) {
  const fs::path gz = source_dir() / t.liberty;
  if (!fs::is_regular_file(gz)) throw Error(gz.string() + ": no such file (the liberty file of target " + t.name + ")");
  std::vector<std::string> dont_use;
  for (const auto& p : t.data.value("dont_use", json::array())) dont_use.push_back(p.get<std::string>());
  const std::string key = ref::fnv1a64_hex(read_whole_file(gz) + "|" + json(dont_use).dump());
  LibertyFiles f;
  const fs::path d = fs::absolute(dir) / key;  // the tools run in other working directories
  f.full = d / "full.lib";
  f.synth = d / "synth.lib";
  std::string text;
  if (!fs::exists(f.full) || !fs::exists(f.synth)) {
    fs::create_directories(d);
    text = read_liberty(t);
    write_atomic(f.synth, liberty_without(text, dont_use));
    write_atomic(f.full, text);
  } else {
    text = slurp(f.full);
  }
  f.cells = liberty_cells(text);
  return f;
}

std::string tcl_quote(const std::string& s) { return "{" + s + "}"; }


}  // namespace

json asic_run(const Target& t, const AsicJob& job) {
  if (!t.is_asic()) throw Error("--target " + t.name + ": not a standard-cell target");
  const std::string yosys = t.yosys, sta = t.sta;
  need_tool(yosys);
  need_tool(sta);
  fs::create_directories(job.work);
  const LibertyFiles lib = liberty_files(t, job.liberty_dir);
  const std::string oc = t.data.at("corner").at("operating_conditions").get<std::string>();
  const fs::path work = fs::absolute(job.work);

  // Yosys: map onto the cells; the area by stat -liberty (the full library: the same areas); a netlist OpenSTA 2019
  // reads (one bit per port and wire name, constants as 1'b0/1'b1, no expressions or concatenations).
  std::string ys;
  for (const auto& s : job.sources) ys += "read_verilog -defer " + fs::absolute(s).string() + "\n";
  ys += "hierarchy -check -top " + job.top;
  for (const auto& [k, v] : job.params) ys += " -chparam " + k + " " + v;
  ys += "\n";
  ys += "synth -top " + job.top + " -flatten\n";
  ys += "dfflibmap -liberty " + lib.synth.string() + "\n";
  ys += "abc -liberty " + lib.synth.string() + "\n";
  ys += "opt_clean\n";
  ys += "tee -q -o " + (work / "stat.txt").string() + " stat -liberty " + lib.full.string() + "\n";
  ys += "splitnets -ports\nsetundef -zero\nopt_clean\n";
  ys += "write_verilog -noattr -noexpr " + (work / "netlist.v").string() + "\n";
  // The netlist of the same script (sources by path; the callers' cache directories are keyed by their contents) is
  // mapped once: another activity only runs OpenSTA again.
  const std::string synth_key = ref::fnv1a64_hex(std::string(kVersion) + "|" + ys);
  const bool mapped = fs::exists(work / "netlist.v") && fs::exists(work / "stat.txt") && fs::exists(work / "synth.key") &&
                      slurp(work / "synth.key") == synth_key;
  const auto t0 = std::chrono::steady_clock::now();
  if (!mapped) {
    fs::remove(work / "synth.key");
    write_atomic(work / "map.ys", ys);
    const proc::Result yr = run_tool({yosys, "-q", "-s", (work / "map.ys").string()}, job.yosys_cwd, work / "yosys.log", job.timeout_s);
    if (!yr.ok()) throw Error(fmt::format("{}: yosys failed (exit {}; see {})", job.top, yr.exit_code, (work / "yosys.log").string()));
    write_atomic(work / "synth.key", synth_key);
  }
  const auto t1 = std::chrono::steady_clock::now();

  const AsicStat stat = parse_yosys_stat(slurp(work / "stat.txt"));
  const std::string netlist = slurp(work / "netlist.v");
  const std::map<std::string, long> inst = netlist_cells(netlist);
  // Every cell a library cell; the area the sum of the liberty areas of the netlist's cells.
  double area = 0, ff_area = 0;
  long cells = 0, ff = 0;
  for (const auto& [type, n] : inst) {
    const auto it = lib.cells.find(type);
    if (it == lib.cells.end())
      throw Error(fmt::format("{}: cell type {} is not in the liberty file ({} left it unmapped)", (work / "netlist.v").string(), type, yosys));
    area += it->second.area * static_cast<double>(n);
    cells += n;
    if (it->second.sequential) {
      ff += n;
      ff_area += it->second.area * static_cast<double>(n);
    }
  }
  if (cells != stat.cells || std::abs(area - stat.area_um2) > 1e-6 * std::max(1.0, area))
    throw Error(fmt::format("{}: {} cells of {:.4f} um2 by the liberty areas, yosys stat says {} cells of {:.4f} um2",
                            (work / "netlist.v").string(), cells, area, stat.cells, stat.area_um2));

  // Per-net activity: the flip-flops' output nets carry the RTL register names (or the port's they drive); nets
  // the trace does not name (the logic between registers, renamed by ABC) get the registers' mean toggle rate.
  json activity_info;
  double mean_rate = 0;
  if (job.net_activity) {
    std::vector<std::string> seq;
    for (const auto& [type, n] : inst)
      if (lib.cells.at(type).sequential) seq.push_back(type);
    const std::vector<std::string> q = netlist_pin_nets(netlist, seq, "Q");
    double sum = 0;
    long matched = 0;
    for (const auto& n : q) {
      const auto it = job.net_activity->find(activity_key(n));
      if (it == job.net_activity->end()) continue;
      sum += it->second;
      ++matched;
    }
    if (matched == 0)
      throw Error(fmt::format("{}: none of its {} flip-flop output nets is named in the activity trace", (work / "netlist.v").string(), q.size()));
    // The input ports (one bit each after splitnets -ports), as the trace names them.
    static const std::regex input_re(R"(^\s*input\s+\\?([^\s;]+)\s*;)");
    std::istringstream nin(netlist);
    std::string line;
    std::smatch m;
    double in_sum = 0;
    long inputs = 0, in_matched = 0;
    while (std::getline(nin, line)) {
      if (line.find("input") == std::string::npos || !std::regex_search(line, m, input_re) || m[1] == job.clock_port) continue;
      ++inputs;
      const auto it = job.net_activity->find(m[1]);
      if (it == job.net_activity->end()) continue;
      in_sum += it->second;
      ++in_matched;
    }
    const double mean = sum / static_cast<double>(matched);
    mean_rate = mean;
    write_atomic(work / "activity.tcl", activity_tcl(*job.net_activity, mean, job.clock_port));
    write_atomic(work / "activity-uniform.tcl", activity_tcl({}, mean, job.clock_port));
    activity_info = job.activity_source;
    activity_info["flip_flops"] = static_cast<long>(q.size());
    activity_info["flip_flops_traced"] = matched;
    activity_info["mean_flip_flop_rate"] = round_to(mean, 1e-6);
    activity_info["input_ports"] = inputs;
    activity_info["input_ports_traced"] = in_matched;
    activity_info["mean_input_rate"] = in_matched > 0 ? round_to(in_sum / static_cast<double>(in_matched), 1e-6) : 0.0;
    activity_info["other_nets_rate"] = round_to(mean, 1e-6);
    activity_info["clock"] = 2;
    activity_info["note"] = "every net of the netlist that the trace names (flip-flop outputs, ports, named wires) at its "
                            "toggle rate in the co-simulation (transitions per clock cycle), every other net (logic "
                            "between registers) at the flip-flops' mean rate; the clock 2";
  }

  // OpenSTA, once against a 10 ns clock for the worst register-to-register path (the ports unconstrained: no input
  // or output delays, so only paths between flip-flops are timed), then at the clock that path allows for power.
  auto sta_script = [&](double period_ns, bool power) {
    std::string s;
    s += "read_liberty " + tcl_quote(lib.full.string()) + "\n";
    s += "read_verilog " + tcl_quote((work / "netlist.v").string()) + "\n";
    s += "link_design " + job.top + "\n";
    // Required: the library names its default operating conditions before it defines them, so OpenSTA 2019 finds
    // none, and with none it reports every cell's internal power as 0 (docs/asic.md).
    s += "set_operating_conditions " + oc + "\n";
    s += fmt::format("create_clock -name clk -period {:.4f} [get_ports {}]\n", period_ns, job.clock_port);
    if (!power) {
      s += "report_checks -path_delay max -group_count 1 -digits 4 -fields {slew cap input_pin}\n";
    } else {
      if (job.net_activity) {
        // Three reports in one session: every net at the registers' mean rate set pin by pin, the per-net rates,
        // and -global at the mean (set last: OpenSTA 2019 lets -global override every pin). The first and the
        // last must agree, or the per-pin route is not trusted on this netlist.
        s += "source " + tcl_quote((work / "activity-uniform.tcl").string()) + "\n";
        s += "puts {== nea uniform}\nreport_power -digits 6\n";
        s += "source " + tcl_quote((work / "activity.tcl").string()) + "\n";
        s += "puts {== nea per-net}\nreport_power -digits 6\n";
        s += fmt::format("set_power_activity -global -activity {}\n", mean_rate);
        s += "puts {== nea global}\nreport_power -digits 6\n";
      } else {
        s += fmt::format("set_power_activity -global -activity {}\n", job.activity);
        s += "report_power -digits 6\n";
      }
    }
    return s;
  };
  auto run_sta = [&](const std::string& name, const std::string& script) {
    write_atomic(work / (name + ".tcl"), script);
    const fs::path log = work / (name + ".log");
    const proc::Result r = run_tool({sta, "-no_init", "-exit", (work / (name + ".tcl")).string()}, work, log, job.timeout_s);
    std::string text = slurp(log);
    // OpenSTA prints "Error: ..." and goes on; a netlist it refused is one line naming it.
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("Error", 0) == 0)
        throw Error(fmt::format("{}: {} refused it: {} (see {})", (work / "netlist.v").string(), sta, line, log.string()));
    if (!r.ok()) throw Error(fmt::format("{}: {} failed (exit {}; see {})", (work / "netlist.v").string(), sta, r.exit_code, log.string()));
    return text;
  };
  const StaPath path = parse_sta_path(run_sta("timing", sta_script(10.0, false)));
  // The clock: the path's minimum period, to 0.01 ns above.
  const double period = std::ceil(path.min_period_ns() * 100.0 - 1e-6) / 100.0;
  StaPower pw;
  if (!job.net_activity) {
    pw = parse_sta_power(run_sta("power", sta_script(period, true)));
  } else {
    const std::string log = run_sta("power", sta_script(period, true));
    auto part = [&](const std::string& name) {
      const std::size_t at = log.find("== nea " + name + "\n");
      if (at == std::string::npos) throw Error(fmt::format("{}: no \"{}\" power report (see {})", (work / "netlist.v").string(), name, (work / "power.log").string()));
      const std::size_t end = log.find("== nea ", at + 8);
      return parse_sta_power(log.substr(at, end == std::string::npos ? std::string::npos : end - at));
    };
    const StaPower uniform = part("uniform"), per_net = part("per-net"), global = part("global");
    const double diff = global.total.total_w > 0 ? (uniform.total.total_w - global.total.total_w) / global.total.total_w : 0.0;
    activity_info["check"] = {{"uniform_per_pin_mw", round_to(uniform.total.total_w * 1e3, 1e-6)},
                              {"global_mw", round_to(global.total.total_w * 1e3, 1e-6)},
                              {"difference_percent", round_to(100 * diff, 0.01)}};
    if (std::abs(diff) <= 0.02) {
      pw = per_net;
      activity_info["method"] = "per net";
    } else {
      // Seen on a planar2 design: every pin set to 0.1 one by one gave 8.6 times -global 0.1's power, where the
      // PUMA 560 design agreed within 0.6 %. Not understood; the mean rate is then applied to every net.
      pw = global;
      activity_info["method"] = "global at the flip-flops' mean rate (the per-pin route disagreed with -global on this netlist)";
    }
  }
  if ((job.net_activity || job.activity > 0) && pw.total.internal_w <= 0)
    throw Error(fmt::format("{}: OpenSTA reports no internal power (see {})", (work / "netlist.v").string(), (work / "power.log").string()));
  const auto t2 = std::chrono::steady_clock::now();

  // Internal power: Debian's OpenSTA (2019) charges every transition of a pin with the sum of the rise and the fall
  // energy of its table, where a transition is one or the other: its internal power is twice the tables'
  // (recomputed by hand for an inverter's output and a flip-flop's clock pin, docs/asic.md). Halved here; OpenSTA's
  // own figure is kept beside it. Switching and leakage are the report's (the switching recomputed by hand as well).
  auto row = [](const StaPowerRow& r) {
    const double internal = r.internal_w / 2;
    return json{{"internal_mw", round_to(internal * 1e3, 1e-6)}, {"switching_mw", round_to(r.switching_w * 1e3, 1e-6)},
                {"leakage_uw", round_to(r.leakage_w * 1e6, 1e-6)},
                {"total_mw", round_to((internal + r.switching_w + r.leakage_w) * 1e3, 1e-6)},
                {"opensta_internal_mw", round_to(r.internal_w * 1e3, 1e-6)}};
  };
  json j;
  j["target"] = t.name;
  j["corner"] = t.data.at("corner");
  j["top"] = job.top;
  j["area_um2"] = round_to(area, 1e-4);
  j["area_mm2"] = round_to(area * 1e-6, 1e-7);
  j["cells"] = cells;
  j["flip_flops"] = ff;
  j["ff_share_cells"] = cells > 0 ? round_to(static_cast<double>(ff) / static_cast<double>(cells), 1e-4) : 0.0;
  j["ff_share_area"] = area > 0 ? round_to(ff_area / area, 1e-4) : 0.0;
  j["cell_types"] = inst;
  j["worst_path"] = {{"startpoint", path.startpoint}, {"endpoint", path.endpoint}, {"arrival_ns", path.arrival_ns},
                     {"setup_ns", path.setup_ns}, {"stages", path.stages}, {"min_period_ns", round_to(path.min_period_ns(), 1e-4)}};
  // The registers at its ends by their RTL names (the flip-flops' Q nets), where the ends are flip-flops.
  if (const std::string q = instance_pin_net(netlist, path.startpoint, "Q"); !q.empty()) j["worst_path"]["start_register"] = q;
  if (const std::string q = instance_pin_net(netlist, path.endpoint, "Q"); !q.empty()) j["worst_path"]["end_register"] = q;
  j["clock_ns"] = period;
  j["fmax_mhz"] = round_to(1000.0 / period, 0.01);
  if (job.net_activity)
    j["activity"] = activity_info;
  else
    j["activity"] = {{"source", "global"}, {"global", job.activity}, {"clock", 2},
                     {"note", "vectorless: every net this many transitions per clock cycle (set_power_activity -global); not the design's own toggle rates"}};
  j["power"] = {{"at_clock_ns", period}, {"total", row(pw.total)}, {"sequential", row(pw.sequential)}, {"combinational", row(pw.combinational)}};
  j["power"]["note"] = "internal_mw is half OpenSTA's report (opensta_internal_mw), which charges each transition with rise + fall energy";
  j["energy_per_cycle_pj"] = round_to(j["power"]["total"]["total_mw"].get<double>() * period, 1e-4);  // mW x ns = pJ
  j["wire_model"] = t.data.value("wire_model", json::object());
  // The tools' times go to a file beside the reports, not into the result: the same inputs give the same bytes.
  write_atomic(work / "seconds.txt", fmt::format("yosys {:.1f}\nsta {:.1f}\n", std::chrono::duration<double>(t1 - t0).count(),
                                                 std::chrono::duration<double>(t2 - t1).count()));
  return j;
}

// ---- Designs ----

json design_asic(const DesignAsicOptions& o) {
  const Target& t = target(o.target);
  const fs::path dir = fs::absolute(o.dir).lexically_normal();
  if (!fs::is_directory(dir)) throw Error(o.dir + ": not a directory (--design names a directory written by neaccel rtl)");
  const fs::path mpath = dir / "manifest.json";
  if (!fs::exists(mpath)) throw Error(mpath.string() + ": no manifest (write the design with `neaccel rtl --out " + o.dir + "`)");
  json manifest;
  std::vector<std::string> sources;
  long cycles = 0, latency = 0;
  try {
    manifest = json::parse(read_whole_file(mpath));
    for (const auto& s : manifest.at("files").at("rtl_sources")) sources.push_back(s.get<std::string>());
    const json& dp = manifest.at("datapath");
    cycles = dp.at("cycles_per_set_point").get<long>();
    latency = dp.at("latency").get<long>();
  } catch (const json::exception& e) {
    throw Error(mpath.string() + ": " + json_problem(e));
  }
  if (sources.empty()) throw Error(mpath.string() + ": files.rtl_sources is empty");
  if (cycles <= 0) throw Error(mpath.string() + ": datapath.cycles_per_set_point is not positive");
  const fs::path top_v = dir / "rtl" / "nea_top.v";
  const std::string wrapper = pnr_wrapper(top_v);
  // The activity: --activity A for every net, or the toggle rates of the design's own co-simulation.
  const bool from_sim = o.activity < 0;
  const double activity = o.activity;
  const std::string trace_tag = fmt::format("cosim-r{}-s{}", o.activity_states, o.activity_seed);
  // -v2: the per-net power checked against -global on the same netlist (asic_run), else the mean rate globally.
  const std::string act_tag = from_sim ? trace_tag + "-v2" : fmt::format("a{}", activity);

  // The netlist's key leaves the activity out (a second activity maps nothing again); the result's file names it.
  std::string key = fmt::format("{}|{}|{}", kVersion, t.data.dump(), ref::fnv1a64_hex(read_whole_file(source_dir() / t.liberty)));
  for (const auto& s : sources) key += "|" + fs::path(s).filename().string() + "|" + read_whole_file(s);
  key += "|nea_top.v|" + read_whole_file(top_v) + "|nea_pnr_top.v|" + wrapper + hex_files_key(dir);
  const std::string hash = ref::fnv1a64_hex(key);
  const fs::path cache = dir / "area-cache" / hash;
  const fs::path result = cache / (t.name + "." + act_tag + ".json");

  const fs::path committed = o.committed_dir.empty() ? fs::path() : fs::path(o.committed_dir) / (hash + "." + act_tag + ".json");
  json j;
  if (!o.remeasure && fs::exists(result)) {
    j = json::parse(slurp(result));
    j["cache"] = "design";
  } else if (!o.remeasure && !committed.empty() && fs::exists(committed)) {
    j = json::parse(slurp(committed));
    j["cache"] = "committed";
  } else if (o.cached_only) {
    return {{"design", o.dir}, {"target", t.name}, {"hash", hash}, {"activity", act_tag}, {"cache", "none"}};
  } else {
    fs::create_directories(cache);
    write_atomic(cache / "nea_pnr_top.v", wrapper);
    std::map<std::string, double> nets;
    json source;
    if (from_sim) {
      // The toggle rates are kept (toggles-<tag>.json), the trace itself (tens of MB) is not.
      const fs::path rates_file = cache / ("toggles-" + trace_tag + ".json");
      json rates;
      if (!o.remeasure && fs::exists(rates_file)) {
        rates = json::parse(slurp(rates_file));
      } else {
        if (!o.write_trace) throw Error("--target " + t.name + ": no co-simulation to take the activity from (give --activity A)");
        const fs::path vcd = cache / ("trace-" + trace_tag + ".vcd");
        o.write_trace(vcd.string(), o.activity_states, o.activity_seed);
        std::ifstream in(vcd, std::ios::binary);
        if (!in) throw Error(vcd.string() + ": the co-simulation wrote no trace");
        const ToggleRates tr = vcd_toggle_rates(in, "top.clk_i");
        in.close();
        fs::remove(vcd);
        // Verilator's scopes `top` (the ports) and `top.nea_top` (the design) as the netlist's names: the ports of
        // nea_pnr_top are nea_top's, and nea_top is its instance u_top.
        rates = {{"cycles", tr.cycles}, {"states", o.activity_states}, {"seed", o.activity_seed},
                 {"rate", rename_bits(tr.rate, {{"top.nea_top.", "u_top."}, {"top.", ""}})}};
        write_atomic(rates_file, rates.dump(1) + "\n");
      }
      nets = rates.at("rate").get<std::map<std::string, double>>();
      source = {{"source", "co-simulation"}, {"states", rates.at("states")}, {"seed", rates.at("seed")},
                {"cycles", rates.at("cycles")},
                {"how", fmt::format("neaccel sim --engine cosim --random {} --seed {} --vcd (Verilator, RTL checked against the SystemC model)",
                                    rates.at("states").get<int>(), rates.at("seed").get<unsigned long long>())}};
    }
    AsicJob job;
    job.sources = sources;
    job.sources.push_back(top_v.string());
    job.sources.push_back((cache / "nea_pnr_top.v").string());
    job.top = "nea_pnr_top";
    job.yosys_cwd = dir;  // HexDir is relative to the design directory
    job.work = cache / t.name;
    job.liberty_dir = dir / "area-cache" / "liberty";
    job.activity = activity;
    if (from_sim) {
      job.net_activity = &nets;
      job.activity_source = source;
    }
    job.timeout_s = o.timeout_s;
    j = asic_run(t, job);
    j["hash"] = hash;
    write_atomic(result, j.dump(2) + "\n");
    j["cache"] = "measured";
  }
  // Time and energy per evaluation: the design's cycles per set point (its latency, or a streaming design's
  // initiation interval) at the clock found, and the power at that clock over that time.
  const double period = j.at("clock_ns").get<double>();
  const double total_w = j.at("power").at("total").at("total_mw").get<double>() * 1e-3;
  j["design"] = o.dir;
  j["cycles_per_evaluation"] = cycles;
  j["latency_cycles"] = latency;
  j["time_per_evaluation_ns"] = round_to(static_cast<double>(cycles) * period, 1e-4);
  j["latency_ns"] = round_to(static_cast<double>(latency) * period, 1e-4);
  j["energy_per_evaluation_nj"] = round_to(total_w * static_cast<double>(cycles) * period, 1e-6);  // W x ns = nJ
  j["estimate"] = "pre-layout estimate, SkyWater 130 nm typical corner (tt, 25 C, 1.80 V)";
  return j;
}

std::filesystem::path asic_cache_dir(const std::string& target) { return source_dir() / "data" / "asic-cache" / target; }

// ---- Units ----

json unit_asic(const UnitAsicOptions& o) {
  const Target& t = target(o.target);
  struct Kind {
    const char* name;
    int kind;
    const char* family;
    const char* harness;
    bool deep;
  };
  static const Kind kinds[] = {
      {"fp32-mul", 0, "fp32_", "unit_timing_top", false}, {"fp32-add", 1, "fp32_", "unit_timing_top", false},
      {"fx-mul", 2, "fx_", "unit_timing_top", false},     {"fx-add", 3, "fx_", "unit_timing_top", false},
      {"fp32-fma", 4, "fp32_", "unit_timing_top3", false}, {"fp32-div", 5, "fp32_", "unit_timing_top3", false},
      {"fx-fma", 6, "fx_", "unit_timing_top3", false},    {"fx-div", 7, "fx_", "unit_timing_top3", false},
      {"fx-mul-deep", 0, "fx_", "unit_timing_deep", true}, {"fx-add-deep", 1, "fx_", "unit_timing_deep", true},
      {"fp32-mul-deep", 2, "fp32_", "unit_timing_deep", true}, {"fp32-add-deep", 3, "fp32_", "unit_timing_deep", true}};
  const Kind* k = nullptr;
  for (const auto& c : kinds)
    if (o.unit == c.name) k = &c;
  if (!k) throw Error("--unit: unknown unit '" + o.unit + "' (fp32-mul, fp32-add, fp32-fma, fp32-div, fx-mul, fx-add, fx-fma, fx-div, fx-mul-deep, fx-add-deep, fp32-mul-deep, fp32-add-deep)");
  if (k->deep && o.non_pipelined) throw Error("--non-pipelined: the deep units are always pipelined");
  if (o.latency < 1) throw Error("--latency: at least 1");
  const bool fixed = std::string(k->family) == "fx_";
  const int width = fixed ? o.width : 32, frac = fixed ? o.frac : 0;
  const fs::path rtl = fs::absolute(o.rtl);
  if (!fs::is_directory(rtl)) throw Error(o.rtl + ": not a directory (--rtl names rtl/units)");
  // The family's files and the shared helpers only (as cost/calibration/ecp5/units.sh reads them).
  std::vector<std::string> sources;
  auto add_dir = [&](const fs::path& d) {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(d)) {
      const std::string f = e.path().filename().string();
      if (e.path().extension() == ".v" && (f.rfind(k->family, 0) == 0 || f.rfind("units_", 0) == 0)) v.push_back(e.path().string());
    }
    std::sort(v.begin(), v.end());
    sources.insert(sources.end(), v.begin(), v.end());
  };
  add_dir(rtl);
  if (k->deep) add_dir(rtl / "deep");
  sources.push_back((rtl / "timing" / (std::string(k->harness) + ".v")).string());
  std::vector<std::pair<std::string, std::string>> params{{"Kind", std::to_string(k->kind)}, {"Latency", std::to_string(o.latency)}};
  if (!k->deep) params.emplace_back("Pipelined", o.non_pipelined ? "0" : "1");
  params.emplace_back("Width", std::to_string(width));
  params.emplace_back("Frac", std::to_string(frac));
  const double activity = o.activity >= 0 ? o.activity : t.data.at("activity").at("global").get<double>();

  std::string key = fmt::format("{}|{}|{}|activity {}", kUnitVersion, t.data.dump(), ref::fnv1a64_hex(read_whole_file(source_dir() / t.liberty)), activity);
  for (const auto& s : sources) key += "|" + fs::path(s).filename().string() + "|" + read_whole_file(s);
  for (const auto& [n, v] : params) key += "|" + n + "=" + v;
  const std::string hash = ref::fnv1a64_hex(key);
  const std::string name = fmt::format("{}-L{}{}", o.unit, o.latency, o.non_pipelined ? "-np" : "");
  const fs::path base = fs::path(o.out) / (t.name + "-units");
  const fs::path dir = base / name;
  const fs::path result = dir / "row.json";
  if (!o.remeasure && fs::exists(result)) {
    json j = json::parse(slurp(result));
    if (j.value("hash", "") == hash) {
      j["cache"] = "cached";
      return j;
    }
  }
  AsicJob job;
  job.sources = sources;
  job.top = k->harness;
  job.params = params;
  job.yosys_cwd = dir;
  job.work = dir / "work";
  job.liberty_dir = base / "liberty";
  job.activity = activity;
  fs::create_directories(dir);
  json r = asic_run(t, job);
  json j{{"unit", o.unit}, {"latency", o.latency}, {"pipelined", !o.non_pipelined}, {"width", width}, {"frac", frac},
         {"hash", hash}};
  for (const char* f : {"area_um2", "cells", "flip_flops", "ff_share_cells", "ff_share_area", "clock_ns", "fmax_mhz",
                        "energy_per_cycle_pj"})
    j[f] = r[f];
  j["worst_path_ns"] = r["worst_path"]["min_period_ns"];
  j["stages"] = r["worst_path"]["stages"];
  j["activity"] = activity;
  const json& tot = r["power"]["total"];
  j["leakage_uw"] = tot["leakage_uw"];
  j["internal_mw"] = tot["internal_mw"];
  j["opensta_internal_mw"] = tot["opensta_internal_mw"];
  j["switching_mw"] = tot["switching_mw"];
  j["total_mw"] = tot["total_mw"];
  write_atomic(result, j.dump(2) + "\n");
  j["cache"] = "measured";
  return j;
}

}  // namespace neaccel::cost
