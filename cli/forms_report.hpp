// Output of the formulation counts (ref/forms/counts.hpp) shared by `neaccel counts` and
// `neaccel formulations counts`: JSON rows, a text table, and a gnuplot SVG of multiplications against n.
#pragma once

#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/counts.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace neaccel::cli {

inline nlohmann::json forms_row_json(const ref::forms::CountRow& r) {
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

// Counts of every formulation for each n in ns (outer index: n).
inline std::vector<std::vector<ref::forms::CountRow>> forms_counts(const std::vector<int>& ns) {
  std::vector<std::vector<ref::forms::CountRow>> by_n;
  for (int n : ns) by_n.push_back(ref::forms::formulation_counts(n));
  return by_n;
}

inline void print_forms_table(const std::vector<std::vector<ref::forms::CountRow>>& by_n) {
  fmt::print("{:<22} {:>3} {:>8} {:>8} {:>4}   {}\n", "formulation", "n", "mul", "add", "div",
             "paper mul/add (source, formula)");
  for (const auto& rows : by_n)
    for (const auto& r : rows) {
      std::string paper;
      for (const auto& p : r.paper)
        paper += fmt::format("{:.0f}/{:.0f} ({}, {})  ", p.mul, p.add, p.source, p.mul_formula);
      fmt::print("{:<22} {:>3} {:>8} {:>8} {:>4}   {}\n", r.formulation, r.n, r.ours.mul, r.ours.add, r.div, paper);
    }
}

inline void write_text_file(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  if (!out || !(out << text) || !out.flush()) throw Error(fmt::format("{}: cannot write file", p.string()));
}

// Writes DIR/formulation-counts.{json,dat,gp} and runs gnuplot for DIR/formulation-counts.svg (multiplications
// against n, log axes; our counts of every formulation and of the Luh-Walker-Paul N-E as the reference line).
inline void write_forms_outputs(const std::filesystem::path& dir,
                                const std::vector<std::vector<ref::forms::CountRow>>& by_n) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  nlohmann::json j = nlohmann::json::array();
  for (const auto& rows : by_n)
    for (const auto& r : rows) j.push_back(forms_row_json(r));
  write_text_file(dir / "formulation-counts.json", j.dump(2) + "\n");
  if (by_n.size() < 2) return;  // a single n is not a curve
  const std::vector<std::string> names = ref::forms::formulation_names();
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
  write_text_file(dir / "formulation-counts.dat", dat);
  write_text_file(dir / "formulation-counts.gp",
                  "set terminal svg size 900,600 font 'sans,11'\n"
                  "set output 'formulation-counts.svg'\n"
                  "set logscale xy\nset xlabel 'n (links)'\nset ylabel 'multiplications'\n"
                  "set key left top\nset grid\n"
                  "set title 'Multiplications per evaluation (general n-link revolute arm, Counted)'\n"
                  "plot " + plot + "\n");
  const std::string cmd = fmt::format("cd '{}' && gnuplot formulation-counts.gp", dir.string());
  if (std::system(cmd.c_str()) != 0)
    throw Error(fmt::format("{}: gnuplot failed (is gnuplot installed?)", (dir / "formulation-counts.gp").string()));
}

}  // namespace neaccel::cli
