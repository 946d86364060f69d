// `neaccel dfg`: trace a robot's inverse dynamics (or import a graph), run passes, print counts, emit files.
//   neaccel dfg --robot puma560 --custom --emit json --emit dot --emit cpp --out out/
//   neaccel dfg --graph kernel.dot --json
#include "command.hpp"

#include "neaccel/dfg/accuracy.hpp"
#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/lookahead.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/sched/source.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace {

using namespace neaccel;

struct Args {
  std::string robot, graph_file, function = "id", form = "modified-ne", passes = "fold,cse,factor,dce", out = "out",
      depth = "on";
  int lat_mul = 3, lat_add = 2;
  bool general = false, custom = false, base = false, json = false;
  std::vector<std::string> emit, fixed;
  int samples = 0, near = 0;
  double target = 0;
};

std::string stem_of(const std::string& s) {
  std::string t;
  for (char c : std::filesystem::path(s).stem().string()) t += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return t;
}

nlohmann::json counts_json(const dfg::OpCounts& k) {
  nlohmann::json j{{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}, {"operations", k.operations()}};
  for (int o = 0; o < dfg::kNumOps; ++o) j["by_op"][dfg::op_name(static_cast<dfg::Op>(o))] = k.by_op[static_cast<std::size_t>(o)];
  return j;
}

// Forward functions: states with physical tau (fd_states), grouped by set with M's condition number beside the
// errors (docs/functions.md "Accuracy"); with --target, the smallest fixed-point format meeting it.
void fd_accuracy(const dfg::Graph& g, const ref::Robot& robot, const std::vector<dfg::FixedFormat>& formats,
                 const Args& a, nlohmann::json& report) {
  const std::vector<dfg::FdState> states = dfg::fd_states(robot, a.samples, a.near, 1);
  std::vector<std::string> names{"float"};
  for (const auto& f : formats) names.push_back(dfg::to_string(f));
  std::map<std::string, nlohmann::json> sets;
  std::vector<std::string> order;
  std::vector<double> all_max(names.size(), 0.0), all_sq(names.size(), 0.0);
  std::vector<bool> all_sat(names.size(), false);
  for (const dfg::FdState& s : states) {
    const std::vector<double> in = dfg::fd_inputs(g, robot, s);
    std::vector<dfg::StateError> e{dfg::float_error(g, in)};
    for (const auto& f : formats) e.push_back(dfg::fixed_error(g, in, f));
    if (!sets.count(s.set)) {
      order.push_back(s.set);
      sets[s.set] = {{"set", s.set}, {"states", 0}, {"min_cond", s.cond}, {"max_cond", s.cond}};
      for (const std::string& nm : names) sets[s.set]["max_rel"][nm] = 0.0;
    }
    nlohmann::json& j = sets[s.set];
    j["states"] = j["states"].get<int>() + 1;
    j["min_cond"] = std::min(j["min_cond"].get<double>(), s.cond);
    j["max_cond"] = std::max(j["max_cond"].get<double>(), s.cond);
    for (std::size_t k = 0; k < names.size(); ++k) {
      j["max_rel"][names[k]] = std::max(j["max_rel"][names[k]].get<double>(), e[k].rel);
      if (e[k].saturated) j["saturated"][names[k]] = true;
      all_max[k] = std::max(all_max[k], e[k].rel);
      all_sq[k] += e[k].rel * e[k].rel;
      all_sat[k] = all_sat[k] || e[k].saturated;
    }
  }
  for (std::size_t k = 0; k < names.size(); ++k)
    report["accuracy"].push_back({{"format", names[k]}, {"max_rel", all_max[k]}, {"rms_rel", std::sqrt(all_sq[k] / static_cast<double>(states.size()))}, {"saturated", static_cast<bool>(all_sat[k])}});
  for (const std::string& nm : order) report["accuracy_by_set"].push_back(sets[nm]);
  if (a.target > 0) {
    const dfg::FormatScan scan = dfg::smallest_fixed_format(g, robot, states, a.target);
    nlohmann::json j{{"target", a.target}, {"found", scan.found}};
    if (scan.found) {
      j["format"] = dfg::to_string(scan.format);
      j["width"] = scan.format.width();
      j["max_rel"] = scan.max_rel;
      j["fractions_meeting"] = scan.fractions_meeting;
    }
    for (const auto& w : scan.widths) j["widths"].push_back({{"width", w.width}, {"best", dfg::to_string(w.best)}, {"max_rel", w.max_rel}});
    report["format_scan"] = j;
  }
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  if (!f || !(f << text)) throw Error(p.string() + ": cannot write the file");
}

