#include "neaccel/dfg/depth.hpp"

#include "neaccel/dfg/builder.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/ref/error.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <tuple>

namespace neaccel::dfg {

namespace {

int op_latency(Op op, const Latencies& lat) {
  switch (op) {
    case Op::Input:
    case Op::Const: return 0;
    case Op::Mul: return lat.mul;
    case Op::Fma: return lat.fma > 0 ? lat.fma : lat.mul + lat.add;
    default: return lat.add;
  }
}

bool is_sum(Op op) { return op == Op::Add || op == Op::Sub || op == Op::Neg; }
bool is_product(Op op) { return op == Op::Mul || op == Op::Neg; }

std::vector<int> fanout(const Graph& g) {
  std::vector<int> uses(g.nodes.size(), 0);
  for (const Node& n : g.nodes)
    for (int k = 0; k < arity(n.op); ++k) ++uses[n.arg[static_cast<std::size_t>(k)]];
  for (const Output& o : g.outputs) ++uses[o.node];
  return uses;
}

// A signed term of a flattened sum (or a signed factor of a flattened product) in the graph being built.
struct Term {
  int ready = 0;
  int sign = 1;
  NodeId id = kNoNode;
};
struct Later {  // min-heap order: earliest ready first, then smallest id (deterministic)
  bool operator()(const Term& a, const Term& b) const { return std::tie(a.ready, a.id) > std::tie(b.ready, b.id); }
};

// One rebuild of the graph with tree-height reduction. `shared_ok[i]` marks the nodes of g that may be expanded
// into their users' trees although they have other users (duplication) or be distributed over (products of a
// sum); `spend` is the number of extra operations such expansions may cost in this rebuild.
class Reducer {
 public:
  Reducer(const Graph& g, const Latencies& lat, const std::vector<char>* shared_ok, int spend)
      : g_(g), lat_(lat), uses_(fanout(g)), shared_ok_(shared_ok), spend_(spend) {}

  Graph run() {
    b_.adopt_provenance(g_);
    for (const std::string& name : g_.inputs) b_.declare_input(name);
    m_.assign(g_.nodes.size(), kNoNode);
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      if (n.op == Op::Input) m_[i] = record(b_.input(g_.inputs[n.input], n.prov));
      else if (n.op == Op::Const) m_[i] = record(b_.constant(n.value, n.prov));
      else m_[i] = rebuild(static_cast<NodeId>(i));
    }
    for (const Output& o : g_.outputs) b_.output(o.name, m_[o.node]);
    // products of the same early factors made by several distributions are one node
    return eliminate_dead_code(eliminate_common_subexpressions(eliminate_dead_code(b_.take())));
  }

 private:
  NodeId record(NodeId id) {
    if (rt_.size() <= id) rt_.resize(id + 1, 0);
    const Node& n = b_.graph().nodes[id];
    int t = 0;
    for (int k = 0; k < arity(n.op); ++k) t = std::max(t, rt_[n.arg[static_cast<std::size_t>(k)]]);
    rt_[id] = t + op_latency(n.op, lat_);
    return id;
  }
  NodeId emit(Op op, NodeId a, NodeId b, std::uint32_t prov) { return record(b_.op(op, a, b, kNoNode, prov)); }
  NodeId constant(double v, std::uint32_t prov) { return record(b_.constant(v, prov)); }
  bool shared_ok(NodeId i) const { return shared_ok_ && (*shared_ok_)[i]; }

  // The node as it stands (its operands mapped), without re-association.
  NodeId plain(NodeId i) {
    const Node& n = g_.nodes[i];
    std::array<NodeId, 3> a{kNoNode, kNoNode, kNoNode};
    for (int k = 0; k < arity(n.op); ++k) a[static_cast<std::size_t>(k)] = m_[n.arg[static_cast<std::size_t>(k)]];
    return record(b_.op(n.op, a[0], a[1], a[2], n.prov));
  }
  int plain_ready(NodeId i) const {
    const Node& n = g_.nodes[i];
    int t = 0;
    for (int k = 0; k < arity(n.op); ++k) t = std::max(t, rt_[m_[n.arg[static_cast<std::size_t>(k)]]]);
    return t + op_latency(n.op, lat_);
  }

