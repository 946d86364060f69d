#include "neaccel/dfg/passes.hpp"

#include "neaccel/dfg/builder.hpp"
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/ref/error.hpp"

#include <algorithm>
#include <random>
#include <sstream>

namespace neaccel::dfg {

namespace {

// Copies `g` node by node into a Builder; make(builder, node, mapped operands, old-to-new id map) returns the new id
// of each operation node.
template <class Make>
Graph rebuild(const Graph& g, bool hash_cons, Make&& make) {
  Builder b(hash_cons);
  b.adopt_provenance(g);
  for (const std::string& name : g.inputs) b.declare_input(name);
  std::vector<NodeId> m(g.nodes.size(), kNoNode);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.op == Op::Input) m[i] = b.input(g.inputs[n.input], n.prov);
    else if (n.op == Op::Const) m[i] = b.constant(n.value, n.prov);
    else {
      std::array<NodeId, 3> a{kNoNode, kNoNode, kNoNode};
      for (int k = 0; k < arity(n.op); ++k) a[static_cast<std::size_t>(k)] = m[n.arg[static_cast<std::size_t>(k)]];
      m[i] = make(b, n, a, m);
    }
  }
  for (const Output& o : g.outputs) b.output(o.name, m[o.node]);
  return b.take();
}

// Constant folding on the graph under construction.
class Folder {
 public:
  explicit Folder(Builder& b, std::uint32_t prov) : b_(b), prov_(prov) {}

  NodeId make(Op op, const std::array<NodeId, 3>& a) {
    switch (op) {
      case Op::Add: return add(a[0], a[1]);
      case Op::Sub: return sub(a[0], a[1]);
      case Op::Mul: return mul(a[0], a[1]);
      case Op::Neg: return neg(a[0]);
      default: break;
    }
    if (all_const(op, a)) return b_.constant(eval(op, a), prov_);
    return b_.op(op, a[0], a[1], a[2], prov_);
  }

 private:
  const Node& node(NodeId id) const { return b_.graph().nodes[id]; }
  bool is_const(NodeId id, double v) const { return node(id).op == Op::Const && node(id).value == v; }
  bool is_const(NodeId id) const { return node(id).op == Op::Const; }
  bool is_neg(NodeId id) const { return node(id).op == Op::Neg; }
  NodeId inner(NodeId id) const { return node(id).arg[0]; }
  double value(NodeId id) const { return node(id).value; }

  bool all_const(Op op, const std::array<NodeId, 3>& a) const {
    for (int k = 0; k < arity(op); ++k)
      if (!is_const(a[static_cast<std::size_t>(k)])) return false;
    return true;
  }
  double eval(Op op, const std::array<NodeId, 3>& a) const {
    Node n;
    n.op = op;
    n.arg = {0, 1, 2};
    std::vector<double> v;
    for (int k = 0; k < arity(op); ++k) v.push_back(value(a[static_cast<std::size_t>(k)]));
    return evaluate_node<double>(b_.graph(), n, v, {}, Arithmetic<double>{});
  }

  NodeId neg(NodeId x) {
    if (is_const(x)) return b_.constant(-value(x), prov_);
    if (is_neg(x)) return inner(x);
    return b_.op(Op::Neg, x, kNoNode, kNoNode, prov_);
  }
  NodeId add(NodeId x, NodeId y) {
    if (is_const(x) && is_const(y)) return b_.constant(value(x) + value(y), prov_);
    if (is_const(x, 0.0)) return y;
    if (is_const(y, 0.0)) return x;
    if (is_neg(y)) return sub(x, inner(y));
    if (is_neg(x)) return sub(y, inner(x));
    return b_.op(Op::Add, x, y, kNoNode, prov_);
  }
  NodeId sub(NodeId x, NodeId y) {
    if (is_const(x) && is_const(y)) return b_.constant(value(x) - value(y), prov_);
    if (is_const(y, 0.0)) return x;
    if (is_const(x, 0.0)) return neg(y);
    if (x == y) return b_.constant(0.0, prov_);
    if (is_neg(y)) return add(x, inner(y));
    return b_.op(Op::Sub, x, y, kNoNode, prov_);
  }
  NodeId mul(NodeId x, NodeId y) {
    if (is_const(x) && is_const(y)) return b_.constant(value(x) * value(y), prov_);
    if (is_const(x, 0.0) || is_const(y, 0.0)) return b_.constant(0.0, prov_);
    if (is_const(x, 1.0)) return y;
    if (is_const(y, 1.0)) return x;
    if (is_const(x, -1.0)) return neg(y);
    if (is_const(y, -1.0)) return neg(x);
    if (is_neg(x) && is_neg(y)) return mul(inner(x), inner(y));
    if (is_neg(x) && is_const(y)) return mul(inner(x), b_.constant(-value(y), prov_));
    if (is_neg(y) && is_const(x)) return mul(b_.constant(-value(x), prov_), inner(y));
    return b_.op(Op::Mul, x, y, kNoNode, prov_);
  }

