#include "harness.hpp"

#include "neaccel/units/fp32.hpp"

#include <cstdio>

namespace neaccel::units::test {

namespace {

bool same(const UnitConfig& c, const UnitOut& got, const UnitOut& want) {
  if (is_fixed(c.kind)) return got.result == want.result;
  return fp32::same_result(got.result, want.result) && got.flags == want.flags;
}

std::string describe_mismatch(const Operation& o, const UnitOut& got, const UnitOut& want) {
  char buf[180];
  std::snprintf(buf, sizeof buf, "op %u a %08X b %08X c %08X: got %08X flags %02X, want %08X flags %02X", o.op, o.a,
                o.b, o.c, got.result, got.flags, want.result, want.flags);
  return buf;
}

}  // namespace

StreamReport run_stream(VlUnit& unit, const std::vector<Operation>& ops, bool gaps, uint64_t seed) {
  const UnitConfig& c = unit.config();
  const UnitFunction ref = reference_function(c);
  const int latency = c.latency;
  std::mt19937_64 rng(seed);
  StreamReport rep;
  std::vector<long> issued;  // per call: index of the operation issued, or -1
  size_t next = 0;
  long call = 0, last_issue = -1000;
  while (next < ops.size() || call < last_issue + latency) {
    bool issue = next < ops.size();
    if (!c.pipelined && call - last_issue < latency) issue = false;
    if (issue && gaps && rng() % 10 == 0) issue = false;
    const Operation o = issue ? ops[next] : Operation{};
    const UnitOut got = unit.cycle(issue, o.a, o.b, o.op, o.c);
    issued.push_back(issue ? static_cast<long>(next) : -1);
    if (issue) {
      ++next;
      last_issue = call;
    }
    const long src = call - latency + 1;
    const long idx = src >= 0 ? issued[static_cast<size_t>(src)] : -1;
    if (got.valid != (idx >= 0)) {
      if (rep.mismatches++ == 0) rep.first = "valid_o " + std::to_string(got.valid) + " at cycle " + std::to_string(call);
    } else if (idx >= 0) {
      const Operation& src_op = ops[static_cast<size_t>(idx)];
      const UnitOut want = ref(src_op.op, src_op.a, src_op.b, src_op.c);
      ++rep.checked;
      if (!same(c, got, want) && rep.mismatches++ == 0) rep.first = describe_mismatch(src_op, got, want);
    }
    ++call;
  }
  return rep;
}

}  // namespace neaccel::units::test
