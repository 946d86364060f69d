`timescale 1ns/1ps
// One multiplier or adder of a datapath built with the deep units (rtl/units/deep, docs/units.md "Deep units"):
// the ports and cycle behaviour of nea_unit (Kind 0: multiplier, op ignored; Kind 1: adder, op 0 add, 1 sub,
// 2 neg of b) with the pipeline cut where the ECP5 has its registers. The same result bits as nea_unit at the same
// latency, so the datapath's program, its SystemC model and its trace do not change. Deep units are always
// pipelined. Dividers and FMA units have no deep form: a datapath with them keeps nea_unit / nea_fma_unit for those.
module nea_unit_deep #(
  parameter integer Kind = 0,
  parameter integer IsFixed = 0,
  parameter integer Width = 32,
  parameter integer Frac = 0,
  parameter integer Latency = 1
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
      fp32_mul_deep #(.Latency(Latency)) u_mul (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o), .flags_o(flags));
    end else if (IsFixed == 0) begin : g_fp32_add
      /* verilator lint_off UNUSEDSIGNAL */
      wire [4:0] flags;
      /* verilator lint_on UNUSEDSIGNAL */
      fp32_add_deep #(.Latency(Latency)) u_add (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .op_i(op_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o), .flags_o(flags));
    end else if (Kind == 0) begin : g_fx_mul
      /* verilator lint_off UNUSEDSIGNAL */
      wire [1:0] unused_op = op_i;
      /* verilator lint_on UNUSEDSIGNAL */
      fx_mul_deep #(.Width(Width), .Frac(Frac), .Latency(Latency)) u_mul (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o));
    end else begin : g_fx_add
      fx_add_deep #(.Width(Width), .Frac(Frac), .Latency(Latency)) u_add (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .op_i(op_i), .a_i(a_i), .b_i(b_i),
        .valid_o(valid_o), .result_o(result_o));
    end
  endgenerate
endmodule
