`timescale 1ns/1ps
// fp32_add_deep_sel: section 2 of fp32_add_deep, the second half of fp32_add_swap: the operands ordered by
// magnitude, the result sign, the effective operation, the larger exponent, both significands and the shift
// distance. Output: the fp32_add_swap bundle (97 bits), so the sections after it are fp32_add's.
module fp32_add_deep_sel (
  input  wire [108:0] bundle_i,
  output wire [96:0]  bundle_o
);
  wire [33:0] head  = bundle_i[108:75];  // special, special_res, special_inv
  wire        swap  = bundle_i[74];
  wire        sa    = bundle_i[73];
  wire        sb    = bundle_i[72];
  wire [4:0]  sh_ab = bundle_i[71:67];
  wire [4:0]  sh_ba = bundle_i[66:62];
  wire [30:0] a     = bundle_i[61:31];
  wire [30:0] b     = bundle_i[30:0];

  wire [30:0] greater   = swap ? b : a;
  wire [30:0] lesser    = swap ? a : b;
  wire        sign      = swap ? sb : sa;
  wire        sub       = (sa != sb);
  wire [7:0]  e_big     = (greater[30:23] == 8'h00) ? 8'h01 : greater[30:23];
  wire [4:0]  sh        = swap ? sh_ba : sh_ab;
  wire [23:0] sig_big   = {(greater[30:23] != 8'h00), greater[22:0]};
  wire [23:0] sig_small = {(lesser[30:23] != 8'h00), lesser[22:0]};

  assign bundle_o = {head, sign, sub, e_big, sig_big, sig_small, sh};
endmodule
