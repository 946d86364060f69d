`timescale 1ns/1ps
// fp32_add_sum: section 3 of fp32_add: add or subtract the aligned significands. Input: the fp32_add_align
// bundle (98 bits). Output bundle (72 bits, MSB first): special (1) special_res (32) special_inv (1)
// sign (1) sub (1) e_big (8) sum (28).
module fp32_add_sum (
  input  wire [97:0] bundle_i,
  output wire [71:0] bundle_o
);
  wire [43:0] head    = bundle_i[97:54];  // special, special_res, special_inv, sign, sub, e_big
  wire        sub     = bundle_i[62];
  wire [26:0] greater = bundle_i[53:27];
  wire [26:0] lesser  = bundle_i[26:0];
  wire [27:0] sum = sub ? ({1'b0, greater} - {1'b0, lesser}) : ({1'b0, greater} + {1'b0, lesser});

  assign bundle_o = {head, sum};
endmodule
