// Exact time-indexed ILP (GLPK). Variables x[v][t] (op v issues at cycle t) over the window
// [ASAP(v), H - height(v)], H = horizon (the list schedule's length); one integer column M (the length).
#include "internal.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <set>

namespace neaccel::sched {
namespace {

using detail::OpGraph;

struct Model {
  const OpGraph& g;
  int horizon;
  std::vector<int> lo, hi, base;  // per node: window and first column (1-based)
  int m_col = 0;
  glp_prob* lp = nullptr;
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};

  int col(dfg::NodeId v, int t) const { return base[v] + (t - lo[v]); }
  int add_row(int type, double lb, double ub) {
    const int r = glp_add_rows(lp, 1);
    glp_set_row_bnds(lp, r, type, lb, ub);
    return r;
  }
  void coef(int r, int c, double a) {
    ia.push_back(r);
    ja.push_back(c);
    ar.push_back(a);
  }
};

void add_columns(Model& m, const Problem& p, int lb) {
  int ncols = 0;
  for (auto v : m.g.ops) {
    m.base[v] = ncols + 1;
    ncols += m.hi[v] - m.lo[v] + 1;
  }
  m.m_col = ncols + 1;
  glp_add_cols(m.lp, ncols + 1);
  for (int c = 1; c <= ncols; ++c) glp_set_col_kind(m.lp, c, GLP_BV);
  glp_set_col_kind(m.lp, m.m_col, GLP_IV);
  glp_set_col_bnds(m.lp, m.m_col, lb == m.horizon ? GLP_FX : GLP_DB, lb, m.horizon);
  glp_set_obj_coef(m.lp, m.m_col, 1.0);
  (void)p;
}

void add_rows(Model& m, const Problem& p) {
  const auto& g = m.g;
  for (auto v : g.ops) {  // each op issues once
    const int r = m.add_row(GLP_FX, 1, 1);
    for (int t = m.lo[v]; t <= m.hi[v]; ++t) m.coef(r, m.col(v, t), 1);
  }
  for (auto u : g.ops) {  // precedence, disaggregated: v issued by t => u issued by t - L(u)
    std::set<dfg::NodeId> seen;
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) {
      const auto v = g.succ[e];
      if (!seen.insert(v).second) continue;
      for (int t = m.lo[v]; t <= m.hi[v] && t - g.lat[u] < m.hi[u]; ++t) {
        const int r = m.add_row(GLP_UP, 0, 0);
        for (int s = m.lo[v]; s <= t; ++s) m.coef(r, m.col(v, s), 1);
        for (int s = m.lo[u]; s <= std::min(m.hi[u], t - g.lat[u]); ++s) m.coef(r, m.col(u, s), -1);
      }
    }
  }
  for (std::size_t c = 0; c < p.classes.size(); ++c) {  // per class and cycle: instances busy <= count
    const auto& uc = p.classes[c];
    for (int tau = 0; tau < m.horizon; ++tau) {
      std::vector<int> cols;
      for (auto v : g.ops)
        if (g.cls[v] == static_cast<int>(c))
          for (int s = std::max(m.lo[v], tau - uc.occupancy + 1); s <= std::min(m.hi[v], tau); ++s) cols.push_back(m.col(v, s));
      if (static_cast<int>(cols.size()) <= uc.count) continue;
      const int r = m.add_row(GLP_UP, 0, uc.count);
      for (int cc : cols) m.coef(r, cc, 1);
    }
  }
  for (auto v : g.ops) {  // M >= start + latency for ops without successors
    if (g.succ_off[v] != g.succ_off[v + 1]) continue;
    const int r = m.add_row(GLP_LO, g.lat[v], 0);
    m.coef(r, m.m_col, 1);
    for (int t = m.lo[v]; t <= m.hi[v]; ++t) m.coef(r, m.col(v, t), -t);
  }
  glp_load_matrix(m.lp, static_cast<int>(m.ia.size()) - 1, m.ia.data(), m.ja.data(), m.ar.data());
}

struct CallbackData {
  const Model* m;
  const Schedule* start;  // heuristic solution handed to GLPK once
  bool given = false;
  double bound = -1e300;
};

