`timescale 1ns/1ps
// fp32_round: the last stage shared by fp32_mul and fp32_add: round to nearest even, overflow to infinity,
// flags, result selection. Input bundle (70 bits, MSB first):
//   special (1)      the result is special_res_i (NaN, inf, exact zero from a zero operand, neg)
//   special_res (32) special_inv (1)
//   sign (1) ovf_pre (1: the exponent already overflowed before rounding) tiny (1: tininess after rounding)
//   field (8: biased exponent field, 0 for subnormal) mant (23) guard (1) sticky (1)
// TestTruncate = 1 is a deliberately broken variant for tests (truncation instead of rounding).
module fp32_round #(
  parameter integer TestTruncate = 0
) (
  input  wire [69:0] bundle_i,
  output wire [31:0] result_o,
  output wire [4:0]  flags_o
);
  wire        special     = bundle_i[69];
  wire [31:0] special_res = bundle_i[68:37];
  wire        special_inv = bundle_i[36];
  wire        sign        = bundle_i[35];
  wire        ovf_pre     = bundle_i[34];
  wire        tiny        = bundle_i[33];
  wire [7:0]  field       = bundle_i[32:25];
  wire [22:0] mant        = bundle_i[24:2];
  wire        guard       = bundle_i[1];
  wire        sticky      = bundle_i[0];

  wire        round_up = (TestTruncate != 0) ? 1'b0 : (guard & (sticky | mant[0]));
  wire [30:0] word     = {field, mant} + {30'd0, round_up};
  wire        ovf      = ovf_pre | (word[30:23] == 8'hFF);
  wire        inexact  = guard | sticky | ovf;
  wire        uf       = tiny & inexact & ~ovf;

  assign result_o = special ? special_res : (ovf ? {sign, 8'hFF, 23'd0} : {sign, word});
  // TestFloat flag order: bit0 inexact, 1 underflow, 2 overflow, 3 divide-by-zero, 4 invalid.
  assign flags_o  = special ? {special_inv, 4'd0} : {2'b00, ovf, uf, inexact};
endmodule
