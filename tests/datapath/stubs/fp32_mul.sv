`timescale 1ns/1ps
// TEST STUB (until branch units lands): binary32 multiplier computed by C++ float through DPI (stub_dpi.cpp).
module fp32_mul #(parameter integer Latency = 3, parameter integer Pipelined = 1) (
  input wire clk_i, input wire rst_ni, input wire valid_i, input wire [31:0] a_i, input wire [31:0] b_i,
  output wire valid_o, output wire [31:0] result_o, output wire [4:0] flags_o);
  import "DPI-C" function int unsigned neaccel_stub_fp32(input int unsigned op, input int unsigned a,
                                                         input int unsigned b);
  wire [31:0] r = neaccel_stub_fp32(3, a_i, b_i);
  stub_pipe #(.Width(32), .Latency(Latency)) u_pipe (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .d_i(r),
    .valid_o(valid_o), .q_o(result_o));
  assign flags_o = 5'd0;
  wire unused = Pipelined[0];
endmodule
