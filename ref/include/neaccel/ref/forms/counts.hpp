// Operation counts of every formulation in ref/forms/, measured by running it in the Counted scalar on a general
// n-link revolute arm (every geometric and inertial parameter a run-time unknown, gravity along base z, no
// external wrench, no friction: the papers' case, as ref/counts.hpp), beside the seed papers' figures
// (../shared/data/paper-tables.md). docs/formulations.md explains each difference.
#pragma once

#include "neaccel/ref/counted.hpp"
#include "neaccel/ref/counts.hpp"

#include <map>
#include <string>
#include <vector>

namespace neaccel::ref::forms {

// One formulation at one n.
struct CountRow {
  std::string formulation;  // e.g. "lagrange"
  std::string kind;         // "inverse", "explicit" (M, C, G) or "forward"
  std::string title;        // e.g. "Lagrange (Uicker/Lewis, 4x4), seed 000 eq 3.1"
  int n = 0;
  OpCounts ours;
  long div = 0;             // divisions (forward dynamics only)
  std::map<std::string, OpCounts> per_quantity;  // ProvenanceScope quantity -> counts ("" = outside any scope)
  std::vector<PaperCount> paper;
};

// Names accepted by count_formulation, in report order.
std::vector<std::string> formulation_names();

// Counts one formulation (name from formulation_names()) for n >= 1; throws neaccel::Error otherwise.
CountRow count_formulation(const std::string& name, int n);

// Every formulation at n.
std::vector<CountRow> formulation_counts(int n);

}  // namespace neaccel::ref::forms
