#include "neaccel/ref/count_tables.hpp"

#include "neaccel/ref/control/counts.hpp"
#include "neaccel/ref/dynamics.hpp"

#include <fmt/format.h>

namespace neaccel::ref {

nlohmann::json op_counts_json(const OpCounts& c) { return {{"mul", c.mul}, {"add", c.add}, {"neg", c.neg}}; }

CountTable control_count_table(int nmax) {
  CountTable t;
  nlohmann::json rows = nlohmann::json::array();
  t.text = "Control computation (seed 004 sec 4), general n-link revolute arm: ours (mul/add) and seed 004's\n";
  for (int n = 1; n <= nmax; ++n) {
    for (const control::ControlCountRow& r : control::control_counts(n)) {
      rows.push_back({{"n", n}, {"what", r.what}, {"method", r.method}, {"ours", op_counts_json(r.ours)},
                      {"paper", r.paper}, {"paper_mul", r.paper_mul}, {"paper_add", r.paper_add}});
      t.text += fmt::format("{:>3} {:<18} {:>13}  {}\n", n, r.what, fmt::format("{}/{}", r.ours.mul, r.ours.add),
                            r.paper.empty() ? r.method : r.paper);
    }
  }
  t.json = nlohmann::json{{"control", rows}};
  return t;
}

CountTable form_count_table(int nmax, const CountOptions& options, const std::string& dh, bool per_quantity) {
  CountTable t;
  t.json = nlohmann::json::array();
  t.text = fmt::format("Operation counts (mul/add), general n-link revolute arm, {} DH{}; paper formulas beside ours.\n",
                       dh, options.friction ? ", friction and rotor inertia" : "");
  t.text += fmt::format("{:>3} | {:>11} {:>11} {:>11} | {:>11} {:>11} | {:>11} {:>11}\n", "n", "ne", "seed000", "Luh80b",
                        "modified-ne", "seed000", "khalil", "Luh-Kl.");
  for (int n = 1; n <= nmax; ++n) {
    nlohmann::json row{{"n", n}};
    std::string line = fmt::format("{:>3} |", n);
    for (Form f : all_forms()) {
      const FormCounts c = count_ops(f, n, options);
      nlohmann::json jf{{"ours", op_counts_json(c.total)}, {"papers", nlohmann::json::array()}};
      if (per_quantity) {
        for (const auto& [q, v] : c.per_quantity) jf["per_quantity"][q] = op_counts_json(v);
      }
      line += fmt::format(" {:>11}", fmt::format("{}/{}", c.total.mul, c.total.add));
      for (const PaperCount& p : paper_counts(f, n)) {
        jf["papers"].push_back({{"source", p.source}, {"mul_formula", p.mul_formula}, {"add_formula", p.add_formula},
                                {"mul", p.mul}, {"add", p.add}});
        line += fmt::format(" {:>11}", fmt::format("{:g}/{:g}", p.mul, p.add));
      }
      line += f == Form::Khalil ? "" : " |";
      row[form_name(f)] = jf;
    }
    t.json.push_back(row);
    t.text += line + "\n";
  }
  return t;
}

namespace forms {

nlohmann::json count_row_json(const CountRow& r) {
  nlohmann::json j = {{"formulation", r.formulation}, {"kind", r.kind},    {"title", r.title},
                      {"n", r.n},                     {"mul", r.ours.mul}, {"add", r.ours.add},
                      {"neg", r.ours.neg},            {"div", r.div},      {"paper", nlohmann::json::array()}};
  for (const auto& p : r.paper)
    j["paper"].push_back({{"source", p.source},
                          {"mul_formula", p.mul_formula},
                          {"add_formula", p.add_formula},
                          {"mul", p.mul},
                          {"add", p.add}});
  return j;
}

std::vector<std::vector<CountRow>> formulation_counts(const std::vector<int>& ns) {
  std::vector<std::vector<CountRow>> by_n;
  for (int n : ns) by_n.push_back(formulation_counts(n));
  return by_n;
}

nlohmann::json count_rows_json(const std::vector<std::vector<CountRow>>& by_n) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& rows : by_n)
    for (const auto& r : rows) j.push_back(count_row_json(r));
  return j;
}

std::string count_rows_text(const std::vector<std::vector<CountRow>>& by_n) {
  std::string out = fmt::format("{:<22} {:>3} {:>8} {:>8} {:>4}   {}\n", "formulation", "n", "mul", "add", "div",
                                "paper mul/add (source, formula)");
  for (const auto& rows : by_n)
    for (const auto& r : rows) {
      std::string paper;
      for (const auto& p : r.paper)
        paper += fmt::format("{:.0f}/{:.0f} ({}, {})  ", p.mul, p.add, p.source, p.mul_formula);
      out += fmt::format("{:<22} {:>3} {:>8} {:>8} {:>4}   {}\n", r.formulation, r.n, r.ours.mul, r.ours.add, r.div,
                         paper);
    }
  return out;
}

std::string count_grid_text(const std::vector<std::vector<CountRow>>& by_n, int nmax) {
  std::string out =
      fmt::format("\nEvery other formulation (ref/forms, docs/formulations.md), mul/add[/div] for n = 1..{}:\n", nmax);
  std::string head = fmt::format("{:<22}", "formulation");
  for (int n = 1; n <= nmax; ++n) head += fmt::format(" {:>13}", fmt::format("n={}", n));
  out += head + "\n";
  for (std::size_t f = 0; f < by_n.front().size(); ++f) {
    std::string line = fmt::format("{:<22}", by_n.front()[f].formulation);
    for (const auto& per_n : by_n) {
      const auto& r = per_n[f];
      line += fmt::format(" {:>13}", r.div ? fmt::format("{}/{}/{}", r.ours.mul, r.ours.add, r.div)
                                           : fmt::format("{}/{}", r.ours.mul, r.ours.add));
    }
    out += line + "\n";
  }
  out += "Negations (sign flips) are counted separately and not included; docs/counts.md explains the differences.\n";
  return out;
}

CountPlot count_plot(const std::vector<std::vector<CountRow>>& by_n) {
  const std::vector<std::string> names = formulation_names();
  std::string dat, plot;
  for (std::size_t f = 0; f <= names.size(); ++f) {
    const std::string name = f < names.size() ? names[f] : "newton-euler (ref)";
    dat += fmt::format("# {}\n", name);
    for (const auto& rows : by_n) {
      const int n = rows.front().n;
      const long mul = f < names.size() ? rows[f].ours.mul : ref::count_ops(ref::Form::NewtonEuler, n).total.mul;
      dat += fmt::format("{} {}\n", n, mul);
    }
    dat += "\n\n";
    plot += fmt::format("{}'formulation-counts.dat' index {} with linespoints title '{}'", f == 0 ? "" : ", \\\n  ",
                        f, name);
  }
  return {dat,
          "set terminal svg size 900,600 font 'sans,11'\n"
          "set output 'formulation-counts.svg'\n"
          "set logscale xy\nset xlabel 'n (links)'\nset ylabel 'multiplications'\n"
          "set key left top\nset grid\n"
          "set title 'Multiplications per evaluation (general n-link revolute arm, Counted)'\n"
          "plot " + plot + "\n"};
}

}  // namespace forms

}  // namespace neaccel::ref
