#include "neaccel/dfg/graph_report.hpp"

#include "neaccel/dfg/accuracy.hpp"
#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/depth.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/lookahead.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/robot_graph.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

namespace neaccel::dfg {

namespace {

std::string stem_of(const std::string& s) {
  std::string t;
  for (char c : std::filesystem::path(s).stem().string()) t += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return t;
}

nlohmann::json counts_json(const OpCounts& k) {
  nlohmann::json j{{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}, {"operations", k.operations()}};
  for (int o = 0; o < kNumOps; ++o) j["by_op"][op_name(static_cast<Op>(o))] = k.by_op[static_cast<std::size_t>(o)];
  return j;
}

// Forward functions: states with physical tau (fd_states), grouped by set with M's condition number beside the
// errors (docs/functions.md "Accuracy"); with --target, the smallest fixed-point format meeting it.
void fd_accuracy(const Graph& g, const ref::Robot& robot, const std::vector<FixedFormat>& formats,
                 const GraphRequest& a, nlohmann::json& report) {
  const std::vector<FdState> states = fd_states(robot, a.samples, a.near, 1);
  std::vector<std::string> names{"float"};
  for (const auto& f : formats) names.push_back(to_string(f));
  std::map<std::string, nlohmann::json> sets;
  std::vector<std::string> order;
  std::vector<double> all_max(names.size(), 0.0), all_sq(names.size(), 0.0);
  std::vector<bool> all_sat(names.size(), false);
  for (const FdState& s : states) {
    const std::vector<double> in = fd_inputs(g, robot, s);
    std::vector<StateError> e{float_error(g, in)};
    for (const auto& f : formats) e.push_back(fixed_error(g, in, f));
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
    const FormatScan scan = smallest_fixed_format(g, robot, states, a.target);
    nlohmann::json j{{"target", a.target}, {"found", scan.found}};
    if (scan.found) {
      j["format"] = to_string(scan.format);
      j["width"] = scan.format.width();
      j["max_rel"] = scan.max_rel;
      j["fractions_meeting"] = scan.fractions_meeting;
    }
    for (const auto& w : scan.widths) j["widths"].push_back({{"width", w.width}, {"best", to_string(w.best)}, {"max_rel", w.max_rel}});
    report["format_scan"] = j;
  }
}

void write_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  if (!f || !(f << text)) throw Error(p.string() + ": cannot write the file");
}

}  // namespace

