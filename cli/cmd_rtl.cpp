// `neaccel rtl`: robot + unit mix + number format -> verified schedule -> datapath: hex images, top wrapper,
// schedule JSON, Yosys scripts and a manifest under --out (docs/datapath.md). With --ii N|min: a streaming
// datapath from a modulo schedule (a new set point every II cycles).
#include "command.hpp"
#include "validate.hpp"

#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/graph.hpp"

#include "neaccel/hw/artifacts.hpp"
#include "neaccel/hw/interconnect.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/sched/bounds.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace {

using namespace neaccel;

struct Options {
  std::string robot = "puma560", flavour = "general", format = "fp32", out = "out", ii, arch = "microcoded";
  std::string binding = "left-edge", depth = "on", regfile = "ff", params = "load", decode = "combinational";
  std::string function = "id", units = "standard", io = "phases";
  int mul = 1, add = 1, lat_mul = 3, lat_add = 2, fma = 0, lat_fma = 0, div = 0, lat_div = 8;
  bool div_pipelined = false;
  int max_registers = 0, in_words = 1, read_ports = 0, write_ports = 0;
  bool not_pipelined = false, json = false, backpressure = false, params_given = false, operand_regs = false;
};

std::string rtl_dir() {
  const char* env = std::getenv("NEACCEL_RTL_DIR");
  return env ? env : NEACCEL_RTL_DIR;
}

std::string wrote(const Options& o, const hw::Design& d) {
  if (d.spec.arch == hw::Arch::Hardwired)
    return fmt::format("wrote {}/{{manifest.json,schedule.json,rtl/nea_top.v (generated hardwired datapath),synth/*.ys}}",
                       o.out);
  if (d.dp.config.regfile_mem)
    std::printf("register file as memory: %d write x %d read ports = %d banks of %d x %d bits, live value table\n",
                d.dp.config.stream ? d.dp.config.num_units() + 1 : d.dp.config.num_units(),
                d.dp.config.stream ? 2 * d.dp.config.num_units() + 1 : 2 * d.dp.config.num_units(),
                (d.dp.config.stream ? d.dp.config.num_units() + 1 : d.dp.config.num_units()) *
                    (d.dp.config.stream ? 2 * d.dp.config.num_units() + 1 : 2 * d.dp.config.num_units()),
                d.dp.config.max_regs, d.dp.config.format.width());
  return fmt::format("wrote {}/{{manifest.json,schedule.json,hex/,rtl/nea_top.v,synth/*.ys}}", o.out);
}

// Multiplexer inputs of a hardwired datapath with this program (docs/binding.md).
void print_interconnect(const hw::DesignSpec& spec, const nlohmann::json& m) {
  const auto& ic = m.at("interconnect");
  std::printf("binding %s: %d multiplexer inputs (unit ports %d, register writes %d, output %d; %d as 2:1 muxes)\n",
              spec.binding.c_str(), ic.at("mux_inputs").get<int>(), ic.at("unit_port_mux_inputs").get<int>(),
              ic.at("register_mux_inputs").get<int>(), ic.at("output_mux_inputs").get<int>(),
              ic.at("mux2_equivalent").get<int>());
}

