`timescale 1ns/1ps
// fp32_fma_sum: section 4 of fp32_fma: big + small or big - small (51 bits with the carry; a difference is
// never negative since big >= small). Input: the fp32_fma_align bundle (147 bits). Output bundle (97 bits,
// MSB first): special (1) special_res (32) special_inv (1) sign (1) e_big (11) sum (51)
module fp32_fma_sum (
  input  wire [146:0] bundle_i,
  output wire [96:0]  bundle_o
);
  wire        sub   = bundle_i[111];
  wire [49:0] bg   = bundle_i[99:50];
  wire [49:0] sml = bundle_i[49:0];
  wire [50:0] sum   = sub ? ({1'b0, bg} - {1'b0, sml}) : ({1'b0, bg} + {1'b0, sml});
  assign bundle_o = {bundle_i[146:112], bundle_i[110:100], sum};
endmodule
