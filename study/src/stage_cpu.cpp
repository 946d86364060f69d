// This machine's CPU on the same computation, for the summary beside the accelerator: nanoseconds per
// inverse-dynamics evaluation including the joint sines and cosines, for
//   reference:     the templated modified Newton-Euler in double (ref::joint_inputs + ref::modified_ne, work space
//                  allocated once), as bench/dfg's BM_Reference/.../with_sincos;
//   generated C++: the customised graph written as a plain C++ function (dfg::to_cpp, as `neaccel dfg --emit cpp`),
//                  compiled now with the system C++ compiler (-O3 -ffp-contract=off) and loaded, fed by the same
//                  joint_inputs, as BM_GeneratedCpp/.../with_sincos.
// Timing: each subject runs in batches of calls sized to about 2 ms, 21 batches (quick: 11). The machine is shared
// (other processes preempt a batch now and then, which shows as batches several times slower), so the figure quoted
// is the fastest batch, the machine's speed when it is not interrupted (as Python's timeit does); the median is kept
// beside it. Each call takes a different state (q moves by 1e-7 rad per call) so nothing is hoisted out of the loop.
// The figures are measured, so they differ between runs: they go to DIR/timings.json (every other file of a
// study is the same bytes for the same inputs), and into data/cpu.json and the report only with --report-timings.
// data/cpu.json keeps what does not vary: the CPU, the method, the compile command, the generated code's agreement.
#include "context.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/platforms.hpp"
#include "neaccel/dfg/io.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace neaccel::study {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

struct Timing {
  double best_ns = 0, median_ns = 0;
};

// Fastest and median over `batches` of the ns per call of f(k), batches sized to about `target_ms` each.
template <class F>
Timing time_ns(F&& f, int batches, double target_ms) {
  long calls = 1;
  for (;;) {  // calibrate: double the batch until it takes target_ms
    const auto t0 = Clock::now();
    for (long k = 0; k < calls; ++k) f(k);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (ms >= target_ms || calls >= (1L << 26)) break;
    calls *= 2;
  }
  std::vector<double> per_call;
  for (int b = 0; b < batches; ++b) {
    const auto t0 = Clock::now();
    for (long k = 0; k < calls; ++k) f(k);
    per_call.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / static_cast<double>(calls));
  }
  std::sort(per_call.begin(), per_call.end());
  return {per_call.front(), per_call[per_call.size() / 2]};
}

using DfgFn = void (*)(const double*, double*);

// Writes and compiles the generated C++ of `g` under dir; returns the loaded function (the library stays loaded for
// the life of the process). Throws neaccel::Error with the compiler's log file on failure.
DfgFn compile_generated(const dfg::Graph& g, const fs::path& dir, const std::string& robot, std::string& command) {
  fs::create_directories(dir);
  dfg::CppOptions opt;
  opt.function = "neaccel_study_dfg";
  opt.comment = "Customised modified Newton-Euler inverse dynamics of " + robot + " (neaccel study, CPU timing)";
  {
    std::ofstream src(dir / "dfg.cpp");
    src << "extern \"C\" void neaccel_study_dfg(const double* in, double* out);\n" << dfg::to_cpp(g, opt);
    if (!src) throw Error("study: cannot write " + (dir / "dfg.cpp").string());
  }
  // $CXX may name a compiler with arguments ("ccache g++"): split at spaces, as the shell did (no quoting).
  const char* cxx = std::getenv("CXX");
  proc::Spawn cc;
  std::istringstream words(cxx && *cxx ? cxx : "c++");
  for (std::string w; words >> w;) cc.argv.push_back(w);
  if (cc.argv.empty()) cc.argv.push_back("c++");
  for (const char* a : {"-O3", "-ffp-contract=off", "-fPIC", "-shared", "-o", "dfg.so", "dfg.cpp"}) cc.argv.push_back(a);
  command = proc::describe(cc.argv);
  cc.cwd = dir;
  cc.stdout_path = cc.stderr_path = dir / "compile.log";
  const proc::Result rc = proc::run(cc);
  if (rc.not_found) throw Error("study: " + proc::missing_tool(cc.argv.front()));
  if (!rc.ok()) throw Error("study: compiling the generated C++ failed (" + (dir / "compile.log").string() + ")");
  void* lib = dlopen(fs::absolute(dir / "dfg.so").c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw Error(std::string("study: cannot load the generated C++: ") + dlerror());
  auto* fn = reinterpret_cast<DfgFn>(dlsym(lib, "neaccel_study_dfg"));
  if (!fn) throw Error("study: the generated C++ defines no neaccel_study_dfg");
  return fn;
}

// Where each graph input comes from in ref::JointInputs: (field, joint).
struct Slot {
  int field = -1;  // 0 s, 1 c, 2 q, 3 qd, 4 qdd, 5 sgn_qd
  std::size_t joint = 0;
};

std::vector<Slot> input_slots(const dfg::Graph& g) {
  // tau<i>: the forward functions' input, carried in the qdd field (dfg::function_inputs: u).
  static const char* const kFields[] = {"sgn_qd", "qdd", "tau", "qd", "s", "c", "q"};  // longest prefixes first
  static const int kIndex[] = {5, 4, 4, 3, 0, 1, 2};
  std::vector<Slot> slots;
  for (const auto& name : g.inputs) {
    Slot s;
    for (std::size_t f = 0; f < 7 && s.field < 0; ++f) {
      const std::string p = kFields[f];
      if (name.rfind(p, 0) == 0 && name.size() > p.size() &&
          name.find_first_not_of("0123456789", p.size()) == std::string::npos) {
        s.field = kIndex[f];
        s.joint = std::stoul(name.substr(p.size())) - 1;
      }
    }
    if (s.field < 0) throw Error("study: CPU timing: graph input '" + name + "' is not a joint input");
    slots.push_back(s);
  }
  return slots;
}

}  // namespace

