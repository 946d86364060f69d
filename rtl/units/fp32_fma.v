`timescale 1ns/1ps
// fp32_fma: IEEE-754 binary32 fused multiply-add a * b + c with one rounding (round to nearest even),
// subnormals in and out, quiet NaN out (always 0x7FC00000), flags in TestFloat order (bit0 inexact,
// 1 underflow (tininess after rounding), 2 overflow, 3 divide-by-zero (always 0), 4 invalid); specials as
// SoftFloat's f32_mulAdd (fp32_fma_unpack). Ports and timing: contract 6 (docs/units.md), plus c_i.
//
// Eight combinational sections: 1 classify, specials, normalise the three significands (fp32_fma_unpack) |
// 2 the 48-bit product (fp32_fma_prod) | 3 one-bit product normalisation, magnitude compare, swap, alignment
// shift + sticky (fp32_fma_align) | 4 51-bit add/subtract (fp32_fma_sum) | 5 leading zero count
// (fp32_fma_lz) | 6 normalising shift, exponent, tininess, subnormal shift (fp32_fma_norm) | 7 rounding
// increment (fp32_round_inc) | 8 overflow, flags, packing (fp32_round_pack). Cut k is a register stage
// after section k.
// Pipelined = 1: Latency L uses the L-1 cuts of the table below (chosen by logic depth, not by a measured
//   sweep), then one output register; Latency 7 cuts 1..6, Latency >= 8 uses all seven cuts and L-7 output
//   registers.
// Pipelined = 0: operands are registered, the whole datapath is a Latency-cycle multicycle path and the
//   unit is busy for Latency cycles (units_hold).
// CutMask (exploration only): -1 takes the table; otherwise bit k-1 enables cut k (at most Latency-1 bits).
module fp32_fma #(
  parameter integer Latency   = 4,
  parameter integer Pipelined = 1,
  parameter integer CutMask   = -1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        valid_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [31:0] c_i,
  output wire        valid_o,
  output wire [31:0] result_o,
  output wire [4:0]  flags_o
);
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 2 :    // 2
                             (Latency == 3) ? 10 :   // 2 4
                             (Latency == 4) ? 42 :   // 2 4 6
                             (Latency == 5) ? 43 :   // 1 2 4 6
                             (Latency == 6) ? 47 :   // 1 2 3 4 6
                             (Latency == 7) ? 63 :   // 1 2 3 4 5 6
                             127;                    // 1 .. 7
  localparam integer Mask = (Pipelined == 0) ? 0 : ((CutMask >= 0) ? CutMask : Table);
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer C5 = ((Mask & 16) != 0) ? 1 : 0;
  localparam integer C6 = ((Mask & 32) != 0) ? 1 : 0;
  localparam integer C7 = ((Mask & 64) != 0) ? 1 : 0;
  localparam integer DOut = (Pipelined == 0) ? 0 : Latency - C1 - C2 - C3 - C4 - C5 - C6 - C7;

  wire        v0, v1, v2, v3, v4, v5, v6, v7;
  wire [31:0] a0, b0, c0;
  generate
    if (Pipelined != 0) begin : g_in
      assign v0 = valid_i;
      assign a0 = a_i;
      assign b0 = b_i;
      assign c0 = c_i;
    end else begin : g_hold
      wire busy_unused;
      units_hold #(.Width(96), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({a_i, b_i, c_i}), .busy_o(busy_unused),
        .valid_o(v0), .data_o({a0, b0, c0}));
    end
  endgenerate

  wire [130:0] s1_d, s1_q, s2_d, s2_q;
  wire [146:0] s3_d, s3_q;
  wire [96:0]  s4_d, s4_q;
  wire [102:0] s5_d, s5_q;
  wire [69:0]  s6_d, s6_q;
  wire [68:0]  s7_d, s7_q;
  wire [36:0]  s8_d;
  fp32_fma_unpack u_unpack (.a_i(a0), .b_i(b0), .c_i(c0), .bundle_o(s1_d));
  units_pipe #(.Width(131), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v0), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));
  fp32_fma_prod u_prod (.bundle_i(s1_q), .bundle_o(s2_d));
  units_pipe #(.Width(131), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));
  fp32_fma_align u_align (.bundle_i(s2_q), .bundle_o(s3_d));
  units_pipe #(.Width(147), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(s3_d), .valid_o(v3), .data_o(s3_q));
  fp32_fma_sum u_sum (.bundle_i(s3_q), .bundle_o(s4_d));
  units_pipe #(.Width(97), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));
  fp32_fma_lz u_lz (.bundle_i(s4_q), .bundle_o(s5_d));
  units_pipe #(.Width(103), .Depth(C5)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(s5_d), .valid_o(v5), .data_o(s5_q));
  fp32_fma_norm u_norm (.bundle_i(s5_q), .bundle_o(s6_d));
  units_pipe #(.Width(70), .Depth(C6)) u_p6 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v5), .data_i(s6_d), .valid_o(v6), .data_o(s6_q));
  fp32_round_inc u_inc (.bundle_i(s6_q), .bundle_o(s7_d));
  units_pipe #(.Width(69), .Depth(C7)) u_p7 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v6), .data_i(s7_d), .valid_o(v7), .data_o(s7_q));
  fp32_round_pack u_pack (.bundle_i(s7_q), .result_o(s8_d[36:5]), .flags_o(s8_d[4:0]));
  units_pipe #(.Width(37), .Depth(DOut)) u_p8 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v7), .data_i(s8_d), .valid_o(valid_o), .data_o({result_o, flags_o}));
endmodule
