#include "neaccel/sim/fault_campaign.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace neaccel::sim {

namespace {

struct Tally {
  long flips = 0, detected = 0, masked = 0, silent = 0;
  nlohmann::json json() const {
    return {{"flips", flips}, {"detected", detected}, {"masked", masked}, {"silent", silent}};
  }
};

// Differing lines between the model's and the RTL's cycle logs (surplus lines of the longer one count too), as
// rtlsim::compare_cycle_logs counts them.
long log_diff(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  long d = 0;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) d += a[i] != b[i];
  return d + static_cast<long>(std::max(a.size(), b.size()) - n);
}

bool same_timing(const sysc::CoreRun& a, const sysc::CoreRun& b) {
  return a.cycles == b.cycles && a.total_cycles == b.total_cycles && a.stream.first_in == b.stream.first_in &&
         a.stream.first_out == b.stream.first_out && a.stream.last_out == b.stream.last_out;
}

}  // namespace

CampaignResult run_fault_campaign(const CampaignSetup& s) {
  const hw::Datapath& dp = *s.dp;
  if (dp.has_params())  // sysc::run_core drives no configuration phase
    throw Error("--fault-campaign: not for a design with a parameter memory (the faulty runs have no configuration "
                "phase); build it with neaccel rtl --params stream");
  // The fault-free run: it must pass every check (else the campaign would measure a broken design), and it gives
  // the sites and cycles faults are drawn from.
  sysc::FaultSites sites;
  const long unbounded = 100000000;
  const sysc::CoreRun base = sysc::run_core(dp, *s.raw, {}, unbounded, s.stall_every, s.stall_len, &sites);
  if (base.timeout || log_diff(base.log, s.rtl_log) != 0 || base.out != s.rtl_out || base.out != s.golden ||
      !s.sim_checks(base).empty())
    throw Error("--fault-campaign: the fault-free design fails its checks (run neaccel sim --engine cosim first)");
  // A faulty run longer than twice the fault-free one (a control fault may stop the sequencer) is cut: detected as a
  // cycle-count error.
  const long max_cycles = 2 * base.total_cycles + 1000;

  std::vector<sysc::SiteKind> kinds;
  for (auto k : sysc::site_kinds(dp))
    if (k != sysc::SiteKind::FifoWord || !sites.fifo.empty()) kinds.push_back(k);

  std::mt19937_64 rng(s.seed * 0x9E3779B97F4A7C15ull + 0x19);  // decorrelated from the states' generator (--seed)
  std::map<std::string, Tally> by_kind;
  for (auto k : kinds) by_kind[sysc::site_name(k)];
  std::map<std::string, long> by_check{{"cycle_log", 0}, {"outputs_vs_rtl", 0}, {"golden", 0}, {"cycle_count", 0},
                                       {"sim_error", 0}, {"timeout", 0}};
  nlohmann::json silent = nlohmann::json::array();
  Tally total;
  for (int i = 0; i < s.flips; ++i) {
    const sysc::SiteKind kind = kinds[rng() % kinds.size()];
    std::string what;
    const sysc::Fault f = sysc::draw_fault(kind, dp, sites, rng, &what);
    if (f.kind == sysc::Fault::Kind::None) throw Error(fmt::format("--fault-campaign: no {} site", sysc::site_name(kind)));
    const sysc::CoreRun m = sysc::run_core(dp, *s.raw, f, max_cycles, s.stall_every, s.stall_len);
    // The checks, each independent of the others.
    std::vector<std::string> fired;
    if (m.timeout) {
      fired.push_back("timeout");
    } else {
      if (log_diff(m.log, s.rtl_log) != 0) fired.push_back("cycle_log");
      if (m.out != s.rtl_out) fired.push_back("outputs_vs_rtl");
      try {
        for (auto& c : s.sim_checks(m)) fired.push_back(c);
      } catch (const Error&) {  // neaccel sim stops with an error (e.g. results missing): noticed
        fired.push_back("sim_error");
      }
    }
    if (!s.checks.empty())
      fired.erase(std::remove_if(fired.begin(), fired.end(),
                                 [&](const std::string& c) {
                                   return c != "timeout" && c != "sim_error" &&
                                          std::find(s.checks.begin(), s.checks.end(), c) == s.checks.end();
                                 }),
                  fired.end());
    for (const auto& c : fired) ++by_check[c];
    // The oracle, from the run itself: every output word bit-identical to the golden graph, and the same cycle timing
    // as the fault-free run.
    const bool changed = m.timeout || m.out != s.golden || !same_timing(m, base);
    Tally& t = by_kind[sysc::site_name(kind)];
    ++t.flips, ++total.flips;
    if (!fired.empty()) {
      ++t.detected, ++total.detected;
    } else if (!changed) {
      ++t.masked, ++total.masked;
    } else {
      ++t.silent, ++total.silent;
      if (silent.size() < 20)
        silent.push_back({{"flip", i}, {"kind", sysc::site_name(kind)}, {"cycle", f.cycle}, {"site", what}});
    }
    if (s.progress && (i % 16 == 15 || i + 1 == s.flips))
      std::fprintf(stderr, "\rfault campaign: %d/%d flips, %ld silent", i + 1, s.flips, total.silent);
  }
  if (s.progress) std::fprintf(stderr, "\n");

  nlohmann::json kinds_json = nlohmann::json::object();
  for (const auto& [name, t] : by_kind) kinds_json[name] = t.json();
  nlohmann::json avail{{"unit_result", sites.unit_valid.size()}, {"reg_write", sites.reg_write.size()},
                       {"control", sites.word.size()}, {"fifo_word", sites.fifo.size()},
                       {"const", dp.consts.size()}};
  CampaignResult r;
  r.detected = total.detected, r.masked = total.masked, r.silent = total.silent;
  r.json = {{"flips", s.flips},
            {"seed", s.seed},
            {"states", s.raw->size()},
            {"model_cycles", base.total_cycles},
            {"injected_in", "SystemC model core; the RTL runs fault-free and is the reference"},
            {"checks", s.checks.empty() ? std::vector<std::string>{"cycle_log", "outputs_vs_rtl", "golden", "cycle_count"}
                                        : s.checks},
            {"total", total.json()},
            {"by_site", kinds_json},
            {"detected_by", by_check},
            {"sites_available", avail},
            {"silent_examples", silent}};
  return r;
}

}  // namespace neaccel::sim