void callback(glp_tree* tree, void* info) {
  auto* d = static_cast<CallbackData*>(info);
  const int reason = glp_ios_reason(tree);
  if (reason == GLP_IHEUR && !d->given) {
    d->given = true;
    const int n = glp_get_num_cols(d->m->lp);
    std::vector<double> x(static_cast<std::size_t>(n) + 1, 0.0);
    for (auto v : d->m->g.ops) x[d->m->col(v, d->start->slots[v].start)] = 1.0;
    x[d->m->m_col] = d->start->length;
    glp_ios_heur_sol(tree, x.data());
  }
  if (reason == GLP_ISELECT || reason == GLP_IBINGO || reason == GLP_IHEUR) {
    const int best = glp_ios_best_node(tree);
    if (best != 0) d->bound = std::max(d->bound, glp_ios_node_bound(tree, best));
  }
}

}  // namespace

Schedule ilp_schedule(const Problem& problem, const IlpOptions& options) {
  if (problem.ii != 0) throw Error("ilp schedule: problem.ii must be 0");
  ListOptions lo;
  lo.restarts = 8;
  Schedule heur = list_schedule(problem, lo);
  const int lb = std::max(heur.lower_bound, lower_bound(problem));
  const int horizon = options.horizon > 0 ? std::max(options.horizon, critical_path(problem)) : heur.length;
  if (heur.length <= lb || horizon < lb) {
    heur.lower_bound = lb;
    heur.proven_optimal = heur.length <= lb;
    heur.algorithm = "ilp(list optimal)";
    return heur;
  }
  const auto g = detail::build_op_graph(problem);
  const auto a = detail::asap_starts(g);
  const auto h = detail::heights(g);
  std::unique_ptr<glp_prob, void (*)(glp_prob*)> lp(glp_create_prob(), glp_delete_prob);
  Model m{g, horizon, {}, {}, {}, 0, lp.get()};
  m.lo.assign(g.cls.size(), 0);
  m.hi.assign(g.cls.size(), 0);
  m.base.assign(g.cls.size(), 0);
  for (auto v : g.ops) {
    m.lo[v] = a[v];
    m.hi[v] = horizon - h[v];
  }
  glp_set_obj_dir(lp.get(), GLP_MIN);
  add_columns(m, problem, lb);
  add_rows(m, problem);

  const auto t0 = std::chrono::steady_clock::now();
  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = options.verbose ? GLP_MSG_ON : GLP_MSG_OFF;
  sm.tm_lim = static_cast<int>(options.time_limit_s * 1000);
  Schedule best = heur;
  best.lower_bound = lb;
  if (glp_simplex(lp.get(), &sm) != 0 || glp_get_status(lp.get()) != GLP_OPT) {
    best.algorithm = heur.algorithm + " (ilp: LP relaxation not solved)";
    return best;
  }
  const int lp_bound = static_cast<int>(std::ceil(glp_get_obj_val(lp.get()) - 1e-6));
  glp_iocp ip;
  glp_init_iocp(&ip);
  ip.msg_lev = options.verbose ? GLP_MSG_ON : GLP_MSG_OFF;
  const double used_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ip.tm_lim = std::max(1, static_cast<int>((options.time_limit_s - used_s) * 1000));
  const bool use_heur = heur.length <= horizon;
  CallbackData cb{&m, &heur, !use_heur, -1e300};
  ip.cb_func = callback;
  ip.cb_info = &cb;
  const int rc = glp_intopt(lp.get(), &ip);
  const int status = glp_mip_status(lp.get());
  const bool optimal = rc == 0 && status == GLP_OPT;
  const int tree_bound = cb.bound > -1e299 ? static_cast<int>(std::ceil(cb.bound - 1e-6)) : 0;
  best.lower_bound = std::max({lb, lp_bound, tree_bound});
  if (status == GLP_OPT || status == GLP_FEAS) {
    Schedule s;
    s.slots.resize(g.cls.size());
    for (auto v : g.ops) {
      int t = m.lo[v];
      for (int tt = m.lo[v]; tt <= m.hi[v]; ++tt)
        if (glp_mip_col_val(lp.get(), m.col(v, tt)) > 0.5) t = tt;
      s.slots[v] = Slot{t, g.cls[v], -1};
      s.length = std::max(s.length, t + g.lat[v]);
    }
    if (s.length <= best.length) {
      bind_units(problem, s);
      s.algorithm = "ilp";
      s.lower_bound = best.lower_bound;
      best = s;
    }
  }
  if (optimal) best.lower_bound = std::max(best.lower_bound, best.length);
  if (!optimal && best.length <= best.lower_bound) best.lower_bound = best.length;
  best.proven_optimal = best.length <= best.lower_bound;
  if (!best.proven_optimal) best.algorithm += " (time limit)";
  return best;
}

}  // namespace neaccel::sched
