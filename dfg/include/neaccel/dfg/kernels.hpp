// Generated kernels of a graph for other platforms than the accelerator: a batched CPU kernel (structure of arrays,
// vectorised across states, split over cores) and a CUDA source (one thread per state). Both carry the graph's
// straight-line body (one statement per operation, as dfg::to_cpp writes it), so they compute, bit for bit, what
// evaluate<T> computes when built with -ffp-contract=off (host) or --fmad=false (nvcc). docs/dfg.md, "Kernels".
#pragma once

#include "neaccel/dfg/graph.hpp"
#include "neaccel/ref/robot.hpp"

#include <string>
#include <vector>

namespace neaccel::dfg {

// One joint as the joint-state entry points see it: the graph's s<j> and c<j> are sin and cos of q_j + theta (the
// full DH angle, as ref::joint_inputs forms them), q<j> is q_j (prismatic), sgn_qd<j> the sign of qd_j.
struct KernelJoint {
  bool revolute = true;
  double theta = 0.0;  // DH angle offset of a revolute joint
};
// The joints of a robot, in order.
std::vector<KernelJoint> kernel_joints(const ref::Robot& robot);

struct KernelOptions {
  std::string function = "neaccel_dfg";  // prefix of every generated symbol
  std::string scalar = "double";         // "double" or "float"
  std::string comment;                   // first comment line (e.g. the robot and function)
  // Empty: only the graph-input entry points. Else also the joint-state entry points, which take q, qd and u
  // (qdd for id and dtau, tau for the forward functions) per joint and compute sin and cos themselves; every graph
  // input must then be a joint input (s, c, q, qd, qdd, tau, sgn_qd followed by a 1-based joint number).
  std::vector<KernelJoint> joints;
  int block = 256;  // CPU: states per block (one block: inputs on the stack, then the vectorised loop)
};

// Batched CPU kernel, a self-contained C++ source. With P = KernelOptions::function and T the scalar:
//   extern "C" void P(const T* in, T* out);             one state, graph inputs (Graph::inputs order) -> outputs
//   extern "C" void P_batch(const T* in, T* out, long n, long ld, int threads);
//       n states in structure-of-arrays layout: input i of state k at in[i * ld + k], output o at out[o * ld + k];
//       `threads` OpenMP threads (0: all), blocks of KernelOptions::block states, each block vectorised across
//       states with `#pragma omp simd`.
// With joints:
//   extern "C" void P_joint(const T* q, const T* qd, const T* u, T* out);   one state, sin and cos by std::sin/cos
//   extern "C" void P_batch_joint(const T* q, const T* qd, const T* u, T* out, long n, long ld, int threads);
//       joint j of state k at q[j * ld + k] (likewise qd, u); sin and cos in vector loops (glibc's libmvec on
//       x86-64 GCC: link -lmvec, or define NEACCEL_NO_LIBMVEC).
//   extern "C" int P_inputs(), P_outputs(), P_joints();
// Build: c++ -O3 -ffp-contract=off -fopenmp -fPIC -shared k.cpp -lmvec (-march=native is fine: vector add and mul
// round as scalar ones). Throws neaccel::Error on a bad scalar or a non-joint input when joints are given.
std::string to_cpp_batch(const Graph& g, const KernelOptions& opt);

// CUDA source. The body as `__host__ __device__` functions P_body(in, out) and (with joints) P_joint_body(q, qd, u,
// out); always (host code, also when compiled as C++ without nvcc: __host__ and __device__ are defined away):
//   extern "C" void P_host(const T* in, T* out);  and with joints  P_host_joint(q, qd, u, out);
// under nvcc: kernels P_kernel(in, out, n) and P_kernel_joint(q, qd, u, out, n), one thread per state,
// structure-of-arrays with ld = n; launchers extern "C" cudaError_t P_launch(...), P_launch_joint(..., stream);
// and with -DNEACCEL_CUDA_BENCH a main() that measures throughput over batch sizes (1 to 8M), the time per launch
// and one state's latency with host transfers, printing one JSON object (needs joints).
std::string to_cuda(const Graph& g, const KernelOptions& opt);

}  // namespace neaccel::dfg
