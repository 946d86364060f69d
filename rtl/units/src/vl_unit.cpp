#include "neaccel/units/vl_unit.hpp"

#include "neaccel/ref/error.hpp"

#include <verilated.h>

#include "vl_unit_list.inc"  // generated: #include of every model header

namespace neaccel::units {

namespace {

// op_i and flags_o exist only on some units: set / read them when the model has them.
template <class M>
auto set_op(M& m, uint32_t op, int) -> decltype(m.op_i = 0, void()) {
  m.op_i = static_cast<uint8_t>(op & 3u);
}
template <class M>
void set_op(M&, uint32_t, long) {}
template <class M>
auto set_c(M& m, uint32_t c, int) -> decltype(m.c_i = 0, void()) {
  m.c_i = c;
}
template <class M>
void set_c(M&, uint32_t, long) {}
template <class M>
auto get_flags(const M& m, int) -> decltype(static_cast<uint32_t>(m.flags_o)) {
  return static_cast<uint32_t>(m.flags_o);
}
template <class M>
uint32_t get_flags(const M&, long) {
  return 0;
}

template <class M>
class Impl final : public VlUnit {
 public:
  explicit Impl(const UnitConfig& c) : config_(c), ctx_(new VerilatedContext), m_(new M(ctx_.get(), "unit")) {
    m_->clk_i = 0;
    m_->valid_i = 0;
    m_->a_i = 0;
    m_->b_i = 0;
    set_op(*m_, 0, 0);
    set_c(*m_, 0, 0);
    reset();
  }
  ~Impl() override { m_->final(); }

  UnitOut cycle(bool valid, uint32_t a, uint32_t b, uint32_t op, uint32_t c) override {
    const uint32_t mask = (config_.width >= 32 || !fixed()) ? ~0u : ((1u << config_.width) - 1u);
    m_->valid_i = valid;
    m_->a_i = a & mask;
    m_->b_i = b & mask;
    set_op(*m_, op, 0);
    set_c(*m_, c & mask, 0);
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
    return {m_->valid_o != 0, static_cast<uint32_t>(m_->result_o), get_flags(*m_, 0)};
  }

  void reset() override {
    m_->rst_ni = 0;
    m_->eval();
    for (int i = 0; i < 2; ++i) {
      m_->clk_i = 0;
      m_->eval();
      m_->clk_i = 1;
      m_->eval();
    }
    m_->rst_ni = 1;
    m_->clk_i = 0;
    m_->eval();
  }

  const UnitConfig& config() const override { return config_; }

 private:
  bool fixed() const { return is_fixed(config_.kind); }
  UnitConfig config_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> m_;
};

struct Entry {
  UnitConfig config;
  std::unique_ptr<VlUnit> (*make)(const UnitConfig&);
};

template <class M>
std::unique_ptr<VlUnit> make_impl(const UnitConfig& c) {
  return std::make_unique<Impl<M>>(c);
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
#define NEACCEL_VL_UNIT(cls, kind, lat, pipe, width, frac, deep) \
  {UnitConfig{UnitKind::kind, lat, pipe != 0, width, frac, deep != 0}, &make_impl<cls>},
#include "vl_unit_list.inc"
#undef NEACCEL_VL_UNIT
  };
  return list;
}

}  // namespace

std::unique_ptr<VlUnit> make_vl_unit(const UnitConfig& config) {
  for (const Entry& e : entries()) {
    if (e.config == config) return e.make(config);
  }
  throw Error("no Verilated model of " + describe(config) + " is built (rtl/units/CMakeLists.txt lists them)");
}

std::vector<UnitConfig> built_vl_units() {
  std::vector<UnitConfig> out;
  for (const Entry& e : entries()) out.push_back(e.config);
  return out;
}

}  // namespace neaccel::units

namespace neaccel::units {

std::vector<UnitOut> run_vl_unit(VlUnit& unit, const std::vector<std::array<uint32_t, 3>>& ops) {
  std::vector<std::array<uint32_t, 4>> ops4;
  ops4.reserve(ops.size());
  for (const auto& o : ops) ops4.push_back({o[0], o[1], o[2], 0});
  return run_vl_unit(unit, ops4);
}

std::vector<UnitOut> run_vl_unit(VlUnit& unit, const std::vector<std::array<uint32_t, 4>>& ops) {
  const long latency = unit.config().latency;
  const long gap = unit.config().pipelined ? 1 : latency;
  std::vector<UnitOut> out;
  out.reserve(ops.size());
  const long cycles = static_cast<long>(ops.size()) * gap + latency;
  for (long c = 0; c < cycles; ++c) {
    const bool issue = c % gap == 0 && static_cast<size_t>(c / gap) < ops.size();
    const std::array<uint32_t, 4> o = issue ? ops[static_cast<size_t>(c / gap)] : std::array<uint32_t, 4>{0, 0, 0, 0};
    const UnitOut got = unit.cycle(issue, o[1], o[2], o[0], o[3]);
    const long src = c - latency + 1;
    const bool expect = src >= 0 && src % gap == 0 && static_cast<size_t>(src / gap) < ops.size();
    if (got.valid != expect) {
      throw Error("Verilated " + describe(unit.config()) + ": valid_o wrong at cycle " + std::to_string(c));
    }
    if (expect) out.push_back(got);
  }
  return out;
}

}  // namespace neaccel::units
