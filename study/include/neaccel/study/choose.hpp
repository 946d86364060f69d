// The study's three named designs, chosen from the exploration's rows (explore.json's points, with the time and the
// device fit of cost::timing_json): fastest (smallest latency in ns, then smallest size), smallest within 10 % of
// that latency, best throughput per area (set points per second per cell of the design that sustains them). Only
// verified points of the customised graph are candidates, within max_area generic cells (0 = no limit); on a target
// with a device model (the rows carry "target") only points whose latency datapath fits the device, lies within what
// has routed on it and keeps --budget-lut/--budget-dsp (target.within_budget), and for best throughput per area its
// throughput design too (target.throughput_within_budget); "smallest" then counts LUT4 on the device, and best
// throughput per area set points per second per LUT4 of the throughput design (target.throughput_per_s_per_lut).
// When no point lies within what has routed but some fit, the choice falls back to those that fit and marks every
// pick "beyond_routed": true. Throws neaccel::Error when nothing fits.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <vector>

namespace neaccel::study {

// [{name, point (index into rows), objective ("latency" | "throughput"), [beyond_routed]}] x 3.
nlohmann::json choose_designs(const nlohmann::json& rows, double max_area, bool budgets);

// The hardwired rows among the first k of the candidates that fit the device (within what has routed or not) by
// each objective: latency, size within 10 % of the fastest candidate's latency, and a latency datapath's set points
// per second per size; in row order, each once. The study costs these as generated (stage_explore: the
// interconnect-aware binding instead of the left-edge one) before it chooses, since the generated design has fewer
// multiplexer inputs and can move up in every ranking.
std::vector<std::size_t> choice_shortlist(const nlohmann::json& rows, double max_area, std::size_t k);

// The rows that could displace a pick of `picks` (choose_designs over `rows`) if they cost what `bounds` says: for row
// i, bounds.at(i) is the row costed as favourably as it could be (the study: a hardwired latency datapath with as
// few multiplexer inputs as its binding could plausibly give). A row is a contender when its bound is a candidate (as
// the picks are: within what has routed, or only fitting where the picks are beyond_routed) and is faster than the
// fastest pick, or within 10 % of its latency and smaller than the smallest pick, or gives more set points per second
// per size as a latency datapath than the best throughput per area pick. In row order.
std::vector<std::size_t> choice_contenders(const nlohmann::json& rows, const nlohmann::json& picks,
                                           const std::map<std::size_t, nlohmann::json>& bounds, double max_area);

}  // namespace neaccel::study
