`timescale 1ns/1ps
// fp32_round_inc: first rounding section shared by fp32_mul and fp32_add: round to nearest even (the
// increment of {field, mant}). Input bundle (70 bits, MSB first):
//   special (1)      the result is special_res (NaN, inf, exact zero from a zero operand, neg)
//   special_res (32) special_inv (1)
//   sign (1) ovf_pre (1: the exponent already overflowed before rounding) tiny (1: tininess after rounding)
//   field (8: biased exponent field, 0 for subnormal) mant (23) guard (1) sticky (1)
// Output bundle (69 bits, MSB first): special (1) special_res (32) special_inv (1) sign (1) ovf_pre (1)
//   tiny (1) lost (1: guard | sticky) word (31: rounded {field, mant}).
// TestTruncate = 1 is a deliberately broken variant for tests (truncation instead of rounding).
module fp32_round_inc #(
  parameter integer TestTruncate = 0
) (
  input  wire [69:0] bundle_i,
  output wire [68:0] bundle_o
);
  wire [35:0] head   = bundle_i[69:34];  // special, special_res, special_inv, sign, ovf_pre
  wire        tiny   = bundle_i[33];
  wire [7:0]  field  = bundle_i[32:25];
  wire [22:0] mant   = bundle_i[24:2];
  wire        guard  = bundle_i[1];
  wire        sticky = bundle_i[0];

  wire        round_up = (TestTruncate != 0) ? 1'b0 : (guard & (sticky | mant[0]));
  wire [30:0] word     = {field, mant} + {30'd0, round_up};

  assign bundle_o = {head, tiny, guard | sticky, word};
endmodule
