// `neaccel platforms`: the generated kernels of one robot's customised graph built now with the system compiler and
// timed on this machine (platforms.hpp, docs/platforms.md).
//
// Timing: a timed run repeats the call until it has taken at least target_ms; the fastest of `repeats` runs is kept
// (the machine is shared: a run that was preempted is slower, never faster), as the study's CPU stage does.
//   one core, one state: the generated code's one-state joint entry (std::sin/std::cos, then the straight-line
//     body), each call on a different state (q moves by 1e-7 rad per call).
//   batched: the joint-state batch entry over B states (structure of arrays, sin and cos vectorised), on one thread
//     and on all hardware threads; states/s = B / time per call.
#include "neaccel/dfg/platforms.hpp"

#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/kernels.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/robot_graph.hpp"
#include "neaccel/ref/dynamics.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/hash.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/process.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace neaccel::dfg {

namespace fs = std::filesystem;
using nlohmann::json;

// data/platforms/gpu/*.json as embedded at build time (dfg/CMakeLists.txt).
extern const char* const kGpuDataJson[];
extern const char* const kGpuDataPath[];
extern const int kGpuDataCount;

namespace {

using Clock = std::chrono::steady_clock;

Graph platform_graph(const std::string& spec, const ref::Robot& robot, Function fn) {
  // As the study's graphs stage: id is dfg::robot_graph's customised modified Newton-Euler graph.
  if (fn == Function::Id) return robot_graph(spec, false);
  return customise(trace_function(robot, fn, Form::ModifiedNE, Flavour::Custom));
}

double mem_available_bytes() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("MemAvailable:", 0) == 0) return 1024.0 * std::strtod(line.c_str() + 13, nullptr);
  return 0;  // unknown
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Fastest seconds per call of f(k) over `repeats` runs of at least target_ms each.
template <class F>
double seconds_per_call(F&& f, int repeats, double target_ms) {
  long calls = 1;
  for (;;) {
    const auto t0 = Clock::now();
    for (long k = 0; k < calls; ++k) f(k);
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (ms >= target_ms || calls >= (1L << 26)) break;
    calls = ms > 0.05 ? std::max(calls * 2, static_cast<long>(static_cast<double>(calls) * target_ms / ms)) : calls * 8;
  }
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = Clock::now();
    for (long k = 0; k < calls; ++k) f(k);
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count() / static_cast<double>(calls));
  }
  return best;
}

// Builds SRC into SO with the system compiler (CXX, else c++), loads it. `command` receives the command line.
void* build_kernel(const fs::path& src, const fs::path& so, std::string& command) {
  const char* env = std::getenv("CXX");
  const std::string cxx_name = env && *env ? env : "c++";
  const auto cxx = proc::find_program(cxx_name);
  if (!cxx) throw Error("platforms: " + proc::missing_tool(cxx_name));
  proc::Spawn s;
  s.argv = {cxx->string(), "-O3", "-march=native", "-ffp-contract=off", "-fopenmp", "-fPIC", "-shared",
            "-o", so.string(), src.string(), "-lmvec"};
  s.stdout_path = s.stderr_path = fs::path(so).replace_extension(".log");
  s.timeout_s = 600;
  command = proc::describe({cxx_name, "-O3", "-march=native", "-ffp-contract=off", "-fopenmp", "-fPIC", "-shared", "-o",
                            so.filename().string(), src.filename().string(), "-lmvec"});
  const proc::Result r = proc::run(s);
  if (!r.ok()) throw Error("platforms: compiling " + src.string() + " failed (" + s.stdout_path.string() + ")");
  void* lib = dlopen(fs::absolute(so).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) throw Error(std::string("platforms: cannot load ") + so.string() + ": " + dlerror());
  return lib;
}

void* symbol(void* lib, const std::string& name) {
  void* p = dlsym(lib, name.c_str());
  if (!p) throw Error("platforms: the generated kernel defines no " + name);
  return p;
}

// The kernels' options: one set for measure_scalar and platform_cuda_source, so that the source the test of the kept
// GPU data regenerates is the one this command writes.
KernelOptions platform_kernel_options(const ref::Robot& robot, const std::string& spec, const std::string& function,
                                      const std::string& scalar) {
  KernelOptions ko;
  ko.function = "k";
  ko.scalar = scalar;
  ko.joints = kernel_joints(robot);
  ko.comment = fmt::format("{} {} (neaccel platforms)", spec, function);
  return ko;
}

struct Context {
  const PlatformOptions& opt;
  const ref::Robot& robot;
  const Graph& g;
  std::string prefix;
  void say(const std::string& s) const {
    if (opt.progress) opt.progress(s);
  }
};

