// Internal: a generic graph as read from DOT or generic JSON (named nodes with attributes, edges in order), and
// its conversion into a dfg::Graph with the import rules of io.hpp.
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <map>
#include <string>
#include <vector>

namespace neaccel::dfg::detail {

struct GenericNode {
  std::string id;
  std::map<std::string, std::string> attrs;
  int line = 0;  // where declared (0 = unknown)
};

struct GenericEdge {
  std::string from, to;
  int line = 0;
};

struct GenericGraph {
  std::string source;  // file name for messages
  std::vector<GenericNode> nodes;
  std::vector<GenericEdge> edges;
};

Graph build_generic(const GenericGraph& gg);

}  // namespace neaccel::dfg::detail
