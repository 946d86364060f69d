#include "neaccel/hw/interconnect.hpp"

#include <algorithm>
#include <tuple>

namespace neaccel::hw {

bool operator==(const Operand& x, const Operand& y) { return x.kind == y.kind && x.index == y.index; }
bool operator<(const Operand& x, const Operand& y) {
  return std::make_tuple(x.kind, x.index) < std::make_tuple(y.kind, y.index);
}

namespace {
template <class T>
void add_unique(std::vector<T>& v, const T& x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}
template <class T>
int fan_in_sum(const std::vector<T>& v, bool minus_one) {
  const int n = static_cast<int>(v.size());
  if (minus_one) return std::max(0, n - 1);
  return n >= 2 ? n : 0;
}
}  // namespace

Interconnect interconnect(const Datapath& dp) {
  Interconnect ic;
  const std::size_t U = dp.units.size();
  ic.unit_sources.resize(U);
  ic.reg_writers.resize(static_cast<std::size_t>(std::max(0, dp.num_regs)));
  auto writer = [&](int reg, int who) {
    if (reg >= static_cast<int>(ic.reg_writers.size())) ic.reg_writers.resize(static_cast<std::size_t>(reg) + 1);
    add_unique(ic.reg_writers[static_cast<std::size_t>(reg)], who);
  };
  for (const Word& w : dp.program) {
    for (std::size_t u = 0; u < U && u < w.issue.size(); ++u) {
      const Issue& is = w.issue[u];
      if (!is.valid) continue;
      if (is.op != kOpNeg || dp.units[u].kind == UnitKind::Mul) add_unique(ic.unit_sources[u][0], is.a);
      add_unique(ic.unit_sources[u][1], is.b);
      if (dp.units[u].kind == UnitKind::Fma) add_unique(ic.unit_sources[u][2], is.c);
    }
    for (std::size_t u = 0; u < U && u < w.wb.size(); ++u)
      if (w.wb[u].valid) writer(w.wb[u].dest, static_cast<int>(u));
    if (dp.streaming()) {
      if (w.load.take && w.load.write) writer(w.load.dest, kInputLoad);
      if (w.out.valid) add_unique(ic.output_sources, w.out.src);
    }
  }
  if (!dp.streaming()) {
    for (int r : dp.input_reg)
      if (r >= 0) writer(r, kInputLoad);
    for (const Operand& o : dp.output_src) add_unique(ic.output_sources, o);
  }
  for (auto& ports : ic.unit_sources)
    for (auto& v : ports) std::sort(v.begin(), v.end());
  for (auto& v : ic.reg_writers) std::sort(v.begin(), v.end());
  std::sort(ic.output_sources.begin(), ic.output_sources.end());
  return ic;
}

namespace {
int total(const Interconnect& ic, bool minus_one) {
  int n = 0;
  for (const auto& ports : ic.unit_sources)
    for (const auto& v : ports) n += fan_in_sum(v, minus_one);
  for (const auto& v : ic.reg_writers) n += fan_in_sum(v, minus_one);
  return n + fan_in_sum(ic.output_sources, minus_one);
}
}  // namespace

int Interconnect::mux_inputs() const { return total(*this, false); }
int Interconnect::mux2_equivalent() const { return total(*this, true); }

nlohmann::json to_json(const Interconnect& ic) {
  int unit_ports = 0, regs = 0;
  for (const auto& ports : ic.unit_sources)
    for (const auto& v : ports) unit_ports += fan_in_sum(v, false);
  for (const auto& v : ic.reg_writers) regs += fan_in_sum(v, false);
  int max_port = 0;
  for (const auto& ports : ic.unit_sources)
    for (const auto& v : ports) max_port = std::max(max_port, static_cast<int>(v.size()));
  return {{"mux_inputs", ic.mux_inputs()},
          {"max_port_sources", max_port},
          {"mux2_equivalent", ic.mux2_equivalent()},
          {"unit_port_mux_inputs", unit_ports},
          {"register_mux_inputs", regs},
          {"output_mux_inputs", fan_in_sum(ic.output_sources, false)},
          {"registers", ic.reg_writers.size()}};
}

}  // namespace neaccel::hw
