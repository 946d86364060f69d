// Exact time-indexed ILP (GLPK). Variables x[v][t] (op v issues at cycle t) over the window
// [ASAP(v), H - height(v)], H = horizon (the heuristic's length); one integer column M (the length).
// Flat (ii == 0): one resource row per class and cycle. Modulo (ii > 0): one resource row per class and congruence
// class r in [0, ii): the ops of the class busy at any cycle = r (mod ii), over all overlapping evaluations, use at
// most `count` instances (the modulo reservation table as linear rows; Eichenberger & Davidson 1997 use the same
// time-indexed modulo rows). The effort limit is deterministic: simplex iterations for the root LP and
// branch-and-bound nodes (GLPK is single-threaded and deterministic). A wall-clock limit (IlpOptions::time_limit_s)
// guards interactive use on top: GLPK's own tm_lim plus a check in the callback, neither of which changes the
// search until it is reached; it can overrun by one node's work (GLPK checks between nodes).
#include "internal.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/sched/algorithms.hpp"
#include "neaccel/sched/bounds.hpp"

#include <fmt/format.h>
#include <glpk.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <memory>
#include <set>

namespace neaccel::sched {
namespace {

using detail::OpGraph;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The wall-clock limit of one call: when it started, and the limit (0 = none).
struct Deadline {
  Clock::time_point t0;
  double limit_s = 0;
  bool active() const { return limit_s > 0; }
  double left_s() const { return limit_s - seconds_since(t0); }
  bool passed() const { return active() && left_s() <= 0; }
  // GLPK's tm_lim (milliseconds) for what is left; INT_MAX (GLPK's "none") without a limit.
  int glpk_ms() const {
    if (!active()) return INT_MAX;
    return static_cast<int>(std::clamp(left_s() * 1000.0, 1.0, static_cast<double>(INT_MAX - 1)));
  }
};

std::string seconds_text(double s) { return fmt::format("{:g}", s); }

struct Model {
  const OpGraph& g;
  int horizon;
  std::vector<int> lo, hi, base;  // per node: window and first column (1-based)
  int m_col = 0;
  glp_prob* lp = nullptr;
  std::vector<int> ia{0}, ja{0};
  std::vector<double> ar{0.0};