// One scalar: build, check against the graph's evaluation, time.
template <class T>
json measure_scalar(const Context& c, const std::string& scalar) {
  const Graph& g = c.g;
  const int n = c.robot.dof();
  const std::size_t no = g.outputs.size(), ni = g.inputs.size();
  const KernelOptions ko = platform_kernel_options(c.robot, c.opt.robot, c.opt.function, scalar);
  const fs::path dir = c.opt.out / "kernels";
  const fs::path src = dir / (c.prefix + "-" + scalar + ".cpp"), so = dir / (c.prefix + "-" + scalar + ".so");
  std::ofstream(src) << to_cpp_batch(g, ko);
  const std::string cuda = to_cuda(g, ko);
  std::ofstream(dir / (c.prefix + "-" + scalar + ".cu")) << cuda;
  c.say(fmt::format("building the batched kernel ({})", scalar));
  std::string command;
  void* lib = build_kernel(src, so, command);
  using One = void (*)(const T*, T*);
  using Batch = void (*)(const T*, T*, long, long, int);
  using OneJoint = void (*)(const T*, const T*, const T*, T*);
  using BatchJoint = void (*)(const T*, const T*, const T*, T*, long, long, int);
  const auto one = reinterpret_cast<One>(symbol(lib, "k"));
  const auto batch = reinterpret_cast<Batch>(symbol(lib, "k_batch"));
  const auto one_joint = reinterpret_cast<OneJoint>(symbol(lib, "k_joint"));
  const auto batch_joint = reinterpret_cast<BatchJoint>(symbol(lib, "k_batch_joint"));

  // Agreement: the graph-input entry points bit for bit with evaluate<T>; the joint-state batch against the graph
  // evaluated in double (its error against double).
  const long check = 1000;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  std::vector<T> in(ni * check), out(no * check), q(n * check), qd(n * check), u(n * check), y(no * check), yo(no);
  std::vector<std::vector<double>> want(check);
  std::vector<std::vector<T>> want_t(check);
  for (long k = 0; k < check; ++k) {
    Eigen::VectorXd qv(n), qdv(n), uv(n);
    for (int j = 0; j < n; ++j) qv[j] = d(rng), qdv[j] = d(rng), uv[j] = d(rng);
    const std::vector<double> x = function_input_vector(g, c.robot, qv, qdv, uv);
    const std::vector<T> xt = convert_inputs<T>(x);
    for (std::size_t i = 0; i < ni; ++i) in[i * check + k] = xt[i];
    for (int j = 0; j < n; ++j) q[j * check + k] = T(qv[j]), qd[j * check + k] = T(qdv[j]), u[j * check + k] = T(uv[j]);
    want[k] = evaluate<double>(g, x);
    want_t[k] = evaluate<T>(g, xt);
  }
  batch(in.data(), out.data(), check, check, 0);
  batch_joint(q.data(), qd.data(), u.data(), y.data(), check, check, 0);
  long mismatches = 0;
  double max_rel = 0;
  for (long k = 0; k < check; ++k) {
    std::vector<T> xk(ni);
    for (std::size_t i = 0; i < ni; ++i) xk[i] = in[i * check + k];
    one(xk.data(), yo.data());
    double scale = 1;
    for (double w : want[k]) scale = std::max(scale, std::abs(w));
    for (std::size_t o = 0; o < no; ++o) {
      mismatches += out[o * check + k] != want_t[k][o] || yo[o] != want_t[k][o];
      max_rel = std::max(max_rel, std::abs(static_cast<double>(y[o * check + k]) - want[k][o]) / scale);
    }
  }
  if (mismatches)
    throw WrongResult(fmt::format("platforms: the generated {} kernel differs from the graph's evaluation in {} outputs",
                            scalar, mismatches));

  json r = {{"kernel", src.filename().string()}, {"compile", command}, {"max_rel_error_vs_double", max_rel},
            {"bit_exact_vs_evaluate", true}, {"cuda_source_key", cuda_source_key(cuda)}};
  // One core, one state.
  c.say(fmt::format("timing one state on one core ({})", scalar));
  {
    std::vector<T> q1(n), qd1(n), u1(n), y1(no);
    for (int j = 0; j < n; ++j) q1[j] = q[j * check], qd1[j] = qd[j * check], u1[j] = u[j * check];
    const T q0 = q1[0];
    volatile double sink = 0;
    const double s = seconds_per_call(
        [&](long k) {
          q1[0] = q0 + T(1e-7) * static_cast<T>(k & 1023);
          one_joint(q1.data(), qd1.data(), u1.data(), y1.data());
          sink = sink + static_cast<double>(y1[0]);
        },
        c.opt.repeats, c.opt.target_ms);
    r["one_state_ns"] = s * 1e9;
    r["one_state_states_per_s"] = 1.0 / s;
  }
  // Batched, one thread and all threads.
  json rows = json::array();
  double best1 = 0, bestn = 0;
  long at1 = 0, atn = 0;
  for (long B : c.opt.batches) {
    c.say(fmt::format("timing batches of {} ({})", B, scalar));
    std::vector<T> bq(static_cast<std::size_t>(n * B)), bqd(bq.size()), bu(bq.size()), bo(static_cast<std::size_t>(no * B));
    for (std::size_t i = 0; i < bq.size(); ++i) bq[i] = T(d(rng)), bqd[i] = T(d(rng)), bu[i] = T(d(rng));
    json row = {{"batch", B}};
    for (int all = 0; all < 2; ++all) {
      const int threads = all ? 0 : 1;
      const double s = seconds_per_call(
          [&](long) { batch_joint(bq.data(), bqd.data(), bu.data(), bo.data(), B, B, threads); }, c.opt.repeats,
          c.opt.target_ms);
      const double rate = static_cast<double>(B) / s;
      row[all ? "all_cores_states_per_s" : "one_core_states_per_s"] = rate;
      row[all ? "all_cores_us_per_call" : "one_core_us_per_call"] = s * 1e6;
      if (all ? rate > bestn : rate > best1) (all ? bestn : best1) = rate, (all ? atn : at1) = B;
    }
    rows.push_back(row);
  }
  r["batched"] = rows;
  r["best_one_core"] = {{"states_per_s", best1}, {"batch", at1}};
  r["best_all_cores"] = {{"states_per_s", bestn}, {"batch", atn}};
  r["simd_speedup"] = best1 * r["one_state_ns"].get<double>() * 1e-9;
  return r;
}

}  // namespace

std::string cuda_source_key(const std::string& cuda) {
  const std::size_t nl = cuda.find('\n');
  return ref::fnv1a64_hex(nl == std::string::npos ? cuda : cuda.substr(nl + 1));
}

std::string platform_cuda_source(const std::string& robot_spec, const std::string& function, const std::string& scalar) {
  const ref::Robot robot = ref::load_robot(robot_spec);
  const Graph g = platform_graph(robot_spec, robot, function_from_name(function));
  return to_cuda(g, platform_kernel_options(robot, robot_spec, function, scalar));
}

