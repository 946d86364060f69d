`timescale 1ns/1ps
// fp32_mul_deep: IEEE-754 binary32 multiplier with the semantics, ports and flags of fp32_mul (contract 6,
// docs/units.md): the same result and flag bits. Its pipeline is cut finer, where the device has its registers
// (docs/units.md, "Deep units"): fp32_mul's unpack split in two, its two 24x12 partial products replaced by four
// 12x12 ones (one multiplier block each, nothing after them in the stage), their sum in two carry chains, and the
// normalisation's subnormal shift in two halves.
//
// Nine combinational sections: 1 classify, leading-zero counts, exponent sum (fp32_mul_deep_class) | 2 subnormal
// significands shifted, exponent (fp32_mul_deep_shift) | 3 four 12x12 partial products, exponent terms
// (fp32_mul_deep_pp) | 4 middle products summed (fp32_mul_deep_mid) | 5 the 48-bit product (fp32_mul_deep_sum) |
// 6 one-bit normalisation, tininess, coarse subnormal shift (fp32_mul_deep_norm) | 7 fine subnormal shift, guard
// and sticky (fp32_mul_deep_fine) | 8 rounding increment (fp32_round_inc) | 9 overflow, flags, packing
// (fp32_round_pack). Cut k is a register stage after section k; latency L takes the cuts of the
// table below (measured on the ECP5), then the remaining registers at the output. CutMask (exploration only): -1
// takes the table, otherwise bit k-1 enables cut k (at most Latency-1 bits). Always pipelined.
// TestTruncate = 1 (tests only): truncating rounding.
module fp32_mul_deep #(
  parameter integer Latency      = 8,
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
  // Cuts per latency (bit k-1: cut after section k).
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 16 :   // 5
                             (Latency == 3) ? 20 :   // 3 5
                             (Latency == 4) ? 52 :   // 3 5 6
                             (Latency == 5) ? 53 :   // 1 3 5 6
                             (Latency == 6) ? 117 :  // 1 3 5 6 7
                             (Latency == 7) ? 119 :  // 1 2 3 5 6 7
                             (Latency == 8) ? 127 :  // 1 2 3 4 5 6 7
                             255;                    // 1 2 3 4 5 6 7 8
  localparam integer Mask = (CutMask >= 0) ? CutMask : Table;
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer C5 = ((Mask & 16) != 0) ? 1 : 0;
  localparam integer C6 = ((Mask & 32) != 0) ? 1 : 0;
  localparam integer C7 = ((Mask & 64) != 0) ? 1 : 0;
  localparam integer C8 = ((Mask & 128) != 0) ? 1 : 0;
  localparam integer DOut = Latency - C1 - C2 - C3 - C4 - C5 - C6 - C7 - C8;

  wire         v1, v2, v3, v4, v5, v6, v7, v8;
  wire [103:0] s1_d, s1_q;
  wire [93:0]  s2_d, s2_q;
  wire [164:0] s3_d, s3_q;
  wire [141:0] s4_d, s4_q;
  wire [116:0] s5_d, s5_q;
  wire [96:0]  s6_d, s6_q;
  wire [69:0]  s7_d, s7_q;
  wire [68:0]  s8_d, s8_q;
  wire [36:0]  s9_d;
  fp32_mul_deep_class u_class (.a_i(a_i), .b_i(b_i), .bundle_o(s1_d));
  units_pipe #(.Width(104), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));
  fp32_mul_deep_shift u_shift (.bundle_i(s1_q), .bundle_o(s2_d));
  units_pipe #(.Width(94), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));
  fp32_mul_deep_pp u_pp (.bundle_i(s2_q), .bundle_o(s3_d));
  units_pipe #(.Width(165), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(s3_d), .valid_o(v3), .data_o(s3_q));
  fp32_mul_deep_mid u_mid (.bundle_i(s3_q), .bundle_o(s4_d));
  units_pipe #(.Width(142), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));
  fp32_mul_deep_sum u_sum (.bundle_i(s4_q), .bundle_o(s5_d));
  units_pipe #(.Width(117), .Depth(C5)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(s5_d), .valid_o(v5), .data_o(s5_q));
  fp32_mul_deep_norm u_norm (.bundle_i(s5_q), .bundle_o(s6_d));
  units_pipe #(.Width(97), .Depth(C6)) u_p6 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v5), .data_i(s6_d), .valid_o(v6), .data_o(s6_q));
  fp32_mul_deep_fine u_fine (.bundle_i(s6_q), .bundle_o(s7_d));
  units_pipe #(.Width(70), .Depth(C7)) u_p7 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v6), .data_i(s7_d), .valid_o(v7), .data_o(s7_q));
  fp32_round_inc #(.TestTruncate(TestTruncate)) u_inc (.bundle_i(s7_q), .bundle_o(s8_d));
  units_pipe #(.Width(69), .Depth(C8)) u_p8 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v7), .data_i(s8_d), .valid_o(v8), .data_o(s8_q));
  fp32_round_pack u_pack (.bundle_i(s8_q), .result_o(s9_d[36:5]), .flags_o(s9_d[4:0]));
  units_pipe #(.Width(37), .Depth(DOut)) u_p9 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v8), .data_i(s9_d), .valid_o(valid_o), .data_o({result_o, flags_o}));
endmodule
