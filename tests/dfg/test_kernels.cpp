// The generated kernels (dfg/kernels.hpp) compiled now with the system compiler and run on random states:
//   batched CPU kernel, graph inputs: bit for bit evaluate<T> (binary64 and binary32), built with -ffp-contract=off;
//   batched CPU kernel, joint states (sin and cos in the kernel, vectorised by libmvec): within a stated tolerance
//     of evaluate<double> on ref::joint_inputs' sines and cosines;
//   CUDA source compiled as host C++ (__host__/__device__ defined away): bit for bit evaluate<T>;
//   CUDA source compiled by nvcc (-c, no GPU needed) when nvcc is found, else skipped.
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/functions.hpp"
#include "neaccel/dfg/kernels.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/platforms.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/process.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <type_traits>
#include <vector>

namespace neaccel::dfg {
namespace {

namespace fs = std::filesystem;

fs::path out_dir() {
  const fs::path d = fs::path(NEACCEL_TEST_OUT) / "dfg" / "kernels";
  fs::create_directories(d);
  return d;
}

// Writes `source` to DIR/NAME.<ext>, compiles it into DIR/NAME.so and loads it; fails the test on a compiler error.
void* build(const std::string& name, const std::string& source, const std::string& ext,
            const std::vector<std::string>& flags) {
  const fs::path dir = out_dir();
  std::ofstream(dir / (name + ext)) << source;
  const auto cxx = proc::find_program("c++");
  if (!cxx) return nullptr;
  proc::Spawn s;
  s.argv = {cxx->string(), "-O2", "-ffp-contract=off", "-fPIC", "-shared"};
  s.argv.insert(s.argv.end(), flags.begin(), flags.end());
  s.argv.insert(s.argv.end(), {"-o", (dir / (name + ".so")).string(), (dir / (name + ext)).string(), "-lmvec"});
  s.stdout_path = s.stderr_path = dir / (name + ".log");
  s.timeout_s = 600;
  const proc::Result r = proc::run(s);
  EXPECT_TRUE(r.ok()) << proc::describe(s.argv) << " failed, see " << (dir / (name + ".log"));
  if (!r.ok()) return nullptr;
  void* lib = dlopen((dir / (name + ".so")).c_str(), RTLD_NOW | RTLD_LOCAL);
  EXPECT_NE(lib, nullptr) << dlerror();
  return lib;
}

template <class F>
F sym(void* lib, const std::string& name) {
  void* p = dlsym(lib, name.c_str());
  EXPECT_NE(p, nullptr) << name;
  return reinterpret_cast<F>(p);
}

struct Case {
  const char* robot;
  Function fn;
};

Graph custom_graph(const ref::Robot& robot, Function fn) {
  return customise(trace_function(robot, fn, Form::ModifiedNE, Flavour::Custom));
}

// Random joint states of `robot`: q, qd, u per state.
struct States {
  std::vector<Eigen::VectorXd> q, qd, u;
};
States random_states(int n, int count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-2.0, 2.0);
  States s;
  for (int k = 0; k < count; ++k) {
    Eigen::VectorXd q(n), qd(n), u(n);
    for (int i = 0; i < n; ++i) q[i] = d(rng), qd[i] = d(rng), u[i] = d(rng);
    if (k % 7 == 3) qd[k % n] = 0;  // sgn_qd = 0 too
    s.q.push_back(q), s.qd.push_back(qd), s.u.push_back(u);
  }
  return s;
}

template <class T>
void check_batch(const Case& c, const std::string& scalar) {
  const ref::Robot robot = ref::load_robot(c.robot);
  const Graph g = custom_graph(robot, c.fn);
  KernelOptions opt;
  opt.function = "k";
  opt.scalar = scalar;
  opt.joints = kernel_joints(robot);
  const std::string tag = std::string(c.robot) + "_" + function_name(c.fn) + "_" + scalar;
  void* lib = build("batch_" + tag, to_cpp_batch(g, opt), ".cpp", {"-fopenmp"});
  ASSERT_NE(lib, nullptr);
  using Batch = void (*)(const T*, T*, long, long, int);
  using One = void (*)(const T*, T*);
  using BatchJoint = void (*)(const T*, const T*, const T*, T*, long, long, int);
  const auto batch = sym<Batch>(lib, "k_batch");
  const auto one = sym<One>(lib, "k");
  const auto batch_joint = sym<BatchJoint>(lib, "k_batch_joint");
  ASSERT_TRUE(batch && one && batch_joint);
  const int n = robot.dof();
  const long count = 1000, ld = count + 3;  // not a multiple of the block; ld > n
  const States st = random_states(n, static_cast<int>(count), 11);
  const std::size_t ni = g.inputs.size(), no = g.outputs.size();
  std::vector<T> in(ni * ld), out(no * ld, T(-7)), q(n * ld), qd(n * ld), u(n * ld), out_j(no * ld);
  std::vector<std::vector<double>> want(count);
  for (long k = 0; k < count; ++k) {
    const std::vector<double> x = function_input_vector(g, robot, st.q[k], st.qd[k], st.u[k]);
    const std::vector<T> xt = convert_inputs<T>(x);
    for (std::size_t i = 0; i < ni; ++i) in[i * ld + k] = xt[i];
    for (int j = 0; j < n; ++j) q[j * ld + k] = T(st.q[k][j]), qd[j * ld + k] = T(st.qd[k][j]), u[j * ld + k] = T(st.u[k][j]);
    want[k] = evaluate<double>(g, x);
  }
  batch(in.data(), out.data(), count, ld, 2);
  batch_joint(q.data(), qd.data(), u.data(), out_j.data(), count, ld, 0);
  double worst = 0;
  int mismatches = 0;
  for (long k = 0; k < count; ++k) {
    std::vector<T> xt(ni), y(no);
    for (std::size_t i = 0; i < ni; ++i) xt[i] = in[i * ld + k];
    const std::vector<T> graph = evaluate<T>(g, xt);
    one(xt.data(), y.data());
    double scale = 1;
    for (double w : want[k]) scale = std::max(scale, std::abs(w));
    for (std::size_t o = 0; o < no; ++o) {
      mismatches += std::memcmp(&out[o * ld + k], &graph[o], sizeof(T)) != 0;
      mismatches += std::memcmp(&y[o], &graph[o], sizeof(T)) != 0;
      worst = std::max(worst, std::abs(static_cast<double>(out_j[o * ld + k]) - want[k][o]) / scale);
    }
  }
  EXPECT_EQ(mismatches, 0) << tag << ": graph-input entry points differ from evaluate<" << scalar << "> in bits";
  // Joint-state entry: sines and cosines from libmvec (within 4 ulp) or sinf/cosf against ref's double sin/cos and
  // the double graph. binary64: 1e-12 of the largest output (a few ulp through ~1000 operations);
  // binary32: 2e-5 (float rounding of the inputs and ~1000 operations, unit roundoff 6e-8, measured up to ~1e-6).
  const double tol = std::is_same_v<T, double> ? 1e-12 : 2e-5;
  EXPECT_LE(worst, tol) << tag << ": joint-state batch against evaluate<double>";
  ::testing::Test::RecordProperty(tag + "_joint_max_rel", std::to_string(worst));
}

TEST(Kernels, BatchedCpuBinary64IsBitExact) {
  for (const Case& c : {Case{"puma560", Function::Id}, Case{"puma560", Function::Fd}, Case{"stanford", Function::Id}})
    check_batch<double>(c, "double");
}

TEST(Kernels, BatchedCpuBinary32IsBitExact) {
  for (const Case& c : {Case{"puma560", Function::Id}, Case{"puma560", Function::Fd}}) check_batch<float>(c, "float");
}

TEST(Kernels, DeterministicAndChecked) {
  const ref::Robot robot = ref::load_robot("puma560");
  const Graph g = custom_graph(robot, Function::Id);
  KernelOptions opt;
  opt.joints = kernel_joints(robot);
  EXPECT_EQ(to_cpp_batch(g, opt), to_cpp_batch(g, opt));
  EXPECT_EQ(to_cuda(g, opt), to_cuda(g, opt));
  opt.scalar = "half";
  EXPECT_THROW(to_cpp_batch(g, opt), Error);
  opt.scalar = "double";
  opt.function = "1bad";
  EXPECT_THROW(to_cuda(g, opt), Error);
  // The general graph reads robot parameters: no joint-state kernel for it (one line naming the input).
  const Graph general = customise(trace(robot, Form::ModifiedNE, Flavour::General));
  opt.function = "k";
  try {
    (void)to_cpp_batch(general, opt);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a joint input"), std::string::npos) << e.what();
  }
  opt.joints.clear();  // graph-input entry points only: fine
  EXPECT_NE(to_cpp_batch(general, opt).find("k_batch("), std::string::npos);
}

// The CUDA source's body, compiled as host C++: the arithmetic the GPU runs (with --fmad=false), without a GPU.
template <class T>
void check_cuda_host(const std::string& scalar) {
  const ref::Robot robot = ref::load_robot("puma560");
  for (Function fn : {Function::Id, Function::Fd}) {
    const Graph g = custom_graph(robot, fn);
    KernelOptions opt;
    opt.function = "k";
    opt.scalar = scalar;
    opt.joints = kernel_joints(robot);
    const std::string tag = std::string("cuda_host_") + function_name(fn) + "_" + scalar;
    void* lib = build(tag, to_cuda(g, opt), ".cu", {"-x", "c++"});
    ASSERT_NE(lib, nullptr);
    const auto host = sym<void (*)(const T*, T*)>(lib, "k_host");
    const auto host_joint = sym<void (*)(const T*, const T*, const T*, T*)>(lib, "k_host_joint");
    ASSERT_TRUE(host && host_joint);
    const States st = random_states(robot.dof(), 200, 12);
    double worst = 0;
    for (std::size_t k = 0; k < st.q.size(); ++k) {
      const std::vector<double> x = function_input_vector(g, robot, st.q[k], st.qd[k], st.u[k]);
      const std::vector<T> xt = convert_inputs<T>(x);
      std::vector<T> y(g.outputs.size()), yj(g.outputs.size());
      host(xt.data(), y.data());
      const std::vector<T> graph = evaluate<T>(g, xt);
      for (std::size_t o = 0; o < y.size(); ++o)
        EXPECT_EQ(std::memcmp(&y[o], &graph[o], sizeof(T)), 0) << tag << " state " << k << " output " << o;
      std::vector<T> q, qd, u;
      for (int j = 0; j < robot.dof(); ++j) q.push_back(T(st.q[k][j])), qd.push_back(T(st.qd[k][j])), u.push_back(T(st.u[k][j]));
      host_joint(q.data(), qd.data(), u.data(), yj.data());
      const std::vector<double> want = evaluate<double>(g, x);
      double scale = 1;
      for (double w : want) scale = std::max(scale, std::abs(w));
      for (std::size_t o = 0; o < y.size(); ++o) worst = std::max(worst, std::abs(double(yj[o]) - want[o]) / scale);
    }
    EXPECT_LE(worst, (std::is_same_v<T, double> ? 1e-12 : 2e-5)) << tag;  // as the CPU kernel's joint-state entry
  }
}

TEST(Kernels, CudaSourceOnTheHostBinary64) { check_cuda_host<double>("double"); }
TEST(Kernels, CudaSourceOnTheHostBinary32) { check_cuda_host<float>("float"); }

// nvcc -c on the generated source (device code compiled; needs no GPU). Skipped without nvcc.
TEST(Kernels, CudaSourceCompilesWithNvcc) {
  const auto nvcc = proc::find_program("nvcc");
  if (!nvcc) GTEST_SKIP() << proc::missing_tool("nvcc");
  const ref::Robot robot = ref::load_robot("puma560");
  const Graph g = custom_graph(robot, Function::Id);
  KernelOptions opt;
  opt.function = "puma560_id";
  opt.scalar = "float";
  opt.joints = kernel_joints(robot);
  const fs::path dir = out_dir();
  std::ofstream(dir / "nvcc_puma560_id.cu") << to_cuda(g, opt);
  proc::Spawn s;
  s.argv = {nvcc->string(), "-O3", "-DNEACCEL_CUDA_BENCH", "-c", "-o", (dir / "nvcc_puma560_id.o").string(),
            (dir / "nvcc_puma560_id.cu").string()};
  s.stdout_path = s.stderr_path = dir / "nvcc_puma560_id.log";
  s.timeout_s = 900;
  const proc::Result r = proc::run(s);
  EXPECT_TRUE(r.ok()) << proc::describe(s.argv) << " failed, see " << (dir / "nvcc_puma560_id.log");
}

// GPU measurements kept as data (data/platforms/gpu/*.json, embedded at build time) are found by their kernel
// source's key and only by it: a kernel whose source differs gets the note that the kept data measured other
// kernels, never another kernel's figures. Where several files measured the same kernel (another GPU), the first
// file by name is the one shown.
TEST(Kernels, KeptGpuMeasurementsMatchBySourceKey) {
  const fs::path dir = fs::path(NEACCEL_DFG_TEST_DATA) / ".." / ".." / ".." / "data" / "platforms" / "gpu";
  ASSERT_TRUE(fs::exists(dir)) << dir;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::string key, device, kernel;
  for (const auto& f : files) {
    std::ifstream in(f);
    const nlohmann::json d = nlohmann::json::parse(in);
    for (const auto& [name, k] : d["kernels"].items()) {
      // Every kept kernel says which source it measured and what it measured.
      ASSERT_TRUE(k.contains("source_key")) << f << " " << name;
      ASSERT_FALSE(k["rows"].empty()) << name;
      if (f == files.front()) key = k["source_key"], device = d["device"], kernel = name;
    }
  }
  ASSERT_FALSE(key.empty());
  const nlohmann::json found = kept_gpu_measurements({{"float", {{"cuda_source_key", key}}}});
  ASSERT_TRUE(found.contains("float")) << found.dump();
  EXPECT_EQ(found["float"]["kernel"], kernel);
  EXPECT_EQ(found["float"]["device"], device);
  EXPECT_TRUE(found["float"].contains("date_utc"));
  EXPECT_TRUE(found["float"].contains("command"));
  const nlohmann::json none = kept_gpu_measurements({{"float", {{"cuda_source_key", "0000000000000000"}}}});
  EXPECT_FALSE(none.contains("float"));
  EXPECT_NE(none.value("note", std::string()).find("other kernels"), std::string::npos) << none.dump();
}

// Every kernel a kept GPU measurement holds is one today's generator still writes: its name says the robot, the
// function and the scalar ("puma560-id-float"), and the source measure_platforms writes for them now has the kept
// source key. A change to the generator (or to the graph of a robot) that changes these kernels fails here, instead of
// silently turning the table's GPU rows into the note that the kept data measured other kernels: measure the new
// kernels on a GPU (bench/gpu/kernels.sh, measure.sh) and keep that file instead.
TEST(Kernels, KeptGpuMeasurementsAreOfTodaysKernels) {
  const fs::path dir = fs::path(NEACCEL_DFG_TEST_DATA) / ".." / ".." / ".." / "data" / "platforms" / "gpu";
  std::size_t checked = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::ifstream in(e.path());
    const nlohmann::json d = nlohmann::json::parse(in);
    for (const auto& [name, k] : d["kernels"].items()) {
      const std::size_t a = name.find('-'), b = name.rfind('-');
      ASSERT_TRUE(a != std::string::npos && b > a) << e.path() << ": kernel name '" << name << "' is not ROBOT-FUNCTION-SCALAR";
      const std::string robot = name.substr(0, a), function = name.substr(a + 1, b - a - 1), scalar = name.substr(b + 1);
      EXPECT_EQ(k.value("scalar", std::string()), scalar) << name;
      const std::string key = cuda_source_key(platform_cuda_source(robot, function, scalar));
      EXPECT_EQ(k.value("source_key", std::string()), key)
          << e.path().filename() << ": kernel " << name << " was measured on another source than today's generator writes";
      const nlohmann::json found = kept_gpu_measurements({{scalar, {{"cuda_source_key", key}}}});
      EXPECT_TRUE(found.contains(scalar)) << name << ": " << found.dump();
      ++checked;
    }
  }
  EXPECT_GE(checked, 16u) << "the H100 and H200 files: puma560 and iiwa, id and fd, double and float";
}

// The key is FNV-1a 64 of the text after the first line (bench/gpu/collect.py's source_key computes the same; the
// test dfg.platforms.kept_gpu_* runs it on the written files): the first line does not count, every later byte does.
TEST(Kernels, CudaSourceKeyIsFnv1aAfterTheFirstLine) {
  EXPECT_EQ(cuda_source_key("// any comment\n"), "cbf29ce484222325");  // FNV-1a 64 of nothing: its offset basis
  EXPECT_EQ(cuda_source_key("// one\na"), cuda_source_key("// another\na"));
  EXPECT_EQ(cuda_source_key("// x\na"), "af63dc4c8601ec8c");  // FNV-1a 64 of "a" (the published test vector)
  EXPECT_NE(cuda_source_key("// x\na"), cuda_source_key("// x\nb"));
}

}  // namespace
}  // namespace neaccel::dfg
