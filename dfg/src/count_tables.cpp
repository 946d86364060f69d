#include "neaccel/dfg/count_tables.hpp"

#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>

namespace neaccel::dfg {

namespace {

nlohmann::json dfg_counts_json(const Graph& g) {
  const OpCounts k = count_ops(g);
  return {{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}};
}

std::string mul_add(const nlohmann::json& j) {
  return j.is_null() ? "-" : fmt::format("{}/{}", j["mul"].get<long>(), j["add"].get<long>());
}

// The papers' counts that apply to this robot: Table 8.5 (general modified N-E hardware), Khalil 87b's base-
// parameter formula (Table 9.5, n > 2), and Table 9.6 when the robot is the RX-90 (general or simplified inertia).
nlohmann::json dfg_paper_rows(const std::string& robot, int n) {
  nlohmann::json rows = nlohmann::json::array();
  rows.push_back({{"source", "seed 000 Table 8.5 (90n-27 / 88n-24), general"}, {"column", "general"},
                  {"mul", 90 * n - 27}, {"add", 88 * n - 24}});
  if (n > 2)
    rows.push_back({{"source", "seed 003 Table 9.5, Khalil 87b (92n-127 / 81n-117), base"}, {"column", "base"},
                    {"mul", 92 * n - 127}, {"add", 81 * n - 117}});
  if (robot == "rx90") {
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 general inertia, standard"}, {"column", "custom"},
                    {"mul", 294}, {"add", 283}});
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 general inertia, base"}, {"column", "base"},
                    {"mul", 253}, {"add", 238}});
  } else if (robot == "rx90-simplified") {
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 simplified inertia, standard"}, {"column", "custom"},
                    {"mul", 202}, {"add", 153}});
    rows.push_back({{"source", "seed 003 Table 9.6, RX-90 simplified inertia, base"}, {"column", "base"},
                    {"mul", 160}, {"add", 113}});
  }
  return rows;
}

// A function's counts: mul/add, and /div when it divides.
std::string mad(const OpCounts& k) {
  const int d = k.of(Op::Div);
  return d ? fmt::format("{}/{}/{}", k.mul(), k.add(), d) : fmt::format("{}/{}", k.mul(), k.add());
}
nlohmann::json fn_counts_json(const OpCounts& k) {
  return {{"mul", k.mul()}, {"add", k.add()}, {"neg", k.neg()}, {"div", k.of(Op::Div)}};
}

// The papers' formula for F on a general n-link arm: {source, mul, add} or empty.
nlohmann::json fn_paper_general(Function f, int n) {
  if (f == Function::Fd || f == Function::FdKhalil)
    return {{"source", "seed 001 (258N - 119 / 191N - 83, divisions counted as mul)"}, {"mul", 258 * n - 119},
            {"add", 191 * n - 83}};
  if (f == Function::Mass)
    return {{"source", "seed 000 section 8 (36n(n+1) / 26n(n+1))"}, {"mul", 36 * n * (n + 1)}, {"add", 26 * n * (n + 1)}};
  return nullptr;
}

}  // namespace

ref::CountTable form_graph_count_table(const std::string& spec) {
  ref::CountTable t;
  const ref::Robot robot = ref::load_robot(spec);
  const BaseParameters bp = base_parameters(robot);
  nlohmann::json forms = nlohmann::json::array();
  for (const char* name : {"modified-ne", "ne", "khalil", "khalil-k", "khalil-mix"}) {
    const Form form = form_from_name(name);
    const Graph general = trace(robot, form, Flavour::General);
    nlohmann::json row{{"form", name},
                       {"general_untouched", dfg_counts_json(general)},
                       {"general", dfg_counts_json(customise(general))},
                       {"custom", dfg_counts_json(customise(trace(robot, form, Flavour::Custom)))},
                       {"base", nullptr}};
    if (form == Form::Khalil || form == Form::KhalilK || form == Form::KhalilMix)
      row["base"] = dfg_counts_json(customise(trace_base(robot, bp, form)));
    forms.push_back(row);
  }
  const nlohmann::json papers = dfg_paper_rows(spec, robot.dof());
  t.json = nlohmann::json{{"robot", spec},   {"n", robot.dof()},     {"base_parameters", bp.rank},
                          {"forms", forms}, {"papers", papers}};
  t.text = fmt::format("Dataflow-graph counts (mul/add; negations not counted) of {} (n = {}, {} base parameters)\n",
                       spec, robot.dof(), bp.rank);
  t.text += fmt::format("{:<12} {:>17} {:>17} {:>11} {:>11}\n", "form", "general untouched", "general passes", "custom",
                        "base");
  for (const auto& r : forms)
    t.text += fmt::format("{:<12} {:>17} {:>17} {:>11} {:>11}\n", r["form"].get<std::string>(),
                          mul_add(r["general_untouched"]), mul_add(r["general"]), mul_add(r["custom"]),
                          mul_add(r["base"]));
  t.text += "Papers:\n";
  for (const auto& p : papers)
    t.text += fmt::format("  {:<58} {:>7} {:>9}\n", p["source"].get<std::string>(), p["column"].get<std::string>(),
                          mul_add(p));
  return t;
}