  Builder& b_;
  std::uint32_t prov_;
};

// Uses of every node in g (operands and outputs).
std::vector<int> fanout(const Graph& g) {
  std::vector<int> uses(g.nodes.size(), 0);
  for (const Node& n : g.nodes)
    for (int k = 0; k < arity(n.op); ++k) ++uses[n.arg[static_cast<std::size_t>(k)]];
  for (const Output& o : g.outputs) ++uses[o.node];
  return uses;
}

// x*k +- y*k' with k' = k (the same node, or constants of equal value) or k' = -k (constants): the shared factor
// and the sign (+1: k' = k, -1: k' = -k), and the other operands. Only for products used once each (else the
// products stay live and nothing is saved).
struct Factoring {
  NodeId x = kNoNode, y = kNoNode, k = kNoNode;
  int sign = 0;
};

Factoring find_factoring(const Graph& g, const std::vector<int>& uses, const Node& sum) {
  const NodeId l = sum.arg[0], r = sum.arg[1];
  const Node& a = g.nodes[l];
  const Node& b = g.nodes[r];
  if (l == r || a.op != Op::Mul || b.op != Op::Mul || uses[l] != 1 || uses[r] != 1) return {};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      const NodeId ka = a.arg[static_cast<std::size_t>(i)], kb = b.arg[static_cast<std::size_t>(j)];
      const NodeId xa = a.arg[static_cast<std::size_t>(1 - i)], yb = b.arg[static_cast<std::size_t>(1 - j)];
      if (ka == kb) return {xa, yb, ka, 1};
      const Node& ca = g.nodes[ka];
      const Node& cb = g.nodes[kb];
      if (ca.op != Op::Const || cb.op != Op::Const || ca.value == 0.0) continue;
      if (ca.value == cb.value) return {xa, yb, ka, 1};
      if (ca.value == -cb.value) return {xa, yb, ka, -1};
    }
  return {};
}

// A product as coef * a * b with a, b not constants: x*y, (c*x)*y, x*(c*y), (c*x)*(d*y) (the inner products of a
// constant may have other uses). Returns false for any other shape.
struct Monomial {
  double coef = 1.0;
  NodeId a = kNoNode, b = kNoNode;  // a <= b
};

bool monomial(const Graph& g, NodeId id, Monomial& out) {
  const Node& p = g.nodes[id];
  if (p.op != Op::Mul) return false;
  std::vector<NodeId> leaves;
  double coef = 1.0;
  for (int k = 0; k < 2; ++k) {
    const NodeId u = p.arg[static_cast<std::size_t>(k)];
    const Node& f = g.nodes[u];
    if (f.op == Op::Const) {
      coef *= f.value;
      continue;
    }
    if (f.op == Op::Mul && (g.nodes[f.arg[0]].op == Op::Const) != (g.nodes[f.arg[1]].op == Op::Const)) {
      const int c = g.nodes[f.arg[0]].op == Op::Const ? 0 : 1;
      coef *= g.nodes[f.arg[static_cast<std::size_t>(c)]].value;
      leaves.push_back(f.arg[static_cast<std::size_t>(1 - c)]);
      continue;
    }
    leaves.push_back(u);
  }
  if (leaves.size() != 2) return false;
  out = {coef, std::min(leaves[0], leaves[1]), std::max(leaves[0], leaves[1])};
  return true;
}

