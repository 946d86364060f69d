`timescale 1ns/1ps
// fx_add_core: combinational fixed-point add/sub/negate with saturation (contract 4): the exact
// (Width+1)-bit result saturated to [-2^(Width-1), 2^(Width-1)-1]. op_i: 0 a + b, 1 a - b, 2 -b, 3 as 0.
module fx_add_core #(
  parameter integer Width = 32
) (
  input  wire [1:0]       op_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  output wire [Width-1:0] result_o
);
  wire [Width:0] ax = {a_i[Width-1], a_i};
  wire [Width:0] bx = {b_i[Width-1], b_i};
  wire [Width:0] s  = (op_i == 2'd1) ? (ax - bx) :
                      (op_i == 2'd2) ? ({(Width+1){1'b0}} - bx) : (ax + bx);
  // Overflow iff the two top bits differ; the top bit is the true sign.
  assign result_o = (s[Width] == s[Width-1]) ? s[Width-1:0] :
                    (s[Width] ? {1'b1, {(Width-1){1'b0}}} : {1'b0, {(Width-1){1'b1}}});
endmodule
