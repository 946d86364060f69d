// A small templated recursion in the style of the ref algorithms (contract 2: only +, -, *, unary -, S(double),
// Eigen 3-vectors, ProvenanceScope), used to test tracing independently of the ref area's dynamics.
#pragma once

#include "neaccel/ref/model.hpp"
#include "neaccel/ref/provenance.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <vector>

namespace neaccel::dfg::test {

// Per joint: a rotation about z by (s, c), an angular velocity accumulated along the chain, a "torque" mixing
// it with parameters. Not physics: only exercises vectors, cross products, 3x3 products and literals.
template <class S>
std::vector<S> toy_torques(const ref::ModelT<S>& m, const ref::JointInputs<S>& in) {
  using V3 = Eigen::Matrix<S, 3, 1>;
  using M3 = Eigen::Matrix<S, 3, 3>;
  V3 w = V3::Zero();
  std::vector<S> tau;
  for (std::size_t i = 0; i < m.links.size(); ++i) {
    const auto& L = m.links[i];
    const int link = static_cast<int>(i) + 1;
    M3 R;
    {
      ref::ProvenanceScope<S> scope(link, "rotation", "toy eq 1");
      R << in.c[i], -in.s[i] * L.calpha, in.s[i] * L.salpha, in.s[i], in.c[i] * L.calpha, -in.c[i] * L.salpha,
          S(0.0), L.salpha, L.calpha;
    }
    {
      ref::ProvenanceScope<S> scope(link, "omega", "toy eq 2");
      w = R.transpose() * (w + V3(S(0.0), S(0.0), in.qd[i]));
    }
    ref::ProvenanceScope<S> scope(link, "tau", "toy eq 3");
    const V3 ms(L.MX, L.MY, L.MZ);
    const V3 g(m.gx, m.gy, m.gz);
    tau.push_back(w.cross(ms).dot(g) + L.ZZ * in.qdd[i] * S(2.0) + L.a * w.z() + L.Fv * in.qd[i]);
  }
  return tau;
}

}  // namespace neaccel::dfg::test
