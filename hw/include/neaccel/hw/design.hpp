// One design point end to end: robot -> dfg::robot_graph (modified Newton-Euler, seed 000 section 7, cleaned by
// dfg::customise) -> problem -> verified list schedule with registers -> datapath; plus random joint states bound to the graph's inputs. Used by the CLI
// (neaccel rtl / sim), the datapath tests and the benchmarks.
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/hw/datapath.hpp"
#include "neaccel/hw/hardwired.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/robot.hpp"
#include "neaccel/sched/schedule.hpp"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace neaccel::hw {

// The datapath architecture `neaccel rtl --arch` generates (docs/datapath.md): the programmable datapath of
// rtl/datapath (central register file, operand multiplexers over every source, microcode ROM), or the hardwired
// datapath generated for one schedule (hw/hardwired.hpp). Both run the same hw::Datapath program, cycle for cycle.
enum class Arch : std::uint8_t { Microcoded, Hardwired };
std::string arch_name(Arch a);                                 // "microcoded", "hardwired"
Arch parse_arch(const std::string& name, const std::string& what);  // neaccel::Error naming `what` otherwise

struct DesignSpec {
  std::string robot = "puma560";  // ref::load_robot spec: built-in name, random:N:SEED, file
  bool custom = false;            // customised (parameters folded) or general (parameters are inputs)
  NumberFormat format;
  int mul = 1, add = 1;           // unit instances
  int lat_mul = 3, lat_add = 2;
  bool pipelined = true;
  // 0: latency datapath (list schedule). > 0: streaming datapath at this initiation interval (modulo schedule);
  // kStreamMinII: streaming at the smallest II (the modulo scheduler's, raised to the I/O bound).
  int ii = 0;
  bool backpressure = false;  // streaming: output FIFO and credits (hw::enable_backpressure)
  Arch arch = Arch::Microcoded;
  // Binding (hw/binding.hpp, docs/binding.md): "left-edge" (the scheduler's instances, left-edge registers, operands
  // in graph order) or "interconnect" (rebound for fewer multiplexer inputs; latency datapaths only).
  std::string binding = "left-edge";
  // Hardwired latency datapaths: the selects and enables decoded from the counter as they are used
  // ("combinational") or one word ahead into flip-flops ("registered"; hw/hardwired.hpp Decode).
  std::string decode = "combinational";
  // Hardwired datapaths: operand registers after the unit port multiplexers, the first of each unit's cycles
  // (hw/hardwired.hpp HardwiredOptions; every unit latency >= 2).
  bool operand_regs = false;
  // Hardwired datapaths: the multipliers and adders built of the standard units of rtl/units ("standard") or of
  // the deep units of rtl/units/deep ("deep"; Config::deep_units). Same arithmetic, same cycles.
  std::string units = "standard";
  // The depth pass (dfg/depth.hpp) for this design's latencies; the design's graph (and golden model)
  // is the reduced one. false: the traced graph.
  bool depth = true;
  // dfg::DepthMode::lookahead (--depth lookahead[:K]): the lookahead forms of the recursion as candidate shapes
  // (sched::robot_depth_graph); 0: the traced recursion only.
  int lookahead = 0;
  // Register file of the microcoded datapath: "ff" (flip-flops + read multiplexers) or "mem" (memory arrays,
  // Config::regfile_mem; docs/datapath.md "Register file as memory").
  std::string regfile = "ff";
  int max_registers = 0;  // latency datapaths: register limit the list scheduler honours (0 = none)
  // Register-file ports the schedulers honour (0 = the register file's own: 2 read and 1 write per unit, never
  // binding): operands read by the ops issued in a cycle and results written in a cycle (input loads and
  // output unloads have ports or phases of their own). The register file keeps its ports (docs/datapath.md).
  int read_ports = 0, write_ports = 0;
  // The dynamics function (dfg/functions.hpp: id, fd, fd-khalil, fd-strobe, mass, dtau); id is the traced inverse
  // dynamics of dfg::robot_graph, the others dfg::trace_function customised (docs/functions.md).
  std::string function = "id";
  // Dividers (a graph with div nodes needs >= 1; a graph without any refuses them), latency, pipelined or busy for
  // their latency. FMA units (0: none; then mul + add pairs are fused where no slower, dfg::fuse_multiply_add),
  // pipelined as the other units. Latency datapaths only.
  int div = 0, lat_div = 8;
  bool div_pipelined = false;
  int fma = 0, lat_fma = 0;
  // General flavour: "stream" sends the robot parameters with every set point (graph inputs through the
  // port); "load" writes them once into the parameter memory in a configuration phase (docs/datapath.md "Robot
  // parameters loaded once"). Custom designs have no parameter inputs ("stream", nothing changes).
  std::string params = "stream";
  // Input port words per cycle. Streaming (microcoded): the I/O bound becomes max(ceil(n_in / in_words), n_out).
  // Latency (hardwired): the LOAD phase takes ceil(n_in / in_words) cycles instead of n_in.
  int in_words = 1;
  // "phases": LOAD, COMPUTE, UNLOAD one after the other. "overlap" (hardwired latency datapaths): the inputs arrive
  // while the recursion runs (in sched::io_overlap's load order, in_words per cycle; the list scheduler starts no op
  // before its inputs are in) and every output leaves as soon as it is computed (hw::overlap_io; docs/datapath.md
  // "Overlapped I/O").
  std::string io = "phases";
};