  NodeId rebuild(NodeId i) {
    const Node& n = g_.nodes[i];
    if (is_sum(n.op) && !(n.op == Op::Neg && g_.nodes[n.arg[0]].op == Op::Mul)) return rebuild_sum(i);
    if (n.op == Op::Mul) return rebuild_product(i);
    return plain(i);
  }

  // ---- sums ----
  struct Flat {
    std::vector<Term> terms;
    double constant = 0.0;
    int absorbed = 0;  // operation nodes of g the tree replaces (the root and its single-use inner nodes)
    int emitted = 0;   // multiplications emitted while flattening (distributed products)
    bool expanded = false;  // a shared node was expanded or a product distributed
  };

  // `inside_shared`: below a node that stays live for its other users (its inner nodes are copied, not absorbed).
  void collect_sum(NodeId id, int sign, bool root, bool expand_shared, Flat& f, bool inside_shared = false) {
    const Node& n = g_.nodes[id];
    if (n.op == Op::Const) {
      f.constant += sign * n.value;
      return;
    }
    const bool single = uses_[id] == 1;
    if (is_sum(n.op) && (root || single || (expand_shared && shared_ok(id)))) {
      const bool copy = inside_shared || !(root || single);
      if (copy) f.expanded = true;
      else ++f.absorbed;
      if (n.op == Op::Neg) collect_sum(n.arg[0], -sign, false, expand_shared, f, copy);
      else {
        collect_sum(n.arg[0], sign, false, expand_shared, f, copy);
        collect_sum(n.arg[1], n.op == Op::Sub ? -sign : sign, false, expand_shared, f, copy);
      }
      return;
    }
    // k * (x + y + ...) read by this sum: distributed into k x + k y + ... when allowed and k is earlier than the
    // sum (the multiply then leaves the sum's chain).
    if (expand_shared && n.op == Op::Mul && shared_ok(id)) {
      for (int s = 0; s < 2; ++s) {
        const NodeId inner = n.arg[static_cast<std::size_t>(s)], k = n.arg[static_cast<std::size_t>(1 - s)];
        const Node& in = g_.nodes[inner];
        if (in.op != Op::Add && in.op != Op::Sub) continue;
        if (uses_[inner] != 1 && !shared_ok(inner)) continue;
        if (rt_[m_[k]] >= rt_[m_[inner]]) continue;
        Flat sub;
        collect_sum(inner, 1, true, false, sub);
        if (sub.terms.size() < 2 || sub.terms.size() > 6) continue;
        // new products k*t, one per term (and one for a constant term), replacing the product and the sum's adds
        const bool dies = single && !inside_shared;
        if (dies) f.absorbed += 1 + (uses_[inner] == 1 ? sub.absorbed : 0);
        f.expanded = true;
        f.emitted += sub.constant != 0.0 ? 1 : 0;
        for (const Term& t : sub.terms) {
          const NodeId p = distributed_product(m_[k], t.id, n.prov, f.emitted);
          f.terms.push_back({rt_[p], sign * t.sign, p});
        }
        if (sub.constant != 0.0) {
          const NodeId p = emit(Op::Mul, m_[k], constant(sub.constant, n.prov), n.prov);
          f.terms.push_back({rt_[p], sign, p});
        }
        return;
      }
    }
    f.terms.push_back({rt_[m_[id]], sign, m_[id]});
  }

  // k * t for a distributed term t; where t = u * v with u earlier than v (and k earlier than v), (k * u) * v:
  // the product of k and u (rotation entries, say) leaves the chain through v. Counts the multiplications emitted.
  NodeId distributed_product(NodeId k, NodeId t, std::uint32_t prov, int& emitted) {
    const Node& tn = b_.graph().nodes[t];
    if (tn.op == Op::Mul) {
      NodeId u = tn.arg[0], v = tn.arg[1];
      if (rt_[u] > rt_[v]) std::swap(u, v);
      if (std::max(rt_[k], rt_[u]) < rt_[v]) {
        emitted += 2;
        return emit(Op::Mul, emit(Op::Mul, k, u, prov), v, prov);
      }
    }
    ++emitted;
    return emit(Op::Mul, k, t, prov);
  }

