`timescale 1ns/1ps
// fx_fma: fixed-point fused multiply-add a * b + c, format fixed:I.F with Width = I + F bits, two's
// complement (contract 4, num::fixed::fma): the exact a*b + c*2^Frac (2*Width+1 bits), one rounding to
// nearest even at Frac bits, saturation. Ports: as fx_mul plus c_i.
// Pipelined = 1: Latency 1: product, sum and rounding in one stage, then the output register; Latency >= 2:
//   cut after the sum, then Latency-1 registers after rounding.
// Pipelined = 0: operands registered, Latency-cycle multicycle datapath, busy for Latency cycles.
module fx_fma #(
  parameter integer Width     = 32,
  parameter integer Frac      = 16,
  parameter integer Latency   = 2,
  parameter integer Pipelined = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  input  wire [Width-1:0] c_i,
  output wire             valid_o,
  output wire [Width-1:0] result_o
);
  localparam integer SW = 2 * Width + 1;
  function automatic [SW-1:0] fused;
    input [Width-1:0] a, b, c;
    reg [2*Width-1:0] p;
    begin
      p = $signed(a) * $signed(b);
      fused = {p[2*Width-1], p} + ({{(Width+1){c[Width-1]}}, c} << Frac);
    end
  endfunction
  generate
    if (Pipelined != 0) begin : g_pipelined
      localparam integer D1 = (Latency >= 2) ? 1 : 0;
      localparam integer D2 = Latency - D1;
      wire [SW-1:0]    sum_q;
      wire [Width-1:0] res_d;
      wire             v1_q;
      units_pipe #(.Width(SW), .Depth(D1)) u_p1 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(fused(a_i, b_i, c_i)), .valid_o(v1_q),
        .data_o(sum_q));
      fx_fma_round #(.Width(Width), .Frac(Frac)) u_round (.sum_i(sum_q), .result_o(res_d));
      units_pipe #(.Width(Width), .Depth(D2)) u_p2 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1_q), .data_i(res_d), .valid_o(valid_o), .data_o(result_o));
    end else begin : g_multicycle
      wire [3*Width-1:0] ops_q;
      wire               busy_unused;
      units_hold #(.Width(3*Width), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({a_i, b_i, c_i}), .busy_o(busy_unused),
        .valid_o(valid_o), .data_o(ops_q));
      fx_fma_round #(.Width(Width), .Frac(Frac)) u_round (
        .sum_i(fused(ops_q[3*Width-1:2*Width], ops_q[2*Width-1:Width], ops_q[Width-1:0])), .result_o(result_o));
    end
  endgenerate
endmodule
