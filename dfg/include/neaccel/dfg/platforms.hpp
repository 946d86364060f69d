// The same graph on other platforms than the accelerator, measured on this machine (`neaccel platforms`,
// docs/platforms.md): the generated kernels (kernels.hpp) of a robot's customised graph built with the system
// compiler and timed on one core for one state, batched on one core and on all cores over batch sizes; the CUDA
// source written beside them and measured only where a GPU is present; Pinocchio's RNEA / ABA on one core where the
// project's virtual environment holds the `pin` package.
#pragma once

#include "neaccel/ref/error.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::dfg {

struct PlatformOptions {
  std::string robot = "puma560";                     // anything ref::load_robot accepts
  std::string function = "id";                       // dfg/functions.hpp
  std::vector<long> batches = {1, 10, 100, 1000, 10000, 100000, 1000000};
  std::vector<std::string> scalars = {"double", "float"};
  std::filesystem::path out = "out/platforms";      // kernels, logs, platforms.json
  int repeats = 5;                                   // timed runs per point (the fastest is kept)
  double target_ms = 10;                             // each timed run repeats the call for at least this long
  bool pinocchio = true;                             // the Pinocchio row when the `pin` package is there
  std::function<void(const std::string&)> progress;  // one line per step (may be empty)
};

// Checks the options before anything is built: throws neaccel::Error with one line for a batch size < 1, a batch
// whose arrays do not fit in half the memory available now, an unknown function or scalar.
void check_platform_options(const PlatformOptions& opt);

// Measures everything and writes OUT/platforms.json (the returned object), OUT/platforms.svg (states/s against batch
// size, one line per platform) and the kernels under OUT/kernels.
// A platform that cannot run here (no GPU, no Pinocchio, a function Pinocchio has no counterpart of) gets a row
// with "measured": false and the reason; the rest is still measured. Throws neaccel::Error when the generated
// kernel cannot be built (no compiler) or disagrees with the graph's evaluation, and (after writing platforms.json
// with the row marked "refused", without a time or ratio) when Pinocchio's results differ from ref's by more than
// kPinocchioTolerance.
nlohmann::json measure_platforms(const PlatformOptions& opt);

// What measure_platforms throws when a platform computed something else than the graph (a generated kernel that
// disagrees with the graph's evaluation, a Pinocchio model whose results differ from ref's): a measurement of another
// computation, which a caller must not pass off as "not measured" (the study fails on it; other errors, such as no
// compiler, leave the platforms unmeasured with the reason).
struct WrongResult : Error {
  using Error::Error;
};

// GPU measurements made elsewhere and kept as data (data/platforms/gpu/*.json, bench/gpu/measure.sh, embedded at
// build time) of the kernels whose sources measure_platforms generated now: for each scalar of `scalars` (its
// result's "scalars" object, which holds each kernel's "cuda_source_key") the kept entry whose kernel source is
// the same (device, driver, date, command, data file, rows, latencies, board power). When files are kept but none
// is of these kernels: {"note": why}. measure_platforms puts it under "gpu"/"elsewhere" where no GPU is present:
// shown as such, never mixed with this machine's figures.
nlohmann::json kept_gpu_measurements(const nlohmann::json& scalars);

// What identifies a CUDA kernel's source for a measurement kept as data: FNV-1a 64 (16 hex digits) of the text after
// its first line (a comment naming how the robot was given, a path or a name, which does not change the kernel).
// bench/gpu/collect.py computes the same key when it writes a measurement; a test checks that the two agree.
std::string cuda_source_key(const std::string& cuda);

// The CUDA source measure_platforms writes for `robot_spec`'s `function` in `scalar` ("double" or "float"): what a
// test regenerates to check that the kept GPU measurements still measured today's kernels.
std::string platform_cuda_source(const std::string& robot_spec, const std::string& function, const std::string& scalar);

// The largest relative difference (to the largest output, at least 1) between Pinocchio's results and ref's that
// the Pinocchio row accepts: both are binary64 implementations of the same recursions on the same model, so a
// larger difference means the model generated for Pinocchio is wrong (measured: 3.5e-14 or better, docs/platforms.md).
// A row over it is refused: measure_platforms writes platforms.json with the row marked and no ratio, then throws.
constexpr double kPinocchioTolerance = 1e-12;

// A GPU measurement's best rate (states/s) and the batch it was reached at, from its "rows" (batch,
// states_per_s), as the CUDA benchmark driver prints them; {0, 0} when there are none.
std::pair<double, long> best_gpu_rate(const nlohmann::json& measurement);

// The comparison as a text table (platform rows, then states/s by batch size), from measure_platforms' result.
std::string platforms_table(const nlohmann::json& result);

// The CPU as /proc/cpuinfo names it ("model name"), or "unknown": the machine a timing was taken on.
std::string cpu_model();

}  // namespace neaccel::dfg
