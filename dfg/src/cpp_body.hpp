// Internal: the graph's straight-line body as C++ statements, shared by the C++ exports (io_cpp.cpp: one function
// per graph; io_batch.cpp: batched CPU kernel; io_cuda.cpp: CUDA kernel). One statement per operation, node ids as
// variable names, constants as literals that round to the value evaluate<T> uses.
#pragma once

#include "neaccel/dfg/graph.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace neaccel::dfg::detail {

// A constant as a literal of `scalar` ("double" or "float"): shortest round-trip decimal, negative values in
// parentheses, float as static_cast<float>(double literal) (rounded once, as evaluate<float> rounds constants).
// Non-finite values: std::numeric_limits (portable = false) or the <cmath> macros INFINITY / NAN (portable = true,
// valid in CUDA device code too).
std::string cpp_literal(double v, const std::string& scalar, bool portable = false);

// Writes "<indent>const T v<id> = <expr>;" for every operation of g in id order, then
// "<indent><out> = <value>;" for every output, where `in` and `out` are fmt patterns with one {} for the index
// ("in[{}]" for an array, "in{}" for scalar parameters). Math functions are called as std::sqrt and std::fma.
void emit_body(std::ostream& os, const Graph& g, const std::string& scalar, const std::string& indent,
               const std::string& in, const std::string& out, bool portable = false);

}  // namespace neaccel::dfg::detail

namespace neaccel::dfg::detail {

// Where a graph input comes from in the joint-state entry points of the kernels (kernels.hpp).
enum class JointField { S, C, Q, Qd, U, Sgn };
struct JointInputRef {
  JointField field = JointField::Q;
  int joint = 0;  // 0-based
};
// One per graph input; throws neaccel::Error("<what>: graph input 'X' is not a joint input ...") when an input is
// not one of s, c, q, qd, qdd, tau, sgn_qd with a joint number in 1..n_joints, or s/c of a prismatic joint.
std::vector<JointInputRef> joint_input_refs(const Graph& g, const std::vector<bool>& revolute, const std::string& what);

}  // namespace neaccel::dfg::detail
