// JSON export (lossless) and import (lossless form or generic nodes/edges form).
#include "generic_graph.hpp"
#include "neaccel/dfg/io.hpp"
#include "neaccel/ref/json_error.hpp"
#include "neaccel/dfg/json_read.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>
#include <vector>

namespace neaccel::dfg {

namespace {

nlohmann::json number_json(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

double json_number(const nlohmann::json& j, const std::string& where) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const std::string s = j.get<std::string>();
    if (s == "nan") return std::nan("");
    if (s == "inf") return HUGE_VAL;
    if (s == "-inf") return -HUGE_VAL;
  }
  throw Error(where + ": expected a number");
}

// Typed field access with one-line errors naming the field.
const nlohmann::json& field(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw Error(fmt::format("{}: missing field '{}'", where, key));
  return j.at(key);
}

using json_read::checked_get;
using json_read::json_depth;
using json_read::kMaxJsonDepth;

template <class T>
T get(const nlohmann::json& j, const char* key, const std::string& where) {
  const nlohmann::json& v = field(j, key, where);
  T out{};
  if (!checked_get(v, out)) throw Error(fmt::format("{}.{}: wrong type or out of range ({})", where, key, v.type_name()));
  return out;
}

Graph lossless_from_json(const nlohmann::json& j, const std::string& source) {
  if (get<int>(j, "version", source) != 1)
    throw Error(source + ": version: only version 1 of the neaccel-dfg format is known");
  Graph g;
  g.inputs = get<std::vector<std::string>>(j, "inputs", source);
  g.provenance.clear();
  const nlohmann::json& provs = field(j, "provenance", source);
  if (!provs.is_array()) throw Error(source + ": provenance: expected an array");
  for (std::size_t i = 0; i < provs.size(); ++i) {
    const std::string w = fmt::format("{}: provenance[{}]", source, i);
    g.provenance.push_back({get<int>(provs[i], "link", w), get<std::string>(provs[i], "quantity", w),
                            get<std::string>(provs[i], "equation", w)});
  }
  const nlohmann::json& nodes = field(j, "nodes", source);
  if (!nodes.is_array()) throw Error(source + ": nodes: expected an array");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const nlohmann::json& jn = nodes[i];
    const std::string w = fmt::format("{}: nodes[{}]", source, i);
    if (jn.contains("id") && get<std::size_t>(jn, "id", w) != i)
      throw Error(fmt::format("{}: id {} does not match its position", w, jn.at("id").dump()));
    Node n;
    const std::string op = get<std::string>(jn, "op", w);
    if (!op_from_name(op, n.op)) throw Error(fmt::format("{}: unknown op '{}'", w, op));
    if (jn.contains("prov")) n.prov = get<std::uint32_t>(jn, "prov", w);
    if (n.op == Op::Input) n.input = get<std::uint32_t>(jn, "input", w);
    if (n.op == Op::Const) n.value = json_number(field(jn, "value", w), w + ".value");
    if (is_operation(n.op)) {
      const auto args = get<std::vector<NodeId>>(jn, "args", w);
      if (static_cast<int>(args.size()) != arity(n.op))
        throw Error(fmt::format("{}: {} takes {} operands, got {}", w, op, arity(n.op), args.size()));
      for (std::size_t k = 0; k < args.size(); ++k) n.arg[k] = args[k];
    }
    g.nodes.push_back(n);
  }
  const nlohmann::json& outs = field(j, "outputs", source);
  if (!outs.is_array()) throw Error(source + ": outputs: expected an array");
  for (std::size_t i = 0; i < outs.size(); ++i) {
    const std::string w = fmt::format("{}: outputs[{}]", source, i);
    g.outputs.push_back({get<std::string>(outs[i], "name", w), get<NodeId>(outs[i], "node", w)});
  }
  validate(g, source);
  return g;
}

