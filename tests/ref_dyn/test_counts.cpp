// Operation counts of the Newton-Euler forms (Counted), derived by hand from the equations and checked here.
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

namespace neaccel::ref {
namespace {

OpCounts row(const FormCounts& c, const std::string& q) {
  auto it = c.per_quantity.find(q);
  return it == c.per_quantity.end() ? OpCounts{} : it->second;
}

// Modified N-E, general n-link revolute arm, standard DH (docs/counts.md). Per link, from the code's equations:
//   rotation R^T v or R v by sin/cos: Rz 4 mul 2 add + Rx 4 mul 2 add = 8/4
//   omega  = R^T(omega_p + qd z): 8/5;  alpha = R^T(alpha_p + [w_y qd, -w_x qd, qdd]): 10/7
//   A      = 6 products + 3 diagonal sums + 6 off-diagonal sums: 6/9
//   a      = A r (9/6) + R^T a_p (8/4) + 3 add: 17/13;     m abar = A rbar (9/6) + a (3 add) + m * (3 mul): 12/9
//   f      = R f (8/4) + 3 add: 8/7 (links 2..n send to a parent)
//   Tr{A K Q} with a full symmetric K: 15/15;  m(r+rbar) x abar: 6/3;  r x R f: 6/3 (links 1..n-1)
//   R n    = 8/4 (links 2..n);  add n: 9 adds;  tau = salpha n_y + calpha n_z: 2/1
// Sum: 98 mul, 85 add per link. Link 1 starts from omega_0 = alpha_0 = 0 (folded literals: omega_1 = [0, sa qd,
// ca qd] costs 2 mul, alpha_1 2 mul, A_1 3/1, a_1 = A r + R^T [0, 0, g] 11/8 incl. no R for a_0's zeros) and the
// last link has no child; Tr{A K Q} reads the diagonal as differences of squares (omega_z^2 - omega_y^2, ...), and
// with omega_1x = 0 link 1 needs one of the three (omega_1x^2 - omega_1z^2 is a negation, omega_1y^2 - 0 free):
// total 98n - 48 mul, 85n - 51 add for n >= 2 (n = 1: 53/38); 4 negations (-g_z, two A_1 entries -alpha_z,
// -alpha_y where omega_1x = 0, and -omega_1z^2).
// Seed 000 Table 8.1 says 90n - 27 / 88n - 24: it assumes diagonal K (Tr{A K Q} 6/3 instead of 15/15) and general
// 3x3 rotations (9/6 instead of 8/4); see docs/counts.md.
TEST(Counts, ModifiedNEStandardDh) {
  for (int n = 1; n <= 12; ++n) {
    const FormCounts c = count_ops(Form::ModifiedNE, n);
    if (n == 1) {
      EXPECT_EQ(c.total.mul, 53);
      EXPECT_EQ(c.total.add, 38);
    } else {
      EXPECT_EQ(c.total.mul, 98 * n - 48) << n;
      EXPECT_EQ(c.total.add, 85 * n - 51) << n;
    }
    EXPECT_EQ(c.total.neg, 4);
    EXPECT_EQ(row(c, "Tr{A K Q}").mul, 15 * n);
    EXPECT_EQ(row(c, "Tr{A K Q}").add, 15 * n - 2);
    EXPECT_EQ(row(c, "m abar").mul, 12 * n);
    EXPECT_EQ(row(c, "m abar").add, 9 * n);
    EXPECT_EQ(row(c, "m(r+rbar) x abar").mul, 6 * n);
    EXPECT_EQ(row(c, "r x R f").mul, 6 * (n - 1));
    EXPECT_EQ(row(c, "R n").mul, 8 * (n - 1));
    EXPECT_EQ(row(c, "R n").add, 4 * (n - 1));
    EXPECT_EQ(row(c, "A").mul, 6 * n - 3);
    EXPECT_EQ(row(c, "A").add, 9 * n - 8);
    EXPECT_EQ(row(c, "tau").mul, 2 * n);
  }
}

// The other forms are affine in n from n = 2 on (every link but the first and last does the same work), with the
// slopes derived like the above: Luh-Walker-Paul 119 mul / 91 add per link (cross products for a, abar: 26/22 and
// 18/15; I alpha 9/6 and omega x I omega 15/9), Khalil 107/88 (F 12/9, M = J alpha + omega x J omega + MS x Vdot
// 30/24, moment carried to O_{i-1} by r x f 6/6).
TEST(Counts, OtherFormsAreLinearInN) {
  const struct {
    Form form;
    long mul_slope, add_slope;
  } cases[] = {{Form::NewtonEuler, 119, 91}, {Form::Khalil, 107, 88}, {Form::ModifiedNE, 98, 85}};
  for (const auto& k : cases) {
    const FormCounts c2 = count_ops(k.form, 2);
    for (int n = 3; n <= 12; ++n) {
      const FormCounts c = count_ops(k.form, n);
      EXPECT_EQ(c.total.mul - c2.total.mul, k.mul_slope * (n - 2)) << form_name(k.form) << " n=" << n;
      EXPECT_EQ(c.total.add - c2.total.add, k.add_slope * (n - 2)) << form_name(k.form) << " n=" << n;
    }
  }
}

// Modified DH saves the base link's rotation of a_0 and the moment transfer: Khalil's own convention.
TEST(Counts, ModifiedDhAndFriction) {
  CountOptions mod;
  mod.convention = DhConvention::Modified;
  EXPECT_LT(count_ops(Form::Khalil, 6, mod).total.mul, count_ops(Form::Khalil, 6).total.mul);
  // Friction and rotor inertia: Ia qdd + Fv qd + Fc sgn(qd) is 3 mul 3 add per joint (seed 003: "friction adds n
  // mul, 2n add" for Fv qd + Fc sgn(qd) with the sign product free; the rotor term adds n/n).
  CountOptions fr;
  fr.friction = true;
  const FormCounts a = count_ops(Form::ModifiedNE, 6), b = count_ops(Form::ModifiedNE, 6, fr);
  EXPECT_EQ(b.total.mul - a.total.mul, 3 * 6);
  EXPECT_EQ(b.total.add - a.total.add, 3 * 6);
}

TEST(Counts, PaperFormulas) {
  const std::vector<PaperCount> p = paper_counts(Form::ModifiedNE, 6);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].mul, 90 * 6 - 27);
  EXPECT_EQ(p[0].add, 88 * 6 - 24);
  EXPECT_EQ(paper_counts(Form::NewtonEuler, 6)[0].mul, 108 * 6 - 12);
  EXPECT_THROW(count_ops(Form::ModifiedNE, 0), Error);
}

}  // namespace
}  // namespace neaccel::ref