void run(const Args& a) {
  if (a.robot.empty() == a.graph_file.empty()) throw Error("dfg: give exactly one of --robot or --graph");
  if (a.general && a.custom) throw Error("dfg: --general and --custom exclude each other");
  const dfg::Flavour flavour = a.general ? dfg::Flavour::General : dfg::Flavour::Custom;
  // Base parameters need a form linear in them: khalil-k unless khalil or khalil-mix is asked for.
  const bool linear = a.form == "khalil" || a.form == "khalil-k" || a.form == "khalil-mix";
  const dfg::Form form = dfg::form_from_name(a.base && !linear ? "khalil-k" : a.form);
  const dfg::Function fn = dfg::function_from_name(a.function);
  if (fn != dfg::Function::Id && a.robot.empty()) throw Error("dfg: --function needs --robot");
  dfg::Graph g;
  ref::Robot robot;
  std::string stem;
  nlohmann::json report;
  std::vector<std::string> relations;
  if (!a.robot.empty()) {
    robot = ref::load_robot(a.robot);
    if (fn != dfg::Function::Id) {
      if (a.base) {
        report["base_parameters"] = dfg::base_parameters(robot).rank;
        g = dfg::trace_function_base(robot, fn, form);
      } else {
        g = dfg::trace_function(robot, fn, form, flavour);
      }
    } else if (a.base) {
      const dfg::BaseParameters bp = dfg::base_parameters(robot);
      g = dfg::trace_base(robot, bp, form);
      relations = bp.relations;
      report["base_parameters"] = bp.rank;
    } else {
      g = dfg::trace(robot, form, flavour);
    }
    stem = fmt::format("{}-{}-{}", stem_of(a.robot), dfg::form_name(form), a.base ? "base" : a.general ? "general" : "custom");
    if (fn != dfg::Function::Id) stem = fmt::format("{}-{}", stem_of(a.robot), a.function) + stem.substr(stem_of(a.robot).size());
    report["function"] = a.function;
    report["robot"] = a.robot;
    report["form"] = dfg::form_name(form);
    report["flavour"] = a.base ? "base" : a.general ? "general" : "custom";
  } else {
    g = dfg::read_graph_file(a.graph_file);
    stem = stem_of(a.graph_file);
    report["graph"] = a.graph_file;
  }
  const dfg::OpCounts untouched = dfg::count_ops(g);
  const std::string spec = a.passes == "none" ? "" : a.passes;
  g = dfg::run_pipeline(g, dfg::parse_pipeline(spec));
  const dfg::OpCounts k = dfg::count_ops(g);
  report["passes"] = spec;
  report["nodes"] = g.nodes.size();
  report["inputs"] = g.inputs.size();
  report["outputs"] = g.outputs.size();
  report["untouched"] = counts_json(untouched);
  report["counts"] = counts_json(k);
  // The depth pass (issue 15) after the pipeline: counts above are the customised graph's (the papers' view);
  // the emitted graph is the reduced one (what schedule/rtl run for these latencies).
  const dfg::Latencies lat{a.lat_mul, a.lat_add, 0};
  const dfg::DepthMode mode = dfg::parse_depth_mode(a.depth);
  const bool depth = mode.on && !spec.empty();
  const int cp_before = dfg::critical_path(g, lat);
  dfg::Graph reduced = depth ? dfg::reduce_depth(g, {lat, 0.10}) : g;
  // --depth lookahead[:K]: the lookahead form of the recursion (dfg/lookahead.hpp) through the same passes, kept
  // when its reduced graph is shorter (ties: fewer operations). Inverse dynamics of the modified N-E form only.
  int lookahead_k = 1, lookahead_p = 0;
  bool lookahead_dense = false;
  if (depth && mode.lookahead != 0) {
    if (a.robot.empty() || a.base || fn != dfg::Function::Id || form != dfg::Form::ModifiedNE)
      throw Error("dfg: --depth lookahead needs --robot, the modified-ne form and the inverse dynamics");
    sched::DepthSetting ds;
    ds.lookahead = mode.lookahead;
    for (const sched::LookaheadShape& s : sched::lookahead_shapes(ds)) {
      dfg::Graph r = dfg::reduce_depth(
          dfg::run_pipeline(dfg::trace_lookahead(robot, flavour, s.K, {}, 31, s.project, s.dense), dfg::parse_pipeline(spec)),
          {lat, 0.10});
      const int cp = dfg::critical_path(r, lat), best = dfg::critical_path(reduced, lat);
      if (cp < best || (cp == best && dfg::count_ops(r).operations() < dfg::count_ops(reduced).operations())) {
        reduced = std::move(r);
        lookahead_k = s.K;
        lookahead_p = s.project;
        lookahead_dense = s.dense;
      }
    }
  }
  const dfg::OpCounts kr = dfg::count_ops(reduced);
  report["depth"] = {{"pass", depth ? "on" : "off"}, {"lat_mul", a.lat_mul}, {"lat_add", a.lat_add},
                     {"critical_path_before", cp_before}, {"critical_path", dfg::critical_path(reduced, lat)},
                     {"counts", counts_json(kr)}, {"lookahead", lookahead_k}, {"project", lookahead_p},
                     {"dense", lookahead_dense}};
  for (const auto& [q, c] : dfg::count_by_quantity(g))
    if (c.operations() > 0) report["by_quantity"][q.empty() ? "(none)" : q] = counts_json(c);
  if (!relations.empty()) report["relations"] = relations;
  if (a.near < 0) throw Error(fmt::format("dfg: --near: {} (need >= 0)", a.near));
  if (a.target < 0 || std::isnan(a.target)) throw Error(fmt::format("dfg: --target: {} (need a relative error > 0)", a.target));
  if (a.samples <= 0 && (a.near > 0 || a.target > 0)) throw Error("dfg: --near and --target need --accuracy N");
  if (a.samples > 0) {
    if (a.robot.empty()) throw Error("dfg: --accuracy needs --robot");
    std::vector<dfg::FixedFormat> formats;
    for (const std::string& f : a.fixed) formats.push_back(dfg::parse_fixed_format(f));
    const bool forward = fn == dfg::Function::Fd || fn == dfg::Function::FdKhalil || fn == dfg::Function::FdStrobe;
    if (!forward) {
      if (a.near > 0 || a.target > 0) throw Error("dfg: --near and --target need a forward function (fd, fd-khalil, fd-strobe)");
      const auto acc = dfg::accuracy_report(reduced, robot, formats, a.samples, 1);
      for (const auto& r : acc) report["accuracy"].push_back({{"format", r.format}, {"max_rel", r.max_rel}, {"rms_rel", r.rms_rel}, {"saturated", r.saturated}});
    } else {
      fd_accuracy(reduced, robot, formats, a, report);
    }
  }
  if (!a.emit.empty()) {
    std::filesystem::create_directories(a.out);
    for (const std::string& e : a.emit) {
      const std::filesystem::path p = std::filesystem::path(a.out) / (stem + "." + e);
      if (e == "json") write_file(p, dfg::to_json_text(reduced));
      else if (e == "dot") write_file(p, dfg::to_dot(reduced, {stem, true}));
      else if (e == "cpp") {
        dfg::CppOptions opt;
        opt.function = "neaccel_" + stem;
        for (char& c : opt.function) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        opt.comment = "neaccel dfg: " + stem;
        write_file(p, dfg::to_cpp(reduced, opt));
      } else throw Error("dfg: --emit: unknown format '" + e + "' (expected json, dot or cpp)");
      report["files"].push_back(p.string());
    }
  }
  if (a.json) {
    std::cout << report.dump(1) << "\n";
    return;
  }
  std::cout << fmt::format("{}: {} nodes, {} inputs, {} outputs; passes '{}'\n",
                           a.robot.empty() ? a.graph_file : a.robot + " " + (fn != dfg::Function::Id ? a.function + " " : std::string()) + dfg::form_name(form) + " " + report["flavour"].get<std::string>(),
                           g.nodes.size(), g.inputs.size(), g.outputs.size(), spec);
  std::cout << fmt::format("untouched: {} mul, {} add, {} neg\n", untouched.mul(), untouched.add(), untouched.neg());
  std::string other;
  for (dfg::Op op : {dfg::Op::Div, dfg::Op::Sqrt, dfg::Op::Fma, dfg::Op::Cmp})
    if (k.of(op) > 0) other += fmt::format(", {} {}", k.of(op), dfg::op_name(op));
  std::cout << fmt::format("result:    {} mul, {} add, {} neg{}\n", k.mul(), k.add(), k.neg(), other);
  std::cout << fmt::format("{:<18} {:>6} {:>6} {:>6}\n", "quantity", "mul", "add", "neg");
  for (const auto& [q, c] : dfg::count_by_quantity(g))
    if (c.operations() > 0) std::cout << fmt::format("{:<18} {:>6} {:>6} {:>6}\n", q.empty() ? "(none)" : q, c.mul(), c.add(), c.neg());
  std::cout << fmt::format("depth pass {}{} (latencies {}/{}): critical path {} -> {} cycles, operations {} -> {} "
                           "({} mul, {} add, {} neg)\n", depth ? "on" : "off",
                           lookahead_k > 1 || lookahead_p > 0 || lookahead_dense
                               ? fmt::format(", lookahead over {} links{}, {} torques projected", lookahead_k,
                                             lookahead_dense ? " (dense steps)" : "", lookahead_p)
                               : std::string(), a.lat_mul, a.lat_add, cp_before,
                           report["depth"]["critical_path"].get<int>(), k.operations(), kr.operations(), kr.mul(),
                           kr.add(), kr.neg());
  if (report.contains("base_parameters"))
    std::cout << "base inertial parameters: " << report["base_parameters"].get<int>() << "\n";
  for (const std::string& r : relations) std::cout << r << "\n";
  if (report.contains("accuracy"))
    for (const auto& r : report["accuracy"])
      std::cout << fmt::format("accuracy {}: max rel {:.3e}, rms rel {:.3e}{}\n", r["format"].get<std::string>(),
                               r["max_rel"].get<double>(), r["rms_rel"].get<double>(),
                               r["saturated"].get<bool>() ? " (saturated)" : "");
  if (report.contains("accuracy_by_set"))
    for (const auto& r : report["accuracy_by_set"]) {
      std::string line = fmt::format("  {:<10} {:>4} states, cond(M) {:.3g} .. {:.3g}:", r["set"].get<std::string>(), r["states"].get<int>(), r["min_cond"].get<double>(), r["max_cond"].get<double>());
      for (const auto& [nm, v] : r["max_rel"].items()) line += fmt::format(" {} {:.2e}", nm, v.get<double>());
      std::cout << line << "\n";
    }
  if (report.contains("format_scan")) {
    const auto& j = report["format_scan"];
    if (j["found"].get<bool>())
      std::cout << fmt::format("smallest fixed format for max rel <= {:g}: {} ({} bits, max rel {:.3e}; F meeting it: {})\n", j["target"].get<double>(), j["format"].get<std::string>(), j["width"].get<int>(), j["max_rel"].get<double>(), j["fractions_meeting"].dump());
    else
      std::cout << fmt::format("no fixed format up to 32 bits meets max rel <= {:g}\n", j["target"].get<double>());
  }
  if (report.contains("files"))
    for (const auto& f : report["files"]) std::cout << "wrote " << f.get<std::string>() << "\n";
}

