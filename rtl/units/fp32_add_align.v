`timescale 1ns/1ps
// fp32_add_align: section 2 of fp32_add: alignment of the smaller significand (right shift by sh with
// guard, round and sticky bits). Input: the fp32_add_swap bundle (97 bits). Output bundle (98 bits, MSB
// first): special (1) special_res (32) special_inv (1) sign (1) sub (1) e_big (8) greater (27) lesser (27)
// (significands << 3, lesser aligned with the sticky bit in bit 0).
module fp32_add_align (
  input  wire [96:0] bundle_i,
  output wire [97:0] bundle_o
);
  wire [43:0] head      = bundle_i[96:53];  // special, special_res, special_inv, sign, sub, e_big
  wire [23:0] sig_big   = bundle_i[52:29];
  wire [23:0] sig_small = bundle_i[28:5];
  wire [4:0]  sh        = bundle_i[4:0];
  wire [26:0] small27   = {sig_small, 3'b000};
  wire [26:0] shifted   = small27 >> sh;
  wire        lost      = |(small27 & ~({27{1'b1}} << sh));
  wire [26:0] aligned   = {shifted[26:1], shifted[0] | lost};

  assign bundle_o = {head, sig_big, 3'b000, aligned};
endmodule