// Whether a graph input is a joint input of a set point (contract 3: s<i>, c<i>, q<i>, qd<i>, qdd<i>, sgn_qd<i>, the
// external wrench fex..nez) rather than a robot parameter (mass, inertia, DH, gravity: cast_model's names).
bool is_joint_input(const std::string& name);
inline constexpr int kStreamMinII = -1;

struct Design {
  DesignSpec spec;
  ref::Robot robot;
  std::unique_ptr<dfg::Graph> graph;  // stable address: problem.graph points at it
  sched::Problem problem;
  sched::Schedule schedule;
  Datapath dp;
};

// A bad value of the function or unit-class options (--function, --div, --lat-div, --fma, --lat-fma, and their
// combinations with --ii and --regfile): the CLI reports it as a usage error (exit 2).
struct OptionError : Error {
  using Error::Error;
};

// The least latency of the spec's unit classes (multipliers, adders, and dividers and FMA units where it has them):
// operand registers need it to be at least 2.
int least_unit_latency(const DesignSpec& spec);

// The hardwired generator's options of a design spec (its decode and operand registers).
HardwiredOptions hardwired_options(const DesignSpec& spec);

// Builds the design; throws neaccel::Error (bad robot, format, unit counts < 1, latencies < 1; OptionError above).
Design make_design(const DesignSpec& spec);

// A random joint state (q uniform in [-pi, pi], qd and qdd uniform in [-1, 1]; the forward functions: tau uniform
// in [-5, 5] N m instead of qdd, as docs/functions.md) as the graph's input vector (parameters of the general
// flavour from the robot).
std::vector<double> random_state(const Design& d, std::mt19937_64& rng);

// Input vector for given q, qd and u: qdd for id and dtau, tau for the forward functions (ignored by mass).
std::vector<double> bind_state(const Design& d, const std::vector<double>& q, const std::vector<double>& qd,
                               const std::vector<double>& qdd);

// The graph evaluated in the design's number format (dfg::evaluate<float> or <Fixed>), as raw words.
std::vector<std::uint32_t> golden_raw(const dfg::Graph& g, const NumberFormat& f, const std::vector<double>& in);
std::vector<double> reference(const dfg::Graph& g, const std::vector<double>& in);  // dfg::evaluate<double>

// The smallest streaming II for a problem: the modulo scheduler's minimum (from ResMII up), and the I/O bound
// max(n_in, n_out) of one input and one output port. The achievable II is the larger.
struct MinII {
  int sched = 0, io = 0, res_mii = 0;
  int value() const { return sched > io ? sched : io; }
};
// io counts port inputs only (not the resident ones), in beats of in_words words.
MinII min_ii(const sched::Problem& p, int in_words = 1);

// The scheduling path of a streaming design: the modulo schedule at II = max(requested, I/O bound) (requested
// below min_ii(p).value() -> neaccel::Error, one line), verify_or_throw (without registers: build_stream assigns
// them), then build_stream and verify_stream (neaccel::Error on any violation). `p.ii` is set to the II used.
// max_registers > 0: the streaming datapath's register file (modulo variable expansion, build_stream)
// must fit that many registers: sched::modulo_register_schedule with build_stream's register count, II upward from
// the request (fewer registers for more cycles per set point); neaccel::Error naming the limit and the fewest
// registers found when none fits up to twice the II. in_words: input port words per cycle (I/O bound).
Datapath stream_datapath(const dfg::Graph& g, sched::Problem& p, sched::Schedule& s, const NumberFormat& f, int ii,
                         int in_words = 1, int max_registers = 0);

// The project's scheduling path for a latency design: sched::check, list_schedule, allocate_registers,
// verify_or_throw (nothing unverified reaches the datapath).
sched::Schedule schedule_with_registers(const sched::Problem& p);

}  // namespace neaccel::hw
