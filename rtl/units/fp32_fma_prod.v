`timescale 1ns/1ps
// fp32_fma_prod: section 2 of fp32_fma: the exact 48-bit product of the normalised significands (leading one
// at bit 47 or 46). Input: the fp32_fma_unpack bundle (131 bits). Output bundle (131 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sp (1) sc (1) c_zero (1) pexp (11) cexp (11) sigc (24) prod (48)
module fp32_fma_prod (
  input  wire [130:0] bundle_i,
  output wire [130:0] bundle_o
);
  wire [23:0] siga = bundle_i[71:48];
  wire [23:0] sigb = bundle_i[47:24];
  wire [23:0] sigc = bundle_i[23:0];
  wire [47:0] prod = siga * sigb;
  assign bundle_o = {bundle_i[130:72], sigc, prod};
endmodule
