// Graphviz DOT export and a small parser for the DOT subset of io.hpp (Graphviz's cgraph is not available).
#include "generic_graph.hpp"
#include "neaccel/dfg/io.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace neaccel::dfg {

namespace {

// ---------------------------------------------------------------- export

const char* quantity_colour(const std::string& q) {
  static const std::map<std::string, const char*> colours = {
      {"omega", "#8dd3c7"},  {"alpha", "#ffffb3"},      {"A", "#bebada"},        {"a", "#fb8072"},
      {"abar", "#80b1d3"},   {"m abar", "#fdb462"},     {"f", "#b3de69"},        {"n", "#fccde5"},
      {"I alpha", "#bc80bd"}, {"omega x I omega", "#ccebc5"}, {"tau", "#ffed6f"}, {"rotation", "#d9d9d9"},
      {"friction", "#a6cee3"}, {"rotor", "#fb9a99"}};
  auto it = colours.find(q);
  return it == colours.end() ? "#f0f0f0" : it->second;
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

std::string node_line(const Graph& g, NodeId i, const std::map<NodeId, std::string>& outputs) {
  const Node& n = g.nodes[i];
  const Provenance& p = g.provenance[n.prov];
  std::string label, extra;
  if (n.op == Op::Input) {
    label = g.inputs[n.input];
    extra = ", name=" + quote(label) + ", shape=box, fillcolor=\"#e0e0e0\"";
  } else if (n.op == Op::Const) {
    label = number(n.value);
    extra = ", value=" + quote(label) + ", shape=plain";
  } else {
    label = op_name(n.op);
    if (!p.quantity.empty()) label += "\\n" + p.quantity;
    extra = fmt::format(", fillcolor=\"{}\"", quantity_colour(p.quantity));
  }
  if (p.link != 0 || !p.quantity.empty())
    extra += fmt::format(", link={}, quantity={}, equation={}", p.link, quote(p.quantity), quote(p.equation));
  auto o = outputs.find(i);
  if (o != outputs.end()) extra += ", output=" + quote(o->second) + ", peripheries=2";
  return fmt::format("n{} [op={}, label={}{}];", i, op_name(n.op), quote(label), extra);
}

}  // namespace

std::string to_dot(const Graph& g, const DotOptions& opt) {
  std::map<NodeId, std::string> outputs;
  for (const Output& o : g.outputs) outputs.emplace(o.node, o.name);  // first name if a node has several
  std::map<int, std::vector<NodeId>> by_link;
  for (NodeId i = 0; i < g.nodes.size(); ++i) {
    const int link = is_operation(g.nodes[i].op) && opt.cluster_by_link ? g.provenance[g.nodes[i].prov].link : 0;
    by_link[link].push_back(i);
  }
  std::ostringstream os;
  os << "digraph " << quote(opt.name) << " {\n  node [style=filled, shape=ellipse];\n";
  for (const auto& [link, ids] : by_link) {
    const bool cluster = link != 0;
    const std::string indent = cluster ? "    " : "  ";
    if (cluster) os << "  subgraph cluster_link" << link << " {\n    label=\"link " << link << "\";\n";
    for (NodeId i : ids) os << indent << node_line(g, i, outputs) << "\n";
    if (cluster) os << "  }\n";
  }
  for (NodeId i = 0; i < g.nodes.size(); ++i)
    for (int k = 0; k < arity(g.nodes[i].op); ++k) os << "  n" << g.nodes[i].arg[static_cast<std::size_t>(k)] << " -> n" << i << ";\n";
  os << "}\n";
  return os.str();
}

namespace {

// ---------------------------------------------------------------- import

struct Token {
  enum Kind { Id, Punct, End } kind = End;
  std::string text;
  int line = 1;
};

class Lexer {
 public:
  Lexer(const std::string& text, const std::string& source) : s_(text), source_(source) {}

  Token next() {
    skip();
    Token t;
    t.line = line_;
    if (pos_ >= s_.size()) return t;
    const char c = s_[pos_];
    if (c == '-' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '>' || s_[pos_ + 1] == '-')) {
      t.kind = Token::Punct;
      t.text = s_.substr(pos_, 2);
      pos_ += 2;
      return t;
    }
    if (std::string("{}[];,=:").find(c) != std::string::npos) {
      t.kind = Token::Punct;
      t.text = std::string(1, c);
      ++pos_;
      return t;
    }
    t.kind = Token::Id;
    if (c == '"') {
      ++pos_;
      while (pos_ < s_.size() && s_[pos_] != '"') {
        if (s_[pos_] == '\\' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '"' || s_[pos_ + 1] == '\\')) ++pos_;
        else if (s_[pos_] == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') { pos_ += 2; ++line_; continue; }
        if (s_[pos_] == '\n') ++line_;
        t.text += s_[pos_++];
      }
      if (pos_ >= s_.size()) fail(t.line, "unterminated string");
      ++pos_;
      return t;
    }
    if (c == '<') fail(line_, "HTML strings are not supported");
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' ||
        static_cast<unsigned char>(c) >= 0x80) {
      while (pos_ < s_.size()) {
        const char d = s_[pos_];
        if (std::isalnum(static_cast<unsigned char>(d)) || d == '_' || d == '.' || static_cast<unsigned char>(d) >= 0x80 ||
            (d == '-' && t.text.empty()))
          t.text += s_[pos_++];
        else
          break;
      }
      return t;
    }
    fail(line_, fmt::format("unexpected character '{}'", c));
  }

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw Error(fmt::format("{}:{}: syntax error: {}", source_, line, what));
  }

 private:
  void skip() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      std::size_t b = pos_;  // '#' lines (C preprocessor output): only blanks before '#' on the line
      while (b > 0 && (s_[b - 1] == ' ' || s_[b - 1] == '\t')) --b;
      const bool line_start = b == 0 || s_[b - 1] == '\n';
      if (c == '\n') { ++line_; ++pos_; }
      else if (std::isspace(static_cast<unsigned char>(c))) ++pos_;
      else if (c == '#' && line_start) { while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_; }
      else if (s_.compare(pos_, 2, "//") == 0) { while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_; }
      else if (s_.compare(pos_, 2, "/*") == 0) {
        const std::size_t e = s_.find("*/", pos_ + 2);
        if (e == std::string::npos) fail(line_, "unterminated comment");
        for (std::size_t k = pos_; k < e; ++k) line_ += s_[k] == '\n';
        pos_ = e + 2;
      } else break;
    }
  }

  const std::string& s_;
  std::string source_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

