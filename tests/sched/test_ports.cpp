// Register-file read/write ports: the list, ILP and modulo schedulers honour Problem::read_ports and
// write_ports. Every schedule is checked twice: by verify() and by a port count written here from the graph alone
// (reads: distinct (value, cycle) pairs of non-constant operands of the ops issued in a cycle or congruence class;
// writes: results some op reads or that are outputs, at issue + latency), so a scheduler that ignores the ports
// fails here even if verify() were wrong.
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"
#include "neaccel/sched/hls_graphs.hpp"

#include <fmt/format.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace neaccel::sched {
namespace {

// Peak reads and writes per cycle (ii == 0) or congruence class (ii > 0), counted from the graph and the starts.
std::pair<int, int> peak_ports(const Problem& p, const Schedule& s) {
  const auto& g = *p.graph;
  auto fold = [&](int c) { return s.ii > 0 ? c % s.ii : c; };
  std::map<int, std::set<std::pair<int, int>>> reads;
  std::map<int, int> writes;
  std::set<dfg::NodeId> read_or_out;
  for (const auto& o : g.outputs) read_or_out.insert(o.node);
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    const auto& n = g.nodes[v];
    if (!dfg::is_operation(n.op)) continue;
    for (int k = 0; k < dfg::arity(n.op); ++k) {
      const auto a = n.arg[k];
      read_or_out.insert(a);
      if (g.nodes[a].op == dfg::Op::Const) continue;
      reads[fold(s.slots[v].start)].emplace(static_cast<int>(a), s.slots[v].start);
    }
  }
  for (std::size_t v = 0; v < g.nodes.size(); ++v) {
    const auto& n = g.nodes[v];
    if (!dfg::is_operation(n.op) || read_or_out.count(static_cast<dfg::NodeId>(v)) == 0) continue;
    ++writes[fold(s.slots[v].start + p.classes[static_cast<std::size_t>(s.slots[v].cls)].latency)];
  }
  int r = 0, w = 0;
  for (const auto& [c, set] : reads) r = std::max(r, static_cast<int>(set.size()));
  for (const auto& [c, k] : writes) w = std::max(w, k);
  return {r, w};
}

void expect_within(const Problem& p, const Schedule& s, const std::string& what) {
  const auto v = verify(p, s);
  EXPECT_TRUE(v.empty()) << what << ": " << (v.empty() ? "" : v.front());
  const auto [r, w] = peak_ports(p, s);
  if (p.read_ports > 0) {
    EXPECT_LE(r, p.read_ports) << what << ": reads";
  }
  if (p.write_ports > 0) {
    EXPECT_LE(w, p.write_ports) << what << ": writes";
  }
}

const std::pair<int, int> kPorts[] = {{2, 0}, {3, 0}, {0, 1}, {0, 2}, {3, 1}, {4, 2}};

// List and modulo schedules (the modulo entry point: Rau, modulo list and deadline; and the modulo list
// scheduler alone) keep every port limit on the classic graphs, and the limits bind: the flat length or the II rises
// above the unconstrained one in some cases.
TEST(Ports, ListAndModuloHonourThePorts) {
  int binds_flat = 0, binds_ii = 0, cases = 0;
  for (const char* name : {"hal", "ewf", "arf", "fir16", "dct8"}) {
    const auto g = builtin_graph(name);
    for (const auto& lat : {std::pair<int, int>{2, 1}, std::pair<int, int>{3, 2}}) {
      Problem p;
      p.graph = &g;
      p.classes = default_classes(2, 2, lat.first, lat.second);
      const int free_len = list_schedule(p).length;
      ModuloOptions mo;
      mo.exact = false;  // the heuristics here (fast); the exact modulo ILP with port rows: ExactFlatAndModuloAgreeOnHal
      const int free_ii = modulo_schedule(p, mo).ii;
      for (const auto& [rp, wp] : kPorts) {
        Problem q = p;
        q.read_ports = rp;
        q.write_ports = wp;
        const std::string what = fmt::format("{} {}/{} ports {}/{}", name, lat.first, lat.second, rp, wp);
        ListOptions lo;
        lo.restarts = 4;
        const Schedule l = list_schedule(q, lo);
        expect_within(q, l, what + " list");
        EXPECT_GE(l.length, lower_bound(q)) << what;
        binds_flat += l.length > free_len;
        Problem m = q;
        const Schedule s = modulo_schedule(m, mo);
        m.ii = s.ii;
        expect_within(m, s, what + " modulo");
        EXPECT_GE(s.ii, port_mii(q)) << what;
        binds_ii += s.ii > free_ii;
        const Schedule ml = modulo_list_schedule(m);
        expect_within(m, ml, what + " modulo list");
        ++cases;
      }
    }
  }
  std::printf("port limits: flat length above the unconstrained in %d of %d cases, II above in %d\n", binds_flat, cases,
              binds_ii);
  EXPECT_GT(binds_flat, cases / 2);
  EXPECT_GT(binds_ii, cases / 2);
}