void run(const Options& o) {
  if (o.flavour != "general" && o.flavour != "custom")
    throw Error(fmt::format("--flavour: '{}' (general, custom)", o.flavour));
  hw::DesignSpec spec;
  if (o.ii == "min") {
    spec.ii = hw::kStreamMinII;
  } else if (!o.ii.empty()) {
    std::size_t used = 0;
    long v = -1;
    try {
      v = std::stol(o.ii, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != o.ii.size() || v < 1 || v > 1000000) throw Error(fmt::format("--ii: '{}' (an integer >= 1, or min)", o.ii));
    spec.ii = static_cast<int>(v);
  }
  spec.robot = o.robot;
  spec.custom = o.flavour == "custom";
  spec.format = hw::NumberFormat::parse(o.format);
  spec.mul = o.mul;
  spec.add = o.add;
  spec.lat_mul = o.lat_mul;
  spec.lat_add = o.lat_add;
  spec.pipelined = !o.not_pipelined;
  spec.backpressure = o.backpressure;
  spec.arch = hw::parse_arch(o.arch, "--arch");
  spec.binding = o.binding;
  spec.decode = o.decode;
  spec.operand_regs = o.operand_regs;
  spec.units = o.units;
  const dfg::DepthMode mode = dfg::parse_depth_mode(o.depth);
  spec.depth = mode.on;
  spec.lookahead = mode.lookahead;
  spec.regfile = o.regfile;
  spec.max_registers = o.max_registers;
  spec.read_ports = o.read_ports;
  spec.write_ports = o.write_ports;
  spec.function = o.function;
  spec.div = o.div;
  spec.lat_div = o.lat_div;
  spec.div_pipelined = o.div_pipelined;
  spec.fma = o.fma;
  spec.lat_fma = o.lat_fma;
  spec.in_words = o.in_words;
  spec.io = o.io;
  // Custom designs have no parameter inputs (--params load is then an error); the general flavour loads them once by
  // default, in both architectures.
  spec.params = spec.custom && !o.params_given ? "stream" : o.params;
  hw::Design d;
  try {
    d = hw::make_design(spec);
  } catch (const hw::OptionError& e) {  // a bad unit-class or function option: a usage error, one line
    std::fprintf(stderr, "neaccel: error: %s\n", e.what());
    throw cli::ExitCode{2};
  }
  const auto m = hw::write_artifacts(d, o.out, rtl_dir());
  if (o.json) {
    std::printf("%s\n", m.dump(1).c_str());
    return;
  }
  const auto& dp = d.dp;
  if (dp.streaming()) {
    const auto& st = dp.stream;
    std::printf("%s (%s, %s): %zu nodes, %d mul + %d add (latency %d/%d, %s), streaming\n", spec.robot.c_str(),
                o.flavour.c_str(), spec.format.name().c_str(), d.graph->nodes.size(), spec.mul, spec.add, spec.lat_mul,
                spec.lat_add, spec.pipelined ? "pipelined" : "not pipelined");
    std::printf("modulo schedule: II %d (scheduler minimum %d, ResMII %d; I/O bound %d = max(%zu inputs%s, %zu "
                "outputs)), length %d, %d stages\n", st.ii, st.ii_sched, d.schedule.lower_bound, st.ii_io,
                dp.input_names.size(),
                dp.config.in_words > 1 ? fmt::format(" / {} per cycle", dp.config.in_words).c_str() : "",
                dp.output_names.size(), dp.length, st.stages);
    std::printf("registers %d (max live %d; modulo variable expansion: %d %s, longest lifetime %d), %zu constants, "
                "kernel %zu x %d bits\n", dp.num_regs, st.max_live, st.copies, st.copies == 1 ? "copy" : "copies",
                st.max_lifetime, dp.consts.size(),
                dp.program.size(), dp.config.word_bits());
    std::printf("throughput: %d cycles per set point; latency %d cycles (first input word to last result word = "
                "offset %d (ops start once their inputs of the %zu are in) + length %d + %zu outputs%s)\n",
                dp.cycles_per_set_point(), dp.latency(), st.offset, dp.input_names.size(), dp.length,
                dp.output_names.size(), dp.backpressure() ? " + 1 through the output FIFO" : "");
    if (dp.has_params())
      std::printf("parameter memory: %zu robot parameters written once (configuration phase of %d cycles); %zu "
                  "inputs per set point\n", dp.param_names.size(), dp.config_cycles(), dp.input_names.size());
    print_interconnect(spec, m);
    if (dp.backpressure())
      std::printf("back-pressure: output FIFO of %d words, %d set points in flight at most (credits)\n",
                  dp.config.out_fifo, st.credits);
    std::printf("%s\n", wrote(o, d).c_str());
    return;
  }
  std::printf("%s (%s, %s): %zu nodes, %d mul + %d add (latency %d/%d, %s)\n", spec.robot.c_str(), o.flavour.c_str(),
              spec.format.name().c_str(), d.graph->nodes.size(), spec.mul, spec.add, spec.lat_mul, spec.lat_add,
              spec.pipelined ? "pipelined" : "not pipelined");
  if (spec.function != "id" || spec.div > 0 || spec.fma > 0) {
    std::string extra = fmt::format("function {}", spec.function);
    if (spec.div > 0)
      extra += fmt::format(", {} div (latency {}, {})", spec.div, spec.lat_div,
                           spec.div_pipelined ? "pipelined" : "busy for its latency");
    if (spec.fma > 0) extra += fmt::format(", {} fma (latency {})", spec.fma, spec.lat_fma);
    const auto ops = dfg::count_ops(*d.graph);
    std::printf("%s; graph %d mul, %d add/sub/neg, %d div, %d fma\n", extra.c_str(), ops.of(dfg::Op::Mul),
                ops.of(dfg::Op::Add) + ops.of(dfg::Op::Sub) + ops.of(dfg::Op::Neg), ops.of(dfg::Op::Div),
                ops.of(dfg::Op::Fma));
  }
  std::printf("schedule length %d (lower bound %d), %d registers, %zu constants, microcode %zu x %d bits\n",
              d.schedule.length, d.schedule.lower_bound, dp.num_regs, dp.consts.size(), dp.program.size(),
              dp.config.word_bits());
  if (dp.overlapped()) {
    const auto io = sched::io_overlap(d.problem, dp.config.in_words);
    std::printf("overlapped I/O: %zu inputs in %d beat%s of %d (load order: largest tail first), %zu outputs as "
                "computed (order: %s)\n", dp.input_names.size(), dp.load_beats(), dp.load_beats() == 1 ? "" : "s",
                dp.config.in_words, dp.output_names.size(), [&] {
                  std::string names;
                  for (int o : dp.output_order()) names += (names.empty() ? "" : " ") + dp.output_names[o];
                  return names;
                }().c_str());
    std::printf("latency %d cycles (first input word to last output word; bound %d = critical path %d + %d of I/O no "
                "schedule hides); cycles per evaluation %d (start to done)\n", dp.latency(), io.bound,
                io.critical_path, io.hidden_io_bound(), dp.cycles());
    if (dp.has_params())
      std::printf("parameter memory: %zu robot parameters written once (configuration phase of %d cycles)\n",
                  dp.param_names.size(), dp.config_cycles());
    print_interconnect(spec, m);
    std::printf("%s\n", wrote(o, d).c_str());
    return;
  }
  const std::string loads = dp.config.in_words > 1 ? fmt::format("{} beat{} of {} inputs at {} per cycle", dp.load_beats(),
                                                                   dp.load_beats() == 1 ? "" : "s",
                                                                   dp.input_names.size(), dp.config.in_words)
                                                     : fmt::format("{} inputs", dp.input_names.size());
  std::printf("cycles per evaluation %d = length %d + I/O %d (%s + %zu outputs + 2)\n", dp.cycles(), dp.length,
              dp.io_overhead(), loads.c_str(), dp.output_names.size());
  if (dp.has_params())
    std::printf("parameter memory: %zu robot parameters written once (configuration phase of %d cycles)\n",
                dp.param_names.size(), dp.config_cycles());
  print_interconnect(spec, m);
  std::printf("%s\n", wrote(o, d).c_str());
}

void setup(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("rtl", "robot -> scheduled datapath: Verilog top, microcode hex, Yosys scripts");
  cmd->add_option("--robot", opt->robot, "robot: built-in name, random:N:SEED, or a .yaml/.urdf file");
  cmd->add_option("--flavour", opt->flavour, "general (parameters are inputs) or custom (folded in)");
  cmd->add_option("--mul", opt->mul, "multipliers");
  cmd->add_option("--add", opt->add, "adders (add, sub, neg)");
  cmd->add_option("--lat-mul", opt->lat_mul, "multiplier latency (cycles)");
  cmd->add_option("--lat-add", opt->lat_add, "adder latency (cycles)");
  cmd->add_flag("--not-pipelined", opt->not_pipelined, "units busy for their whole latency");
  cmd->add_option("--format", opt->format, "fp32 or fixed:I.F");
  cmd->add_option("--ii", opt->ii,
                  "streaming datapath: a new set point every N cycles (modulo schedule); 'min' for the smallest II");
  cmd->add_flag("--backpressure", opt->backpressure,
                "streaming: output FIFO and admission credits, so the sink may hold out_ready low");
  cmd->add_option("--arch", opt->arch,
                  "microcoded (register file, operand muxes over all sources, microcode ROM) or hardwired (generated "
                  "for this schedule: muxes over the routed sources only, decoded from a counter)");
  cmd->add_option("--binding", opt->binding,
                  "left-edge (scheduler's units, left-edge registers) or interconnect (rebound for fewer mux inputs)");
  cmd->add_option("--decode", opt->decode,
                  "hardwired latency datapath: selects and enables decoded from the counter as used (combinational) "
                  "or one word ahead into flip-flops (registered: the counter decode off the multiplexer paths), or "
                  "so from a counter copy beside each unit (local: no control net crosses the device; 3 cycles more)");
  cmd->add_flag("--operand-regs", opt->operand_regs,
                "hardwired: a register after each unit port multiplexer, the first of the unit's cycles (the units one "
                "stage shorter; every latency >= 2)");
  cmd->add_option("--units", opt->units,
                  "hardwired: multipliers and adders of rtl/units (standard) or of rtl/units/deep (deep: the same "
                  "results and cycles, the pipeline cut where the ECP5 has its registers; always pipelined)");
  cmd->add_option("--regfile", opt->regfile,
                  "microcoded register file: ff (flip-flops + read muxes) or mem (memory arrays banked per read and "
                  "write port with a live value table: distributed RAM on FPGAs)");
  cmd->add_option("--max-registers", opt->max_registers,
                  "register limit: the list scheduler (latency datapath) or the modulo scheduler, II upward (--ii), honours it (0 = none)")
      ->check(neaccel::cli::int_in(0, neaccel::cli::kMaxRegisters));
  cmd->add_option("--read-ports", opt->read_ports,
                  "register-file read ports per cycle the scheduler honours (operands of the ops issued in a cycle; 0 = "
                  "the register file's 2 per unit)")
      ->check(neaccel::cli::int_in(0, neaccel::cli::kMaxRegisters));
  cmd->add_option("--write-ports", opt->write_ports,
                  "register-file write ports per cycle the scheduler honours (results written in a cycle; 0 = the "
                  "register file's 1 per unit)")
      ->check(neaccel::cli::int_in(0, neaccel::cli::kMaxRegisters));
  cmd->add_option_function<std::string>("--params", [opt](const std::string& v) { opt->params = v, opt->params_given = true; },
                  "general flavour: load (robot parameters written once into a parameter memory, configuration phase) "
                  "or stream (sent with every set point)");
  cmd->add_option("--in-words", opt->in_words,
                  "input port of K words per cycle: the hardwired latency datapath loads its inputs in ceil(inputs / K) "
                  "cycles; the microcoded streaming one (--ii) has the I/O bound max(ceil(inputs / K), outputs)")
      ->check(neaccel::cli::int_in(1, 64));
  cmd->add_option("--io", opt->io,
                  "latency datapath I/O: phases (load, compute, unload one after the other) or overlap (hardwired: inputs "
                  "arrive while the recursion runs, each result leaves as soon as it is computed)");
  cmd->add_option("--out", opt->out, "output directory");
  cmd->add_option("--depth", opt->depth, "depth-reducing re-association for these latencies: on | off | lookahead[:K]");
  cmd->add_option("--function", opt->function, "dynamics function: id, fd, fd-khalil, fd-strobe, mass, dtau (docs/functions.md)");
  cmd->add_option("--div", opt->div, "dividers (needed when the function divides: fd, fd-khalil, fd-strobe)");
  cmd->add_option("--lat-div", opt->lat_div, "divider latency (cycles)")->capture_default_str();
  cmd->add_flag("--div-pipelined", opt->div_pipelined, "dividers accept an op every cycle (default: busy for their latency)");
  cmd->add_option("--fma", opt->fma, "fused multiply-add units (0 = none); mul + add pairs are fused where no slower");
  cmd->add_option("--lat-fma", opt->lat_fma, "FMA latency (cycles), with --fma")
      ->check(neaccel::cli::int_in(1, neaccel::cli::kMaxLatency));
  cmd->add_flag("--json", opt->json, "print the manifest as JSON");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace

NEACCEL_COMMAND(rtl, 60, setup)