json kept_gpu_measurements(const json& scalars) {
  json found = json::object();
  std::vector<std::string> other;
  for (int f = 0; f < kGpuDataCount; ++f) {
    json d;
    try {
      d = json::parse(kGpuDataJson[f]);
    } catch (const json::exception&) {
      throw Error(std::string("platforms: ") + kGpuDataPath[f] + ": not valid JSON (rebuilt from the source tree)");
    }
    if (!d.contains("kernels") || !d["kernels"].is_object()) continue;
    for (const auto& [scalar, v] : scalars.items()) {
      if (found.contains(scalar) || !v.contains("cuda_source_key")) continue;
      for (const auto& [name, k] : d["kernels"].items())
        if (k.is_object() && k.value("source_key", std::string()) == v["cuda_source_key"].get<std::string>()) {
          json e = k;
          e["kernel"] = name;
          e["data"] = kGpuDataPath[f];
          for (const char* key : {"device", "driver", "date_utc", "command", "build", "nvcc", "idle_board_power_w",
                                  "power_limit"})
            if (d.contains(key)) e[key] = d[key];
          found[scalar] = e;
          break;
        }
    }
    other.push_back(kGpuDataPath[f]);
  }
  if (found.empty() && !other.empty()) {
    std::string files;
    for (const auto& o : other) files += (files.empty() ? "" : ", ") + o;
    return {{"note", "the GPU measurements kept as data (" + files + ") are of other kernels: another robot or "
                     "function, or an earlier version of the generator"}};
  }
  return found;
}

