// Tracing the ref algorithms on real robots: the graph evaluated in double equals the double reference for every
// pass pipeline; the untouched general graph has exactly ref::Counted's operation counts.
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/counted.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/khalil_ne.hpp"
#include "neaccel/ref/modified_ne.hpp"
#include "neaccel/ref/newton_euler.hpp"

#include <gtest/gtest.h>

#include <random>

namespace neaccel::dfg {
namespace {

struct State {
  Eigen::VectorXd q, qd, qdd;
};

State random_state(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  State s{Eigen::VectorXd(n), Eigen::VectorXd(n), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    s.q[i] = 3.0 * u(rng);
    s.qd[i] = 2.0 * u(rng);
    s.qdd[i] = 4.0 * u(rng);
  }
  return s;
}

std::vector<std::string> robot_specs() {
  std::vector<std::string> v{"puma560", "stanford", "rx90", "rx90-simplified", "planar2"};
  for (int k = 1; k <= 20; ++k) v.push_back("random:" + std::to_string(2 + k % 6) + ":" + std::to_string(k));
  return v;
}

// |x - ref|_inf <= tol |ref|_inf. The traced graph performs the reference's operations; the passes only drop exact
// identities (x*1, x+0, ...), share equal subexpressions and pre-compute products of constants once in double, so
// results differ from the reference by a few ulps of the intermediate magnitudes: 1e-12 relative is ample.
void expect_close(const std::vector<double>& x, const std::vector<double>& ref, double tol, const std::string& what) {
  ASSERT_EQ(x.size(), ref.size()) << what;
  double scale = 0, err = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    scale = std::max(scale, std::abs(ref[i]));
    err = std::max(err, std::abs(x[i] - ref[i]));
  }
  EXPECT_LE(err, tol * std::max(scale, 1e-300)) << what << ": error " << err << " scale " << scale;
}

// The double reference of each form.
std::vector<double> reference(Form form, const ref::Robot& robot, const State& st) {
  const ref::ModelT<double> m = ref::model_of(robot);
  const ref::JointInputs<double> in = ref::joint_inputs(robot, st.q, st.qd, st.qdd);
  switch (form) {
    case Form::ModifiedNE: return ref::modified_ne(m, in);
    case Form::NE: return ref::newton_euler(m, in);
    case Form::Khalil:
    case Form::KhalilK:
    case Form::KhalilMix: return ref::khalil_ne(m, in);  // khalil-k and khalil-mix compute the same torques
  }
  return {};
}

TEST(RobotTrace, GraphEqualsReferenceForEveryFormAndPipeline) {
  const char* pipelines[] = {"", "fold", "cse", "dce", "fold,cse,dce", "cse,fold,dce-inputs"};
  for (const std::string& spec : robot_specs()) {
    const ref::Robot robot = ref::load_robot(spec);
    const State st = random_state(robot.dof(), 99);
    for (Form form : {Form::ModifiedNE, Form::NE, Form::Khalil, Form::KhalilK, Form::KhalilMix})
    for (Flavour fl : {Flavour::General, Flavour::Custom}) {
      const std::vector<double> ref_tau = reference(form, robot, st);
      const Graph g = trace(robot, form, fl);
      for (const char* p : pipelines) {
        const Graph h = run_pipeline(g, parse_pipeline(p));
        ASSERT_NO_THROW(validate(h));
        const std::vector<double> tau = evaluate<double>(h, robot_input_vector(h, robot, st.q, st.qd, st.qdd));
        expect_close(tau, ref_tau, 1e-12, spec + " " + form_name(form) + (fl == Flavour::General ? " general " : " custom ") + p);
        const OpCounts k0 = count_ops(g), k = count_ops(h);
        EXPECT_LE(k.mul(), k0.mul()) << spec << " " << p;
        EXPECT_LE(k.add(), k0.add()) << spec << " " << p;
        EXPECT_LE(k.operations(), k0.operations()) << spec << " " << p;
      }
    }
  }
}

// Counted with contract 3's inputs: joint inputs and parameters unknown, absent entries and the zero external
// wrench literal (as the tracer records them).
template <class Algo>
ref::OpCounts counted(const ref::Robot& robot, Algo&& algo) {
  using ref::Counted;
  const ref::ModelT<Counted> m = ref::cast_model<Counted>(robot, [](int, const std::string& name, double v) {
    const bool wrench = name.size() == 3 && (name[0] == 'f' || name[0] == 'n') && name[1] == 'e';
    return wrench ? Counted(v) : Counted::unknown(v);
  });
  ref::JointInputs<Counted> in;
  const auto n = static_cast<std::size_t>(robot.dof());
  in.s.assign(n, Counted(0.0));
  in.c = in.q = in.sgn_qd = in.s;
  for (std::size_t i = 0; i < n; ++i) {
    if (robot.links[i].joint == ref::JointType::Revolute) {
      in.s[i] = Counted::unknown(0.3);
      in.c[i] = Counted::unknown(0.9);
    } else {
      in.q[i] = Counted::unknown(0.1);
    }
    in.qd.push_back(Counted::unknown(0.5));
    in.qdd.push_back(Counted::unknown(0.7));
    if (robot.links[i].Fc != 0.0) in.sgn_qd[i] = Counted::unknown(1.0);
  }
  ref::counting::reset();
  algo(m, in);
  return ref::counting::totals();
}

TEST(RobotTrace, UntouchedGeneralGraphHasCountedsCounts) {
  for (const char* spec : {"puma560", "stanford", "rx90", "random:6:3", "random:5:8"}) {
    const ref::Robot robot = ref::load_robot(spec);
    for (Form form : {Form::ModifiedNE, Form::NE, Form::Khalil}) {
      const OpCounts k = count_ops(trace(robot, form, Flavour::General));
      const ref::OpCounts c = counted(robot, [form](const auto& m, const auto& in) {
        return form == Form::ModifiedNE ? ref::modified_ne(m, in)
                                        : form == Form::NE ? ref::newton_euler(m, in) : ref::khalil_ne(m, in);
      });
      EXPECT_EQ(k.mul(), c.mul) << spec << " " << form_name(form);
      EXPECT_EQ(k.add(), c.add) << spec << " " << form_name(form);
      EXPECT_EQ(k.neg(), c.neg) << spec << " " << form_name(form);
    }
  }
}

TEST(RobotTrace, ProvenanceCoversEveryOperation) {
  const Graph g = trace(ref::load_robot("puma560"), Form::ModifiedNE, Flavour::General);
  for (const auto& [quantity, k] : count_by_quantity(g)) {
    if (quantity.empty()) {
      EXPECT_EQ(k.operations(), 0) << "operations without provenance";
    }
  }
  const auto links = count_by_link(g);
  EXPECT_EQ(links.size(), 7u);
  for (std::size_t l = 1; l < links.size(); ++l) EXPECT_GT(links[l].mul(), 0) << l;
}

}  // namespace
}  // namespace neaccel::dfg