class Parser {
 public:
  Parser(const std::string& text, const std::string& source) : lex_(text, source) {
    g_.source = source;
    advance();
  }

  detail::GenericGraph parse() {
    if (is_id("strict")) advance();
    if (is_id("graph")) lex_.fail(tok_.line, "undirected graphs are not supported (use digraph)");
    if (!is_id("digraph")) lex_.fail(tok_.line, "expected 'digraph'");
    advance();
    if (tok_.kind == Token::Id) advance();
    expect("{");
    stmt_list(std::map<std::string, std::string>{});
    expect("}");
    if (tok_.kind != Token::End) lex_.fail(tok_.line, "text after the closing '}'");
    for (const detail::GenericEdge& e : pending_edges_) g_.edges.push_back(e);
    return g_;
  }

 private:
  using Attrs = std::map<std::string, std::string>;

  void advance() { tok_ = lex_.next(); }
  bool is_id(const char* s) const {
    if (tok_.kind != Token::Id) return false;
    std::string t = tok_.text;
    for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return t == s;
  }
  bool is(const char* p) const { return tok_.kind == Token::Punct && tok_.text == p; }
  void expect(const char* p) {
    if (!is(p)) lex_.fail(tok_.line, fmt::format("expected '{}', found '{}'", p, tok_.kind == Token::End ? "end of file" : tok_.text));
    advance();
  }
  std::string id() {
    if (tok_.kind != Token::Id) lex_.fail(tok_.line, fmt::format("expected an identifier, found '{}'", tok_.kind == Token::End ? "end of file" : tok_.text));
    std::string s = tok_.text;
    advance();
    return s;
  }

  void attr_lists(Attrs& a) {
    while (is("[")) {
      advance();
      while (!is("]")) {
        const std::string k = id();
        expect("=");
        a[k] = id();
        if (is(",") || is(";")) advance();
      }
      advance();
    }
  }

  void skip_port() {
    if (is(":")) {
      advance();
      id();
      if (is(":")) { advance(); id(); }
    }
  }

  void stmt_list(Attrs node_defaults) {
    while (!is("}") && tok_.kind != Token::End) {
      stmt(node_defaults);
      if (is(";")) advance();
    }
  }

  void stmt(Attrs& node_defaults) {
    const int line = tok_.line;
    if (is_id("subgraph") || is("{")) {
      if (is_id("subgraph")) {
        advance();
        if (tok_.kind == Token::Id) advance();
      }
      expect("{");
      // Recursive descent: the nesting depth is bounded so that a hostile file cannot overflow the stack
      // (docs/limits.md); real graphs nest one or two levels.
      if (++depth_ > kMaxSubgraphDepth) lex_.fail(line, fmt::format("subgraphs nested deeper than {}", kMaxSubgraphDepth));
      stmt_list(node_defaults);
      --depth_;
      expect("}");
      if (is("->")) lex_.fail(line, "subgraphs as edge operands are not supported");
      return;
    }
    if (is_id("graph") || is_id("edge")) {
      advance();
      Attrs ignored;
      attr_lists(ignored);
      return;
    }
    if (is_id("node")) {
      advance();
      attr_lists(node_defaults);
      return;
    }
    const std::string first = id();
    if (is("=")) {  // graph attribute
      advance();
      id();
      return;
    }
    skip_port();
    if (is("--")) lex_.fail(tok_.line, "undirected edge '--' in a digraph");
    if (is("->")) {
      std::vector<std::string> chain{first};
      while (is("->")) {
        advance();
        if (is_id("subgraph") || is("{")) lex_.fail(tok_.line, "subgraphs as edge operands are not supported");
        chain.push_back(id());
        skip_port();
      }
      Attrs ignored;
      attr_lists(ignored);
      for (std::size_t k = 0; k + 1 < chain.size(); ++k) pending_edges_.push_back({chain[k], chain[k + 1], line});
      return;
    }
    detail::GenericNode n;
    n.id = first;
    n.line = line;
    n.attrs = node_defaults;
    attr_lists(n.attrs);
    g_.nodes.push_back(std::move(n));
  }

  static constexpr int kMaxSubgraphDepth = 256;
  Lexer lex_;
  Token tok_;
  int depth_ = 0;
  detail::GenericGraph g_;
  std::vector<detail::GenericEdge> pending_edges_;
};

}  // namespace

Graph graph_from_dot(const std::string& text, const std::string& source) {
  return detail::build_generic(Parser(text, source).parse());
}

}  // namespace neaccel::dfg