void setup(CLI::App& app) {
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("dfg", "trace the dynamics into a dataflow graph, run passes, count, export");
  cmd->add_option("--robot", args->robot, "robot: built-in name, random:N:SEED, or a .yaml/.urdf file");
  cmd->add_option("--graph", args->graph_file, "import a graph instead (.json or .dot)");
  cmd->add_option("--function", args->function, "id | fd | fd-khalil | fd-strobe | mass | dtau (docs/functions.md)")
      ->capture_default_str();
  cmd->add_option("--form", args->form, "modified-ne | ne | khalil | khalil-k | khalil-mix")->capture_default_str();
  cmd->add_flag("--general", args->general, "robot parameters are run-time inputs");
  cmd->add_flag("--custom", args->custom, "robot parameters are constants (default)");
  cmd->add_flag("--base-params", args->base, "trace in the base inertial parameters (customised)");
  cmd->add_option("--passes", args->passes, "pass pipeline, e.g. fold,cse,dce (none = untouched)")->capture_default_str();
  cmd->add_option("--depth", args->depth, "depth-reducing re-association after the passes (issue 15): on | off | lookahead[:K] (the recursion by lookahead over K links, kept when shorter; K = 2, 3 when not given)")->capture_default_str();
  cmd->add_option("--lat-mul", args->lat_mul, "multiplier latency the depth pass shapes for")->capture_default_str();
  cmd->add_option("--lat-add", args->lat_add, "adder latency the depth pass shapes for")->capture_default_str();
  cmd->add_option("--emit", args->emit, "write json, dot and/or cpp (repeatable)");
  cmd->add_option("--out", args->out, "output directory")->capture_default_str();
  cmd->add_option("--accuracy", args->samples, "random states for the float/fixed accuracy report (0 = none)");
  cmd->add_option("--fixed", args->fixed, "fixed-point formats for --accuracy, e.g. fixed:12.20 (repeatable)");
  cmd->add_option("--near", args->near, "forward functions: near-singular states per kind for --accuracy (zero, wrist, worst-cond)");
  cmd->add_option("--target", args->target, "forward functions: find the smallest fixed format with max rel error <= this");
  cmd->add_flag("--json", args->json, "machine-readable output");
  cmd->callback([args] { run(*args); });
}

}  // namespace

NEACCEL_COMMAND(dfg, 30, setup)