ref::CountTable function_graph_count_table(const std::string& name, Function f, int nmax) {
  ref::CountTable t;
  const ref::Robot robot = ref::load_robot(name);
  const Form form = Form::ModifiedNE;
  const Graph general = trace_function(robot, f, form, Flavour::General);
  const OpCounts gu = count_ops(general), gp = count_ops(customise(general));
  const OpCounts cu = count_ops(customise(trace_function(robot, f, form, Flavour::Custom)));
  const OpCounts bu = count_ops(customise(trace_function_base(robot, f, Form::KhalilK)));
  nlohmann::json papers = nlohmann::json::array();
  if (const nlohmann::json p = fn_paper_general(f, robot.dof()); !p.is_null()) papers.push_back(p);
  if (f == Function::Fd || f == Function::FdKhalil) {
    if (name == "rx90")
      papers.push_back({{"source", "seed 003 section 9.7, RX-90, base parameters, customised [Khalil 97]"},
                        {"mul", 889}, {"add", 653}});
    if (name == "rx90-simplified")
      papers.push_back({{"source", "seed 003 section 9.7, RX-90, simplified parameters (Table 9.4)"}, {"mul", 637},
                        {"add", 423}});
  }
  nlohmann::json table = nlohmann::json::array();
  for (int n = 1; n <= nmax; ++n) {
    auto arm = [&](ref::DhConvention c) {
      return fn_counts_json(
          count_ops(customise(trace_function(dfg::general_arm(n, c), f, form, dfg::general_arm_params()))));
    };
    table.push_back({{"n", n},
                     {"ours", arm(ref::DhConvention::Standard)},
                     {"ours_modified_dh", arm(ref::DhConvention::Modified)},
                     {"paper", fn_paper_general(f, n)}});
  }
  t.json = nlohmann::json{{"robot", name},
                          {"n", robot.dof()},
                          {"function", function_name(f)},
                          {"general_untouched", fn_counts_json(gu)},
                          {"general", fn_counts_json(gp)},
                          {"custom", fn_counts_json(cu)},
                          {"base", fn_counts_json(bu)},
                          {"papers", papers},
                          {"general_arm", table}};
  t.text = fmt::format("Dataflow-graph counts (mul/add[/div]; negations not counted) of {} {} (n = {})\n", name,
                       function_name(f), robot.dof());
  t.text += fmt::format("{:<10} {:>17} {:>17} {:>15} {:>15}\n", "function", "general untouched", "general passes",
                        "custom", "base");
  t.text += fmt::format("{:<10} {:>17} {:>17} {:>15} {:>15}\n", function_name(f), mad(gu), mad(gp), mad(cu), mad(bu));
  t.text += "Papers:\n";
  for (const auto& p : papers)
    t.text += fmt::format("  {:<72} {}/{}\n", p["source"].get<std::string>(), p["mul"].get<long>(),
                          p["add"].get<long>());
  t.text += "General n-link arm (every parameter an input; after the passes), mul/add/div, standard and modified DH, "
            "beside the paper\n(percent: modified DH, mul + div against the paper's mul):\n";
  t.text += fmt::format("{:>3} {:>17} {:>17} {:>11}\n", "n", "standard DH", "modified DH", "paper");
  auto text = [](const nlohmann::json& k) {
    return fmt::format("{}/{}/{}", k["mul"].get<long>(), k["add"].get<long>(), k["div"].get<long>());
  };
  for (const auto& r : table) {
    const auto& k = r["ours_modified_dh"];
    std::string paper = "-";
    if (!r["paper"].is_null()) {
      const long pm = r["paper"]["mul"].get<long>(), pa = r["paper"]["add"].get<long>();
      const long om = k["mul"].get<long>() + k["div"].get<long>(), oa = k["add"].get<long>();
      paper = fmt::format("{:>11}  ({:+.1f} % / {:+.1f} %)", fmt::format("{}/{}", pm, pa), 100.0 * (om - pm) / pm,
                          100.0 * (oa - pa) / pa);
    }
    t.text += fmt::format("{:>3} {:>17} {:>17} {}\n", r["n"].get<int>(), text(r["ours"]), text(k), paper);
  }
  return t;
}

}  // namespace neaccel::dfg
