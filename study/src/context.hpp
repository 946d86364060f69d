// Internal: what the study's stages share.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/hw/design.hpp"
#include "neaccel/study/progress.hpp"
#include "neaccel/study/report.hpp"
#include "neaccel/study/study.hpp"

#include <future>
#include <map>
#include <string>
#include <vector>

namespace neaccel::study {

struct Context {
  Options opt;
  ref::Robot robot;
  std::filesystem::path dir;  // the report directory (opt.out)
  DataDir data;
  DataDir measured;  // measured figures (vary between runs): DIR/measured/*.json, the report's measured parts
  Report report;
  Progress progress;
  std::map<std::string, dfg::Graph> graphs;  // "general", "custom": cleaned modified N-E graphs of the robot
  std::vector<std::string> failures;         // checks that failed (the study exits non-zero if any)
  std::future<nlohmann::json> synthesis;     // Yosys runs, started by stage_verify, collected by stage_synthesis
  nlohmann::json timings = nlohmann::json::object();  // measured times: DIR/timings.json, never in data/ (they vary)

  Context(const Options& o, ref::Robot r)
      : opt(o), robot(std::move(r)), dir(o.out), data(o.out / "data"), measured(o.out / "measured"),
        report(data, &measured),
        progress(8, o.progress && Progress::terminal()) {}
  int states() const { return opt.states > 0 ? opt.states : (opt.quick ? 20 : 100); }
  std::filesystem::path plot(const std::string& name) const { return dir / "plots" / (name + ".svg"); }
  void fail(const std::string& what) { failures.push_back(what); }
};

// What a section heading adds to say which function the study runs: nothing for the inverse dynamics
// (the study's headings as before), else " (function fd)".
inline std::string function_suffix(const std::string& function) {
  return function == "id" ? std::string() : " (function " + function + ")";
}

void stage_reference(Context& ctx);
void stage_counts(Context& ctx);
void stage_graphs(Context& ctx);
void stage_cpu(Context& ctx);        // within stage 3: this machine's CPU timed (data/cpu.json)
void stage_platforms(Context& ctx);  // within stage 3: the graph's kernels on this machine (measured/platforms.json)
void platforms_summary(Context& ctx);  // the summary's table of every platform (a measured part)
void headline(Context& ctx);  // the summary's first table: the placed, verified designs against a CPU core and the GPU
void platforms_section(Context& ctx);  // the section on the platforms (a measured part)
void stage_explore(Context& ctx);
void stage_designs(Context& ctx);
void stage_verify(Context& ctx);
void stage_synthesis(Context& ctx);
void stage_device(Context& ctx);
// With a standard-cell chip beside the device (--target sky130-hd): section 7's latency datapaths on the chip,
// pre-layout (data/chip.json; stage_chip.cpp), and whether a design directory has a chip result to read.
void stage_chip(Context& ctx);
bool chip_has(const Context& ctx, const std::filesystem::path& dir);      // within stage 7: the chosen designs on the target device (data/device.json)
void device_summary(Context& ctx);    // the summary's line on the target device
// The fastest chosen latency datapath as placed and routed on the study's device (design, point, its units, cycles,
// time_ns, fmax_mhz, lut, lut_percent, dsp, part), or null when none was placed.
nlohmann::json fastest_placed(const Context& ctx);

// The hardwired latency datapath the study generates for an explored row (as its `neaccel rtl` arguments say: fp32,
// the study's robot, function and depth pass, the interconnect-aware binding).
hw::DesignSpec generated_spec(const Context& ctx, const nlohmann::json& row);

// The index in data/verify.json's runs of the named design's run in a number format, or -1 when there is none.
std::ptrdiff_t verify_run(const Context& ctx, const std::string& name, const std::string& format);

// The hardwired datapath's pipelining options (hw/hardwired.hpp: registered decode, operand registers) and a wider
// input port (four words per cycle: 128 bits of fp32 or fixed:16.16, with the other ports 169 of the LFE5U-85F's
// 205 I/O pins), which the device model does not cover: the study builds the fastest design with them as well,
// verifies it (section 6) and places it (section 7). Each: its name in the design's name, its `neaccel rtl` arguments.
struct Lever {
  std::string name;
  std::vector<std::string> args;
  // The deep-units lever builds the design at other unit latencies (a new schedule of the same point) and in one
  // number format: 0 / empty for the options that keep the design's program in every lever format.
  int lat_mul = 0, lat_add = 0;
  std::string format;
  bool builds(const std::string& f) const { return format.empty() || format == f; }
};
// The levers that apply to a chosen design: none unless it is a hardwired latency datapath; registered decode with
// the four-word input port (fewer words where the design has fewer port inputs); the same with operand registers
// where every unit latency is at least 2, and that with overlapped I/O (--io overlap) in the fixed-point format; and,
// where the target's unit table has the deep units and the design has
// only multipliers and adders, the same again with the deep units (rtl/units/deep) in the fixed-point format, each
// at the least latency at which it alone reaches 95 % of the slower deep unit's best clock, plus its operand register;
// and the same again with local sequencers (--decode local) instead of registered decode.
std::vector<Lever> levers_of(const Context& ctx, const nlohmann::json& design);
// Whether the study will have a placement of the design in `dir` on its target: --pnr, or a cached result (the
// design's own cache or the committed one, at seed 1 or the other seeds the device section reads).
bool will_be_placed(const Context& ctx, const std::filesystem::path& dir);
// The fixed-point format the study builds its fastest design in beside binary32 (section 6), and bounds in (section 7).
inline constexpr const char* kFixedBound = "fixed:16.16";
// The formats the levers are built in: binary32 and the fixed-point format of section 6.
inline const std::vector<std::string>& lever_formats() {
  static const std::vector<std::string> f{"fp32", kFixedBound};
  return f;
}

// The directory of a chosen design's RTL in a number format (designs/<name>_<format>; binary32 by default).
std::filesystem::path chosen_design_dir(const Context& ctx, const std::string& name,
                                        const std::string& format = "fp32");

}  // namespace neaccel::study