  // Combines the flattened sum; returns the new node and its operation count.
  std::pair<NodeId, int> combine_sum(Flat f, std::uint32_t prov) {
    int ops = 0;
    if (f.constant != 0.0 || f.terms.empty()) {
      const NodeId c = constant(std::fabs(f.constant), prov);
      f.terms.push_back({0, f.constant < 0 ? -1 : 1, c});
    }
    std::priority_queue<Term, std::vector<Term>, Later> q(Later{}, f.terms);
    while (q.size() > 1) {
      const Term x = q.top();
      q.pop();
      const Term y = q.top();
      q.pop();
      NodeId id;
      int sign = 1;
      if (x.sign == y.sign) {
        id = emit(Op::Add, x.id, y.id, prov);
        sign = x.sign;
      } else {
        id = x.sign > 0 ? emit(Op::Sub, x.id, y.id, prov) : emit(Op::Sub, y.id, x.id, prov);
      }
      ++ops;
      q.push({rt_[id], sign, id});
    }
    Term r = q.top();
    if (r.sign < 0) {
      r.id = emit(Op::Neg, r.id, kNoNode, prov);
      ++ops;
    }
    return {r.id, ops};
  }

  NodeId rebuild_sum(NodeId i) {
    const Node& n = g_.nodes[i];
    const NodeId base = plain(i);
    const int base_ready = rt_[base];
    Flat f;
    collect_sum(i, 1, true, false, f);
    NodeId best = base;
    if (f.terms.size() + (f.constant != 0.0 ? 1 : 0) >= 2 || f.absorbed > 1) {
      const auto [id, ops] = combine_sum(f, n.prov);
      if (ops <= f.absorbed && (rt_[id] < base_ready || (rt_[id] == base_ready && ops < f.absorbed))) best = id;
      else if (ops <= f.absorbed && rt_[id] == base_ready && f.absorbed > 1) best = id;  // same depth: balanced
    }
    if (shared_ok_ && shared_ok(i) && spend_ > 0) {
      Flat d;
      collect_sum(i, 1, true, true, d);
      if (d.expanded) {
        const auto [id, ops] = combine_sum(d, n.prov);
        const int cost = ops + d.emitted - d.absorbed;
        if (cost <= spend_ && rt_[id] < rt_[best]) {
          spend_ -= std::max(cost, 0);
          best = id;
        }
      }
    }
    return best;
  }

  // ---- products ----
  struct Factors {
    std::vector<Term> terms;
    int sign = 1;
    double coef = 1.0;
    int absorbed = 0;
    bool expanded = false;
  };

  void collect_product(NodeId id, bool root, bool expand_shared, Factors& f, bool inside_shared = false) {
    const Node& n = g_.nodes[id];
    if (n.op == Op::Const) {
      f.coef *= n.value;
      return;
    }
    const bool single = uses_[id] == 1;
    if (is_product(n.op) && (root || single || (expand_shared && shared_ok(id)))) {
      const bool copy = inside_shared || !(root || single);
      if (copy) f.expanded = true;
      else ++f.absorbed;
      if (n.op == Op::Neg) {
        f.sign = -f.sign;
        collect_product(n.arg[0], false, expand_shared, f, copy);
      } else {
        collect_product(n.arg[0], false, expand_shared, f, copy);
        collect_product(n.arg[1], false, expand_shared, f, copy);
      }
      return;
    }
    f.terms.push_back({rt_[m_[id]], 1, m_[id]});
  }

  std::pair<NodeId, int> combine_product(Factors f, std::uint32_t prov) {
    if (f.coef < 0) {
      f.coef = -f.coef;
      f.sign = -f.sign;
    }
    if (f.coef != 1.0 || f.terms.empty()) {
      // a negative sign goes into the constant (exact), else it would cost a negation
      f.terms.push_back({0, 1, constant(f.sign < 0 ? -f.coef : f.coef, prov)});
      f.sign = 1;
    }
    std::priority_queue<Term, std::vector<Term>, Later> q(Later{}, f.terms);
    int ops = 0;
    while (q.size() > 1) {
      const Term x = q.top();
      q.pop();
      const Term y = q.top();
      q.pop();
      const NodeId id = emit(Op::Mul, x.id, y.id, prov);
      ++ops;
      q.push({rt_[id], 1, id});
    }
    NodeId id = q.top().id;
    if (f.sign < 0) {
      id = emit(Op::Neg, id, kNoNode, prov);
      ++ops;
    }
    return {id, ops};
  }

