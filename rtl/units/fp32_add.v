`timescale 1ns/1ps
// fp32_add: IEEE-754 binary32 adder/subtractor/negator (op_i: 0 a + b, 1 a - b, 2 -b (sign flip of b, exact,
// bit-identical to C++ unary minus, no flags), 3 behaves as 0), round to nearest even, subnormals in and
// out, quiet NaN out 0x7FC00000 (except op 2, which keeps b's NaN bits with the sign flipped), flags in
// TestFloat order. Ports and timing: contract 6 (docs/units.md).
//
// Seven combinational sections: 1 classify + compare/swap + shift distance (fp32_add_swap) | 2 alignment
// shift + sticky (fp32_add_align) | 3 add/subtract (fp32_add_sum) | 4 leading zero count + shift clamp
// (fp32_add_lz) | 5 normalising shift + exponent (fp32_add_norm) | 6 rounding increment (fp32_round_inc) |
// 7 overflow, flags, packing (fp32_round_pack). Cut k is a register stage after section k.
// Pipelined = 1: Latency L uses the L-1 cuts of the table below (chosen from measured iCE40 Fmax,
//   docs/units.md), then one output register; Latency >= 7 uses all six cuts and Latency-6 output
//   registers.
// Pipelined = 0: operands registered, Latency-cycle multicycle datapath, busy for Latency cycles.
// TestTruncate = 1 (tests only): truncating rounding.
// CutMask (exploration only): -1 takes the table; otherwise bit k-1 enables cut k (at most Latency-1 bits).
module fp32_add #(
  parameter integer Latency      = 3,
  parameter integer Pipelined    = 1,
  parameter integer TestTruncate = 0,
  parameter integer CutMask      = -1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        valid_i,
  input  wire [1:0]  op_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  output wire        valid_o,
  output wire [31:0] result_o,
  output wire [4:0]  flags_o
);
  // Cuts per latency (bit k-1: cut after section k; decimal of the binary masks in the comments).
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 4 :    // 3
                             (Latency == 3) ? 10 :   // 2 4
                             (Latency == 4) ? 21 :   // 1 3 5
                             (Latency == 5) ? 45 :   // 1 3 4 6
                             (Latency == 6) ? 47 :   // 1 2 3 4 6
                             63;                     // 1 2 3 4 5 6
  localparam integer Mask = (Pipelined == 0) ? 0 : ((CutMask >= 0) ? CutMask : Table);
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer C5 = ((Mask & 16) != 0) ? 1 : 0;
  localparam integer C6 = ((Mask & 32) != 0) ? 1 : 0;
  localparam integer DOut = (Pipelined == 0) ? 0 : Latency - C1 - C2 - C3 - C4 - C5 - C6;

  wire        v0, v1, v2, v3, v4, v5, v6;
  wire [1:0]  op0;
  wire [31:0] a0, b0;
  generate
    if (Pipelined != 0) begin : g_in
      assign v0  = valid_i;
      assign op0 = op_i;
      assign a0  = a_i;
      assign b0  = b_i;
    end else begin : g_hold
      wire busy_unused;
      units_hold #(.Width(66), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({op_i, a_i, b_i}), .busy_o(busy_unused),
        .valid_o(v0), .data_o({op0, a0, b0}));
    end
  endgenerate

  wire [96:0] s1_d, s1_q;
  wire [97:0] s2_d, s2_q;
  wire [71:0] s3_d, s3_q;
  wire [76:0] s4_d, s4_q;
  wire [69:0] s5_d, s5_q;
  wire [68:0] s6_d, s6_q;
  wire [36:0] s7_d;
  fp32_add_swap u_swap (.op_i(op0), .a_i(a0), .b_i(b0), .bundle_o(s1_d));
  units_pipe #(.Width(97), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v0), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));
  fp32_add_align u_align (.bundle_i(s1_q), .bundle_o(s2_d));
  units_pipe #(.Width(98), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));
  fp32_add_sum u_sum (.bundle_i(s2_q), .bundle_o(s3_d));
  units_pipe #(.Width(72), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(s3_d), .valid_o(v3), .data_o(s3_q));
  fp32_add_lz u_lz (.bundle_i(s3_q), .bundle_o(s4_d));
  units_pipe #(.Width(77), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));
  fp32_add_norm u_norm (.bundle_i(s4_q), .bundle_o(s5_d));
  units_pipe #(.Width(70), .Depth(C5)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(s5_d), .valid_o(v5), .data_o(s5_q));
  fp32_round_inc #(.TestTruncate(TestTruncate)) u_inc (.bundle_i(s5_q), .bundle_o(s6_d));
  units_pipe #(.Width(69), .Depth(C6)) u_p6 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v5), .data_i(s6_d), .valid_o(v6), .data_o(s6_q));
  fp32_round_pack u_pack (.bundle_i(s6_q), .result_o(s7_d[36:5]), .flags_o(s7_d[4:0]));
  units_pipe #(.Width(37), .Depth(DOut)) u_p7 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v6), .data_i(s7_d), .valid_o(valid_o), .data_o({result_o, flags_o}));
endmodule
