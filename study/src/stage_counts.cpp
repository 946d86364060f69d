// Stage 2: operation counts of every formulation, ours beside the papers' formulas, n = 1..12.
#include "context.hpp"

#include "neaccel/ref/counts.hpp"
#include "neaccel/study/plot.hpp"

#include <fmt/format.h>

namespace neaccel::study {

namespace {
using nlohmann::json;
constexpr int kNmax = 12;
}  // namespace

void stage_counts(Context& ctx) {
  ctx.progress.stage("Operation counts");
  json rows = json::array();
  PlotSpec plot{"Multiplications per evaluation, general n-link revolute arm", "n (links)", "multiplications",
                true, true, {}, 900, 520, "set key inside left top reverse Left font ',10'\nset xrange [1:12]"};
  for (ref::Form form : ref::all_forms()) {
    Series ours{"neaccel " + ref::form_name(form), {}, "linespoints"};
    std::map<std::string, Series> papers;
    for (int n = 1; n <= kNmax; ++n) {
      const ref::FormCounts c = ref::count_ops(form, n);
      json paper = json::array();
      for (const ref::PaperCount& p : ref::paper_counts(form, n)) {
        paper.push_back({{"source", p.source}, {"mul_formula", p.mul_formula}, {"add_formula", p.add_formula},
                         {"mul", p.mul}, {"add", p.add}});
        auto& s = papers[p.source];
        s.title = p.source + " (" + ref::form_name(form) + ")";
        s.style = "lines dashtype 2";
        s.points.emplace_back(n, p.mul);
      }
      rows.push_back({{"form", ref::form_name(form)}, {"n", n}, {"mul", c.total.mul}, {"add", c.total.add},
                      {"neg", c.total.neg}, {"paper", paper}});
      ours.points.emplace_back(n, static_cast<double>(c.total.mul));
    }
    plot.series.push_back(ours);
    for (auto& [name, s] : papers) plot.series.push_back(s);
  }
  ctx.data.put("counts", {{"nmax", kNmax}, {"rows", rows}});
  plot_svg(ctx.plot("counts"), plot);

  Report& r = ctx.report;
  r.heading(2, "2. Operation counts");
  r.para("Each formulation runs in the counting scalar (`ref::Counted`) on a general n-link revolute arm: every "
         "geometric and inertial parameter is a run-time unknown, so these are the counts of general hardware. "
         "Subtractions count as additions; negations (sign flips) are listed apart, as the papers do not count them. "
         "Counts at n = 6:");
  std::vector<std::vector<Cell>> table;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]["n"] != 6) continue;
    const std::string p = "/rows/" + std::to_string(i);
    for (std::size_t k = 0; k < rows[i]["paper"].size(); ++k) {
      const std::string pk = p + "/paper/" + std::to_string(k);
      table.push_back({r.num("counts", p + "/form"), r.num("counts", p + "/mul"), r.num("counts", p + "/add"),
                       r.num("counts", p + "/neg"), r.num("counts", pk + "/source"),
                       Report::label(rows[i]["paper"][k]["mul_formula"].get<std::string>() + " / " +
                                     rows[i]["paper"][k]["add_formula"].get<std::string>()),
                       r.num("counts", pk + "/mul", 0), r.num("counts", pk + "/add", 0)});
    }
  }
  r.table({"formulation", "our mul", "our add", "our neg", "paper", "formula (mul / add)", "paper mul", "paper add"}, table);
  r.figure("plots/counts.svg", "Multiplications against n, ours (solid) and the papers' formulas (dashed), log axes. "
                               "Data: data/counts.json; differences explained in docs/counts.md.");
  ctx.progress.done(fmt::format("{} forms, n = 1..{}", ref::all_forms().size(), kNmax));
}

}  // namespace neaccel::study
