// `neaccel robot show ROBOT [--json]`, `neaccel robot export ROBOT --out FILE`, `neaccel robot list [--json]`.
// ROBOT is anything load_robot() accepts (built-in name, random:N:SEED, randomtree:N:SEED, .yaml/.yml, .urdf).
#include "command.hpp"

#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace {

using neaccel::ref::DhConvention;
using neaccel::ref::JointType;
using neaccel::ref::Link;
using neaccel::ref::Robot;

nlohmann::json vec_json(const Eigen::Vector3d& v) { return {v[0], v[1], v[2]}; }

// [xx, yy, zz, xy, xz, yz], the file order (docs/robot-format.md).
nlohmann::json inertia_json(const Eigen::Matrix3d& I) {
  return {I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)};
}

nlohmann::json robot_json(const Robot& r) {
  nlohmann::json j;
  j["name"] = r.name;
  j["source"] = r.source;
  j["dh"] = r.convention == DhConvention::Modified ? "modified" : "standard";
  j["gravity"] = vec_json(r.gravity);
  j["links"] = nlohmann::json::array();
  for (const Link& L : r.links) {
    j["links"].push_back({{"name", L.name},
                          {"joint", L.joint == JointType::Prismatic ? "P" : "R"},
                          {"parent", L.parent},
                          {"a", L.a},
                          {"alpha", L.alpha},
                          {"d", L.d},
                          {"theta", L.theta},
                          {"gamma", L.gamma},
                          {"b", L.b},
                          {"mass", L.mass},
                          {"com", vec_json(L.com)},
                          {"inertia", inertia_json(L.inertia)},
                          {"Ia", L.Ia},
                          {"Fv", L.Fv},
                          {"Fc", L.Fc},
                          {"triangle_inequality", L.triangle_inequality}});
    if (L.mimic) {  // robot.hpp Mimic: q = multiplier q_link + offset, 0-based link index as `parent`
      j["links"].back()["mimic"] = {
          {"link", L.mimic->link}, {"multiplier", L.mimic->multiplier}, {"offset", L.mimic->offset}};
    }
    if (L.placement) {  // robot.hpp Placement: rotation row by row, translation, in the parent's frame
      const Eigen::Matrix3d& R = L.placement->R;
      j["links"].back()["origin"] = {
          {"xyz", vec_json(L.placement->p)},
          {"rotation", {R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)}}};
    }
  }
  if (r.payload) {
    j["payload"] = {{"link", r.payload->link},
                    {"mass", r.payload->mass},
                    {"com", vec_json(r.payload->com)},
                    {"inertia", inertia_json(r.payload->inertia)}};
  }
  j["external_wrench"] = {{"force", vec_json(r.f_e)}, {"moment", vec_json(r.n_e)}};
  return j;
}

std::string v3(const Eigen::Vector3d& v) { return fmt::format("{:.4g} {:.4g} {:.4g}", v[0], v[1], v[2]); }