// Like terms: c1 x y +- c2 x y -> (c1 +- c2) (x y), for two products used once each, whatever constant factors they
// carry and wherever they sit (Euler's equations: wy (ZZ wz) - wz (YY wy) -> (ZZ - YY) (wy wz)). Removes two
// multiplications and the addition, adds at most two multiplications; the inner products of a constant die when
// every user was rewritten (Jw of a diagonal J).
bool find_like_terms(const Graph& g, const std::vector<int>& uses, const Node& sum, Monomial& out) {
  const NodeId l = sum.arg[0], r = sum.arg[1];
  Monomial p, q;
  if (l == r || uses[l] != 1 || uses[r] != 1 || !monomial(g, l, p) || !monomial(g, r, q)) return false;
  if (p.a != q.a || p.b != q.b) return false;
  out = {sum.op == Op::Add ? p.coef + q.coef : p.coef - q.coef, p.a, p.b};
  return true;
}

}  // namespace

Graph factor_products(const Graph& g) {
  const std::vector<int> uses = fanout(g);
  // The replaced products are dead afterwards; removing them keeps "a pass never increases a count".
  return eliminate_dead_code(rebuild(g, false, [&](Builder& b, const Node& n, const std::array<NodeId, 3>& a,
                                const std::vector<NodeId>& m) {
    if (n.op == Op::Add || n.op == Op::Sub) {
      const Factoring f = find_factoring(g, uses, n);
      if (f.sign != 0) {
        // x k + y k = (x + y) k;  x k - y k = (x - y) k;  x k + y (-k) = (x - y) k;  x k - y (-k) = (x + y) k
        const bool plus = (n.op == Op::Add) == (f.sign > 0);
        const NodeId s = b.op(plus ? Op::Add : Op::Sub, m[f.x], m[f.y], kNoNode, n.prov);
        return b.op(Op::Mul, s, m[f.k], kNoNode, n.prov);
      }
      Monomial t;
      if (find_like_terms(g, uses, n, t)) {
        const NodeId xy = b.op(Op::Mul, m[t.a], m[t.b], kNoNode, n.prov);
        return b.op(Op::Mul, b.constant(t.coef, n.prov), xy, kNoNode, n.prov);
      }
    }
    return b.op(n.op, a[0], a[1], a[2], n.prov);
  }));
}

Graph fold_constants(const Graph& g) {
  return rebuild(g, false, [](Builder& b, const Node& n, const std::array<NodeId, 3>& a, const std::vector<NodeId>&) {
    return Folder(b, n.prov).make(n.op, a);
  });
}

Graph eliminate_common_subexpressions(const Graph& g) {
  return rebuild(g, true, [](Builder& b, const Node& n, const std::array<NodeId, 3>& a, const std::vector<NodeId>&) {
    return b.op(n.op, a[0], a[1], a[2], n.prov);
  });
}

Graph eliminate_dead_code(const Graph& g, const DceOptions& opt) {
  std::vector<char> live(g.nodes.size(), 0);
  for (const Output& o : g.outputs) live[o.node] = 1;
  for (std::size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    if (n.op == Op::Input && opt.keep_inputs) live[i] = 1;
    if (!live[i]) continue;
    for (int k = 0; k < arity(n.op); ++k) live[n.arg[static_cast<std::size_t>(k)]] = 1;
  }
  Graph out;
  out.provenance = g.provenance;
  std::vector<std::uint32_t> input_map(g.inputs.size(), 0);
  if (opt.keep_inputs) {
    out.inputs = g.inputs;
    for (std::size_t k = 0; k < g.inputs.size(); ++k) input_map[k] = static_cast<std::uint32_t>(k);
  } else {
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
      if (live[i] && g.nodes[i].op == Op::Input) {
        input_map[g.nodes[i].input] = static_cast<std::uint32_t>(out.inputs.size());
        out.inputs.push_back(g.inputs[g.nodes[i].input]);
      }
  }
  std::vector<NodeId> m(g.nodes.size(), kNoNode);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (!live[i]) continue;
    Node n = g.nodes[i];
    for (int k = 0; k < arity(n.op); ++k) n.arg[static_cast<std::size_t>(k)] = m[n.arg[static_cast<std::size_t>(k)]];
    if (n.op == Op::Input) n.input = input_map[n.input];
    m[i] = static_cast<NodeId>(out.nodes.size());
    out.nodes.push_back(n);
  }
  for (const Output& o : g.outputs) out.outputs.push_back({o.name, m[o.node]});
  return out;
}

