`timescale 1ns/1ps
// fp32_mul: IEEE-754 binary32 multiplier, round to nearest even, subnormals in and out, quiet NaN out
// (always 0x7FC00000), flags in TestFloat order (bit0 inexact, 1 underflow (tininess after rounding),
// 2 overflow, 3 divide-by-zero (always 0), 4 invalid). Ports and timing: contract 6 (docs/units.md).
//
// Six combinational sections: 1 classify + normalise subnormal significands (fp32_mul_unpack) | 2 two
// 24x12 partial products, exponent terms for both product normalisations (fp32_mul_pp) | 3 their sum, the
// 48-bit product (fp32_mul_prod) | 4 one-bit normalisation, tininess, subnormal shift + sticky
// (fp32_mul_norm) | 5 rounding increment
// (fp32_round_inc) | 6 overflow, flags, packing (fp32_round_pack). Cut k is a register stage after
// section k.
// Pipelined = 1: Latency L uses the L-1 cuts of the table below (chosen from measured iCE40 Fmax,
//   docs/units.md), then one output register; Latency >= 6 uses all five cuts and Latency-5 output
//   registers.
// Pipelined = 0: operands are registered, the whole datapath is a Latency-cycle multicycle path and the
//   unit is busy for Latency cycles (units_hold).
// TestTruncate = 1 (tests only): truncating rounding, to prove the co-simulation catches a wrong unit.
// CutMask (exploration only): -1 takes the table; otherwise bit k-1 enables cut k (at most Latency-1 bits).
module fp32_mul #(
  parameter integer Latency      = 3,
  parameter integer Pipelined    = 1,
  parameter integer TestTruncate = 0,
  parameter integer CutMask      = -1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        valid_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  output wire        valid_o,
  output wire [31:0] result_o,
  output wire [4:0]  flags_o
);
  // Cuts per latency (bit k-1: cut after section k; decimal of the binary masks in the comments).
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 4 :    // 3
                             (Latency == 3) ? 5 :    // 1 3
                             (Latency == 4) ? 13 :   // 1 3 4
                             (Latency == 5) ? 15 :   // 1 2 3 4
                             31;                     // 1 2 3 4 5
  localparam integer Mask = (Pipelined == 0) ? 0 : ((CutMask >= 0) ? CutMask : Table);
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer C5 = ((Mask & 16) != 0) ? 1 : 0;
  localparam integer DOut = (Pipelined == 0) ? 0 : Latency - C1 - C2 - C3 - C4 - C5;

  wire        v0, v1, v2, v3, v4, v5;
  wire [31:0] a0, b0;
  generate
    if (Pipelined != 0) begin : g_in
      assign v0  = valid_i;
      assign a0  = a_i;
      assign b0  = b_i;
    end else begin : g_hold
      wire busy_unused;
      units_hold #(.Width(64), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({a_i, b_i}), .busy_o(busy_unused),
        .valid_o(v0), .data_o({a0, b0}));
    end
  endgenerate

  wire [93:0]  s1_d, s1_q;
  wire [140:0] s2_d, s2_q;
  wire [116:0] s3_d, s3_q;
  wire [69:0] s4_d, s4_q;
  wire [68:0] s5_d, s5_q;
  wire [36:0] s6_d;
  fp32_mul_unpack u_unpack (.a_i(a0), .b_i(b0), .bundle_o(s1_d));
  units_pipe #(.Width(94), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v0), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));
  fp32_mul_pp u_pp (.bundle_i(s1_q), .bundle_o(s2_d));
  units_pipe #(.Width(141), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));
  fp32_mul_prod u_prod (.bundle_i(s2_q), .bundle_o(s3_d));
  units_pipe #(.Width(117), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(s3_d), .valid_o(v3), .data_o(s3_q));
  fp32_mul_norm u_norm (.bundle_i(s3_q), .bundle_o(s4_d));
  units_pipe #(.Width(70), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));
  fp32_round_inc #(.TestTruncate(TestTruncate)) u_inc (.bundle_i(s4_q), .bundle_o(s5_d));
  units_pipe #(.Width(69), .Depth(C5)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(s5_d), .valid_o(v5), .data_o(s5_q));
  fp32_round_pack u_pack (.bundle_i(s5_q), .result_o(s6_d[36:5]), .flags_o(s6_d[4:0]));
  units_pipe #(.Width(37), .Depth(DOut)) u_p6 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v5), .data_i(s6_d), .valid_o(valid_o), .data_o({result_o, flags_o}));
endmodule