GraphReport graph_report(const GraphRequest& a) {
  GraphReport out;
  if (a.robot.empty() == a.graph_file.empty()) throw Error("dfg: give exactly one of --robot or --graph");
  if (a.general && a.custom) throw Error("dfg: --general and --custom exclude each other");
  const Flavour flavour = a.general ? Flavour::General : Flavour::Custom;
  // Base parameters need a form linear in them: khalil-k unless khalil or khalil-mix is asked for.
  const bool linear = a.form == "khalil" || a.form == "khalil-k" || a.form == "khalil-mix";
  const Form form = form_from_name(a.base && !linear ? "khalil-k" : a.form);
  const Function fn = function_from_name(a.function);
  if (fn != Function::Id && a.robot.empty()) throw Error("dfg: --function needs --robot");
  Graph g;
  ref::Robot robot;
  std::string stem;
  nlohmann::json report;
  std::vector<std::string> relations;
  if (!a.robot.empty()) {
    robot = ref::load_robot(a.robot);
    if (fn != Function::Id) {
      if (a.base) {
        report["base_parameters"] = base_parameters(robot).rank;
        g = trace_function_base(robot, fn, form);
      } else {
        g = trace_function(robot, fn, form, flavour);
      }
    } else if (a.base) {
      const BaseParameters bp = base_parameters(robot);
      g = trace_base(robot, bp, form);
      relations = bp.relations;
      report["base_parameters"] = bp.rank;
    } else {
      g = trace(robot, form, flavour);
    }
    stem = fmt::format("{}-{}-{}", stem_of(a.robot), form_name(form), a.base ? "base" : a.general ? "general" : "custom");
    if (fn != Function::Id) stem = fmt::format("{}-{}", stem_of(a.robot), a.function) + stem.substr(stem_of(a.robot).size());
    report["function"] = a.function;
    report["robot"] = a.robot;
    report["form"] = form_name(form);
    report["flavour"] = a.base ? "base" : a.general ? "general" : "custom";
  } else {
    g = read_graph_file(a.graph_file);
    stem = stem_of(a.graph_file);
    report["graph"] = a.graph_file;
  }
  const OpCounts untouched = count_ops(g);
  const std::string spec = a.passes == "none" ? "" : a.passes;
  g = run_pipeline(g, parse_pipeline(spec));
  const OpCounts k = count_ops(g);
  report["passes"] = spec;
  report["nodes"] = g.nodes.size();
  report["inputs"] = g.inputs.size();
  report["outputs"] = g.outputs.size();
  report["untouched"] = counts_json(untouched);
  report["counts"] = counts_json(k);
  // The depth pass after the pipeline: counts above are the customised graph's (the papers' view);
  // the emitted graph is the reduced one (what schedule/rtl run for these latencies).
  const Latencies lat{a.lat_mul, a.lat_add, 0};
  const DepthMode mode = parse_depth_mode(a.depth);
  const bool depth = mode.on && !spec.empty();
  const int cp_before = critical_path(g, lat);
  Graph reduced = depth ? reduce_depth(g, {lat, 0.10}) : g;
  // --depth lookahead[:K]: the lookahead form of the recursion (dfg/lookahead.hpp) through the same passes, kept
  // when its reduced graph is shorter (ties: fewer operations). Inverse dynamics of the modified N-E form only.
  int lookahead_k = 1, lookahead_p = 0;
  bool lookahead_dense = false;
  if (depth && mode.lookahead != 0) {
    if (a.robot.empty() || a.base || fn != Function::Id || form != Form::ModifiedNE)
      throw Error("dfg: --depth lookahead needs --robot, the modified-ne form and the inverse dynamics");
    DepthSetting ds;
    ds.lookahead = mode.lookahead;
    for (const LookaheadShape& s : lookahead_shapes(ds)) {
      Graph r = reduce_depth(
          run_pipeline(trace_lookahead(robot, flavour, s.K, {}, 31, s.project, s.dense), parse_pipeline(spec)),
          {lat, 0.10});
      const int cp = critical_path(r, lat), best = critical_path(reduced, lat);
      if (cp < best || (cp == best && count_ops(r).operations() < count_ops(reduced).operations())) {
        reduced = std::move(r);
        lookahead_k = s.K;
        lookahead_p = s.project;
        lookahead_dense = s.dense;
      }
    }
  }
  const OpCounts kr = count_ops(reduced);
  report["depth"] = {{"pass", depth ? "on" : "off"}, {"lat_mul", a.lat_mul}, {"lat_add", a.lat_add},
                     {"critical_path_before", cp_before}, {"critical_path", critical_path(reduced, lat)},
                     {"counts", counts_json(kr)}, {"lookahead", lookahead_k}, {"project", lookahead_p},
                     {"dense", lookahead_dense}};
  for (const auto& [q, c] : count_by_quantity(g))
    if (c.operations() > 0) report["by_quantity"][q.empty() ? "(none)" : q] = counts_json(c);
  if (!relations.empty()) report["relations"] = relations;
  if (a.near < 0) throw Error(fmt::format("dfg: --near: {} (need >= 0)", a.near));
  if (a.target < 0 || std::isnan(a.target)) throw Error(fmt::format("dfg: --target: {} (need a relative error > 0)", a.target));
  if (a.samples <= 0 && (a.near > 0 || a.target > 0)) throw Error("dfg: --near and --target need --accuracy N");
  if (a.samples > 0) {
    if (a.robot.empty()) throw Error("dfg: --accuracy needs --robot");
    std::vector<FixedFormat> formats;
    for (const std::string& f : a.fixed) formats.push_back(parse_fixed_format(f));
    const bool forward = fn == Function::Fd || fn == Function::FdKhalil || fn == Function::FdStrobe;
    if (!forward) {
      if (a.near > 0 || a.target > 0) throw Error("dfg: --near and --target need a forward function (fd, fd-khalil, fd-strobe)");
      const auto acc = accuracy_report(reduced, robot, formats, a.samples, 1);
      for (const auto& r : acc) report["accuracy"].push_back({{"format", r.format}, {"max_rel", r.max_rel}, {"rms_rel", r.rms_rel}, {"saturated", r.saturated}});
    } else {
      fd_accuracy(reduced, robot, formats, a, report);
    }
  }
  if (!a.emit.empty()) {
    std::filesystem::create_directories(a.out);
    for (const std::string& e : a.emit) {
      const std::filesystem::path p = std::filesystem::path(a.out) / (stem + "." + e);
      if (e == "json") write_file(p, to_json_text(reduced));
      else if (e == "dot") write_file(p, to_dot(reduced, {stem, true}));
      else if (e == "cpp") {
        CppOptions opt;
        opt.function = "neaccel_" + stem;
        for (char& c : opt.function) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        opt.comment = "neaccel dfg: " + stem;
        write_file(p, to_cpp(reduced, opt));
      } else throw Error("dfg: --emit: unknown format '" + e + "' (expected json, dot or cpp)");
      report["files"].push_back(p.string());
    }
  }
  out.title = a.robot.empty() ? a.graph_file
                              : a.robot + " " + (fn != Function::Id ? a.function + " " : std::string()) +
                                    form_name(form) + " " + report["flavour"].get<std::string>();
  out.passes = spec;
  out.nodes = g.nodes.size();
  out.inputs = g.inputs.size();
  out.outputs = g.outputs.size();
  out.untouched = untouched;
  out.counts = k;
  out.reduced = kr;
  out.by_quantity = count_by_quantity(g);
  out.depth = depth;
  out.lat_mul = a.lat_mul;
  out.lat_add = a.lat_add;
  out.critical_path_before = cp_before;
  out.lookahead_k = lookahead_k;
  out.lookahead_p = lookahead_p;
  out.lookahead_dense = lookahead_dense;
  out.relations = relations;
  out.json = std::move(report);
  return out;
}

