#include "neaccel/study/study.hpp"

#include "context.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/study/area.hpp"

#include <fmt/format.h>

#include <fstream>

namespace neaccel::study {

namespace fs = std::filesystem;

ref::Robot prepare(const Options& o) {
  if (o.states < 0) throw Error("study: --states must be >= 0");
  if (o.max_units < 0) throw Error("study: --max-units must be >= 0");
  if (o.max_area < 0) throw Error("study: --budget must be >= 0");
  if (o.jobs < 0) throw Error("study: --jobs must be >= 0");
  if (o.out.empty()) throw Error("study: --out must name a directory");
  ref::Robot robot = ref::load_robot(o.robot);  // validates; throws with the file and field
  // A budget below the smallest datapath (one multiplier, one adder, one register) fits nothing: say so now.
  if (o.max_area > 0) {
    const double smallest = datapath_area(1, 1, 1, 1, true, 1).total();
    if (o.max_area < smallest)
      throw Error(fmt::format("study: --budget {} cells: nothing fits (the smallest datapath takes {} cells)", o.max_area, smallest));
  }
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw Error("study: cannot create output directory " + o.out.string() + ": " + ec.message());
  return robot;
}

namespace {
void write_text(const fs::path& p, const std::string& text) {
  std::ofstream out(p);
  out << text;
  if (!out) throw Error("study: cannot write " + p.string());
}

void introduction(Context& ctx) {
  Report& r = ctx.report;
  r.heading(1, "neaccel study: " + ctx.robot.name);
  r.para("From the robot's model to verified Newton-Euler accelerators: reference dynamics, operation counts, dataflow "
         "graphs, a design-space exploration of pipelined multipliers and adders, chosen designs generated as Verilog, "
         "co-simulated against a SystemC model and checked bit for bit, and their synthesis area. Every number below "
         "is read from a JSON file in `data/` (listed in `numbers.json`); plots have their gnuplot scripts beside them.");
  if (ctx.opt.quick)
    r.note("Quick study (--quick): smaller sweep and fewer random states than the default study.");
}

void conclusion(Context& ctx) {
  ctx.data.put("status", {{"failures", ctx.failures}, {"pass", ctx.failures.empty()}});
  Report& r = ctx.report;
  r.heading(2, "Status");
  if (ctx.failures.empty()) {
    r.para("Every check of this study passed.");
  } else {
    r.para("Checks that FAILED:");
    for (const auto& f : ctx.failures) r.para("- " + f);
  }
}
}  // namespace

fs::path run(const Options& options) {
  Context ctx(options, prepare(options));
  fs::create_directories(ctx.dir / "plots");
  introduction(ctx);
  stage_reference(ctx);
  stage_counts(ctx);
  stage_graphs(ctx);
  stage_explore(ctx);
  stage_designs(ctx);
  stage_verify(ctx);
  stage_synthesis(ctx);
  ctx.progress.stage("Report");
  conclusion(ctx);
  ctx.data.flush();
  write_text(ctx.dir / "report.md", ctx.report.markdown());
  write_text(ctx.dir / "report.html", ctx.report.html("neaccel study: " + ctx.robot.name));
  write_text(ctx.dir / "numbers.json", ctx.report.numbers().dump(2) + "\n");
  const auto problems = check_report(ctx.dir);
  if (!problems.empty()) throw Error("study: report inconsistent with its data: " + problems.front());
  ctx.progress.done((ctx.dir / "report.html").string());
  if (!ctx.failures.empty()) throw Error("study: " + std::to_string(ctx.failures.size()) + " check(s) failed, first: " + ctx.failures.front() + " (report written to " + ctx.dir.string() + ")");
  return ctx.dir;
}

}  // namespace neaccel::study
