#include "neaccel/cost/routability.hpp"

#include "embedded_data.hpp"
#include "neaccel/cost/cost.hpp"
#include "neaccel/cost/target.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/json_error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <vector>

namespace neaccel::cost {

using nlohmann::json;

namespace {

// One design placed on the target: from its device model's designs (all routed) or its routability file.
struct Placed {
  std::string name, source, note;
  bool routed = false;
  bool calibration = false;     // one of the device model's designs that it is fitted or checked on
  long lut = 0;                 // placed LUT4 (routed designs; unrouted: what nextpnr placed, when known, else 0)
  double period_ns = 0;         // routed designs: nextpnr's clock period (0: not routed)
  CostPoint point;              // the design's cost point, on the target
  CostEstimate estimate;        // the model's, on it
};

std::string file_of(const Target& t, const char* key) { return t.data.value(key, std::string()); }

std::vector<Placed> placed_designs(const Target& t) {
  std::vector<Placed> out;
  auto point = [&](const json& row) {
    CostPoint p = cost_point_from_json(row.at("point"));
    p.target = t.name;
    return p;
  };
  const std::string model_file = file_of(t, "designs"), route_file = file_of(t, "routability");
  for (const auto& [file, routed_all] : {std::pair{model_file, true}, std::pair{route_file, false}}) {
    if (file.empty()) continue;
    const json& d = embedded_data(file);
    if (!d.contains("designs") || !d["designs"].is_array()) throw Error(file + ": designs: expected an array");
    for (std::size_t i = 0; i < d["designs"].size(); ++i) {
      const json& row = d["designs"][i];
      Placed p;
      try {
        p.name = row.at("name").get<std::string>();
        p.source = file;
        p.routed = routed_all || row.at("routed").get<bool>();
        p.calibration = routed_all && row.value("set", std::string("fit")) != "outside";
        p.lut = p.routed ? row.at("lut").get<long>() : row.value("lut", 0L);
        p.note = row.value("note", std::string());
        if (p.routed)  // the model's designs carry the period, the routability file nextpnr's Fmax
          p.period_ns = row.contains("period_ns") ? row["period_ns"].get<double>() : 1000.0 / row.at("fmax_mhz").get<double>();
        p.point = point(row);
        p.estimate = estimate_cost(p.point);
      } catch (const json::exception& e) {
        throw Error(fmt::format("{}: designs[{}]: {}", file, i, json_problem(e)));
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

// The target's placed designs, read once, and the envelope per architecture they give.
struct Envelopes {
  std::vector<Placed> placed;
  std::map<std::string, RoutedEnvelope> by_arch;
};

// A design's size against the envelope: the larger of what nextpnr placed and what the model estimates for it (the
// envelope is compared with the model's estimates, and a design that routed must lie inside it whichever way the
// model errs on it).
long envelope_lut(const Placed& p) { return std::max(p.lut, std::lround(p.estimate.lut)); }

Envelopes compute(const Target& t) {
  Envelopes e;
  e.placed = placed_designs(t);
  const std::vector<Placed>& placed = e.placed;
  for (const Placed& p : placed) {
    if (!p.routed) continue;
    RoutedEnvelope& v = e.by_arch[p.estimate.arch];
    v.arch = p.estimate.arch;
    ++v.routed;
    const long lut = envelope_lut(p);
    if (lut > v.lut) {
      v.lut = lut;
      v.lut_design = p.name;
      v.lut_percent = std::round(1000.0 * static_cast<double>(lut) / static_cast<double>(t.lut)) / 10.0;
    }
    if (p.estimate.port_sources > v.port_sources) {
      v.port_sources = p.estimate.port_sources;
      v.port_design = p.name;
    }
  }
  for (const Placed& p : placed) {
    if (p.routed) continue;
    const auto it = e.by_arch.find(p.estimate.arch);
    if (it == e.by_arch.end()) continue;
    RoutedEnvelope& v = it->second;
    v.bounds_lut = v.bounds_lut || envelope_lut(p) > v.lut;
    v.bounds_ports = v.bounds_ports || p.estimate.port_sources > v.port_sources;
  }
  // The model's range, and its errors on the routed designs beyond it.
  const json tol = t.data.value("model_tolerance_percent", json::object());
  auto tolerance = [&](const char* key) {
    if (!tol.is_object() || (tol.contains(key) && !tol[key].is_number()))
      throw Error(fmt::format("cost/targets/{}.json: model_tolerance_percent.{}: expected a number", t.name, key));
    return tol.value(key, 0.0);
  };
  const double tol_period = tolerance("period"), tol_lut = tolerance("lut");
  // The model's signed errors on a routed design, each kept where it is the largest in magnitude so far.
  auto keep_worst = [](const Placed& p, double& period_error, std::string& period_design, double& lut_error,
                       std::string& lut_design) {
    const double ep = percent_error(p.estimate.period_ns, p.period_ns),
                 el = percent_error(p.estimate.lut, static_cast<double>(p.lut));
    if (std::abs(ep) > std::abs(period_error)) period_error = ep, period_design = p.name;
    if (std::abs(el) > std::abs(lut_error)) lut_error = el, lut_design = p.name;
  };
  // The designs the model is fitted or checked on: its multiplexer range, and its worst errors on each class.
  for (const Placed& p : placed) {
    if (!p.calibration) continue;
    RoutedEnvelope& v = e.by_arch[p.estimate.arch];
    if (p.estimate.port_sources > v.model_port_sources) {
      v.model_port_sources = p.estimate.port_sources;
      v.model_port_design = p.name;
    }
    RoutedEnvelope::ClassErrors& c = p.point.streaming ? v.streaming_class : v.latency_class;
    ++c.designs;
    keep_worst(p, c.period_error, c.period_design, c.lut_error, c.lut_design);
  }
  for (const Placed& p : placed) {
    const auto it = e.by_arch.find(p.estimate.arch);
    if (!p.routed || it == e.by_arch.end() || it->second.model_port_design.empty()) continue;
    RoutedEnvelope& v = it->second;
    if (p.estimate.port_sources <= v.model_port_sources) continue;
    keep_worst(p, v.beyond_period_error, v.beyond_period_design, v.beyond_lut_error, v.beyond_lut_design);
  }
  auto beyond = [&](double period_error, double lut_error) {
    return (tol_period > 0 && std::abs(period_error) > tol_period) || (tol_lut > 0 && std::abs(lut_error) > tol_lut);
  };
  for (auto& [arch, v] : e.by_arch) {
    v.tolerance_period = tol_period, v.tolerance_lut = tol_lut;
    v.bounds_model_ports = beyond(v.beyond_period_error, v.beyond_lut_error);
    for (RoutedEnvelope::ClassErrors* c : {&v.latency_class, &v.streaming_class})
      c->bounds = beyond(c->period_error, c->lut_error);
  }
  return e;
}

const Envelopes& envelopes(const Target& t) {
  static std::mutex mutex;
  static std::map<std::string, Envelopes> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(t.name); it != cache.end()) return it->second;
  return cache.emplace(t.name, compute(t)).first->second;
}

json class_json(const RoutedEnvelope::ClassErrors& c) {
  return {{"designs", c.designs}, {"period_error_percent", c.period_error}, {"period_design", c.period_design},
          {"lut_error_percent", c.lut_error}, {"lut_design", c.lut_design}, {"bounds", c.bounds}};
}

json envelope_json(const RoutedEnvelope& v) {
  return {{"arch", v.arch}, {"routed", v.routed}, {"lut", v.lut}, {"lut_percent", v.lut_percent},
          {"lut_design", v.lut_design}, {"port_sources", v.port_sources}, {"port_design", v.port_design},
          {"bounds_lut", v.bounds_lut}, {"bounds_ports", v.bounds_ports},
          {"model_port_sources", v.model_port_sources}, {"model_port_design", v.model_port_design},
          {"beyond_period_error_percent", v.beyond_period_error}, {"beyond_period_design", v.beyond_period_design},
          {"beyond_lut_error_percent", v.beyond_lut_error}, {"beyond_lut_design", v.beyond_lut_design},
          {"bounds_model_ports", v.bounds_model_ports},
          {"latency_datapaths", class_json(v.latency_class)}, {"streaming_datapaths", class_json(v.streaming_class)}};
}

}  // namespace

bool has_routability(const std::string& name) { return !file_of(target(name), "routability").empty(); }

std::optional<RoutedEnvelope> routed_envelope(const std::string& name, const std::string& arch) {
  const Target& t = target(name);
  if (file_of(t, "routability").empty()) return std::nullopt;
  const Envelopes& e = envelopes(t);
  if (auto it = e.by_arch.find(arch); it != e.by_arch.end()) return it->second;
  return std::nullopt;
}

json routability(const std::string& name) {
  const Target& t = target(name);
  if (file_of(t, "routability").empty())
    throw Error("--target " + name + ": no routability data (cost/targets/" + name + ".json names none)");
  const Envelopes& e = envelopes(t);
  json rows = json::array();
  for (const Placed& p : e.placed) {
    json r{{"name", p.name}, {"source", p.source}, {"routed", p.routed}, {"arch", p.estimate.arch},
           {"lut", p.lut}, {"model_lut", std::round(p.estimate.lut)}, {"port_sources", p.estimate.port_sources},
           {"period_ns", p.period_ns}, {"model_period_ns", p.estimate.period_ns}, {"point", to_json(p.point)}};
    if (!p.note.empty()) r["note"] = p.note;
    rows.push_back(r);
  }
  json env = json::object();
  for (const auto& [arch, v] : e.by_arch) env[arch] = envelope_json(v);
  return {{"target", t.name}, {"part", t.part}, {"device_lut", t.lut}, {"routability_file", file_of(t, "routability")},
          {"command", t.data.value("routability_command", std::string())}, {"envelope", env}, {"designs", rows}};
}

}  // namespace neaccel::cost