std::string graph_report_text(const GraphReport& r) {
  const nlohmann::json& report = r.json;
  std::string out;
  out += fmt::format("{}: {} nodes, {} inputs, {} outputs; passes '{}'\n", r.title, r.nodes, r.inputs, r.outputs,
                     r.passes);
  out += fmt::format("untouched: {} mul, {} add, {} neg\n", r.untouched.mul(), r.untouched.add(), r.untouched.neg());
  std::string other;
  for (Op op : {Op::Div, Op::Sqrt, Op::Fma, Op::Cmp})
    if (r.counts.of(op) > 0) other += fmt::format(", {} {}", r.counts.of(op), op_name(op));
  out += fmt::format("result:    {} mul, {} add, {} neg{}\n", r.counts.mul(), r.counts.add(), r.counts.neg(), other);
  out += fmt::format("{:<18} {:>6} {:>6} {:>6}\n", "quantity", "mul", "add", "neg");
  for (const auto& [q, c] : r.by_quantity)
    if (c.operations() > 0) out += fmt::format("{:<18} {:>6} {:>6} {:>6}\n", q.empty() ? "(none)" : q, c.mul(), c.add(), c.neg());
  out += fmt::format("depth pass {}{} (latencies {}/{}): critical path {} -> {} cycles, operations {} -> {} "
                     "({} mul, {} add, {} neg)\n", r.depth ? "on" : "off",
                     r.lookahead_k > 1 || r.lookahead_p > 0 || r.lookahead_dense
                         ? fmt::format(", lookahead over {} links{}, {} torques projected", r.lookahead_k,
                                       r.lookahead_dense ? " (dense steps)" : "", r.lookahead_p)
                         : std::string(), r.lat_mul, r.lat_add, r.critical_path_before,
                     report["depth"]["critical_path"].get<int>(), r.counts.operations(), r.reduced.operations(),
                     r.reduced.mul(), r.reduced.add(), r.reduced.neg());
  if (report.contains("base_parameters"))
    out += "base inertial parameters: " + std::to_string(report["base_parameters"].get<int>()) + "\n";
  for (const std::string& line : r.relations) out += line + "\n";
  if (report.contains("accuracy"))
    for (const auto& acc : report["accuracy"])
      out += fmt::format("accuracy {}: max rel {:.3e}, rms rel {:.3e}{}\n", acc["format"].get<std::string>(),
                         acc["max_rel"].get<double>(), acc["rms_rel"].get<double>(),
                         acc["saturated"].get<bool>() ? " (saturated)" : "");
  if (report.contains("accuracy_by_set"))
    for (const auto& set : report["accuracy_by_set"]) {
      std::string line = fmt::format("  {:<10} {:>4} states, cond(M) {:.3g} .. {:.3g}:", set["set"].get<std::string>(), set["states"].get<int>(), set["min_cond"].get<double>(), set["max_cond"].get<double>());
      for (const auto& [nm, v] : set["max_rel"].items()) line += fmt::format(" {} {:.2e}", nm, v.get<double>());
      out += line + "\n";
    }
  if (report.contains("format_scan")) {
    const auto& j = report["format_scan"];
    if (j["found"].get<bool>())
      out += fmt::format("smallest fixed format for max rel <= {:g}: {} ({} bits, max rel {:.3e}; F meeting it: {})\n", j["target"].get<double>(), j["format"].get<std::string>(), j["width"].get<int>(), j["max_rel"].get<double>(), j["fractions_meeting"].dump());
    else
      out += fmt::format("no fixed format up to 32 bits meets max rel <= {:g}\n", j["target"].get<double>());
  }
  if (report.contains("files"))
    for (const auto& f : report["files"]) out += "wrote " + f.get<std::string>() + "\n";
  return out;
}

}  // namespace neaccel::dfg
