`timescale 1ns/1ps
// unit_timing_deep: timing harness for place and route of one deep unit (rtl/units/deep), as unit_timing_top is
// for the units of rtl/units: valid/op/a/b registered before the unit and its outputs after it, so that every
// stage, the first included, is a register-to-register path. Deep units are always pipelined.
// Kind: 0 fx_mul_deep, 1 fx_add_deep, 2 fp32_mul_deep, 3 fp32_add_deep (Width 32). Not part of the datapath RTL.
module unit_timing_deep #(
  parameter integer Kind    = 0,
  parameter integer Latency = 4,
  parameter integer Width   = 32,
  parameter integer Frac    = 16
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [1:0]       op_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  output reg              valid_o,
  output reg  [Width-1:0] result_o,
  output reg  [4:0]       flags_o
);
  wire             valid_d;
  wire [Width-1:0] result_d;
  wire [4:0]       flags_d;
  reg              valid_q;
  reg [1:0]        op_q;
  reg [Width-1:0]  a_q, b_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= 1'b0;
    else         valid_q <= valid_i;
  end
  always @(posedge clk_i) begin
    op_q <= op_i;
    a_q  <= a_i;
    b_q  <= b_i;
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
    if (Kind == 0) begin : g_fx_mul
      wire unused_op = ^op_q;
      fx_mul_deep #(.Width(Width), .Frac(Frac), .Latency(Latency)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .a_i(a_q), .b_i(b_q),
        .valid_o(valid_d), .result_o(result_d));
      assign flags_d = 5'd0;
    end else if (Kind == 1) begin : g_fx_add
      fx_add_deep #(.Width(Width), .Frac(Frac), .Latency(Latency)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .op_i(op_q), .a_i(a_q), .b_i(b_q),
        .valid_o(valid_d), .result_o(result_d));
      assign flags_d = 5'd0;
    end else if (Kind == 2) begin : g_fp32_mul
      wire unused_op = ^op_q;
      fp32_mul_deep #(.Latency(Latency)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .a_i(a_q[31:0]), .b_i(b_q[31:0]),
        .valid_o(valid_d), .result_o(result_d[31:0]), .flags_o(flags_d));
    end else begin : g_fp32_add
      fp32_add_deep #(.Latency(Latency)) u_unit (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_q), .op_i(op_q), .a_i(a_q[31:0]), .b_i(b_q[31:0]),
        .valid_o(valid_d), .result_o(result_d[31:0]), .flags_o(flags_d));
    end
  endgenerate
endmodule
