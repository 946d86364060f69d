`timescale 1ns/1ps
// fp32_div: IEEE-754 binary32 divider a / b, round to nearest even, subnormals in and out, quiet NaN out
// (always 0x7FC00000), flags in TestFloat order (bit0 inexact, 1 underflow (tininess after rounding),
// 2 overflow, 3 divide-by-zero, 4 invalid). Ports and timing: contract 6 (docs/units.md), like fp32_mul.
//
// Nine combinational sections: 1 classify, specials, normalise significands (fp32_div_unpack) | 2..6 five
// bits each of restoring division (fp32_div_iter: 25 quotient bits = 24 + guard, the remainder is the
// sticky bit) | 7 exponent range, tininess, subnormal shift (fp32_div_norm) | 8 rounding increment
// (fp32_round_inc) | 9 overflow, flags, packing (fp32_round_pack). Cut k is a register stage after section k.
// Pipelined = 1: Latency L uses the L-1 cuts of the table below (chosen by logic depth: the division steps
//   are the deep part; not a measured sweep), then one output register; Latency 7 cuts 1..6, 8 cuts 1..7,
//   Latency >= 9 all eight cuts and L-8 output registers.
// Pipelined = 0: operands are registered, the whole datapath is a Latency-cycle multicycle path and the
//   unit is busy for Latency cycles (units_hold): the iterative, non-pipelined variant.
// CutMask (exploration only): -1 takes the table; otherwise bit k-1 enables cut k (at most Latency-1 bits).
module fp32_div #(
  parameter integer Latency   = 6,
  parameter integer Pipelined = 1,
  parameter integer CutMask   = -1
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
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 8 :    // 4
                             (Latency == 3) ? 20 :   // 3 5
                             (Latency == 4) ? 42 :   // 2 4 6
                             (Latency == 5) ? 46 :   // 2 3 4 6
                             (Latency == 6) ? 62 :   // 2 3 4 5 6
                             (Latency == 7) ? 63 :   // 1 .. 6
                             (Latency == 8) ? 127 :  // 1 .. 7
                             255;                    // 1 .. 8
  localparam integer Mask = (Pipelined == 0) ? 0 : ((CutMask >= 0) ? CutMask : Table);
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer C5 = ((Mask & 16) != 0) ? 1 : 0;
  localparam integer C6 = ((Mask & 32) != 0) ? 1 : 0;
  localparam integer C7 = ((Mask & 64) != 0) ? 1 : 0;
  localparam integer C8 = ((Mask & 128) != 0) ? 1 : 0;
  localparam integer DOut = (Pipelined == 0) ? 0 : Latency - C1 - C2 - C3 - C4 - C5 - C6 - C7 - C8;

  wire        v0, v1, v2, v3, v4, v5, v6, v7, v8;
  wire [31:0] a0, b0;
  generate
    if (Pipelined != 0) begin : g_in
      assign v0 = valid_i;
      assign a0 = a_i;
      assign b0 = b_i;
    end else begin : g_hold
      wire busy_unused;
      units_hold #(.Width(64), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({a_i, b_i}), .busy_o(busy_unused),
        .valid_o(v0), .data_o({a0, b0}));
    end
  endgenerate

  wire [121:0] s1_d, s1_q, s2_d, s2_q, s3_d, s3_q, s4_d, s4_q, s5_d, s5_q, s6_d, s6_q;
  wire [70:0]  s7_d, s7_q;
  wire [69:0]  s8_d, s8_q;
  wire [36:0]  s9_d;
  fp32_div_unpack u_unpack (.a_i(a0), .b_i(b0), .bundle_o(s1_d));
  units_pipe #(.Width(122), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v0), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));
  fp32_div_iter #(.Bits(5)) u_it2 (.bundle_i(s1_q), .bundle_o(s2_d));
  units_pipe #(.Width(122), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));
  fp32_div_iter #(.Bits(5)) u_it3 (.bundle_i(s2_q), .bundle_o(s3_d));
  units_pipe #(.Width(122), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(s3_d), .valid_o(v3), .data_o(s3_q));
  fp32_div_iter #(.Bits(5)) u_it4 (.bundle_i(s3_q), .bundle_o(s4_d));
  units_pipe #(.Width(122), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));
  fp32_div_iter #(.Bits(5)) u_it5 (.bundle_i(s4_q), .bundle_o(s5_d));
  units_pipe #(.Width(122), .Depth(C5)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(s5_d), .valid_o(v5), .data_o(s5_q));
  fp32_div_iter #(.Bits(5)) u_it6 (.bundle_i(s5_q), .bundle_o(s6_d));
  units_pipe #(.Width(122), .Depth(C6)) u_p6 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v5), .data_i(s6_d), .valid_o(v6), .data_o(s6_q));
  fp32_div_norm u_norm (.bundle_i(s6_q), .bundle_o(s7_d));
  units_pipe #(.Width(71), .Depth(C7)) u_p7 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v6), .data_i(s7_d), .valid_o(v7), .data_o(s7_q));
  // The divide-by-zero bit travels beside the shared rounding sections.
  fp32_round_inc u_inc (.bundle_i(s7_q[69:0]), .bundle_o(s8_d[68:0]));
  assign s8_d[69] = s7_q[70];
  units_pipe #(.Width(70), .Depth(C8)) u_p8 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v7), .data_i(s8_d), .valid_o(v8), .data_o(s8_q));
  wire [4:0] pack_flags;
  fp32_round_pack u_pack (.bundle_i(s8_q[68:0]), .result_o(s9_d[36:5]), .flags_o(pack_flags));
  assign s9_d[4:0] = pack_flags | {1'b0, s8_q[69], 3'b000};
  units_pipe #(.Width(37), .Depth(DOut)) u_p9 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v8), .data_i(s9_d), .valid_o(valid_o), .data_o({result_o, flags_o}));
endmodule
