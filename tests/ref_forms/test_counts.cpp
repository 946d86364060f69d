// Operation counts of the formulations (ref/forms/counts.hpp), checked for the structure the papers predict, not
// against numbers produced by the code itself: the recursive forms are exactly linear in n (second differences
// vanish for n >= 3), the Lagrange forms are cubic (fourth differences vanish), the forward methods divide
// exactly once per joint and the inverse ones never, and the ranking of seed 000 Table 8.1 holds at n = 6
// (Lagrange > recursive Lagrange > Newton-Euler).
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/counts.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

namespace neaccel::ref::forms::test {
namespace {

std::vector<long> muls(const std::string& name, int n_max) {
  std::vector<long> m;
  for (int n = 1; n <= n_max; ++n) m.push_back(count_formulation(name, n).ours.mul);
  return m;
}

long difference(const std::vector<long>& v, std::size_t at, int order) {
  if (order == 0) return v[at];
  return difference(v, at + 1, order - 1) - difference(v, at, order - 1);
}

TEST(Counts, RecursiveFormsAreLinearInN) {
  for (const char* name : {"recursive-lagrange", "spatial-ne", "nasser-forward", "khalil-forward"}) {
    const std::vector<long> m = muls(name, 8);
    for (std::size_t at = 2; at + 2 < m.size(); ++at) EXPECT_EQ(difference(m, at, 2), 0) << name << " at " << at;
    EXPECT_GT(m[1], m[0]) << name;
  }
}

TEST(Counts, LagrangeIsCubicInN) {
  const std::vector<long> m = muls("lagrange", 10);
  for (std::size_t at = 1; at + 4 < m.size(); ++at) EXPECT_EQ(difference(m, at, 4), 0) << "at " << at;
  EXPECT_NE(difference(m, 3, 3), 0);  // and really cubic, not quadratic
}

TEST(Counts, DivisionsOnlyInForwardDynamics) {
  for (const CountRow& r : formulation_counts(5)) {
    if (r.kind == "forward")
      EXPECT_EQ(r.div, 5) << r.formulation;
    else
      EXPECT_EQ(r.div, 0) << r.formulation;
    EXPECT_GT(r.ours.mul, 0) << r.formulation;
  }
}

TEST(Counts, RankingOfSeed000Table81) {
  std::map<std::string, long> m;
  for (const CountRow& r : formulation_counts(6)) m[r.formulation] = r.ours.mul;
  const long ne = count_ops(Form::NewtonEuler, 6).total.mul;
  EXPECT_GT(m["lagrange"], m["recursive-lagrange"]);
  EXPECT_GT(m["recursive-lagrange"], ne);
  EXPECT_GT(m["strobe-C"], m["strobe-M"]);  // n^3 against n^2
}

TEST(Counts, BadInputIsAnError) {
  EXPECT_THROW(count_formulation("lagrange", 0), neaccel::Error);
  EXPECT_THROW(count_formulation("no-such-form", 3), neaccel::Error);
}

}  // namespace
}  // namespace neaccel::ref::forms::test

namespace neaccel::ref::forms::test {
namespace {

// BRIEF contract 2: every operation happens inside a ProvenanceScope whose quantity is a seed 000 Table 8.4/8.5
// row name (or rotation, friction, rotor); nothing is computed outside a scope.
TEST(Counts, EveryOperationIsAttributedToAPaperQuantity) {
  const std::set<std::string> allowed = {"omega", "alpha", "A", "a", "abar", "m abar", "f", "n", "I alpha",
                                         "omega x I omega", "tau", "rotation", "friction", "rotor",
                                         // seed 000 Table 8.4/8.5 rows used by ref's modified N-E (strobing)
                                         "Tr{A K Q}", "m(r+rbar) x abar", "r x R f", "R n", "add n"};
  for (const CountRow& r : formulation_counts(3))
    for (const auto& [quantity, ops] : r.per_quantity) {
      if (ops.mul + ops.add == 0) continue;
      EXPECT_TRUE(allowed.count(quantity)) << r.formulation << ": '" << quantity << "' has " << ops.mul << " mul";
    }
}

}  // namespace
}  // namespace neaccel::ref::forms::test
