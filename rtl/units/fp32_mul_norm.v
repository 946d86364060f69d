`timescale 1ns/1ps
// fp32_mul_norm: section 4 of fp32_mul: normalise the product (leading one to bit 47: at most one bit, the
// significands are normalised) and select the exponent terms computed for that case, detect tininess after
// rounding, denormalise (shift right with sticky) when the exponent is below the normal range, and cut the
// 23 fraction bits, guard and sticky. Input: the fp32_mul_prod bundle (117 bits). Output: the fp32_round_inc
// bundle (70 bits).
module fp32_mul_norm (
  input  wire [116:0] bundle_i,
  output wire [69:0]  bundle_o
);
  wire        special     = bundle_i[116];
  wire [31:0] special_res = bundle_i[115:84];
  wire        special_inv = bundle_i[83];
  wire        sign        = bundle_i[82];
  wire [16:0] ehi         = bundle_i[81:65];
  wire [16:0] elo         = bundle_i[64:48];
  wire [47:0] prod        = bundle_i[47:0];

  wire        top     = prod[47];
  wire [47:0] pn      = top ? prod : {prod[46:0], 1'b0};
  wire [16:0] et      = top ? ehi : elo;       // terms of e, the signed biased exponent of pn / 2^47
  wire        e_neg   = et[16];
  wire        e_zero  = et[15];
  wire        ovf_pre = et[14];
  wire [7:0]  field   = et[13:6];
  wire [5:0]  sh      = et[5:0];
  // Tininess after rounding (as x86 / TestFloat's default): the value rounded to 24 bits with an unbounded
  // exponent is below 2^-126. For e == 0 that fails only when rounding carries to 2^-126.
  wire        tiny    = e_neg | (e_zero & ~(&pn[46:23]));
  wire [47:0] pd      = pn >> sh;
  wire [47:0] lost    = pn & ~({48{1'b1}} << sh);
  wire        guard   = pd[23];
  wire        sticky  = (|pd[22:0]) | (|lost);

  assign bundle_o = {special, special_res, special_inv, sign, ovf_pre, tiny, field, pd[46:24], guard, sticky};
  // pd[47] is the hidden bit (implied by field != 0; 0 for subnormals).
  wire unused_ok = pd[47];
endmodule