void print_table(const Robot& r) {
  const bool mod = r.convention == DhConvention::Modified;
  std::size_t placed = 0;
  for (const Link& L : r.links) placed += L.placement.has_value();
  const char* kind = placed == r.links.size() && placed > 0 ? "placed joints"
                     : placed > 0                           ? "modified DH and placed joints"
                     : mod                                  ? "modified DH"
                                                            : "standard DH";
  const std::string coordinates =
      r.has_mimic() ? fmt::format(" ({} coordinate{}: mimic joints follow others)", r.dof(), r.dof() == 1 ? "" : "s")
                    : std::string();
  fmt::print("robot {} ({}), {}, {} links{}, gravity [{}]\n", r.name, r.source, kind, r.links.size(), coordinates,
             v3(r.gravity));
  fmt::print("{:>3} {:>2} {:>6} {:>9} {:>9} {:>9} {:>9}{} {:>8}  {:<26}  {:<50} {:>8} {:>8} {:>8}\n", "j", "jt",
             "parent", "a", "alpha", "d", "theta", mod ? fmt::format(" {:>9} {:>9}", "gamma", "b") : "", "mass",
             "com", "inertia about com: xx yy zz xy xz yz", "Ia", "Fv", "Fc");
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    const Link& L = r.links[i];
    const Eigen::Matrix3d& I = L.inertia;
    // A placed joint has no DH values: dashes here, its placement in the lines below the table.
    const std::string dh =
        L.placement ? fmt::format("{:>9} {:>9} {:>9} {:>9}{}", "-", "-", "-", "-", mod ? fmt::format(" {:>9} {:>9}", "-", "-") : "")
                    : fmt::format("{:>9.5g} {:>9.5g} {:>9.5g} {:>9.5g}{}", L.a, L.alpha, L.d, L.theta,
                                  mod ? fmt::format(" {:>9.5g} {:>9.5g}", L.gamma, L.b) : "");
    fmt::print("{:>3} {:>2} {:>6} {} {:>8.5g}  {:<26}  {:<50} {:>8.4g} {:>8.4g} {:>8.4g}\n",
               i + 1, L.joint == JointType::Prismatic ? "P" : "R", L.parent < 0 ? std::string("base")
                                                                                 : std::to_string(L.parent + 1),
               dh, L.mass,
               v3(L.com),
               fmt::format("{:.4g} {:.4g} {:.4g} {:.4g} {:.4g} {:.4g}", I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2),
                           I(1, 2)),
               L.Ia, L.Fv, L.Fc);
  }
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    if (!r.links[i].placement) continue;
    const Eigen::Matrix3d& R = r.links[i].placement->R;
    fmt::print("{:>3} placed: xyz [{}], rotation [{:.4g} {:.4g} {:.4g}; {:.4g} {:.4g} {:.4g}; {:.4g} {:.4g} {:.4g}]\n", i + 1,
               v3(r.links[i].placement->p), R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1),
               R(2, 2));
  }
  for (std::size_t i = 0; i < r.links.size(); ++i) {
    if (const auto& m = r.links[i].mimic)
      fmt::print("{:>3} mimic: q{} = {} q{} + {} (follows joint {}, its torque carried there)\n", i + 1, i + 1,
                 m->multiplier, m->link + 1, m->offset, m->link + 1);
  }
  if (r.payload) {
    fmt::print("payload on link {}: mass {:.5g}, com [{}]\n",
               r.payload->link < 0 ? static_cast<int>(r.links.size()) : r.payload->link + 1,
               r.payload->mass, v3(r.payload->com));
  }
  if (!r.f_e.isZero() || !r.n_e.isZero()) {
    fmt::print("external wrench: force [{}], moment [{}]\n", v3(r.f_e), v3(r.n_e));
  }
}

void write_file(const std::string& path, const std::string& text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  const std::filesystem::path p(path);
  std::error_code ec;
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << text) || !out.flush()) throw neaccel::Error(fmt::format("{}: cannot write file", path));
}

struct Options {
  std::string robot;
  std::string out;
  bool json = false;
};

void setup(CLI::App& app) {
  auto* cmd = app.add_subcommand("robot", "show, export or list robot models (docs/robot-format.md)");
  cmd->require_subcommand(1);
  auto opt = std::make_shared<Options>();
  const std::string robot_help = "built-in name, random:N:SEED, randomtree:N:SEED, or a .yaml/.yml/.urdf file";

  auto* show = cmd->add_subcommand("show", "print the links: joint, parent, DH, mass, COM, inertia; gravity");
  show->add_option("robot", opt->robot, robot_help)->required();
  show->add_flag("--json", opt->json, "machine-readable output (full precision)");
  show->callback([opt] {
    const Robot r = neaccel::ref::load_robot(opt->robot);
    if (opt->json) {
      std::cout << robot_json(r).dump(2) << "\n";
    } else {
      print_table(r);
    }
  });

  auto* exp = cmd->add_subcommand("export", "write the robot as a YAML robot file (exact, reloadable)");
  exp->add_option("robot", opt->robot, robot_help)->required();
  exp->add_option("--out", opt->out, "output file ('-' = standard output)")->required();
  exp->add_flag("--json", opt->json, "print what was written as JSON");
  exp->callback([opt] {
    const Robot r = neaccel::ref::load_robot(opt->robot);
    write_file(opt->out, neaccel::ref::to_yaml(r));
    if (opt->out == "-") return;
    if (opt->json) {
      std::cout << nlohmann::json{{"robot", r.name}, {"links", r.links.size()}, {"out", opt->out}}.dump() << "\n";
    } else {
      fmt::print("wrote {} ({} links) to {}\n", r.name, r.links.size(), opt->out);
    }
  });

  auto* list = cmd->add_subcommand("list", "list the built-in robots");
  list->add_flag("--json", opt->json, "machine-readable output");
  list->callback([opt] {
    const auto names = neaccel::ref::builtin_robot_names();
    if (opt->json) {
      std::cout << nlohmann::json(names).dump() << "\n";
    } else {
      for (const auto& n : names) fmt::print("{}\n", n);
    }
  });
}

}  // namespace

NEACCEL_COMMAND(robot, 10, setup)