namespace {

json gpu_row(const Context& c) {
  const auto smi = proc::find_program("nvidia-smi");
  if (!smi) return {{"measured", false}, {"reason", "not measured here: no GPU (nvidia-smi not found)"}};
  proc::Spawn s;
  s.argv = {smi->string(), "-L"};
  s.capture_stdout = true;
  s.timeout_s = 30;
  const proc::Result r = proc::run(s);
  if (!r.ok() || r.out.find("GPU") == std::string::npos)
    return {{"measured", false}, {"reason", "not measured here: no GPU (nvidia-smi -L lists none)"}};
  const auto nvcc = proc::find_program("nvcc");
  if (!nvcc) return {{"measured", false}, {"reason", "not measured here: a GPU is present but " + proc::missing_tool("nvcc")}};
  json out = {{"measured", true}, {"device_list", r.out}};
  for (const std::string& scalar : c.opt.scalars) {
    const fs::path dir = c.opt.out / "kernels";
    const fs::path cu = dir / (c.prefix + "-" + scalar + ".cu"), exe = dir / (c.prefix + "-" + scalar + "-gpu-bench");
    c.say(fmt::format("building and running the CUDA benchmark ({})", scalar));
    proc::Spawn b;
    b.argv = {nvcc->string(), "-O3", "-arch=native", "-DNEACCEL_CUDA_BENCH", "-o", exe.string(), cu.string()};
    b.stdout_path = b.stderr_path = fs::path(exe).replace_extension(".log");
    b.timeout_s = 900;
    if (!proc::run(b).ok()) {
      out[scalar] = {{"measured", false}, {"reason", "nvcc failed (" + b.stdout_path.string() + ")"}};
      continue;
    }
    proc::Spawn x;
    x.argv = {exe.string()};
    x.capture_stdout = true;
    x.timeout_s = 600;
    const proc::Result xr = proc::run(x);
    try {
      out[scalar] = xr.ok() ? json::parse(xr.out) : json{{"measured", false}, {"reason", "the CUDA benchmark failed"}};
      out[scalar]["command"] = proc::describe(b.argv);
    } catch (const json::exception&) {
      out[scalar] = {{"measured", false}, {"reason", "the CUDA benchmark printed no JSON"}};
    }
  }
  return out;
}


// ---- Pinocchio: RNEA (id) or ABA (forward dynamics) on one core, the library a user would otherwise call ----

// The `pin` package's prefix (headers and libraries) in the project's virtual environment, or empty.
fs::path pinocchio_prefix() {
  const fs::path venv = proc::venv_dir();
  std::error_code ec;
  if (venv.empty() || !fs::is_directory(venv / "lib", ec)) return {};
  for (const auto& e : fs::directory_iterator(venv / "lib", ec)) {
    const fs::path p = e.path() / "site-packages" / "cmeel.prefix";
    if (fs::exists(p / "include" / "pinocchio" / "algorithm" / "rnea.hpp", ec)) return p;
  }
  return {};
}

std::string num(double v) { return fmt::format("{:.17g}", v); }
std::string vec3(const Eigen::Vector3d& v) {
  return fmt::format("Eigen::Vector3d({}, {}, {})", num(v[0]), num(v[1]), num(v[2]));
}

// A C++ program that builds the robot as a pinocchio::Model (revolute joints about z, placements from the DH
// parameters, inertias about the centres of mass, rotor inertia as armature, payload merged), evaluates RNEA (u as
// the joint accelerations) and ABA (u as the joint torques) at one state, times the one named by its third argument
// and prints both results and the time per call as one JSON object. Arguments: TARGET_MS REPEATS rnea|aba. One
// program serves every function of the robot (its build takes minutes); `build` is the compiler command, written
// into the source so that a change of flags rebuilds it.
std::string pinocchio_program(const ref::Robot& robot, const std::string& build, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& qd, const Eigen::VectorXd& u) {
  // One Pinocchio joint per link, each with its own coordinate: a mimic joint (ref/robot.hpp Mimic) would need
  // Pinocchio's JointModelMimic, whose ABA Pinocchio does not have.
  for (const ref::Link& L : robot.links)
    if (L.mimic)
      throw Error(fmt::format("platforms: robot '{}': the Pinocchio row is not generated for a robot with mimic joints "
                              "(link '{}')", robot.name, L.name));
  std::ostringstream os;
  os << "// Generated by neaccel platforms: " << robot.name << " as a Pinocchio model, RNEA and ABA timed.\n"
     << "// Built with: " << build << "\n"
     << "#include <pinocchio/multibody.hpp>\n#include <pinocchio/algorithm/aba.hpp>\n#include <pinocchio/algorithm/rnea.hpp>\n"
     << "#include <algorithm>\n#include <chrono>\n#include <cstdio>\n#include <cstdlib>\n#include <string>\n#include <vector>\n\n"
     << "using namespace pinocchio;\n"
     << "static SE3 rz(double t) { return SE3(Eigen::AngleAxisd(t, Eigen::Vector3d::UnitZ()).toRotationMatrix(), Eigen::Vector3d::Zero()); }\n"
     << "static SE3 rx(double t) { return SE3(Eigen::AngleAxisd(t, Eigen::Vector3d::UnitX()).toRotationMatrix(), Eigen::Vector3d::Zero()); }\n"
     << "static SE3 tr(double x, double z) { return SE3(Eigen::Matrix3d::Identity(), Eigen::Vector3d(x, 0, z)); }\n"
     << "static SE3 place(double xx, double xy, double xz, double yx, double yy, double yz, double zx, double zy, double zz,\n"
     << "                 double x, double y, double z) {\n"
     << "  Eigen::Matrix3d R;\n  R << xx, xy, xz, yx, yy, yz, zx, zy, zz;\n  return SE3(R, Eigen::Vector3d(x, y, z));\n}\n\n"
     << "int main(int argc, char** argv) {\n"
     << "  const double target_ms = argc > 1 ? std::atof(argv[1]) : 10;\n  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;\n"
     << "  Model model;\n  model.gravity.linear(" << vec3(robot.gravity) << ");\n"
     << "  std::vector<JointIndex> jid;\n  std::vector<SE3> body;\n";
  const std::vector<ref::Link> links = ref::detail::links_with_payload(robot);
  const bool standard = robot.convention == ref::DhConvention::Standard;
  for (std::size_t i = 0; i < links.size(); ++i) {
    const ref::Link& L = links[i];
    const std::string parent = L.parent < 0 ? "0" : fmt::format("jid[{}]", L.parent);
    // Standard DH: joint i turns about z of the parent's frame; the link frame follows by Tz(d) Tx(a) Rx(alpha).
    // Modified DH: the joint frame is Rz(gamma) Tz(b) Rx(alpha) Tx(a) Tz(d) Rz(theta) from the parent's, and is the
    // link frame.
    const std::string parent_body = L.parent < 0 ? "SE3::Identity()" : fmt::format("body[{}]", L.parent);
    // A placed joint (robot.hpp Placement): its rotation and translation as they are.
    const Eigen::Matrix3d R = L.placement ? L.placement->R : Eigen::Matrix3d(Eigen::Matrix3d::Identity());
    const std::string placement =
        L.placement ? fmt::format("place({}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {})", num(R(0, 0)), num(R(0, 1)),
                                  num(R(0, 2)), num(R(1, 0)), num(R(1, 1)), num(R(1, 2)), num(R(2, 0)), num(R(2, 1)),
                                  num(R(2, 2)), num(L.placement->p.x()), num(L.placement->p.y()), num(L.placement->p.z()))
        : standard ? fmt::format("{} * rz({})", parent_body, num(L.theta))
                 : fmt::format("rz({}) * tr(0, {}) * rx({}) * tr({}, {}) * rz({})", num(L.gamma), num(L.b), num(L.alpha),
                               num(L.a), num(L.d), num(L.theta));
    const std::string own = standard ? fmt::format("tr({}, {}) * rx({})", num(L.a), num(L.d), num(L.alpha))
                                     : std::string("SE3::Identity()");
    os << fmt::format("  jid.push_back(model.addJoint({}, JointModelRZ(), {}, \"j{}\"));\n", parent, placement, i + 1);
    os << fmt::format("  body.push_back({});\n", own);
    Eigen::Matrix3d I = L.inertia;
    os << fmt::format("  {{\n    Eigen::Matrix3d I;\n    I << {}, {}, {}, {}, {}, {}, {}, {}, {};\n", num(I(0, 0)), num(I(0, 1)),
                      num(I(0, 2)), num(I(1, 0)), num(I(1, 1)), num(I(1, 2)), num(I(2, 0)), num(I(2, 1)), num(I(2, 2)));
    os << fmt::format("    model.appendBodyToJoint(jid.back(), Inertia({}, {}, I), body.back());\n  }}\n", num(L.mass), vec3(L.com));
  }
  // Standard DH: the body frame of link i is Tz(d) Tx(a) Rx(alpha) after the joint; Tz(d) Tx(a) = tr(a, d) since
  // both are translations.
  os << "  Eigen::VectorXd armature(model.nv);\n";
  for (std::size_t i = 0; i < links.size(); ++i) os << fmt::format("  armature[{}] = {};\n", i, num(links[i].Ia));
  os << "  model.armature = armature;\n  Data data(model);\n";
  const auto vec = [&](const char* name, const Eigen::VectorXd& v) {
    os << fmt::format("  Eigen::VectorXd {}(model.nv);\n", name);
    for (Eigen::Index i = 0; i < v.size(); ++i) os << fmt::format("  {}[{}] = {};\n", name, i, num(v[i]));
  };
  vec("q", q);
  vec("v", qd);
  vec("u", u);
  os << "  const bool use_aba = argc > 3 && std::string(argv[3]) == \"aba\";\n"
     << "  const Eigen::VectorXd tau = rnea(model, data, q, v, u);\n"
     << "  const Eigen::VectorXd qdd = aba(model, data, q, v, u);\n"
     << "  const double q0 = q[0];\n  volatile double sink = 0;\n"
     << "  auto run = [&](long calls) {\n    const auto t0 = std::chrono::steady_clock::now();\n"
     << "    for (long k = 0; k < calls; ++k) {\n      q[0] = q0 + 1e-7 * static_cast<double>(k & 1023);\n"
     << "      sink = sink + (use_aba ? aba(model, data, q, v, u)[0] : rnea(model, data, q, v, u)[0]);\n    }\n"
     << "    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();\n  };\n"
     << "  long calls = 1;\n  for (double ms = run(calls); ms < target_ms && calls < (1L << 26); ms = run(calls)) calls *= 2;\n"
     << "  std::vector<double> ns;\n  for (int r = 0; r < repeats; ++r) ns.push_back(1e6 * run(calls) / static_cast<double>(calls));\n"
     << "  std::sort(ns.begin(), ns.end());\n"
     << "  std::printf(\"{\\\"ns\\\": %.6g, \\\"ns_median\\\": %.6g, \\\"rnea\\\": [\", ns.front(), ns[ns.size() / 2]);\n"
     << "  for (Eigen::Index i = 0; i < tau.size(); ++i) std::printf(\"%s%.17g\", i ? \", \" : \"\", tau[i]);\n"
     << "  std::printf(\"], \\\"aba\\\": [\");\n"
     << "  for (Eigen::Index i = 0; i < qdd.size(); ++i) std::printf(\"%s%.17g\", i ? \", \" : \"\", qdd[i]);\n"
     << "  std::printf(\"]}\\n\");\n  return 0;\n}\n";
  return os.str();
}

json pinocchio_row(const Context& c, Function fn) {
  const auto no = [](const std::string& why) { return json{{"measured", false}, {"reason", why}}; };
  if (!c.opt.pinocchio) return no("not measured: --no-pinocchio");
  std::string algo;
  if (fn == Function::Id) algo = "rnea";
  else if (fn == Function::Fd || fn == Function::FdKhalil || fn == Function::FdStrobe) algo = "aba";
  else return no(fmt::format("not measured: Pinocchio's row covers id (RNEA) and the forward functions (ABA), not {}",
                             function_name(fn)));
  for (const ref::Link& L : c.robot.links)
    if (L.joint != ref::JointType::Revolute) return no("not measured: the Pinocchio model is built for revolute joints only");
  const fs::path prefix = pinocchio_prefix();
  if (prefix.empty())
    return no("not measured: the `pin` package is not in the project's virtual environment (" + proc::venv_dir().string() + ")");
  const char* env = std::getenv("CXX");
  const std::string cxx_name = env && *env ? env : "c++";
  const auto cxx = proc::find_program(cxx_name);
  if (!cxx) return no("not measured: " + proc::missing_tool(cxx_name));
  // The state: the first of the check states' kind, fixed.
  const int n = c.robot.dof();
  const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(n, -1.0, 1.5), qd = 0.5 * q, u = -q;
  const fs::path dir = c.opt.out / "pinocchio";
  fs::create_directories(dir);
  // One program per robot (it computes RNEA and ABA): every function's run reuses it.
  const std::string robot_prefix = c.prefix.substr(0, c.prefix.size() - c.opt.function.size() - 1);
  const fs::path src = dir / (robot_prefix + ".cpp"), exe = dir / (robot_prefix + "-bench");
  // As the kernels (build_kernel): -O3 -march=native -ffp-contract=off (no contraction of a*b+c into an FMA, which
  // would round differently from ref's build); the Boost limits Pinocchio's headers need.
  const std::vector<std::string> flags = {"-std=c++17", "-O3", "-march=native", "-ffp-contract=off", "-DNDEBUG",
                                          "-DBOOST_MPL_LIMIT_LIST_SIZE=30", "-DBOOST_MPL_LIMIT_VECTOR_SIZE=30",
                                          "-DBOOST_MPL_CFG_NO_PREPROCESSED_HEADERS", "-DBOOST_FUSION_INVOKE_MAX_ARITY=12"};
  std::vector<std::string> shown = {cxx_name};
  shown.insert(shown.end(), flags.begin(), flags.end());
  shown.insert(shown.end(), {"-I$PREFIX/include", "-isystem", "/usr/include/eigen3", "-o", exe.filename().string(),
                             src.filename().string(), "-L$PREFIX/lib", "-lpinocchio_default"});
  std::vector<std::string> argv = {cxx->string()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {"-I" + (prefix / "include").string(), "-isystem", "/usr/include/eigen3", "-o", exe.string(),
                           src.string(), "-L" + (prefix / "lib").string(), "-Wl,-rpath," + (prefix / "lib").string(),
                           "-lpinocchio_default"});
  const std::string program = pinocchio_program(c.robot, proc::describe(shown), q, qd, u);
  std::string old;
  {
    std::ifstream in(src);
    std::stringstream ss;
    ss << in.rdbuf();
    old = ss.str();
  }
  if (old != program || !fs::exists(exe)) {  // the build takes minutes: reuse the program when its source is the same
    std::ofstream(src) << program;
    c.say("building the Pinocchio benchmark (a few minutes)");
    proc::Spawn b;
    b.argv = argv;
    b.stdout_path = b.stderr_path = dir / (robot_prefix + ".log");
    b.timeout_s = 1800;
    if (!proc::run(b).ok()) {
      std::error_code ec;
      fs::remove(exe, ec);
      return no("not measured: building the Pinocchio benchmark failed (" + b.stdout_path.string() + ")");
    }
  }
  c.say("timing Pinocchio " + algo);
  proc::Spawn x;
  x.argv = {exe.string(), fmt::format("{}", c.opt.target_ms), fmt::format("{}", c.opt.repeats), algo};
  x.capture_stdout = true;
  x.timeout_s = 300;
  const proc::Result r = proc::run(x);
  json out;
  try {
    out = json::parse(r.out);
  } catch (const json::exception&) {
    return no("not measured: the Pinocchio benchmark failed");
  }
  if (!out.is_object() || !out.contains("ns") || !out["ns"].is_number() || !(out["ns"].get<double>() > 0))
    return no("not measured: the Pinocchio benchmark printed no time");
  // Its results against ref's (friction and the external wrench off: Pinocchio's RNEA and ABA have neither): RNEA's
  // torques and ABA's accelerations both, whichever is timed, each relative to its largest output (at least 1).
  ref::Robot plain = c.robot;
  for (ref::Link& L : plain.links) L.Fv = L.Fc = 0;
  plain.f_e.setZero();
  plain.n_e.setZero();
  const auto diff = [&](const json& got, const Eigen::VectorXd& want) {
    if (!got.is_array() || got.size() != static_cast<std::size_t>(want.size())) return 1e300;  // no result: wrong
    double d = 0, scale = 1;
    for (Eigen::Index i = 0; i < want.size(); ++i) {
      const json& v = got[static_cast<std::size_t>(i)];
      d = std::max(d, v.is_number() ? std::abs(v.get<double>() - want[i]) : 1e300);
      if (std::isnan(d)) d = 1e300;
      scale = std::max(scale, std::abs(want[i]));
    }
    return d / scale;
  };
  const double d_rnea = diff(out.value("rnea", json()), ref::inverse_dynamics(plain, q, qd, u));
  const double d_aba = diff(out.value("aba", json()), ref::forward_dynamics(plain, q, qd, u));
  return {{"measured", true},
          {"algorithm", algo == "rnea" ? "RNEA" : "ABA"},
          {"scalar", "double"},
          {"ns", out["ns"]},
          {"ns_median", out["ns_median"]},
          {"max_rel_diff_vs_ref", std::max(d_rnea, d_aba)},
          {"max_rel_diff_vs_ref_by_algorithm", {{"RNEA", d_rnea}, {"ABA", d_aba}}},
          {"tolerance", kPinocchioTolerance},
          {"note", "RNEA's torques and ABA's accelerations compared with ref's at one state; friction and the external "
                   "wrench off in the comparison (Pinocchio's RNEA/ABA model neither); rotor inertia as armature"},
          {"compile", proc::describe(shown)},
          {"source", src.string()},
          {"prefix", prefix.string()}};
}

// states/s against batch size, log-log, one line per platform (batched kernels; one-state code and Pinocchio as
// flat lines: one call per state whatever the batch). A plain SVG, written beside platforms.json.
std::string plot_svg(const json& r) {
  struct Series {
    std::string name, colour;
    bool dashed;
    std::vector<std::pair<double, double>> pts;  // (batch, states/s)
  };
  std::vector<Series> series;
  const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};
  std::size_t ci = 0;
  double bmax = 1;
  for (const auto& [scalar, v] : r["scalars"].items())
    for (const json& row : v["batched"]) bmax = std::max(bmax, row["batch"].get<double>());
  for (const auto& [scalar, v] : r["scalars"].items()) {
    const std::string b = scalar == "double" ? "binary64" : "binary32";
    Series one{"batched, one core, " + b, colours[ci++ % 8], false, {}}, all{"batched, all cores, " + b, colours[ci++ % 8], false, {}};
    for (const json& row : v["batched"]) {
      one.pts.push_back({row["batch"].get<double>(), row["one_core_states_per_s"].get<double>()});
      all.pts.push_back({row["batch"].get<double>(), row["all_cores_states_per_s"].get<double>()});
    }
    const double rate = v["one_state_states_per_s"].get<double>();
    series.push_back(one);
    series.push_back(all);
    series.push_back({"one state per call, one core, " + b, colours[ci++ % 8], true, {{1, rate}, {bmax, rate}}});
  }
  const json& pin = r["pinocchio"];
  if (pin["measured"].get<bool>()) {
    const double rate = 1e9 / pin["ns"].get<double>();
    series.push_back({"Pinocchio " + pin["algorithm"].get<std::string>() + ", one core, binary64", colours[ci++ % 8], true,
                      {{1, rate}, {bmax, rate}}});
  }
  const json& gpu = r["gpu"];
  if (gpu["measured"].get<bool>())
    for (const auto& [scalar, v] : gpu.items()) {
      if (!v.is_object() || !v.contains("rows")) continue;
      Series s{"GPU, " + std::string(scalar == "double" ? "binary64" : "binary32"), colours[ci++ % 8], false, {}};
      for (const json& row : v["rows"]) s.pts.push_back({row["batch"].get<double>(), row["states_per_s"].get<double>()});
      series.push_back(s);
    }
  if (gpu.contains("elsewhere"))
    for (const auto& [scalar, v] : gpu["elsewhere"].items()) {
      Series s{"GPU (" + v.value("device", std::string("?")) + ", kept data), " +
                   std::string(scalar == "double" ? "binary64" : "binary32"),
               colours[ci++ % 8], false, {}};
      for (const json& row : v["rows"]) s.pts.push_back({row["batch"].get<double>(), row["states_per_s"].get<double>()});
      series.push_back(s);
    }
  double ylo = 1e300, yhi = 0;
  for (const Series& s : series)
    for (const auto& [x, y] : s.pts)
      if (y > 0) ylo = std::min(ylo, y), yhi = std::max(yhi, y);
  if (yhi <= 0) ylo = 1, yhi = 10;
  const double y0 = std::floor(std::log10(ylo)), y1 = std::max(y0 + 1, std::ceil(std::log10(yhi)));
  const double x1 = std::max(1.0, std::ceil(std::log10(bmax)));
  const double W = 760, H = 460, L = 80, R = 300, T = 40, B = 60;
  const auto px = [&](double b) { return L + (W - L - R) * std::log10(b) / x1; };
  const auto py = [&](double v) { return H - B - (H - T - B) * (std::log10(std::max(v, ylo)) - y0) / (y1 - y0); };
  std::ostringstream os;
  os << fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
  os << fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", W, H);
  os << fmt::format("<text x=\"{}\" y=\"22\" font-size=\"14\">{} {}: states/s against batch size (this machine, measured {})</text>\n", L,
                    r["robot"].get<std::string>().substr(r["robot"].get<std::string>().find_last_of('/') + 1),
                    r["function"].get<std::string>(), r["measured_at"].get<std::string>());
  for (int e = 0; e <= static_cast<int>(x1); ++e)
    os << fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#ddd\"/><text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">1e{4}</text>\n",
                      px(std::pow(10.0, e)), T, H - B, H - B + 16, e);
  for (int e = static_cast<int>(y0); e <= static_cast<int>(y1); ++e)
    os << fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/><text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">1e{5}</text>\n",
                      L, py(std::pow(10.0, e)), W - R, L - 6, py(std::pow(10.0, e)) + 4, e);
  os << fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">batch size (states per call)</text>\n", (L + W - R) / 2, H - 20);
  os << fmt::format("<text x=\"18\" y=\"{}\" transform=\"rotate(-90 18 {})\" text-anchor=\"middle\">states per second</text>\n",
                    (T + H - B) / 2, (T + H - B) / 2);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const Series& s = series[i];
    std::string pts;
    for (const auto& [x, y] : s.pts) pts += fmt::format("{:.1f},{:.1f} ", px(x), py(y));
    os << fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{} points=\"{}\"/>\n", s.colour,
                      s.dashed ? " stroke-dasharray=\"6 4\"" : "", pts);
    const double ly = T + 10 + 18.0 * static_cast<double>(i);
    os << fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"{}/>", W - R + 12, ly,
                      W - R + 36, ly, s.colour, s.dashed ? " stroke-dasharray=\"6 4\"" : "");
    os << fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text>\n", W - R + 42, ly + 4, s.name);
  }
  if (!gpu["measured"].get<bool>())
    os << fmt::format("<text x=\"{}\" y=\"{:.1f}\" fill=\"#555\">GPU: {}</text>\n", W - R + 12,
                      T + 10 + 18.0 * static_cast<double>(series.size()),
                      gpu.contains("elsewhere") ? "not measured here (kept data shown)" : "not measured here");
  os << "</svg>\n";
  return os.str();
}

}  // namespace