Pass fold_pass() { return {"fold", fold_constants}; }
Pass cse_pass() { return {"cse", eliminate_common_subexpressions}; }
Pass factor_pass() { return {"factor", factor_products}; }
Pass dce_pass(const DceOptions& opt) {
  return {"dce", [opt](const Graph& g) { return eliminate_dead_code(g, opt); }};
}

std::vector<Pass> parse_pipeline(const std::string& spec) {
  std::vector<Pass> out;
  if (!spec.empty() && (spec.front() == ',' || spec.back() == ',' || spec.find(",,") != std::string::npos))
    throw Error("--passes: '" + spec + "' has an empty item");
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item == "fold") out.push_back(fold_pass());
    else if (item == "cse") out.push_back(cse_pass());
    else if (item == "factor") out.push_back(factor_pass());
    else if (item == "dce") out.push_back(dce_pass());
    else if (item == "dce-inputs") out.push_back(dce_pass({false}));
    else if (!item.empty())
      throw Error("--passes: '" + spec + "': unknown pass '" + item + "' (expected fold, cse, factor, dce, dce-inputs)");
  }
  return out;
}

Graph run_pipeline(const Graph& g, const std::vector<Pass>& passes, bool to_fixpoint, int max_rounds) {
  Graph cur = g;
  for (int round = 0; round < std::max(1, max_rounds); ++round) {
    Graph before = cur;
    for (const Pass& p : passes) cur = p.run(cur);
    if (!to_fixpoint || cur == before) break;
  }
  return cur;
}

Graph customise(const Graph& g) { return run_pipeline(g, {fold_pass(), cse_pass(), factor_pass(), dce_pass()}); }

std::vector<NodeId> random_topological_order(const Graph& g, std::uint64_t seed) {
  // Kahn's algorithm picking a random ready node each step.
  std::vector<int> pending(g.nodes.size(), 0);
  std::vector<std::vector<NodeId>> users(g.nodes.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (int k = 0; k < arity(g.nodes[i].op); ++k) {
      ++pending[i];
      users[g.nodes[i].arg[static_cast<std::size_t>(k)]].push_back(static_cast<NodeId>(i));
    }
  std::vector<NodeId> ready, order;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (pending[i] == 0) ready.push_back(static_cast<NodeId>(i));
  std::mt19937_64 rng(seed);
  while (!ready.empty()) {
    const std::size_t k = std::uniform_int_distribution<std::size_t>(0, ready.size() - 1)(rng);
    const NodeId id = ready[k];
    ready[k] = ready.back();
    ready.pop_back();
    order.push_back(id);
    for (NodeId u : users[id])
      if (--pending[u] == 0) ready.push_back(u);
  }
  return order;
}

Graph renumber(const Graph& g, const std::vector<NodeId>& order) {
  if (order.size() != g.nodes.size()) throw Error("renumber: order does not list every node once");
  std::vector<NodeId> m(g.nodes.size(), kNoNode);
  Graph out;
  out.inputs = g.inputs;
  out.provenance = g.provenance;
  for (NodeId id : order) {
    if (id >= g.nodes.size() || m[id] != kNoNode) throw Error("renumber: order does not list every node once");
    Node n = g.nodes[id];
    for (int k = 0; k < arity(n.op); ++k) {
      NodeId& a = n.arg[static_cast<std::size_t>(k)];
      if (m[a] == kNoNode) throw Error("renumber: order is not topological");
      a = m[a];
    }
    m[id] = static_cast<NodeId>(out.nodes.size());
    out.nodes.push_back(n);
  }
  for (const Output& o : g.outputs) out.outputs.push_back({o.name, m[o.node]});
  return out;
}

}  // namespace neaccel::dfg
