`timescale 1ns/1ps
// fx_mul: fixed-point multiplier, format fixed:I.F with Width = I + F bits, two's complement (contract 4):
// exact 2*Width-bit product, round to nearest even at Frac bits, saturate.
// Pipelined = 1: Latency 1: product and rounding in one stage, then the output register; Latency >= 2: cut
//   after the product, then Latency-1 registers after rounding.
// Pipelined = 0: operands registered, Latency-cycle multicycle datapath, busy for Latency cycles.
// TestTruncate = 1 (tests only): rounding replaced by floor.
module fx_mul #(
  parameter integer Width        = 32,
  parameter integer Frac         = 16,
  parameter integer Latency      = 1,
  parameter integer Pipelined    = 1,
  parameter integer TestTruncate = 0
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  output wire             valid_o,
  output wire [Width-1:0] result_o
);
  generate
    if (Pipelined != 0) begin : g_pipelined
      localparam integer D1 = (Latency >= 2) ? 1 : 0;
      localparam integer D2 = Latency - D1;
      wire [2*Width-1:0] prod_d, prod_q;
      wire [Width-1:0]   res_d;
      wire               v1_q;
      assign prod_d = $signed(a_i) * $signed(b_i);
      units_pipe #(.Width(2*Width), .Depth(D1)) u_p1 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(prod_d), .valid_o(v1_q), .data_o(prod_q));
      fx_mul_round #(.Width(Width), .Frac(Frac), .TestTruncate(TestTruncate)) u_round (
        .prod_i(prod_q), .result_o(res_d));
      units_pipe #(.Width(Width), .Depth(D2)) u_p2 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1_q), .data_i(res_d), .valid_o(valid_o), .data_o(result_o));
    end else begin : g_multicycle
      wire [2*Width-1:0] ops_q;
      wire [2*Width-1:0] prod;
      wire               busy_unused;
      units_hold #(.Width(2*Width), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({a_i, b_i}), .busy_o(busy_unused),
        .valid_o(valid_o), .data_o(ops_q));
      assign prod = $signed(ops_q[2*Width-1:Width]) * $signed(ops_q[Width-1:0]);
      fx_mul_round #(.Width(Width), .Frac(Frac), .TestTruncate(TestTruncate)) u_round (
        .prod_i(prod), .result_o(result_o));
    end
  endgenerate
endmodule