void check_platform_options(const PlatformOptions& opt) {
  (void)function_from_name(opt.function);
  for (const std::string& s : opt.scalars)
    if (s != "double" && s != "float") throw Error("platforms: --scalar: unknown '" + s + "' (double, float)");
  if (opt.batches.empty()) throw Error("platforms: --batch: no batch size");
  if (opt.repeats < 1) throw Error("platforms: repeats must be >= 1");
  const ref::Robot robot = ref::load_robot(opt.robot);
  const Graph g = platform_graph(opt.robot, robot, function_from_name(opt.function));
  const double per_state = 8.0 * static_cast<double>(3 * robot.dof() + static_cast<int>(g.outputs.size()));
  const double avail = mem_available_bytes();
  for (long b : opt.batches) {
    if (b < 1) throw Error(fmt::format("platforms: --batch: {} (a batch holds at least one state)", b));
    const double need = per_state * static_cast<double>(b);
    if (avail > 0 && need > avail / 2)
      throw Error(fmt::format("platforms: --batch: {} states need {:.3g} GiB, more than half the {:.3g} GiB available",
                              b, need / 1073741824.0, avail / 1073741824.0));
  }
}

json measure_platforms(const PlatformOptions& opt) {
  check_platform_options(opt);
  const ref::Robot robot = ref::load_robot(opt.robot);
  const Function fn = function_from_name(opt.function);
  const Graph g = platform_graph(opt.robot, robot, fn);
  fs::create_directories(opt.out / "kernels");
  std::string prefix = robot.name.empty() ? std::string("robot") : robot.name;
  for (char& ch : prefix)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  Context c{opt, robot, g, prefix + "-" + opt.function};
  const OpCounts k = count_ops(g);
  json result = {{"format", "neaccel-platforms"},
                 {"version", 1},
                 {"robot", opt.robot},
                 {"function", opt.function},
                 {"graph",
                  {{"flavour", "custom"}, {"operations", k.operations()}, {"mul", k.mul()}, {"add", k.add()},
                   {"neg", k.neg()}, {"div", k.of(Op::Div)}, {"inputs", g.inputs.size()}, {"outputs", g.outputs.size()}}},
                 {"machine", {{"cpu", cpu_model()}, {"hardware_threads", std::thread::hardware_concurrency()}}},
                 {"measured_at", utc_now()},
                 {"method", fmt::format("fastest of {} runs of at least {} ms each; sin and cos computed in the kernel; "
                                        "batched: structure of arrays, OpenMP threads over blocks, omp simd across states",
                                        opt.repeats, opt.target_ms)}};
  json scalars = json::object();
  for (const std::string& s : opt.scalars)
    scalars[s] = s == "float" ? measure_scalar<float>(c, s) : measure_scalar<double>(c, s);
  result["scalars"] = scalars;
  result["gpu"] = gpu_row(c);
  if (!result["gpu"]["measured"].get<bool>()) {
    const json kept = kept_gpu_measurements(scalars);
    if (kept.contains("note")) result["gpu"]["elsewhere_note"] = kept["note"];
    else if (!kept.empty()) result["gpu"]["elsewhere"] = kept;
  }
  result["pinocchio"] = pinocchio_row(c, fn);
  // A Pinocchio result that differs from ref's by more than the tolerance comes from a wrong model: its time is not
  // of the same computation, so the row gets no time and no ratio, says why, and the command fails (after writing
  // platforms.json, which keeps the difference and the program's source for the one who fixes it).
  std::string refused;
  if (json& pin = result["pinocchio"]; pin["measured"].get<bool>() &&
                                       !(pin["max_rel_diff_vs_ref"].get<double>() <= kPinocchioTolerance)) {
    refused = fmt::format("platforms: Pinocchio's results differ from ref's by {:.3g} relative (RNEA {:.3g}, ABA {:.3g}; "
                          "more than {:.0e}): the model generated in {} is wrong, so no Pinocchio time or ratio is "
                          "given (--no-pinocchio leaves the row out)",
                          pin["max_rel_diff_vs_ref"].get<double>(), pin["max_rel_diff_vs_ref_by_algorithm"]["RNEA"].get<double>(),
                          pin["max_rel_diff_vs_ref_by_algorithm"]["ABA"].get<double>(), kPinocchioTolerance,
                          pin["source"].get<std::string>());
    pin["measured"] = false;
    pin["refused"] = true;
    pin["reason"] = "REFUSED: results differ from ref's by more than the tolerance (wrong model)";
    pin.erase("ns");
    pin.erase("ns_median");
  }
  if (result["pinocchio"]["measured"].get<bool>() && scalars.contains("double"))
    result["pinocchio"]["ratio_generated_over_pinocchio"] =
        scalars["double"]["one_state_ns"].get<double>() / result["pinocchio"]["ns"].get<double>();
  std::ofstream(opt.out / "platforms.json") << result.dump(1) << "\n";
  std::ofstream(opt.out / "platforms.svg") << plot_svg(result);
  if (!refused.empty()) throw WrongResult(refused);
  return result;
}