  NodeId rebuild_product(NodeId i) {
    const Node& n = g_.nodes[i];
    const NodeId base = plain(i);
    NodeId best = base;
    Factors f;
    collect_product(i, true, false, f);
    if (f.absorbed >= 2 || f.terms.size() != 2) {
      const auto [id, ops] = combine_product(f, n.prov);
      if (ops <= f.absorbed && (rt_[id] < rt_[base] || (rt_[id] == rt_[base] && ops < f.absorbed))) best = id;
    }
    if (shared_ok_ && shared_ok(i) && spend_ > 0) {
      Factors d;
      collect_product(i, true, true, d);
      if (d.expanded) {
        const auto [id, ops] = combine_product(d, n.prov);
        const int cost = ops - d.absorbed;
        if (cost <= spend_ && rt_[id] < rt_[best]) {
          spend_ -= std::max(cost, 0);
          best = id;
        }
      }
    }
    return best;
  }

  const Graph& g_;
  Latencies lat_;
  std::vector<int> uses_;
  const std::vector<char>* shared_ok_;
  int spend_;
  Builder b_;
  std::vector<NodeId> m_;
  std::vector<int> rt_;
};

int count_operations(const Graph& g) {
  int n = 0;
  for (const Node& x : g.nodes) n += is_operation(x.op) ? 1 : 0;
  return n;
}

// Nodes with zero slack: on a longest path under the latencies.
std::vector<char> critical_nodes(const Graph& g, const Latencies& lat) {
  const std::vector<int> asap = ready_times(g, lat);
  int length = 0;
  for (int t : asap) length = std::max(length, t);
  // latest finish time of every node such that the graph still finishes at `length`
  std::vector<int> alap(g.nodes.size(), length);
  for (std::size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    const int start = alap[i] - op_latency(n.op, lat);
    for (int k = 0; k < arity(n.op); ++k) {
      const NodeId a = n.arg[static_cast<std::size_t>(k)];
      alap[a] = std::min(alap[a], start);
    }
  }
  std::vector<char> out(g.nodes.size(), 0);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) out[i] = is_operation(g.nodes[i].op) && asap[i] == alap[i];
  return out;
}

}  // namespace

std::vector<int> ready_times(const Graph& g, const Latencies& lat) {
  std::vector<int> t(g.nodes.size(), 0);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    int s = 0;
    for (int k = 0; k < arity(n.op); ++k) s = std::max(s, t[n.arg[static_cast<std::size_t>(k)]]);
    t[i] = s + op_latency(n.op, lat);
  }
  return t;
}

int critical_path(const Graph& g, const Latencies& lat) {
  const std::vector<int> t = ready_times(g, lat);
  int best = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (is_operation(g.nodes[i].op)) best = std::max(best, t[i]);
  return best;
}

Graph reduce_depth(const Graph& g, const DepthOptions& opt) {
  if (opt.lat.mul < 1 || opt.lat.add < 1) throw Error("depth pass: latencies must be >= 1");
  if (!(opt.budget >= 0)) throw Error("depth pass: the operation budget must be >= 0");
  const Graph start = eliminate_dead_code(g);
  const int limit = static_cast<int>(std::floor(count_operations(start) * (1.0 + opt.budget)));
  // Plain re-association (no operation added) to a fixpoint.
  Graph cur = start;
  int cp = critical_path(cur, opt.lat);
  for (int round = 0; round < 8; ++round) {
    Graph next = Reducer(cur, opt.lat, nullptr, 0).run();
    const int ncp = critical_path(next, opt.lat);
    if (ncp > cp || count_operations(next) > count_operations(cur) || next == cur) break;
    cur = std::move(next);
    if (ncp == cp) break;
    cp = ncp;
  }
  // Duplication and distribution on the critical path, within the budget.
  for (int round = 0; round < 32; ++round) {
    const int left = limit - count_operations(cur);
    if (left <= 0) break;
    const std::vector<char> crit = critical_nodes(cur, opt.lat);
    Graph next = Reducer(cur, opt.lat, &crit, left).run();
    next = Reducer(next, opt.lat, nullptr, 0).run();
    const int ncp = critical_path(next, opt.lat);
    if (ncp >= cp || count_operations(next) > limit) break;
    cur = std::move(next);
    cp = ncp;
  }
  validate(cur, "depth pass");
  return cur;
}

