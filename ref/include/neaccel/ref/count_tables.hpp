// The tables of ref's operation counts beside the papers' figures, as `neaccel counts` and `neaccel formulations
// counts` print them (text) and write them (JSON): the three Newton-Euler forms (counts.hpp), every formulation
// of ref/forms (forms/counts.hpp) and the control computation of seed 004 (control/counts.hpp). docs/counts.md,
// docs/formulations.md, docs/control.md.
#pragma once

#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/forms/counts.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neaccel::ref {

// A table as JSON and as the text printed.
struct CountTable {
  nlohmann::json json;
  std::string text;
};

// {"mul", "add", "neg"} of a count.
nlohmann::json op_counts_json(const OpCounts& c);

// The control computation for n = 1..nmax: json {"control": [{n, what, method, ours, paper, paper_mul,
// paper_add}]}; text: a title line, then one line per row (ours mul/add, and seed 004's source or our method).
CountTable control_count_table(int nmax);

// The three N-E forms for n = 1..nmax (our counts and each paper's formula at n): json, the rows
// [{n, <form>: {ours, papers, per_quantity when asked}}]; text: a title (naming `dh`, the convention as given, and
// friction) and header, then one line per n.
CountTable form_count_table(int nmax, const CountOptions& options, const std::string& dh, bool per_quantity);

namespace forms {

// One formulation row: formulation, kind, title, n, mul, add, neg, div and the papers' figures.
nlohmann::json count_row_json(const CountRow& r);
// Counts of every formulation for each n in ns (outer index: n).
std::vector<std::vector<CountRow>> formulation_counts(const std::vector<int>& ns);
// Every row of by_n, n by n, as one JSON array.
nlohmann::json count_rows_json(const std::vector<std::vector<CountRow>>& by_n);
// `formulations counts`: one line per formulation and n (mul, add, div, the papers' mul/add, source, formula).
std::string count_rows_text(const std::vector<std::vector<CountRow>>& by_n);
// `counts`: one line per formulation, mul/add[/div] for each n = 1..nmax across (by_n holds n = 1..nmax), between a
// title and a note on negations.
std::string count_grid_text(const std::vector<std::vector<CountRow>>& by_n, int nmax);

// The data and the gnuplot script of a plot of multiplications against n (log axes; our counts of every
// formulation and of the Luh-Walker-Paul N-E as the reference line): formulation-counts.dat, one index per
// formulation, and formulation-counts.gp, which reads it and writes formulation-counts.svg in its directory.
struct CountPlot {
  std::string data, script;
};
CountPlot count_plot(const std::vector<std::vector<CountRow>>& by_n);

}  // namespace forms

}  // namespace neaccel::ref