void stage_cpu(Context& ctx) {
  ctx.progress.detail("CPU timing");
  const ref::Robot& robot = ctx.robot;
  const int n = robot.dof();
  const dfg::Graph& g = ctx.graphs.at("custom");
  const int batches = ctx.opt.quick ? 11 : 21;
  const double target_ms = 2;
  Eigen::VectorXd q0 = Eigen::VectorXd::LinSpaced(n, -1.0, 1.5), q = q0, qd = 0.5 * q0, qdd = -q0;
  volatile double sink = 0;

  const ref::ModelT<double> model = ref::model_of(robot);
  ref::JointInputs<double> in = ref::joint_inputs(robot, q, qd, qdd);
  ref::NeData<double> data;
  data.resize(n);
  const Timing ref_t = time_ns(
      [&](long k) {
        q[0] = q0[0] + 1e-7 * static_cast<double>(k & 1023);
        ref::joint_inputs(robot, q, qd, qdd, in);
        ref::modified_ne(model, in, data);
        sink = sink + data.tau[0];
      },
      batches, target_ms);

  json gen = nullptr, gen_median = nullptr, max_diff = nullptr;
  std::string command, error;
  try {
    const DfgFn fn = compile_generated(g, ctx.dir / "cpu", ctx.opt.robot, command);
    const std::vector<Slot> slots = input_slots(g);
    std::vector<double> x(g.inputs.size()), y(g.outputs.size());
    auto call = [&] {
      ref::joint_inputs(robot, q, qd, qdd, in);
      const std::vector<double>* fields[] = {&in.s, &in.c, &in.q, &in.qd, &in.qdd, &in.sgn_qd};
      for (std::size_t i = 0; i < slots.size(); ++i) x[i] = (*fields[slots[i].field])[slots[i].joint];
      fn(x.data(), y.data());
    };
    // The function timed computes the reference's torques (to rounding: the graph reorders sums).
    q = q0;
    call();
    ref::joint_inputs(robot, q, qd, qdd, in);
    ref::modified_ne(model, in, data);
    double d = 0, scale = 1;
    // Another function: its outputs against ref's own computation (dfg::function_reference).
    const std::vector<double> want =
        ctx.opt.function == "id"
            ? std::vector<double>(data.tau.begin(), data.tau.begin() + n)
            : dfg::function_reference(g, robot, dfg::function_from_name(ctx.opt.function), q, qd, qdd);
    for (std::size_t i = 0; i < want.size() && i < y.size(); ++i) {
      d = std::max(d, std::abs(y[i] - want[i]));
      scale = std::max(scale, std::abs(want[i]));
    }
    max_diff = d / scale;
    // 1e-9 relative: the graph's operation order differs from the reference's (as in stage 1's 1e-10 between
    // forms), with room for the constant folding of the customised graph.
    if (d / scale > 1e-9) ctx.fail(fmt::format("CPU timing: the generated C++ differs from the reference by {:.2e} (relative)", d / scale));
    const Timing gen_t = time_ns(
        [&](long k) {
          q[0] = q0[0] + 1e-7 * static_cast<double>(k & 1023);
          call();
          sink = sink + y[0];
        },
        batches, target_ms);
    gen = gen_t.best_ns;
    gen_median = gen_t.median_ns;
  } catch (const Error& e) {
    error = e.what();  // no compiler: the reference is still timed, the generated C++ is n/a
  }
  const json measured = {{"reference_ns", ref_t.best_ns},
                         {"reference_median_ns", ref_t.median_ns},
                         {"generated_ns", gen},
                         {"generated_median_ns", gen_median}};
  ctx.timings["cpu"] = measured;
  json cpu = {{"measured", ctx.opt.report_timings},
              {"note", ctx.opt.report_timings
                           ? "--report-timings: the measured times are here and in the report, which then vary "
                             "between runs (also in timings.json)"
                           : "the measured times are in timings.json (they vary between runs; the report and its data "
                             "are the same bytes for the same inputs); --report-timings puts them here and in the report"},
              {"cpu", dfg::cpu_model()},
              {"generated_max_rel_diff", max_diff},
              {"generated_compile", command},
              {"generated_error", error},
              {"method", fmt::format("fastest of {} batches of about {} ms (median beside it), one thread, "
                                     "joint sines and cosines included", batches, target_ms)}};
  if (ctx.opt.report_timings) cpu.update(measured);
  ctx.data.put("cpu", cpu);
}

}  // namespace neaccel::study
