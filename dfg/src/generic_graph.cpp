#include "generic_graph.hpp"

#include "neaccel/dfg/builder.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <queue>
#include <unordered_map>

namespace neaccel::dfg::detail {

namespace {

std::string where(const GenericGraph& gg, int line) {
  return line > 0 ? fmt::format("{}:{}", gg.source, line) : gg.source;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

const std::string* attr(const GenericNode& n, const char* key) {
  auto it = n.attrs.find(key);
  return it == n.attrs.end() ? nullptr : &it->second;
}

// The node's op: attribute op, else a label that names an op, else input.
Op node_op(const GenericGraph& gg, const GenericNode& n) {
  Op op = Op::Input;
  if (const std::string* s = attr(n, "op")) {
    if (!op_from_name(lower(*s), op))
      throw Error(fmt::format("{}: node '{}': unknown op '{}' (expected add, sub, mul, neg, cmp, div, sqrt, fma, "
                              "input, const)", where(gg, n.line), n.id, *s));
    return op;
  }
  if (const std::string* s = attr(n, "label"))
    if (op_from_name(lower(*s), op) && op != Op::Const) return op;
  return Op::Input;
}

double parse_number(const GenericGraph& gg, const GenericNode& n, const std::string& s) {
  const std::string t = lower(s);
  if (t == "inf" || t == "+inf") return HUGE_VAL;
  if (t == "-inf") return -HUGE_VAL;
  if (t == "nan") return std::nan("");
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size())
    throw Error(fmt::format("{}: node '{}': value '{}' is not a number", where(gg, n.line), n.id, s));
  return v;
}

}  // namespace

Graph build_generic(const GenericGraph& gg) {
  const std::size_t N = gg.nodes.size();
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < N; ++i)
    if (!index.emplace(gg.nodes[i].id, i).second)
      throw Error(fmt::format("{}: duplicate node id '{}'", where(gg, gg.nodes[i].line), gg.nodes[i].id));
  std::vector<Op> ops(N);
  for (std::size_t i = 0; i < N; ++i) ops[i] = node_op(gg, gg.nodes[i]);
  std::vector<std::vector<std::size_t>> preds(N), succs(N);
  for (const GenericEdge& e : gg.edges) {
    for (const std::string* end : {&e.from, &e.to})
      if (!index.count(*end))
        throw Error(fmt::format("{}: dangling edge {} -> {}: node '{}' is not declared", where(gg, e.line), e.from,
                                e.to, *end));
    const std::size_t a = index[e.from], b = index[e.to];
    preds[b].push_back(a);
    succs[a].push_back(b);
  }
  for (std::size_t i = 0; i < N; ++i) {
    const GenericNode& n = gg.nodes[i];
    const int k = arity(ops[i]);
    if (!is_operation(ops[i]) && !preds[i].empty())
      throw Error(fmt::format("{}: node '{}' is an {} but has {} incoming edge(s)", where(gg, n.line), n.id,
                              op_name(ops[i]), preds[i].size()));
    if (static_cast<int>(preds[i].size()) > k)
      throw Error(fmt::format("{}: node '{}' ({}) has {} incoming edges, takes {} operands", where(gg, n.line), n.id,
                              op_name(ops[i]), preds[i].size(), k));
    if (ops[i] == Op::Const && !attr(n, "value"))
      throw Error(fmt::format("{}: node '{}' is a const without a value attribute", where(gg, n.line), n.id));
  }
  // Kahn's algorithm, smallest declaration index first (deterministic).
  std::vector<std::size_t> pending(N);
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < N; ++i)
    if ((pending[i] = preds[i].size()) == 0) ready.push(i);
  Builder b;
  std::vector<NodeId> id(N, kNoNode);
  std::size_t done = 0;
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    ++done;
    const GenericNode& n = gg.nodes[i];
    Provenance p;
    if (const std::string* s = attr(n, "link")) p.link = std::atoi(s->c_str());
    if (const std::string* s = attr(n, "quantity")) p.quantity = *s;
    if (const std::string* s = attr(n, "equation")) p.equation = *s;
    const std::uint32_t prov = b.provenance(p);
    if (ops[i] == Op::Input) {
      const std::string* name = attr(n, "name");
      id[i] = b.input(name ? *name : n.id, prov);
    } else if (ops[i] == Op::Const) {
      id[i] = b.constant(parse_number(gg, n, *attr(n, "value")), prov);
    } else {
      std::array<NodeId, 3> a{kNoNode, kNoNode, kNoNode};
      for (int k = 0; k < arity(ops[i]); ++k) {
        const auto ku = static_cast<std::size_t>(k);
        a[ku] = ku < preds[i].size() ? id[preds[i][ku]] : b.input(fmt::format("{}.in{}", n.id, k));
      }
      id[i] = b.op(ops[i], a[0], a[1], a[2], prov);
    }
    for (std::size_t s : succs[i])
      if (--pending[s] == 0) ready.push(s);
  }
  if (done != N) {
    for (std::size_t i = 0; i < N; ++i)
      if (pending[i] > 0)
        throw Error(fmt::format("{}: cycle through node '{}'", where(gg, gg.nodes[i].line), gg.nodes[i].id));
  }
  // Outputs: output=true / output=<name>, or sinks that compute something, unless output=false.
  for (std::size_t i = 0; i < N; ++i) {
    const GenericNode& n = gg.nodes[i];
    const std::string* o = attr(n, "output");
    const std::string ol = o ? lower(*o) : std::string();
    bool is_out = succs[i].empty() && is_operation(ops[i]);
    std::string name = n.id;
    if (o) {
      if (ol == "false" || ol == "0" || ol == "no") is_out = false;
      else {
        is_out = true;
        if (ol != "true" && ol != "1" && ol != "yes") name = *o;
      }
    }
    if (is_out) b.output(name, id[i]);
  }
  Graph g = b.take();
  validate(g, gg.source);
  return g;
}

}  // namespace neaccel::dfg::detail