Graph generic_from_json(const nlohmann::json& j, const std::string& source) {
  detail::GenericGraph gg;
  gg.source = source;
  const nlohmann::json& nodes = field(j, "nodes", source);
  if (!nodes.is_array()) throw Error(source + ": nodes: expected an array");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string w = fmt::format("{}: nodes[{}]", source, i);
    if (!nodes[i].is_object()) throw Error(w + ": expected an object");
    detail::GenericNode n;
    for (const auto& [k, v] : nodes[i].items()) {
      if (v.is_string()) n.attrs[k] = v.get<std::string>();
      else if (v.is_number() || v.is_boolean()) n.attrs[k] = v.dump();
      else throw Error(fmt::format("{}.{}: expected a string, number or boolean", w, k));
    }
    auto it = n.attrs.find("id");
    if (it == n.attrs.end()) throw Error(w + ": missing field 'id'");
    n.id = it->second;
    n.attrs.erase(it);
    gg.nodes.push_back(std::move(n));
  }
  if (j.contains("edges")) {
    const nlohmann::json& edges = j.at("edges");
    if (!edges.is_array()) throw Error(source + ": edges: expected an array");
    for (std::size_t i = 0; i < edges.size(); ++i) {
      const nlohmann::json& e = edges[i];
      const auto str = [](const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
      if (!e.is_array() || e.size() != 2 || !(e[0].is_string() || e[0].is_number()) ||
          !(e[1].is_string() || e[1].is_number()))
        throw Error(fmt::format("{}: edges[{}]: expected [from, to]", source, i));
      gg.edges.push_back({str(e[0]), str(e[1]), 0});
    }
  }
  return detail::build_generic(gg);
}

}  // namespace

nlohmann::json to_json(const Graph& g) {
  nlohmann::json j;
  j["format"] = "neaccel-dfg";
  j["version"] = 1;
  j["inputs"] = g.inputs;
  nlohmann::json provs = nlohmann::json::array();
  for (const Provenance& p : g.provenance) provs.push_back({{"link", p.link}, {"quantity", p.quantity}, {"equation", p.equation}});
  j["provenance"] = provs;
  nlohmann::json nodes = nlohmann::json::array();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    nlohmann::json jn{{"id", i}, {"op", op_name(n.op)}};
    if (n.op == Op::Input) jn["input"] = n.input;
    if (n.op == Op::Const) jn["value"] = number_json(n.value);
    if (is_operation(n.op)) {
      nlohmann::json args = nlohmann::json::array();
      for (int k = 0; k < arity(n.op); ++k) args.push_back(n.arg[static_cast<std::size_t>(k)]);
      jn["args"] = args;
    }
    jn["prov"] = n.prov;
    nodes.push_back(jn);
  }
  j["nodes"] = nodes;
  nlohmann::json outs = nlohmann::json::array();
  for (const Output& o : g.outputs) outs.push_back({{"name", o.name}, {"node", o.node}});
  j["outputs"] = outs;
  return j;
}

std::string to_json_text(const Graph& g) { return to_json(g).dump(1) + "\n"; }

Graph graph_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object()) throw Error(source + ": expected a JSON object");
  if (json_depth(j) > kMaxJsonDepth) throw Error(fmt::format("{}: JSON nested deeper than {}", source, kMaxJsonDepth));
  if (j.contains("format")) {
    if (j.at("format") != "neaccel-dfg") throw Error(source + ": format: expected \"neaccel-dfg\"");
    return lossless_from_json(j, source);
  }
  return generic_from_json(j, source);
}

Graph graph_from_json_text(const std::string& text, const std::string& source) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw Error(fmt::format("{}: JSON syntax error at byte {}", source, e.byte));
  } catch (const nlohmann::json::exception& e) {  // e.g. a number too large for a double (out_of_range 406)
    throw Error(fmt::format("{}: invalid JSON ({})", source, json_problem(e)));
  }
  return graph_from_json(j, source);
}

Graph read_graph_file(const std::string& path) {
  check_file_size(path);
  std::ifstream f(path, std::ios::binary);
  if (!f) throw Error(path + ": cannot read the file");
  std::stringstream ss;
  ss << f.rdbuf();
  const auto ends = [&](const char* e) {
    const std::string s(e);
    return path.size() >= s.size() && path.compare(path.size() - s.size(), s.size(), s) == 0;
  };
  if (ends(".json")) return graph_from_json_text(ss.str(), path);
  if (ends(".dot") || ends(".gv")) return graph_from_dot(ss.str(), path);
  throw Error(path + ": unknown graph file type (expected .json, .dot or .gv)");
}

}  // namespace neaccel::dfg
