// Operation counts of a robot's traced dataflow graphs beside the papers' figures, as `neaccel counts --dfg`
// prints them (text) and writes them (JSON). docs/dfg.md, docs/functions.md.
#pragma once

#include "neaccel/dfg/functions.hpp"
#include "neaccel/ref/count_tables.hpp"

#include <string>

namespace neaccel::dfg {

// The inverse dynamics of one robot in every form: the general graph (every parameter an input) untouched and
// after fold/CSE/DCE, the customised graph (parameters folded) and, for the forms linear in the parameters
// (khalil, khalil-k, khalil-mix), the customised graph in base parameters; beside seed 000 Table 8.5, Khalil 87b's
// base-parameter formula (seed 003 Table 9.5, n > 2) and seed 003 Table 9.6 for the RX-90 (rx90, rx90-simplified).
// json: {robot, n, base_parameters, forms, papers}; text: mul/add per form and flavour, then the papers.
ref::CountTable form_graph_count_table(const std::string& robot);

// Function f's graphs of one robot (general untouched, general after the passes, customised, customised in base
// parameters) beside the papers' figures that apply, and f on the papers' general n-link arm for n = 1..nmax
// (standard and modified DH) beside the paper's formula. Divisions are listed after the additions (mul/add/div);
// the papers count a division as a multiplication.
ref::CountTable function_graph_count_table(const std::string& robot, Function f, int nmax);

}  // namespace neaccel::dfg
