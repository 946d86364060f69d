`timescale 1ns/1ps
// unit_timing_top3: timing harness of the FMA and divider units for place and route (`neaccel area --timing`),
// as unit_timing_top.v (registered inputs and outputs: every stage is a register-to-register path) with a
// third operand c (registered; used by the FMAs only, so the dividers' c pins drive nothing).
// Kind: 4 fp32_fma, 5 fp32_div, 6 fx_fma, 7 fx_div. Not part of the datapath RTL (rtl/units/*.v).
module unit_timing_top3 #(
  parameter integer Kind      = 4,
  parameter integer Latency   = 3,
  parameter integer Pipelined = 1,
  parameter integer Width     = 32,
  parameter integer Frac      = 16
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  input  wire [Width-1:0] c_i,
  output reg              valid_o,
  output reg  [Width-1:0] result_o,
  output reg  [4:0]       flags_o
);
  wire             valid_d;
  wire [Width-1:0] result_d;
  wire [4:0]       flags_d;
  reg             valid_q;
  reg [Width-1:0] a_q, b_q, c_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= 1'b0;
    else         valid_q <= valid_i;
  end
  always @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
    c_q <= c_i;
  end
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_o <= 1'b0;
    else         valid_o <= valid_d;
  end
  always @(posedge clk_i) begin
    result_o <= result_d;
    flags_o  <= flags_d;
  end

  generate
    if (Kind == 4) begin : g_fp32_fma
      fp32_fma #(.Latency(Latency), .Pipelined(Pipelined)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .a_i(a_q[31:0]), .b_i(b_q[31:0]), .c_i(c_q[31:0]),
        .valid_o(valid_d), .result_o(result_d[31:0]), .flags_o(flags_d));
    end else if (Kind == 5) begin : g_fp32_div
      wire unused_c = ^c_q;
      fp32_div #(.Latency(Latency), .Pipelined(Pipelined)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .a_i(a_q[31:0]), .b_i(b_q[31:0]),
        .valid_o(valid_d), .result_o(result_d[31:0]), .flags_o(flags_d));
    end else if (Kind == 6) begin : g_fx_fma
      fx_fma #(.Width(Width), .Frac(Frac), .Latency(Latency), .Pipelined(Pipelined)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .a_i(a_q), .b_i(b_q), .c_i(c_q),
        .valid_o(valid_d), .result_o(result_d));
      assign flags_d = 5'd0;
    end else begin : g_fx_div
      wire unused_c = ^c_q;
      fx_div #(.Width(Width), .Frac(Frac), .Latency(Latency), .Pipelined(Pipelined)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .a_i(a_q), .b_i(b_q),
        .valid_o(valid_d), .result_o(result_d));
      assign flags_d = 5'd0;
    end
  endgenerate
endmodule
