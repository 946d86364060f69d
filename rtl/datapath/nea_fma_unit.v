`timescale 1ns/1ps
// A fused multiply-add unit of the datapath (a * b + c, one rounding): fp32_fma or fx_fma by number format
// (contract 6 timing, like nea_unit; the third operand port c is why it is not a nea_unit kind).
module nea_fma_unit #(
  parameter integer IsFixed = 0,
  parameter integer Width = 32,
  parameter integer Frac = 0,
  parameter integer Latency = 1,
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
  generate
    if (IsFixed == 0) begin : g_fp32_fma
      /* verilator lint_off UNUSEDSIGNAL */
      wire [4:0] flags;
      /* verilator lint_on UNUSEDSIGNAL */
      fp32_fma #(.Latency(Latency), .Pipelined(Pipelined)) u_fma (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i), .c_i(c_i),
        .valid_o(valid_o), .result_o(result_o), .flags_o(flags));
    end else begin : g_fx_fma
      fx_fma #(.Width(Width), .Frac(Frac), .Latency(Latency), .Pipelined(Pipelined)) u_fma (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i), .c_i(c_i),
        .valid_o(valid_o), .result_o(result_o));
    end
  endgenerate
endmodule
