`timescale 1ns/1ps
// fp32_mul_deep_shift: section 2 of fp32_mul_deep, the second half of fp32_mul_unpack: each significand shifted
// left by its leading-zero count (a subnormal's leading one to bit 23) and, beside the shifts, the product's
// exponent exp1 = esum - lza - lzb. Output: the fp32_mul_unpack bundle (94 bits), so the sections after it are
// fp32_mul's.
module fp32_mul_deep_shift (
  input  wire [103:0] bundle_i,
  output wire [93:0]  bundle_o
);
  wire [34:0] head = bundle_i[103:69];  // special, special_res, special_inv, sign
  wire [10:0] esum = bundle_i[68:58];
  wire [23:0] siga = bundle_i[57:34];
  wire [23:0] sigb = bundle_i[33:10];
  wire [4:0]  lza  = bundle_i[9:5];
  wire [4:0]  lzb  = bundle_i[4:0];
  wire [10:0] exp1 = esum - {6'd0, lza} - {6'd0, lzb};

  assign bundle_o = {head, exp1, siga << lza, sigb << lzb};
endmodule
