`timescale 1ns/1ps
// fp32_mul_deep_pp: section 3 of fp32_mul_deep: the four 12x12-bit partial products of the normalised
// significands (each a multiplier block of the device alone, no adder after it: siga = aH*2^12 + aL, sigb
// likewise) and the exponent terms of fp32_mul_pp for both positions of the product's leading one.
// Input: the fp32_mul_unpack bundle (94 bits). Output bundle (165 bits, MSB first): special (1) special_res (32)
//   special_inv (1) sign (1) ehi (17) elo (17) hh (24) hl (24) lh (24) ll (24), hl = aH*bL, lh = aL*bH.
module fp32_mul_deep_pp (
  input  wire [93:0]  bundle_i,
  output wire [164:0] bundle_o
);
  wire [23:0] siga = bundle_i[47:24];
  wire [23:0] sigb = bundle_i[23:0];
  wire [23:0] hh = {12'd0, siga[23:12]} * {12'd0, sigb[23:12]};
  wire [23:0] hl = {12'd0, siga[23:12]} * {12'd0, sigb[11:0]};
  wire [23:0] lh = {12'd0, siga[11:0]} * {12'd0, sigb[23:12]};
  wire [23:0] ll = {12'd0, siga[11:0]} * {12'd0, sigb[11:0]};
  // The exponent terms are fp32_mul_pp's (one definition); its two 24x12 products are not used here and
  // synthesis removes them.
  wire [140:0] pp_bundle;
  fp32_mul_pp u_terms (.bundle_i(bundle_i), .bundle_o(pp_bundle));
  wire unused_pp = ^pp_bundle[71:0];

  assign bundle_o = {pp_bundle[140:72], hh, hl, lh, ll};
endmodule