// Two exact formulations agree: the flat ILP with port rows (without the combinatorial bounds, trust_bounds =
// false) and the modulo ILP with modulo port rows. One evaluation of a modulo schedule is a flat schedule within the
// same ports (a cycle's reads are among its congruence class's), so at every II the modulo optimum is >= the flat
// optimum; at an II >= the flat optimum the flat schedule is a modulo schedule, so there they are equal.
TEST(Ports, ExactFlatAndModuloAgreeOnHal) {
  const auto g = builtin_graph("hal");
  for (const auto& [rp, wp] : {std::pair<int, int>{2, 0}, std::pair<int, int>{0, 1}, std::pair<int, int>{3, 1}}) {
    Problem p;
    p.graph = &g;
    p.classes = default_classes(2, 2, 2, 1);
    p.read_ports = rp;
    p.write_ports = wp;
    IlpOptions io;
    io.trust_bounds = false;
    io.max_nodes = 0;
    const Schedule flat = ilp_schedule(p, io);
    ASSERT_TRUE(flat.proven_optimal) << rp << "/" << wp;
    expect_within(p, flat, "flat ilp");
    EXPECT_LE(flat.length, list_schedule(p).length);
    const int first = std::max(res_mii(p), port_mii(p));
    for (int ii = first; ii <= flat.length + 1; ++ii) {
      Problem m = p;
      m.ii = ii;
      IlpOptions mo;
      mo.trust_bounds = false;
      mo.max_nodes = 0;
      const Schedule e = modulo_ilp_schedule(m, Schedule{}, mo);
      if (e.slots.empty()) {  // no modulo schedule within the default horizon at this II: allowed below the flat length
        EXPECT_LT(ii, flat.length) << "ii " << ii;
        continue;
      }
      const std::string what = fmt::format("hal ports {}/{} ii {}", rp, wp, ii);
      expect_within(m, e, what);
      ASSERT_TRUE(e.proven_optimal) << what;
      EXPECT_GE(e.length, flat.length) << what;
      if (ii >= flat.length) {
        EXPECT_EQ(e.length, flat.length) << what;
      }
    }
  }
}

// An op that needs more register operands in its issue cycle than there are read ports: one error from check(),
// never a hang in a scheduler.
TEST(Ports, TooFewReadPortsIsOneError) {
  const auto g = builtin_graph("hal");
  Problem p;
  p.graph = &g;
  p.classes = default_classes(1, 1, 2, 1);
  p.read_ports = 1;
  try {
    check(p);
    FAIL() << "check accepted one read port for two-operand ops";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("problem.read_ports: 1"), std::string::npos) << e.what();
  }
}

// Same inputs, same schedules (deterministic effort limits).
TEST(Ports, Deterministic) {
  const auto g = builtin_graph("ewf");
  Problem p;
  p.graph = &g;
  p.classes = default_classes(2, 2, 3, 2);
  p.read_ports = 3;
  p.write_ports = 1;
  const Schedule a = modulo_schedule(p), b = modulo_schedule(p);
  ASSERT_EQ(a.slots.size(), b.slots.size());
  for (std::size_t v = 0; v < a.slots.size(); ++v) EXPECT_EQ(a.slots[v].start, b.slots[v].start);
  EXPECT_EQ(a.ii, b.ii);
}

}  // namespace
}  // namespace neaccel::sched
