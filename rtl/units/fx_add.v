`timescale 1ns/1ps
// fx_add: fixed-point adder/subtractor/negator (op_i: 0 a + b, 1 a - b, 2 saturating -b, 3 as 0), format
// fixed:I.F with Width = I + F (contract 4): exact result, then saturation. Frac does not change the
// arithmetic (same binary point on both operands) and is kept for a uniform interface.
// Pipelined = 1: combinational add, then Latency output registers.
// Pipelined = 0: operands registered, Latency-cycle multicycle datapath, busy for Latency cycles.
module fx_add #(
  parameter integer Width     = 32,
  /* verilator lint_off UNUSEDPARAM */
  parameter integer Frac      = 16,  // interface uniformity only: the binary point does not change the sum
  /* verilator lint_on UNUSEDPARAM */
  parameter integer Latency   = 1,
  parameter integer Pipelined = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [1:0]       op_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  output wire             valid_o,
  output wire [Width-1:0] result_o
);
  generate
    if (Pipelined != 0) begin : g_pipelined
      wire [Width-1:0] res_d;
      fx_add_core #(.Width(Width)) u_core (.op_i(op_i), .a_i(a_i), .b_i(b_i), .result_o(res_d));
      units_pipe #(.Width(Width), .Depth(Latency)) u_p (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(res_d), .valid_o(valid_o), .data_o(result_o));
    end else begin : g_multicycle
      wire [2*Width+1:0] ops_q;
      wire               busy_unused;
      units_hold #(.Width(2*Width+2), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({op_i, a_i, b_i}), .busy_o(busy_unused),
        .valid_o(valid_o), .data_o(ops_q));
      fx_add_core #(.Width(Width)) u_core (
        .op_i(ops_q[2*Width+1:2*Width]), .a_i(ops_q[2*Width-1:Width]), .b_i(ops_q[Width-1:0]), .result_o(result_o));
    end
  endgenerate
endmodule