  // Register-file read ports: y[a][t] in [0, 1] (value a read at cycle t) over the union of its readers'
  // windows, y >= x[v][t] for each reader v; per cycle (or congruence class) sum y <= read_ports. Continuous y is
  // exact: with x integral the rows force y = 1 where a is read, and y = 0 elsewhere is feasible.
  std::vector<int> ylo{}, yhi{}, ybase{};                     // per node (ybase 0: not read by an op)
  std::vector<std::pair<dfg::NodeId, dfg::NodeId>> reads{};   // (value, reader) pairs
  int col(dfg::NodeId v, int t) const { return base[v] + (t - lo[v]); }
  int ycol(dfg::NodeId a, int t) const { return ybase[a] + (t - ylo[a]); }
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
  int ycols = 0;
  for (std::size_t a = 0; a < m.ybase.size(); ++a)
    if (m.yhi[a] >= m.ylo[a] && m.ybase[a] != 0) {
      m.ybase[a] = ncols + 2 + ycols;
      ycols += m.yhi[a] - m.ylo[a] + 1;
    }
  glp_add_cols(m.lp, ncols + 1 + ycols);
  for (int c = 1; c <= ncols; ++c) glp_set_col_kind(m.lp, c, GLP_BV);
  for (int c = ncols + 2; c <= ncols + 1 + ycols; ++c) glp_set_col_bnds(m.lp, c, GLP_DB, 0.0, 1.0);
  glp_set_col_kind(m.lp, m.m_col, GLP_IV);
  glp_set_col_bnds(m.lp, m.m_col, lb == m.horizon ? GLP_FX : GLP_DB, lb, m.horizon);
  glp_set_obj_coef(m.lp, m.m_col, 1.0);
  (void)p;
}

// Nonzeros of the disaggregated precedence rows (one row per edge and cycle of the successor's window).
long disaggregated_nonzeros(const Model& m) {
  const auto& g = m.g;
  long nz = 0;
  for (auto u : g.ops)
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) {
      const long wv = m.hi[g.succ[e]] - m.lo[g.succ[e]] + 1, wu = m.hi[u] - m.lo[u] + 1;
      nz += wv * (wv + 1) / 2 + wv * wu;
    }
  return nz;
}

void add_rows(Model& m, const Problem& p, bool aggregated) {
  const auto& g = m.g;
  for (auto v : g.ops) {  // each op issues once
    const int r = m.add_row(GLP_FX, 1, 1);
    for (int t = m.lo[v]; t <= m.hi[v]; ++t) m.coef(r, m.col(v, t), 1);
  }
  for (auto u : g.ops) {  // precedence
    std::set<dfg::NodeId> seen;
    for (int e = g.succ_off[u]; e < g.succ_off[u + 1]; ++e) {
      const auto v = g.succ[e];
      if (!seen.insert(v).second) continue;
      if (aggregated) {  // start(v) - start(u) >= L(u): one row per edge (weaker LP, far fewer nonzeros)
        const int r = m.add_row(GLP_LO, g.lat[u], 0);
        for (int t = m.lo[v]; t <= m.hi[v]; ++t) m.coef(r, m.col(v, t), t);
        for (int t = m.lo[u]; t <= m.hi[u]; ++t) m.coef(r, m.col(u, t), -t);
        continue;
      }
      // disaggregated: v issued by t => u issued by t - L(u)
      for (int t = m.lo[v]; t <= m.hi[v] && t - g.lat[u] < m.hi[u]; ++t) {
        const int r = m.add_row(GLP_UP, 0, 0);
        for (int s = m.lo[v]; s <= t; ++s) m.coef(r, m.col(v, s), 1);
        for (int s = m.lo[u]; s <= std::min(m.hi[u], t - g.lat[u]); ++s) m.coef(r, m.col(u, s), -1);
      }
    }
  }
  if (p.ii == 0) {
    for (std::size_t c = 0; c < p.classes.size(); ++c) {  // per class and cycle: instances busy <= count
      const auto& uc = p.classes[c];
      for (int tau = 0; tau < m.horizon; ++tau) {
        std::vector<int> cols;
        for (auto v : g.ops)
          if (g.cls[v] == static_cast<int>(c))
            for (int s = std::max(m.lo[v], tau - uc.occupancy + 1); s <= std::min(m.hi[v], tau); ++s)
              cols.push_back(m.col(v, s));
        if (static_cast<int>(cols.size()) <= uc.count) continue;
        const int r = m.add_row(GLP_UP, 0, uc.count);
        for (int cc : cols) m.coef(r, cc, 1);
      }
    }
  } else {
    for (std::size_t c = 0; c < p.classes.size(); ++c) {  // per class and congruence class: busy <= count
      const auto& uc = p.classes[c];
      std::vector<std::vector<int>> cols(static_cast<std::size_t>(p.ii));
      for (auto v : g.ops)
        if (g.cls[v] == static_cast<int>(c))
          for (int s = m.lo[v]; s <= m.hi[v]; ++s)
            for (int k = 0; k < std::min(uc.occupancy, p.ii); ++k) cols[static_cast<std::size_t>((s + k) % p.ii)].push_back(m.col(v, s));
      for (const auto& cc : cols) {
        if (static_cast<int>(cc.size()) <= uc.count) continue;
        const int r = m.add_row(GLP_UP, 0, uc.count);
        for (int col : cc) m.coef(r, col, 1);
      }
    }
  }
  if (p.write_ports > 0 || p.read_ports > 0) {  // register-file ports per cycle (ii == 0) or congruence class
    const auto use = detail::reg_use(p);
    const int keys = p.ii > 0 ? p.ii : m.horizon + 1;
    auto key = [&](int t) { return p.ii > 0 ? t % p.ii : t; };
    if (p.write_ports > 0) {  // results written at issue + latency
      std::vector<std::vector<int>> cols(static_cast<std::size_t>(keys));
      for (auto v : g.ops)
        if (use.writes[v])
          for (int t = m.lo[v]; t <= m.hi[v]; ++t) cols[static_cast<std::size_t>(key(t + g.lat[v]))].push_back(m.col(v, t));
      for (const auto& cc : cols) {
        if (static_cast<int>(cc.size()) <= p.write_ports) continue;
        const int r = m.add_row(GLP_UP, 0, p.write_ports);
        for (int col : cc) m.coef(r, col, 1);
      }
    }
    if (p.read_ports > 0) {
      for (const auto& [a, v] : m.reads)  // y[a][t] >= x[v][t]
        for (int t = m.lo[v]; t <= m.hi[v]; ++t) {
          const int r = m.add_row(GLP_UP, 0, 0);
          m.coef(r, m.col(v, t), 1);
          m.coef(r, m.ycol(a, t), -1);
        }
      std::vector<std::vector<int>> cols(static_cast<std::size_t>(keys));
      for (std::size_t a = 0; a < m.ybase.size(); ++a)
        if (m.ybase[a] > 0)
          for (int t = m.ylo[a]; t <= m.yhi[a]; ++t)
            cols[static_cast<std::size_t>(key(t))].push_back(m.ycol(static_cast<dfg::NodeId>(a), t));
      for (const auto& cc : cols) {
        if (static_cast<int>(cc.size()) <= p.read_ports) continue;
        const int r = m.add_row(GLP_UP, 0, p.read_ports);
        for (int col : cc) m.coef(r, col, 1);
      }
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
  long max_nodes = 0;
  bool stopped = false;
  // Wall clock and progress (neither changes the search unless the limit is reached).
  const Deadline* deadline = nullptr;
  const IlpOptions* options = nullptr;
  bool timed_out = false;
  long nodes = 0;         // tree size (nodes created) at the last call
  double incumbent = 0;   // best integer objective known (0: none)
  double last_report = 0;
  std::string phase{};    // "ilp" or "modulo/ilp ii N"
  int known_bound = 0;    // the bound known before the ILP (reported with the tree's)
};

int ceil_bound(double b) { return b > -1e299 ? static_cast<int>(std::ceil(b - 1e-6)) : 0; }

void report(const CallbackData& d, bool done, double bound) {
  if (!d.options->progress) return;
  SearchProgress pr;
  pr.phase = d.phase;
  pr.elapsed_s = seconds_since(d.deadline->t0);
  pr.nodes = d.nodes;
  pr.best = static_cast<int>(std::lround(d.incumbent));
  pr.bound = std::max(d.known_bound, ceil_bound(bound));
  pr.done = done;
  pr.time_limit = done && d.timed_out;
  d.options->progress(pr);
}

void callback(glp_tree* tree, void* info) {
  auto* d = static_cast<CallbackData*>(info);
  const int reason = glp_ios_reason(tree);
  {
    int active = 0, current = 0, total = 0;
    glp_ios_tree_size(tree, &active, &current, &total);
    d->nodes = total;
  }
  if (reason == GLP_IBINGO) {
    const double z = glp_mip_obj_val(glp_ios_get_prob(tree));
    if (d->incumbent == 0 || z < d->incumbent) d->incumbent = z;
  }
  if (!d->stopped && !d->timed_out && d->deadline->passed()) {  // wall-clock limit (GLPK's tm_lim backs it up)
    const int best = glp_ios_best_node(tree);
    if (best != 0) d->bound = std::max(d->bound, glp_ios_node_bound(tree, best));
    d->timed_out = true;
    glp_ios_terminate(tree);
    return;
  }
  if (d->options->progress) {
    const double now = seconds_since(d->deadline->t0);
    if (now - d->last_report >= 1.0) {
      d->last_report = now;
      const int best = glp_ios_best_node(tree);  // a local bound: d->bound keeps exactly the updates below
      report(*d, false, best != 0 ? std::max(d->bound, glp_ios_node_bound(tree, best)) : d->bound);
    }
  }
  if (reason == GLP_ISELECT && d->max_nodes > 0 && !d->stopped) {  // deterministic effort limit: nodes created
    int active = 0, current = 0, total = 0;
    glp_ios_tree_size(tree, &active, &current, &total);
    if (total > d->max_nodes) {
      const int best = glp_ios_best_node(tree);
      if (best != 0) d->bound = std::max(d->bound, glp_ios_node_bound(tree, best));
      d->stopped = true;
      glp_ios_terminate(tree);
      return;
    }
  }
  if (reason == GLP_IHEUR && !d->given) {
    d->given = true;
    const int n = glp_get_num_cols(d->m->lp);
    std::vector<double> x(static_cast<std::size_t>(n) + 1, 0.0);
    for (auto v : d->m->g.ops) x[d->m->col(v, d->start->slots[v].start)] = 1.0;
    for (const auto& [a, v] : d->m->reads) x[d->m->ycol(a, d->start->slots[v].start)] = 1.0;
    x[d->m->m_col] = d->start->length;
    glp_ios_heur_sol(tree, x.data());
  }
  if (reason == GLP_ISELECT || reason == GLP_IBINGO || reason == GLP_IHEUR) {
    const int best = glp_ios_best_node(tree);
    if (best != 0) d->bound = std::max(d->bound, glp_ios_node_bound(tree, best));
  }
}

// Builds and solves the model over [lo, hi] windows with horizon `horizon`; `heur` (length <= horizon, or not) is the
// incumbent; `lb` a lower bound known beforehand. Returns the best of heur and the ILP's schedule with the best bound.
// `dl`: the call's wall-clock limit (started by the caller, so the list schedule's time counts).
Schedule solve(const Problem& problem, const IlpOptions& options, Schedule heur, int lb, int horizon,
               const Deadline& dl) {
  const std::string phase = problem.ii > 0 ? fmt::format("modulo/ilp ii {}", problem.ii) : std::string("ilp");
  // The last progress report of the call (done = true): the best length and bound the result carries.
  auto finish = [&](const Schedule& s, long nodes, bool timed_out) {
    if (!options.progress) return;
    SearchProgress pr;
    pr.phase = phase;
    pr.elapsed_s = seconds_since(dl.t0);
    pr.nodes = nodes;
    pr.best = s.slots.empty() ? 0 : s.length;
    pr.bound = s.lower_bound;
    pr.done = true;
    pr.time_limit = timed_out;
    options.progress(pr);
  };
  const std::string time_note = fmt::format(" (time limit {} s)", seconds_text(dl.limit_s));
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
  long columns = 0;
  for (auto v : g.ops) columns += m.hi[v] - m.lo[v] + 1;
  m.ylo.assign(g.cls.size(), 0);
  m.yhi.assign(g.cls.size(), -1);
  m.ybase.assign(g.cls.size(), 0);
  if (problem.read_ports > 0) {
    const auto use = detail::reg_use(problem);
    for (auto v : g.ops)
      for (auto a : use.operands[v]) {
        m.reads.emplace_back(a, v);
        if (m.ybase[a] == 0) {
          m.ybase[a] = 1;  // placeholder: add_columns numbers the columns
          m.ylo[a] = m.lo[v];
          m.yhi[a] = m.hi[v];
        } else {
          m.ylo[a] = std::min(m.ylo[a], m.lo[v]);
          m.yhi[a] = std::max(m.yhi[a], m.hi[v]);
        }
      }
    for (std::size_t a = 0; a < m.ybase.size(); ++a)
      if (m.ybase[a] != 0) columns += m.yhi[a] - m.ylo[a] + 1;
  }
  Schedule best = heur;
  best.lower_bound = lb;
  if (columns > options.max_columns) {
    best.algorithm += fmt::format(" (ilp not built: {} columns > {})", columns, options.max_columns);
    finish(best, 0, false);
    return best;
  }
  if (dl.passed()) {  // nothing left for the ILP (the list schedule or the caller's search took it)
    if (!best.slots.empty()) {
      best.proven_optimal = best.length <= best.lower_bound;
      if (!best.proven_optimal) best.algorithm += time_note;
    }
    finish(best, 0, true);
    return best;
  }
  const bool aggregated = disaggregated_nonzeros(m) > options.max_nonzeros;
  glp_set_obj_dir(lp.get(), GLP_MIN);
  add_columns(m, problem, std::min(lb, horizon));
  add_rows(m, problem, aggregated);

  glp_smcp sm;
  glp_init_smcp(&sm);
  sm.msg_lev = options.verbose ? GLP_MSG_ON : GLP_MSG_OFF;
  if (options.max_simplex_iterations > 0)
    sm.it_lim = static_cast<int>(std::min<long>(options.max_simplex_iterations, 2000000000L));
  if (dl.active()) sm.tm_lim = dl.glpk_ms();
  if (options.progress) {  // the root LP reports nothing while it runs (seconds on robot graphs): say it started
    SearchProgress pr;
    pr.phase = phase + " (LP relaxation)";
    pr.elapsed_s = seconds_since(dl.t0);
    pr.best = best.slots.empty() ? 0 : best.length;
    pr.bound = lb;
    options.progress(pr);
  }
  if (const int src = glp_simplex(lp.get(), &sm); src != 0 || glp_get_status(lp.get()) != GLP_OPT) {
    const bool timed_out = src == GLP_ETMLIM;
    best.algorithm = heur.algorithm + (glp_get_status(lp.get()) == GLP_NOFEAS ? " (ilp: no schedule within the horizon)"
                                       : timed_out ? fmt::format(" (ilp: time limit {} s in the LP relaxation)",
                                                                 seconds_text(dl.limit_s))
                                                   : std::string(" (ilp: LP relaxation not solved)"));
    if (glp_get_status(lp.get()) == GLP_NOFEAS) best.lower_bound = std::max(lb, horizon + 1);  // none within H
    finish(best, 0, timed_out);
    return best;
  }
  const int lp_bound = static_cast<int>(std::ceil(glp_get_obj_val(lp.get()) - 1e-6));
  glp_iocp ip;
  glp_init_iocp(&ip);
  ip.msg_lev = options.verbose ? GLP_MSG_ON : GLP_MSG_OFF;
  const bool use_heur = !heur.slots.empty() && heur.length <= horizon;
  CallbackData cb{&m, &heur, !use_heur, -1e300, options.max_nodes, false};
  cb.deadline = &dl;
  cb.options = &options;
  cb.phase = phase;
  cb.known_bound = std::max(lb, lp_bound);
  cb.incumbent = use_heur ? heur.length : 0;
  if (dl.active()) ip.tm_lim = dl.glpk_ms();
  if (options.most_fractional_above_columns > 0 && columns > options.most_fractional_above_columns)
    ip.br_tech = GLP_BR_MFV;
  ip.cb_func = callback;
  ip.cb_info = &cb;
  const int rc = glp_intopt(lp.get(), &ip);
  const int status = glp_mip_status(lp.get());
  const bool timed_out = cb.timed_out || rc == GLP_ETMLIM;
  const bool optimal = rc == 0 && status == GLP_OPT && !cb.stopped && !timed_out;
  const int tree_bound = cb.bound > -1e299 ? static_cast<int>(std::ceil(cb.bound - 1e-6)) : 0;
  best.lower_bound = std::max({lb, lp_bound, tree_bound});
  if (rc == 0 && status == GLP_NOFEAS && !cb.stopped && !timed_out) best.lower_bound = std::max(best.lower_bound, horizon + 1);
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
    s.ii = problem.ii;
    if (heur.slots.empty() || s.length < best.length || (problem.ii == 0 && s.length == best.length)) {
      bool bound = true;
      try {
        bind_units(problem, s);  // always succeeds for ii == 0 or occupancy 1
      } catch (const Error&) {
        bound = false;  // modulo, occupancy > 1: the counts fit but the arcs do not colour; keep the heuristic
      }
      if (bound) {
        s.algorithm = problem.ii > 0 ? "modulo/ilp" : "ilp";
        s.lower_bound = best.lower_bound;
        best = s;
      }
    }
  }
  if (best.slots.empty()) {  // nothing found, caller decides
    finish(best, cb.nodes, timed_out);
    return best;
  }
  if (optimal) best.lower_bound = std::max(best.lower_bound, best.length);
  if (!optimal && best.length <= best.lower_bound) best.lower_bound = best.length;
  best.proven_optimal = best.length <= best.lower_bound;
  if (!best.proven_optimal)
    best.algorithm += timed_out ? time_note : fmt::format(" (node limit {})", options.max_nodes);
  finish(best, cb.nodes, timed_out);
  return best;
}

}  // namespace

Schedule ilp_schedule(const Problem& problem, const IlpOptions& options) {
  if (problem.ii != 0) throw Error("ilp schedule: problem.ii must be 0 (modulo_ilp_schedule for ii > 0)");
  if (!problem.release.empty())
    throw Error("ilp schedule: problem.release (inputs arriving while the recursion runs) is honoured by the list "
                "scheduler only");
  if (!(options.time_limit_s >= 0)) throw Error(fmt::format("ilp schedule: time limit {} s (need >= 0)", options.time_limit_s));
  const Deadline dl{Clock::now(), options.time_limit_s};
  ListOptions lo;
  lo.restarts = 8;
  Schedule heur = list_schedule(problem, lo);
  const int lb = options.trust_bounds ? std::max(heur.lower_bound, lower_bound(problem)) : 0;
  const int horizon = options.horizon > 0 ? std::max(options.horizon, critical_path(problem)) : heur.length;
  if (options.trust_bounds && (heur.length <= lb || horizon < lb)) {
    heur.lower_bound = lb;
    heur.proven_optimal = heur.length <= lb;
    heur.algorithm = "ilp(list optimal)";
    return heur;
  }
  return solve(problem, options, heur, lb, horizon, dl);
}

int modulo_latency_bound(const Problem& problem) {
  Problem flat = problem;
  flat.ii = 0;
  return std::max(critical_path(flat), lower_bound(flat));
}

Schedule modulo_ilp_schedule(const Problem& problem, const Schedule& incumbent, const IlpOptions& options) {
  if (problem.ii <= 0) throw Error("modulo ilp schedule: problem.ii must be > 0");
  if (!(options.time_limit_s >= 0))
    throw Error(fmt::format("modulo ilp schedule: time limit {} s (need >= 0)", options.time_limit_s));
  const Deadline dl{Clock::now(), options.time_limit_s};
  const int lb = options.trust_bounds ? modulo_latency_bound(problem) : 0;
  Schedule heur = incumbent;
  if (!heur.slots.empty() && heur.ii != problem.ii)
    throw Error(fmt::format("modulo ilp schedule: incumbent at ii {} for ii {}", heur.ii, problem.ii));
  int horizon = options.horizon;
  if (horizon <= 0) {
    if (heur.slots.empty()) {  // no incumbent: a horizon every op fits in (a schedule may still not exist)
      Problem flat = problem;
      flat.ii = 0;
      long total = 0;
      for (const auto& n : problem.graph->nodes)
        if (dfg::is_operation(n.op)) total += problem.classes[static_cast<std::size_t>(class_of(problem, n.op))].latency;
      horizon = static_cast<int>(std::min<long>(total, critical_path(flat) + 4L * problem.ii + 64));
    } else {
      horizon = heur.length;
    }
  }
  if (!heur.slots.empty() && options.trust_bounds && heur.length <= lb) {
    heur.lower_bound = lb;
    heur.proven_optimal = true;
    return heur;
  }
  Schedule s = solve(problem, options, heur, lb, horizon, dl);
  s.ii = problem.ii;
  if (!s.slots.empty()) s.stages = (s.length + s.ii - 1) / s.ii;
  return s;
}

}  // namespace neaccel::sched
