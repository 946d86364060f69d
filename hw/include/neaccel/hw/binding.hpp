// Binding for interconnect (docs/binding.md): for a fixed verified latency schedule (same start times),
// rebind ops to unit instances, values to registers and the operands of commutative ops to ports a/b so that the
// hardwired datapath's multiplexers have as few inputs as possible (hw::interconnect(dp).mux_inputs()).
//
// The baseline ("left-edge") is what the scheduling path produces: the list scheduler's first-free instance binding,
// left-edge register allocation (sched::allocate_registers, max live registers) and operands on ports in graph order.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/hw/datapath.hpp"
#include "neaccel/sched/schedule.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace neaccel::hw {

enum class Binding : std::uint8_t { LeftEdge, Interconnect };

// "left-edge" | "interconnect"; anything else: neaccel::Error naming `field`.
Binding parse_binding(const std::string& name, const std::string& field = "--binding");
const char* binding_name(Binding b);

struct BindingOptions {
  // Registers allowed: max live + floor(max live * register_slack_pct / 100) (left-edge uses exactly max live).
  // Default 0: extra registers buy 1-3% fewer mux inputs (docs/binding.md), far less than a register costs.
  int register_slack_pct = 0;
  // Simulated-annealing moves per operation (the run is deterministic: fixed seed, fixed move count).
  int moves_per_op = 1500;
  std::uint64_t seed = 1;
  // What may change (ablation): unit instances, registers, port order of commutative ops.
  bool units = true, registers = true, ports = true;
};

struct BoundSchedule {
  sched::Schedule schedule;   // same starts and length; slots[].instance, reg and num_registers rebound
  std::vector<char> swap;     // per node: 1 = a commutative op's operands go to ports b, a (graph order: a, b)
  int mux_inputs_before = 0;  // the interconnect of the input binding (ports in graph order)
  int mux_inputs = 0;         // after rebinding (equals interconnect(dp).mux_inputs() of the datapath built from it)
};

// Rebinds a verified latency schedule with registers (ii == 0; units as hw::build needs them). Never returns a
// binding worse than the input's. The result passes sched::verify (checked: neaccel::Error otherwise) and the
// register count stays within the slack above. Throws neaccel::Error for ii > 0 or a schedule without registers.
BoundSchedule bind_for_interconnect(const dfg::Graph& graph, const sched::Problem& problem,
                                    const sched::Schedule& schedule, const BindingOptions& options = {});

// Applies port swaps to a built latency datapath: the issue of every node with swap[node] exchanges operands a and
// b. Only add and mul are swapped (commutative bit-exactly in both number formats: fp32 results of NaN class are
// the canonical NaN, contract 5; fixed add and the rounded product are symmetric); swap on any other op is a
// neaccel::Error naming the node.
void apply_port_swaps(const dfg::Graph& graph, Datapath& dp, const std::vector<char>& swap);

// hw::build of a rebound schedule followed by apply_port_swaps.
Datapath build_bound(const dfg::Graph& graph, const sched::Problem& problem, const BoundSchedule& bound,
                     const NumberFormat& format);

}  // namespace neaccel::hw
