`timescale 1ns/1ps
// TEST STUB (until branch units lands): contract-4 fixed-point adder (op 0 add, 1 sub, 2 saturating neg of b).
module fx_add #(parameter integer Width = 32, parameter integer Frac = 16, parameter integer Latency = 1,
                parameter integer Pipelined = 1) (
  input wire clk_i, input wire rst_ni, input wire valid_i, input wire [1:0] op_i, input wire [Width-1:0] a_i,
  input wire [Width-1:0] b_i, output wire valid_o, output wire [Width-1:0] result_o);
  wire signed [Width+1:0] a = $signed({{2{a_i[Width-1]}}, a_i});
  wire signed [Width+1:0] b = $signed({{2{b_i[Width-1]}}, b_i});
  wire signed [Width+1:0] x = (op_i == 2'd0) ? a + b : ((op_i == 2'd1) ? a - b : -b);
  wire signed [Width+1:0] hi = {3'b000, {(Width-1){1'b1}}};
  wire signed [Width+1:0] lo = ~hi;
  wire [Width-1:0] r = (x > hi) ? hi[Width-1:0] : ((x < lo) ? lo[Width-1:0] : x[Width-1:0]);
  stub_pipe #(.Width(Width), .Latency(Latency)) u_pipe (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .d_i(r),
    .valid_o(valid_o), .q_o(result_o));
  wire [31:0] unused = Frac + Pipelined;
endmodule
