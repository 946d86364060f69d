`timescale 1ns/1ps
// fp32_add_deep: IEEE-754 binary32 adder/subtractor/negator with the semantics, ports and flags of fp32_add
// (contract 6, docs/units.md): the same result and flag bits. Its pipeline is cut finer, where the ECP5 needs it
// (docs/units.md, "Deep units"): fp32_add's first section (magnitude compare, exponent differences and swap)
// split in two, and the normalising shift's clamp folded into its leading zero count.
//
// Eight combinational sections: 1 classify, magnitude compare, exponent differences (fp32_add_deep_cmp) | 2 swap,
// shift distance (fp32_add_deep_sel) | 3 alignment shift + sticky (fp32_add_align) | 4 add/subtract, the shift limit as a mask
// (fp32_add_deep_sum) | 5 leading zero count of the masked sum (fp32_add_deep_lz) | 6 normalising shift + exponent
// (fp32_add_norm) | 7 rounding increment (fp32_round_inc) | 8 overflow, flags, packing (fp32_round_pack).
// Cut k is a register stage after section k; latency L takes the cuts of the table below (measured on the ECP5),
// then the remaining registers at the output. CutMask (exploration only): -1 takes the table, otherwise bit k-1
// enables cut k (at most Latency-1 bits). Always pipelined. TestTruncate = 1 (tests only): truncating rounding.
module fp32_add_deep #(
  parameter integer Latency      = 8,
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
  // Cuts per latency (bit k-1: cut after section k).
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 8 :    // 4
                             (Latency == 3) ? 20 :   // 3 5
                             (Latency == 4) ? 42 :   // 2 4 6
                             (Latency == 5) ? 43 :   // 1 2 4 6
                             (Latency == 6) ? 47 :   // 1 2 3 4 6
                             (Latency == 7) ? 63 :   // 1 2 3 4 5 6
                             127;                    // 1 2 3 4 5 6 7
  localparam integer Mask = (CutMask >= 0) ? CutMask : Table;
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer C5 = ((Mask & 16) != 0) ? 1 : 0;
  localparam integer C6 = ((Mask & 32) != 0) ? 1 : 0;
  localparam integer C7 = ((Mask & 64) != 0) ? 1 : 0;
  localparam integer DOut = Latency - C1 - C2 - C3 - C4 - C5 - C6 - C7;

  wire         v1, v2, v3, v4, v5, v6, v7;
  wire [108:0] s1_d, s1_q;
  wire [96:0]  s2_d, s2_q;
  wire [97:0]  s3_d, s3_q;
  wire [98:0]  s4_d, s4_q;
  wire [76:0]  s5_d, s5_q;
  wire [69:0]  s6_d, s6_q;
  wire [68:0]  s7_d, s7_q;
  wire [36:0]  s8_d;
  fp32_add_deep_cmp u_cmp (.op_i(op_i), .a_i(a_i), .b_i(b_i), .bundle_o(s1_d));
  units_pipe #(.Width(109), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));
  fp32_add_deep_sel u_sel (.bundle_i(s1_q), .bundle_o(s2_d));
  units_pipe #(.Width(97), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));
  fp32_add_align u_align (.bundle_i(s2_q), .bundle_o(s3_d));
  units_pipe #(.Width(98), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(s3_d), .valid_o(v3), .data_o(s3_q));
  fp32_add_deep_sum u_sum (.bundle_i(s3_q), .bundle_o(s4_d));
  units_pipe #(.Width(99), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));
  fp32_add_deep_lz u_lz (.bundle_i(s4_q), .bundle_o(s5_d));
  units_pipe #(.Width(77), .Depth(C5)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(s5_d), .valid_o(v5), .data_o(s5_q));
  fp32_add_norm u_norm (.bundle_i(s5_q), .bundle_o(s6_d));
  units_pipe #(.Width(70), .Depth(C6)) u_p6 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v5), .data_i(s6_d), .valid_o(v6), .data_o(s6_q));
  fp32_round_inc #(.TestTruncate(TestTruncate)) u_inc (.bundle_i(s6_q), .bundle_o(s7_d));
  units_pipe #(.Width(69), .Depth(C7)) u_p7 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v6), .data_i(s7_d), .valid_o(v7), .data_o(s7_q));
  fp32_round_pack u_pack (.bundle_i(s7_q), .result_o(s8_d[36:5]), .flags_o(s8_d[4:0]));
  units_pipe #(.Width(37), .Depth(DOut)) u_p8 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v7), .data_i(s8_d), .valid_o(valid_o), .data_o({result_o, flags_o}));
endmodule
