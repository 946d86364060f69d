`timescale 1ns/1ps
// fp32_mul_deep_norm: section 6 of fp32_mul_deep, the first half of fp32_mul_norm: the one-bit normalisation
// (the product's leading one at bit 47 or 46), the exponent terms of that position, tininess, and the subnormal
// right shift's coarse part (by 8 * sh[5:3]) with the sticky bit of what it shifts out. The fine part is section
// 7 (fp32_mul_deep_fine). Together the same values as fp32_mul_norm.
// Output bundle (97 bits, MSB first): special (1) special_res (32) special_inv (1) sign (1) ovf_pre (1) tiny (1)
//   field (8) pc (48: pn >> 8*sh[5:3]) sh_fine (3) sticky_coarse (1).
module fp32_mul_deep_norm (
  input  wire [116:0] bundle_i,
  output wire [96:0]  bundle_o
);
  wire [34:0] head = bundle_i[116:82];  // special, special_res, special_inv, sign
  wire [16:0] ehi  = bundle_i[81:65];
  wire [16:0] elo  = bundle_i[64:48];
  wire [47:0] prod = bundle_i[47:0];

  wire        top     = prod[47];
  wire [47:0] pn      = top ? prod : {prod[46:0], 1'b0};
  wire [16:0] et      = top ? ehi : elo;       // terms of e, the signed biased exponent of pn / 2^47
  wire        e_neg   = et[16];
  wire        e_zero  = et[15];
  wire        ovf_pre = et[14];
  wire [7:0]  field   = et[13:6];
  wire [5:0]  sh      = et[5:0];
  wire        tiny    = e_neg | (e_zero & ~(&pn[46:23]));
  wire [5:0]  coarse  = {sh[5:3], 3'b000};
  wire [47:0] pc      = pn >> coarse;
  wire        sticky_c = |(pn & ~({48{1'b1}} << coarse));

  assign bundle_o = {head, ovf_pre, tiny, field, pc, sh[2:0], sticky_c};
endmodule