namespace {

// One GPU cell of the table: the best rate and its batch, one state's latency (launch and synchronise; with host
// copies), the energy per state at the largest batch where board power was sampled.
std::string gpu_cell(const json& g) {
  const auto [best, at] = best_gpu_rate(g);
  std::string cell = fmt::format("{:.3g} states/s at {}", best, at);
  if (g.contains("one_state_launch_sync_us"))
    cell += fmt::format("; 1 state {:.3g} us", g["one_state_launch_sync_us"].get<double>());
  if (g.contains("one_state_with_transfers_us"))
    cell += fmt::format(" ({:.3g} with copies)", g["one_state_with_transfers_us"].get<double>());
  if (g.contains("sustain") && g["sustain"].contains("nj_per_state_board"))
    cell += fmt::format("; {:.3g} nJ", g["sustain"]["nj_per_state_board"].get<double>());
  return cell;
}

}  // namespace

std::pair<double, long> best_gpu_rate(const json& g) {
  double best = 0;
  long at = 0;
  for (const json& row : g.value("rows", json::array()))
    if (row["states_per_s"].get<double>() > best) best = row["states_per_s"].get<double>(), at = row["batch"].get<long>();
  return {best, at};
}

std::string platforms_table(const json& r) {
  std::ostringstream os;
  const json& gr = r["graph"];
  os << fmt::format("{} {}: {} operations ({} mul, {} add/sub, {} neg, {} div), customised graph\n",
                    r["robot"].get<std::string>(), r["function"].get<std::string>(), gr["operations"].get<int>(),
                    gr["mul"].get<int>(), gr["add"].get<int>(), gr["neg"].get<int>(), gr["div"].get<int>());
  os << fmt::format("CPU: {}, {} hardware threads; measured {}\n", r["machine"]["cpu"].get<std::string>(),
                    r["machine"]["hardware_threads"].get<unsigned>(), r["measured_at"].get<std::string>());
  const json& sc = r["scalars"];
  std::vector<std::string> names;
  for (const auto& [name, v] : sc.items()) names.push_back(name);
  std::sort(names.begin(), names.end());  // double before float
  os << fmt::format("{:<36}", "platform");
  for (const auto& s : names) os << fmt::format("{:<32}", s == "double" ? "binary64" : "binary32");
  os << "\n";
  const auto line = [&](const std::string& label, const auto& cell) {
    os << fmt::format("{:<36}", label);
    for (const auto& s : names) os << fmt::format("{:<32}", cell(sc[s]));
    os << "\n";
  };
  line("one core, one state (generated)", [](const json& v) {
    return fmt::format("{:.0f} ns ({:.3g} states/s)", v["one_state_ns"].get<double>(), v["one_state_states_per_s"].get<double>());
  });
  line("batched, one core", [](const json& v) {
    return fmt::format("{:.3g} states/s at {}", v["best_one_core"]["states_per_s"].get<double>(),
                       v["best_one_core"]["batch"].get<long>());
  });
  line(fmt::format("batched, all cores ({} threads)", r["machine"]["hardware_threads"].get<unsigned>()), [](const json& v) {
    return fmt::format("{:.3g} states/s at {}", v["best_all_cores"]["states_per_s"].get<double>(),
                       v["best_all_cores"]["batch"].get<long>());
  });
  line("batched one core / one state", [](const json& v) { return fmt::format("{:.2f}x", v["simd_speedup"].get<double>()); });
  line("error against double (max rel.)", [](const json& v) {
    return fmt::format("{:.2g}", v["max_rel_error_vs_double"].get<double>());
  });
  // The GPU: one line per format (the cells are long), from this machine or from kept data, which says so.
  const json& gpu = r["gpu"];
  const auto gpu_lines = [&](const json& per_scalar, const std::string& label) {
    for (const auto& s : names) {
      const json g = per_scalar.value(s, json::object());
      os << fmt::format("{:<36}{}\n", label + ", " + (s == "double" ? "binary64" : "binary32"),
                        g.contains("rows") ? gpu_cell(g) : g.value("reason", std::string("not measured")));
    }
  };
  if (!gpu["measured"].get<bool>()) {
    os << fmt::format("{:<36}{}\n", "GPU", gpu["reason"].get<std::string>());
    if (gpu.contains("elsewhere_note")) os << fmt::format("{:<36}{}\n", "", gpu["elsewhere_note"].get<std::string>());
    if (gpu.contains("elsewhere")) {
      const json& e = gpu["elsewhere"];
      gpu_lines(e, "GPU, kept data");
      std::set<std::string> said;
      for (const auto& [s, v] : e.items()) {
        const std::string line = fmt::format("kept data: {}, driver {}, measured {} ({}; not this machine)",
                                             v.value("device", std::string("?")), v.value("driver", std::string("?")),
                                             v.value("date_utc", std::string("?")), v.value("data", std::string("?")));
        if (said.insert(line).second) os << fmt::format("{:<36}{}\n", "", line);
      }
    }
  } else {
    gpu_lines(gpu, "GPU (" + gpu.value("device_list", std::string("?")).substr(0, 24) + ")");
  }
  const json& pin = r["pinocchio"];
  if (!pin["measured"].get<bool>()) {
    os << fmt::format("{:<36}{}\n", "Pinocchio, one core", pin["reason"].get<std::string>());
  } else {
    os << fmt::format("{:<36}{:.0f} ns per call (binary64, result within {:.1e} of ref)\n",
                      "Pinocchio " + pin["algorithm"].get<std::string>() + ", one core", pin["ns"].get<double>(),
                      pin["max_rel_diff_vs_ref"].get<double>());
    if (pin.contains("ratio_generated_over_pinocchio"))
      os << fmt::format("{:<36}{:.2f} (generated one state, binary64, / Pinocchio {})\n", "ratio",
                        pin["ratio_generated_over_pinocchio"].get<double>(), pin["algorithm"].get<std::string>());
  }
  os << "\nstates/s by batch size (batched kernel)\n" << fmt::format("{:>10}", "batch");
  for (const auto& s : names) os << fmt::format("{:>16}{:>16}", s + " 1 core", s + " all");
  os << "\n";
  const std::size_t rows = names.empty() ? 0 : sc[names[0]]["batched"].size();
  for (std::size_t i = 0; i < rows; ++i) {
    os << fmt::format("{:>10}", sc[names[0]]["batched"][i]["batch"].get<long>());
    for (const auto& s : names) {
      const json& row = sc[s]["batched"][i];
      os << fmt::format("{:>16.3g}{:>16.3g}", row["one_core_states_per_s"].get<double>(),
                        row["all_cores_states_per_s"].get<double>());
    }
    os << "\n";
  }
  return os.str();
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

}  // namespace neaccel::dfg
