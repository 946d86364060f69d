#include "core.hpp"

namespace neaccel::sysc {

DatapathCore::DatapathCore(const hw::Datapath& dp) : dp_(dp) {
  params_.assign(dp_.config.max_params, 0);
  reset();
}

void DatapathCore::reset() {
  configured_ = false;
  state_ = State::Idle;
  index_ = 0;
  cycle_ = 0;
  regs_.assign(dp_.config.max_regs, 0);
  sv_.assign(dp_.config.max_stages, false);
  pipes_.clear();
  for (const auto& u : dp_.units) pipes_.emplace_back(u.latency);
  fifo_.clear();
  credits_ = popped_ = 0;
}

std::uint32_t DatapathCore::bus(int u) const {
  std::uint32_t v = pipes_[u].back().value;
  if (fault_.kind == Fault::Kind::UnitResult && fault_.cycle == cycle_ && fault_.unit == u) v ^= fault_.mask;
  return v;
}

const hw::Word& DatapathCore::word() const {
  if (fault_.kind == Fault::Kind::Control && fault_.cycle == cycle_ && fault_.word) return *fault_.word;
  return dp_.program[index_];
}

std::uint32_t DatapathCore::read(const hw::Operand& o) const {
  switch (o.kind) {
    case hw::Operand::Kind::Unit: return bus(o.index);
    case hw::Operand::Kind::Reg: return regs_[o.index];
    case hw::Operand::Kind::Const:
      return dp_.consts[o.index] ^ (fault_.kind == Fault::Kind::Const && fault_.unit == o.index && cycle_ >= fault_.cycle
                                        ? fault_.mask
                                        : 0u);
    case hw::Operand::Kind::Param: return params_[o.index];
  }
  return 0;
}

std::uint32_t DatapathCore::execute(int u, const hw::Issue& is) const {
  const auto& f = dp_.config.format;
  switch (dp_.units[u].kind) {
    case hw::UnitKind::Mul: return hw::mul(f, read(is.a), read(is.b));
    case hw::UnitKind::Div: return hw::div(f, read(is.a), read(is.b));
    case hw::UnitKind::Fma: return hw::fma(f, read(is.a), read(is.b), read(is.c));
    case hw::UnitKind::Add: break;
  }
  switch (is.op) {
    case hw::kOpSub: return hw::sub(f, read(is.a), read(is.b));
    case hw::kOpNeg: return hw::neg(f, read(is.b));
    default: return hw::add(f, read(is.a), read(is.b));
  }
}

bool DatapathCore::pred(int stage, bool admit) const {
  if (state_ != State::Run || stage < 0 || stage >= static_cast<int>(sv_.size())) return false;
  if (!word().launch) return sv_[stage];
  return stage == 0 ? admit : sv_[stage - 1];
}

bool DatapathCore::in_ready() const {
  if (state_ == State::Config) return true;
  if (dp_.overlapped()) return state_ == State::Compute && index_ < dp_.load_beats();  // beat b with word b
  if (!dp_.streaming()) return state_ == State::Load;
  return run_ready();
}

bool DatapathCore::run_ready() const {
  if (state_ != State::Run) return false;
  const auto& w = word();
  return w.load.take && (w.launch ? credit_ok() : sv_[0]);  // a launch word: admission; else stage 0 is valid
}

bool DatapathCore::out_now() const {
  const auto& w = word();
  return state_ == State::Run && w.out.valid && pred(w.out.stage, false);  // out stage >= 1 in a launch word
}

bool DatapathCore::out_valid() const {
  if (dp_.overlapped()) return state_ == State::Compute && word().out.valid;  // a result leaves as it is computed
  if (!dp_.streaming()) return state_ == State::Unload;
  return dp_.backpressure() ? !fifo_.empty() : out_now();
}

std::uint32_t DatapathCore::out_data() const {
  if (dp_.backpressure()) return fifo_.empty() ? 0 : fifo_.front();
  if (dp_.streaming()) return out_now() ? read(word().out.src) : 0;
  if (dp_.overlapped()) return out_valid() ? read(word().out.src) : 0;
  return state_ == State::Unload ? read(dp_.output_src[index_]) : 0;
}

CycleView DatapathCore::view(bool in_valid, std::uint32_t in_data) const {
  const int U = static_cast<int>(dp_.units.size());
  CycleView v;
  v.unit_valid.resize(U);
  v.unit_result.resize(U);
  v.wr_en.assign(U, false);
  v.wr_addr.assign(U, 0);
  v.wr_data.assign(U, 0);
  for (int u = 0; u < U; ++u) {
    v.unit_valid[u] = pipes_[u].back().valid;
    v.unit_result[u] = bus(u);
    const bool wb = dp_.streaming() ? pred(word().wb[u].stage, admits(in_valid)) && word().wb[u].valid
                                    : state_ == State::Compute && word().wb[u].valid;
    if (wb) {
      v.wr_en[u] = true;
      v.wr_addr[u] = word().wb[u].dest;
      v.wr_data[u] = bus(u);
      if (fault_.kind == Fault::Kind::RegWrite && fault_.cycle == cycle_ && fault_.unit == u) v.wr_data[u] ^= fault_.mask;
    }
  }
  if (dp_.streaming()) {
    const auto& ld = word().load;
    if (run_ready() && in_valid && ld.write) {
      v.load_en = true;
      v.load_addr = ld.dest;
      v.load_data = in_data;
    }
    if (run_ready() && in_valid)
      for (std::size_t l = 0; l < ld.lanes.size(); ++l)
        if (ld.lanes[l].write) v.lane_writes.emplace_back(ld.lanes[l].dest, l < lanes_.size() ? lanes_[l] : 0u);
  } else if ((state_ == State::Load || (dp_.overlapped() && state_ == State::Compute && in_ready())) && in_valid) {
    // Beat index_ carries inputs index_ * k .. index_ * k + k - 1 on lanes 0 .. k - 1 (k = 1: one input per cycle).
    const int k = std::max(1, dp_.config.in_words), n_in = static_cast<int>(dp_.input_names.size());
    const int first = index_ * k;
    if (dp_.input_reg[static_cast<std::size_t>(first)] >= 0) {
      v.load_en = true;
      v.load_addr = dp_.input_reg[static_cast<std::size_t>(first)];
      v.load_data = in_data;
    }
    for (int l = 1; l < k && first + l < n_in; ++l)
      if (dp_.input_reg[static_cast<std::size_t>(first + l)] >= 0)
        v.lane_writes.emplace_back(dp_.input_reg[static_cast<std::size_t>(first + l)],
                                   static_cast<std::size_t>(l - 1) < lanes_.size() ? lanes_[static_cast<std::size_t>(l - 1)] : 0u);
  }
  v.in_ready = in_ready();
  v.out_valid = out_valid();
  v.out_data = out_data();
  v.done = done();
  v.busy = busy();
  return v;
}

void DatapathCore::clock_units(const std::vector<Stage>& issued, const CycleView& v) {
  for (std::size_t u = 0; u < pipes_.size(); ++u) {
    auto& p = pipes_[u];
    for (std::size_t s = p.size() - 1; s > 0; --s) p[s] = p[s - 1];
    p[0] = issued[u];
  }
  for (std::size_t u = 0; u < pipes_.size(); ++u)
    if (v.wr_en[u]) regs_[v.wr_addr[u]] = v.wr_data[u];
  if (v.load_en) regs_[v.load_addr] = v.load_data;
  for (const auto& [r, w] : v.lane_writes) regs_[r] = w;
}

// The configuration phase: IDLE -(start, unconfigured)-> CONFIG (a word per accepted input) -> DONE -> IDLE.
// Returns false when the state is not one of the configuration (the caller steps it).
bool DatapathCore::step_config(bool start, bool in_valid, std::uint32_t in_data) {
  if (state_ == State::Idle && start && dp_.config.max_params > 0 && !configured_) {
    state_ = State::Config;
    index_ = 0;
    cfg_index_ = 0;
    return true;
  }
  if (state_ != State::Config) return false;
  if (in_valid) {  // a counter of its own: index_ stays 0 (the program counter the views read)
    params_.at(cfg_index_) = in_data;
    if (++cfg_index_ == static_cast<int>(dp_.param_names.size())) state_ = State::Done, configured_ = true;
  }
  return true;
}

void DatapathCore::step_stream(bool start, bool in_valid, std::uint32_t in_data, bool out_ready, const CycleView& v) {
  const int U = static_cast<int>(dp_.units.size());
  const bool admit = admits(in_valid);  // in a launch word
  std::vector<Stage> issued(U);
  if (state_ == State::Run)
    for (int u = 0; u < U; ++u) {
      const auto& is = word().issue[u];
      if (is.valid && pred(is.stage, admit)) issued[u] = Stage{true, execute(u, is)};
    }
  const bool fifo_empty = fifo_.empty();  // before this edge (nea_stream: count_q == 0)
  // Output FIFO (back-pressure): this cycle's word in, the head out if the sink takes it; a credit comes back with
  // a set point's last word. All decided on the values before the clock edge.
  if (dp_.backpressure() && state_ == State::Run) {
    const bool pop = out_ready && !fifo_.empty();
    const bool push = out_now();
    const std::uint32_t pushed = push ? read(word().out.src) : 0;
    if (pop) {
      fifo_.pop_front();
      if (++popped_ == static_cast<int>(dp_.output_names.size())) popped_ = 0, ++credits_;
    }
    if (push) fifo_.push_back(pushed);
    if (word().launch && admit) --credits_;
  }
  clock_units(issued, v);
  if (state_ == State::Idle) {  // nea_stream's FIFO block: reset in IDLE
    fifo_.clear();
    credits_ = dp_.stream.credits;
    popped_ = 0;
  }
  if (step_config(start, in_valid, in_data)) {
    ++cycle_;
    return;
  }
  switch (state_) {
    case State::Idle:
      if (start) {
        state_ = State::Run;
        index_ = 0;
        sv_.assign(sv_.size(), false);
      }
      break;
    case State::Run: {
      const bool launch = word().launch;
      if (launch) {  // shift the stage-valid bits; drained when no stage of the program is valid and no word waits
        for (std::size_t j = sv_.size() - 1; j > 0; --j) sv_[j] = sv_[j - 1];
        sv_[0] = admit;
        bool any = false;
        for (int j = 0; j < dp_.stream.stages && j < static_cast<int>(sv_.size()); ++j) any = any || sv_[j];
        if (!any && fifo_empty) {
          state_ = State::Done;
          index_ = 0;
          break;
        }
      }
      index_ = (index_ + 1) % static_cast<int>(dp_.program.size());
      break;
    }
    default: state_ = State::Idle; break;  // Done
  }
  ++cycle_;
  if (fault_.kind == Fault::Kind::FifoWord && fault_.cycle == cycle_ && fault_.unit >= 0 &&
      fault_.unit < static_cast<int>(fifo_.size()))
    fifo_[fault_.unit] ^= fault_.mask;
}

void DatapathCore::step(bool start, bool in_valid, std::uint32_t in_data, bool out_ready) {
  const CycleView v = view(in_valid, in_data);
  if (dp_.streaming()) return step_stream(start, in_valid, in_data, out_ready, v);
  const int U = static_cast<int>(dp_.units.size());
  // Unit pipelines: shift, then the new issue enters stage 0 (operands read before any write of this edge).
  std::vector<Stage> issued(U);
  if (state_ == State::Compute)
    for (int u = 0; u < U; ++u) {
      const auto& is = word().issue[u];
      if (is.valid) issued[u] = Stage{true, execute(u, is)};
    }
  clock_units(issued, v);
  if (step_config(start, in_valid, in_data)) {
    ++cycle_;
    return;
  }

  const int n_in = static_cast<int>(dp_.input_names.size());
  const int n_out = static_cast<int>(dp_.output_names.size());
  const int n_prog = static_cast<int>(dp_.program.size());
  switch (state_) {
    case State::Idle:
      if (start) state_ = n_in > 0 && !dp_.overlapped() ? State::Load : State::Compute, index_ = 0;
      break;
    case State::Load:
      if (in_valid && ++index_ == dp_.load_beats()) state_ = State::Compute, index_ = 0;
      break;
    case State::Compute:
      if (++index_ == n_prog) state_ = n_out > 0 && !dp_.overlapped() ? State::Unload : State::Done, index_ = 0;
      break;
    case State::Unload:
      if (out_ready && ++index_ == n_out) state_ = State::Done, index_ = 0;
      break;
    case State::Done:
    case State::Run:
    case State::Config: state_ = State::Idle; break;
  }
  ++cycle_;
}

}  // namespace neaccel::sysc
