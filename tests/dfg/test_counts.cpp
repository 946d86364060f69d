// Operation counts of the traced graphs beside the papers (seed 000 Table 8.5, seed 003 Table 9.6).
#include "neaccel/dfg/base_params.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

namespace neaccel::dfg {
namespace {

// The papers' general arm: n revolute joints, every DH and inertial parameter a run-time input, gravity along
// the base z axis (gx = gy = 0 literal), no wrench, no friction or rotor inertia (literal zeros).
ref::Robot papers_arm(int n, ref::DhConvention conv) {
  std::mt19937 rng(777);
  std::uniform_real_distribution<double> u(0.2, 0.9);
  ref::Robot r;
  r.convention = conv;
  for (int i = 0; i < n; ++i) {
    ref::Link L;
    L.parent = i - 1;
    L.a = u(rng), L.alpha = u(rng), L.d = u(rng), L.theta = u(rng), L.mass = 1 + u(rng);
    L.com = Eigen::Vector3d(u(rng), u(rng), u(rng));
    L.inertia << 1, 0.01, 0.02, 0.01, 1.1, 0.03, 0.02, 0.03, 1.2;
    r.links.push_back(L);
  }
  return r;
}

Graph papers_graph(const ref::Robot& robot, Form form) {
  const ParamFn params = [](int, const std::string& name, double v) -> Value {
    Recorder& r = Recorder::current();
    const std::string base = name.substr(0, name.find_first_of("0123456789"));
    for (const char* lit : {"sgamma", "b", "cgamma", "gx", "gy", "fex", "fey", "fez", "nex", "ney", "nez", "Ia", "Fv", "Fc"})
      if (base == lit) return r.literal(v);
    return r.input(name);
  };
  auto algo = [form](const auto& m, const auto& in) {
    return form == Form::ModifiedNE ? ref::modified_ne(m, in)
                                    : form == Form::NE ? ref::newton_euler(m, in) : ref::khalil_ne(m, in);
  };
  return trace_algorithm(robot, params, TraceOptions{}, algo);
}

ref::Form ref_form(Form f) {
  return f == Form::ModifiedNE ? ref::Form::ModifiedNE : f == Form::NE ? ref::Form::NewtonEuler : ref::Form::Khalil;
}

// The untouched general graph has ref::count_ops's counts (an independent count: Counted on ref's own arm), and
// the table printed here is the one in docs/dfg.md beside seed 000 Table 8.5 (90n - 27 / 88n - 24).
TEST(Counts, UntouchedGeneralGraphEqualsRefCounts) {
  for (Form form : {Form::ModifiedNE, Form::NE, Form::Khalil}) {
    for (int n = 1; n <= 7; ++n) {
      const OpCounts k = count_ops(papers_graph(papers_arm(n, ref::DhConvention::Standard), form));
      const ref::FormCounts c = ref::count_ops(ref_form(form), n);
      EXPECT_EQ(k.mul(), c.total.mul) << form_name(form) << " n=" << n;
      EXPECT_EQ(k.add(), c.total.add) << form_name(form) << " n=" << n;
      const OpCounts d = count_ops(customise(papers_graph(papers_arm(n, ref::DhConvention::Standard), form)));
      if (n == 6 && form == Form::ModifiedNE)
        for (const auto& [q, kq] : count_by_quantity(papers_graph(papers_arm(n, ref::DhConvention::Standard), form)))
          std::printf("  %-18s %4d %4d\n", q.c_str(), kq.mul(), kq.add());
      std::printf("%s n=%d untouched %d/%d  after fold,cse,dce %d/%d\n", form_name(form), n, k.mul(), k.add(),
                  d.mul(), d.add());
    }
  }
}

// Seed 003 Table 9.6, RX-90 in standard parameters, customised: <= 294/283 (general inertia), <= 202/153
// (simplified). Our best form for each is recorded in docs/dfg.md; the test guards the general-inertia add
// count and the simplified mul count we reach.
TEST(Counts, Rx90CustomisedStandardParameters) {
  for (const char* spec : {"rx90", "rx90-simplified"}) {
    const ref::Robot robot = ref::load_robot(spec);
    for (Form form : {Form::ModifiedNE, Form::NE, Form::Khalil}) {
      const OpCounts k = count_ops(customise(trace(robot, form, Flavour::Custom)));
      std::printf("%s %s custom %d/%d (neg %d)\n", spec, form_name(form), k.mul(), k.add(), k.neg());
    }
  }
  const OpCounts g = count_ops(customise(trace(ref::load_robot("rx90"), Form::Khalil, Flavour::Custom)));
  EXPECT_LE(g.add(), 288);
  const OpCounts s = count_ops(customise(trace(ref::load_robot("rx90-simplified"), Form::ModifiedNE, Flavour::Custom)));
  EXPECT_LE(s.mul(), 205);
}

}  // namespace
}  // namespace neaccel::dfg
