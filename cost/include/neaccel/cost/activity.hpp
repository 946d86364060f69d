// Switching activity from a design's own simulation, for the standard-cell power (docs/asic.md "Activity"): the
// toggle rate of every traced bit in a VCD file (the Verilator co-simulation's `neaccel sim --vcd`), mapped onto the
// nets of the mapped netlist by name (Yosys keeps the RTL register and port names on the flip-flops' output nets when
// it flattens), and written as an OpenSTA script that gives every net's pins its activity.
#pragma once

#include <istream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::cost {

// Toggles per clock cycle of every traced bit. Names are the VCD's scopes and variable joined with '.', a bit of a
// vector as name[i] (a variable declared with a range, even [0:0], has indexed bits): `top.nea_top.u_dp.acc_q[3]`.
struct ToggleRates {
  long cycles = 0;                      // rising edges of the clock variable in the trace
  std::map<std::string, double> rate;   // toggles / cycles; the first value of a bit (and x or z) is not a toggle
};
// Reads a VCD; `clock` is the clock's name (the first variable of that name, e.g. `top.clk_i`). Throws
// neaccel::Error: no such clock variable, no rising clock edge, a value change for an undeclared identifier.
ToggleRates vcd_toggle_rates(std::istream& vcd, const std::string& clock);

// The name an activity is looked up by: the unnamed generate blocks (`genblk1.`) left out, which Yosys names and
// Verilator's trace does not.
std::string activity_key(const std::string& net);

// VCD names as netlist net names (as activity_key gives them): the first prefix of `renames` that a name starts with is replaced
// (`top.nea_top.` -> `u_top.`, `top.` -> ``). Names with no matching prefix are dropped.
std::map<std::string, double> rename_bits(const std::map<std::string, double>& rate,
                                          const std::vector<std::pair<std::string, std::string>>& renames);

// The nets on the given pin of the instances of the given cell types in a flat netlist written by Yosys
// (write_verilog -noattr -noexpr), as OpenSTA names them (escaped identifiers without the backslash and trailing
// space). Used for the flip-flops' Q nets.
std::vector<std::string> netlist_pin_nets(const std::string& netlist, const std::vector<std::string>& cell_types,
                                          const std::string& pin);

// An OpenSTA (2019) script that sets every net's pins (`sta::set_power_pin_activity`; the `set_power_activity -pins`
// of that version is broken) and every input port to the net's rate from `rate`, or to `fallback` for a net not in
// it; the clock net is left to OpenSTA (2 transitions per cycle).
std::string activity_tcl(const std::map<std::string, double>& rate, double fallback, const std::string& clock);

}  // namespace neaccel::cost
