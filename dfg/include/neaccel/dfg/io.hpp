// Import and export of dataflow graphs: JSON (lossless), Graphviz DOT, C++ source. Schema: docs/dfg.md.
//
// Every reader throws neaccel::Error with a one-line message "<source>: <what is wrong>" (source = file name or
// the name given for a string).
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::dfg {

// ---- JSON ----
// The lossless form: {"format": "neaccel-dfg", "version": 1, "inputs": [...], "provenance": [...],
// "nodes": [{"id", "op", "args" | "input" | "value", "prov"}], "outputs": [{"name", "node"}]}. Constants are
// written so they read back to the same bits (shortest round-trip decimal; "inf", "-inf", "nan" as strings).
nlohmann::json to_json(const Graph& g);
std::string to_json_text(const Graph& g);  // to_json(g).dump(1) + "\n"

// Reads either the lossless form above or a generic graph (docs/dfg.md): {"nodes": [{"id": "a", "op": "mul",
// ...}], "edges": [["x", "a"], ...]} with the same rules as DOT import. The result is validated.
Graph graph_from_json(const nlohmann::json& j, const std::string& source);
Graph graph_from_json_text(const std::string& text, const std::string& source);

// ---- DOT ----
struct DotOptions {
  std::string name = "dfg";
  bool cluster_by_link = true;  // one cluster per link (provenance link), inputs and constants outside
};
// Nodes coloured by provenance quantity; every node carries op=..., constants value=..., inputs name=...,
// outputs output="<name>"; edges are listed in operand order, so import_dot(export_dot(g)) computes the same.
std::string to_dot(const Graph& g, const DotOptions& opt = {});

// Imports the DOT subset documented in docs/dfg.md: `digraph [name] { stmt; ... }` with node statements
// `id [attr=value, ...]`, edge statements `a -> b [-> c] [attrs]`, `node [...]` defaults, graph attributes and
// subgraphs (flattened), comments. Node attributes: op (add, sub, mul, neg, cmp, div, sqrt, fma, input, const;
// a node without op, or whose label is not an op name, is an input), value (const), name (input/output name),
// output (true/false or an output name), quantity/link/equation (provenance). Operands are the predecessors in
// edge order; an operation with fewer predecessors than operands takes the rest from new external inputs named
// "<node>.in<k>"; sinks that are not inputs or constants are outputs unless output=false. Nodes must be declared
// by a node statement before or after use; edges to undeclared nodes, duplicate ids, cycles, unknown ops,
// too many operands and syntax errors are errors "<source>:<line>: ...".
Graph graph_from_dot(const std::string& text, const std::string& source);

// Reads a graph file by extension (.json or .dot/.gv).
Graph read_graph_file(const std::string& path);

// ---- C++ ----
struct CppOptions {
  std::string function = "neaccel_dfg";  // function name
  std::string scalar = "double";         // "double" or "float"
  std::string comment;                   // first comment line (e.g. the robot and form)
};
// A self-contained C++ source defining `void <function>(const <scalar>* in, <scalar>* out)` that computes the
// graph's outputs from its inputs (Graph::inputs / Graph::outputs order) with one statement per operation, as
// SYMORO's generated code does. Supports add, sub, mul, neg, div, sqrt, fma, cmp.
std::string to_cpp(const Graph& g, const CppOptions& opt = {});

}  // namespace neaccel::dfg