Graph fuse_multiply_add(const Graph& g, const Latencies& lat) {
  if (lat.fma < 1) throw Error("fma fusion: needs an FMA latency >= 1");
  const std::vector<int> uses = fanout(g);
  const std::vector<int> t = ready_times(g, lat);
  Builder b;
  b.adopt_provenance(g);
  for (const std::string& name : g.inputs) b.declare_input(name);
  std::vector<NodeId> m(g.nodes.size(), kNoNode);
  std::vector<int> rt;  // ready times of the graph being built
  auto rec = [&](NodeId id) {
    if (rt.size() <= id) rt.resize(id + 1, 0);
    const Node& n = b.graph().nodes[id];
    int s = 0;
    for (int k = 0; k < arity(n.op); ++k) s = std::max(s, rt[n.arg[static_cast<std::size_t>(k)]]);
    rt[id] = s + op_latency(n.op, lat);
    return id;
  };
  // existing negations of g, by operand: -c available without a new node
  std::vector<NodeId> neg_of(g.nodes.size(), kNoNode);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (g.nodes[i].op == Op::Neg && neg_of[g.nodes[i].arg[0]] == kNoNode) neg_of[g.nodes[i].arg[0]] = static_cast<NodeId>(i);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.op == Op::Input) {
      m[i] = rec(b.input(g.inputs[n.input], n.prov));
      continue;
    }
    if (n.op == Op::Const) {
      m[i] = rec(b.constant(n.value, n.prov));
      continue;
    }
    NodeId fused = kNoNode;
    if (n.op == Op::Add || n.op == Op::Sub) {
      const int plain_ready = std::max(rt[m[n.arg[0]]], rt[m[n.arg[1]]]) + lat.add;
      for (int s = 0; s < 2 && fused == kNoNode; ++s) {
        const NodeId p = n.arg[static_cast<std::size_t>(s)], c = n.arg[static_cast<std::size_t>(1 - s)];
        const Node& pn = g.nodes[p];
        if (pn.op != Op::Mul || uses[p] != 1 || p == c) continue;
        NodeId x = m[pn.arg[0]], y = m[pn.arg[1]], z = m[c];
        if (n.op == Op::Sub && s == 0) {  // a*b - c: needs -c
          if (neg_of[c] == kNoNode || m[neg_of[c]] == kNoNode) continue;
          z = m[neg_of[c]];
        } else if (n.op == Op::Sub && s == 1) {  // c - a*b: -a exact where a is a constant
          const int k = g.nodes[pn.arg[0]].op == Op::Const ? 0 : (g.nodes[pn.arg[1]].op == Op::Const ? 1 : -1);
          if (k < 0) continue;
          const NodeId cst = pn.arg[static_cast<std::size_t>(k)], other = pn.arg[static_cast<std::size_t>(1 - k)];
          x = rec(b.constant(-g.nodes[cst].value, pn.prov));
          y = m[other];
        }
        const int ready = std::max({rt[x], rt[y], rt[z]}) + lat.fma;
        if (ready > plain_ready) continue;
        fused = rec(b.op(Op::Fma, x, y, z, n.prov));
      }
    }
    if (fused != kNoNode) {
      m[i] = fused;
      continue;
    }
    std::array<NodeId, 3> a{kNoNode, kNoNode, kNoNode};
    for (int k = 0; k < arity(n.op); ++k) a[static_cast<std::size_t>(k)] = m[n.arg[static_cast<std::size_t>(k)]];
    m[i] = rec(b.op(n.op, a[0], a[1], a[2], n.prov));
  }
  for (const Output& o : g.outputs) b.output(o.name, m[o.node]);
  (void)t;
  Graph out = eliminate_dead_code(b.take());
  validate(out, "fma fusion");
  return out;
}

bool parse_depth_switch(const std::string& value, const std::string& option) {
  if (value == "on") return true;
  if (value == "off") return false;
  throw Error(option + ": '" + value + "' (expected on or off)");
}

DepthMode parse_depth_mode(const std::string& value, const std::string& option) {
  if (value == "lookahead") return {true, -1};
  if (value.rfind("lookahead:", 0) == 0) {
    const std::string k = value.substr(10);
    const bool digits = !k.empty() && k.size() <= 3 && std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits || std::stoi(k) < 1)
      throw Error(option + ": '" + value + "' (lookahead:K needs an integer K in 1..999)");
    return {true, std::stoi(k)};
  }
  if (value == "on" || value == "off") return {parse_depth_switch(value, option), 0};
  throw Error(option + ": '" + value + "' (expected on, off, lookahead or lookahead:K)");
}

}  // namespace neaccel::dfg
