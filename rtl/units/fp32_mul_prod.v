`timescale 1ns/1ps
// fp32_mul_prod: section 3 of fp32_mul: the 48-bit product from the two partial products
// (pp_hi * 2^12 + pp_lo). Input: the fp32_mul_pp bundle (141 bits). Output bundle (117 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sign (1) ehi (17) elo (17) prod (48, leading one at bit 47
//   or 46 for non-special operands)
module fp32_mul_prod (
  input  wire [140:0] bundle_i,
  output wire [116:0] bundle_o
);
  wire [68:0] head  = bundle_i[140:72];
  wire [35:0] pp_hi = bundle_i[71:36];
  wire [35:0] pp_lo = bundle_i[35:0];
  wire [47:0] prod  = {pp_hi, 12'd0} + {12'd0, pp_lo};

  assign bundle_o = {head, prod};
endmodule
