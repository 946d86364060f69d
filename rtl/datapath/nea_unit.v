`timescale 1ns/1ps
// One arithmetic unit of the datapath: selects the unit module of contract 6 by kind and number format.
// Kind 0: multiplier (op ignored); Kind 1: adder (op 0 add, 1 sub, 2 neg of b); Kind 2: divider a / b (op ignored).
// (The fused multiply-add unit has a third operand port: nea_fma_unit.)
module nea_unit #(
  parameter integer Kind = 0,
  parameter integer IsFixed = 0,
  parameter integer Width = 32,
  parameter integer Frac = 0,
  parameter integer Latency = 1,
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
    if (IsFixed == 0 && Kind == 0) begin : g_fp32_mul
      /* verilator lint_off UNUSEDSIGNAL */
      wire [4:0] flags;
      wire [1:0] unused_op = op_i;
      /* verilator lint_on UNUSEDSIGNAL */
      fp32_mul #(.Latency(Latency), .Pipelined(Pipelined)) u_mul (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o), .flags_o(flags));
    end else if (IsFixed == 0 && Kind == 2) begin : g_fp32_div
      /* verilator lint_off UNUSEDSIGNAL */
      wire [4:0] flags;
      wire [1:0] unused_op = op_i;
      /* verilator lint_on UNUSEDSIGNAL */
      fp32_div #(.Latency(Latency), .Pipelined(Pipelined)) u_div (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o), .flags_o(flags));
    end else if (IsFixed == 0) begin : g_fp32_add
      /* verilator lint_off UNUSEDSIGNAL */
      wire [4:0] flags;
      /* verilator lint_on UNUSEDSIGNAL */
      fp32_add #(.Latency(Latency), .Pipelined(Pipelined)) u_add (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .op_i(op_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o), .flags_o(flags));
    end else if (Kind == 0) begin : g_fx_mul
      /* verilator lint_off UNUSEDSIGNAL */
      wire [1:0] unused_op = op_i;
      /* verilator lint_on UNUSEDSIGNAL */
      fx_mul #(.Width(Width), .Frac(Frac), .Latency(Latency), .Pipelined(Pipelined)) u_mul (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o));
    end else if (Kind == 2) begin : g_fx_div
      /* verilator lint_off UNUSEDSIGNAL */
      wire [1:0] unused_op = op_i;
      /* verilator lint_on UNUSEDSIGNAL */
      fx_div #(.Width(Width), .Frac(Frac), .Latency(Latency), .Pipelined(Pipelined)) u_div (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o));
    end else begin : g_fx_add
      fx_add #(.Width(Width), .Frac(Frac), .Latency(Latency), .Pipelined(Pipelined)) u_add (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .op_i(op_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o));
    end
  endgenerate
endmodule
