`timescale 1ns/1ps
// units_lzc32: leading zero count of a 32-bit word that has a one somewhere (callers pad their significand with
// ones below it, so the count saturates at the significand's width): eight 4-bit groups, each with its own
// count, and a priority choice of the first group that holds a one. Two levels of small functions instead of one
// 32-deep priority chain, so synthesis maps it in a few LUT levels.
module units_lzc32 (
  input  wire [31:0] x_i,
  output wire [4:0]  count_o
);
  wire [7:0] any;    // any[g]: group g (g = 0 is bits 31:28) holds a one
  wire [15:0] pos;   // pos[2g+1:2g]: leading zeros inside group g
  genvar g;
  generate
    for (g = 0; g < 8; g = g + 1) begin : g_group
      wire [3:0] n = x_i[31-4*g -: 4];
      assign any[g] = |n;
      assign pos[2*g+1:2*g] = n[3] ? 2'd0 : n[2] ? 2'd1 : n[1] ? 2'd2 : 2'd3;
    end
  endgenerate
  wire [2:0] first = any[0] ? 3'd0 : any[1] ? 3'd1 : any[2] ? 3'd2 : any[3] ? 3'd3 :
                     any[4] ? 3'd4 : any[5] ? 3'd5 : any[6] ? 3'd6 : 3'd7;
  wire unused_last = any[7];  // the last group is taken when no other holds a one
  assign count_o = {first, pos[2*first+:2]};
endmodule
