// Subcommand registry of the `neaccel` CLI. Each cmd_*.cpp in cli/ registers its subcommand with
// NEACCEL_COMMAND; main.cpp builds the CLI11 app from the registry, so areas add commands without editing it.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace neaccel::cli {

// Adds one subcommand (with its options and callback) to the top-level app.
using Setup = std::function<void(CLI::App& app)>;

struct Entry {
  std::string name;
  int order;  // position in --help (smaller first)
  Setup setup;
};

std::vector<Entry>& registry();

struct Registrar {
  Registrar(std::string name, int order, Setup setup) { registry().push_back({std::move(name), order, std::move(setup)}); }
};

// Thrown by a command callback to end the program with a given exit code after printing nothing more.
struct ExitCode {
  int code;
};

}  // namespace neaccel::cli

#define NEACCEL_COMMAND(ident, order, fn) \
  static const ::neaccel::cli::Registrar neaccel_registrar_##ident{#ident, order, fn};
