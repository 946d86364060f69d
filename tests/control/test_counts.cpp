// Operation counts of the control computation: the Dual<Counted> arithmetic rules (hand-derived), and the rows
// of control_counts (consistency with ref::count_ops; growth of the AD cost with n).
#include "neaccel/ref/control/counts.hpp"
#include "neaccel/ref/control/dual.hpp"
#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"

#include <gtest/gtest.h>

namespace ctl = neaccel::ref::control;
using neaccel::ref::Counted;

TEST(ControlCounts, DualArithmeticCostsByHand) {
  namespace counting = neaccel::ref::counting;
  using D = ctl::Dual<Counted>;
  const D x(Counted::unknown(2.0), Counted::unknown(1.0)), y(Counted::unknown(3.0), Counted::unknown(0.5));
  const D k(Counted::unknown(4.0), Counted(0.0));  // a constant parameter: zero derivative is a literal
  counting::reset();
  const D p = x * y;  // v: 1 mul; d: x.v y.d + x.d y.v = 2 mul 1 add
  EXPECT_EQ(counting::totals().mul, 3);
  EXPECT_EQ(counting::totals().add, 1);
  EXPECT_DOUBLE_EQ(p.d.value(), 2.0 * 0.5 + 1.0 * 3.0);
  counting::reset();
  (void)(k * x);  // d: k.v x.d + 0 * x.v -> 1 mul; v: 1 mul
  EXPECT_EQ(counting::totals().mul, 2);
  EXPECT_EQ(counting::totals().add, 0);
  counting::reset();
  (void)(x + y);  // 2 add
  EXPECT_EQ(counting::totals().add, 2);
  counting::reset();
}

TEST(ControlCounts, RowsAreConsistent) {
  for (int n : {1, 2, 6}) {
    const std::vector<ctl::ControlCountRow> rows = ctl::control_counts(n);
    ASSERT_EQ(rows.size(), 4u);
    const neaccel::ref::OpCounts ff = neaccel::ref::count_ops(neaccel::ref::Form::ModifiedNE, n).total;
    EXPECT_EQ(rows[0].ours.mul, ff.mul);
    EXPECT_EQ(rows[0].ours.add, ff.add);
    EXPECT_EQ(rows[3].ours.mul, rows[1].ours.mul + rows[2].ours.mul);
    EXPECT_EQ(rows[3].ours.add, rows[1].ours.add + rows[2].ours.add);
    EXPECT_DOUBLE_EQ(rows[0].paper_mul, 830.0 * n - 592);
    EXPECT_DOUBLE_EQ(rows[3].paper_mul, 739.0 * n * n + 62 * n - 54);
    // 2n AD passes each cost more than one plain pass (a dual product is 3 mul), and less than 4 plain passes.
    EXPECT_GT(rows[1].ours.mul, 2 * n * ff.mul);
    EXPECT_LT(rows[1].ours.mul, 2 * n * 4 * ff.mul);
  }
  EXPECT_THROW(ctl::control_counts(0), neaccel::Error);
}
