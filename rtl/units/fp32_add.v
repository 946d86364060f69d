`timescale 1ns/1ps
// fp32_add: IEEE-754 binary32 adder/subtractor/negator (op_i: 0 a + b, 1 a - b, 2 -b (sign flip of b, exact,
// bit-identical to C++ unary minus, no flags), 3 behaves as 0), round to nearest even, subnormals in and
// out, quiet NaN out 0x7FC00000 (except op 2, which keeps b's NaN bits with the sign flipped), flags in
// TestFloat order. Ports and timing: contract 6 (docs/units.md).
//
// Pipelined = 1: three combinational sections (classify+swap+align | add+normalise | round) with cuts
//   Latency 1: no cut, 1 output register; Latency 2: cut after alignment, output register;
//   Latency >= 3: cuts after alignment and after normalisation, then Latency-2 output registers.
// Pipelined = 0: operands registered, Latency-cycle multicycle datapath, busy for Latency cycles.
// TestTruncate = 1 (tests only): truncating rounding.
module fp32_add #(
  parameter integer Latency      = 3,
  parameter integer Pipelined    = 1,
  parameter integer TestTruncate = 0
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
  generate
    if (Pipelined != 0) begin : g_pipelined
      localparam integer D1 = (Latency >= 2) ? 1 : 0;
      localparam integer D2 = (Latency >= 3) ? 1 : 0;
      localparam integer D3 = Latency - D1 - D2;
      wire [97:0] s1_d, s1_q;
      wire [69:0] s2_d, s2_q;
      wire [36:0] s3_d;
      wire        v1_q, v2_q;
      fp32_add_align u_align (.op_i(op_i), .a_i(a_i), .b_i(b_i), .bundle_o(s1_d));
      units_pipe #(.Width(98), .Depth(D1)) u_p1 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(s1_d), .valid_o(v1_q), .data_o(s1_q));
      fp32_add_sum u_sum (.bundle_i(s1_q), .bundle_o(s2_d));
      units_pipe #(.Width(70), .Depth(D2)) u_p2 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1_q), .data_i(s2_d), .valid_o(v2_q), .data_o(s2_q));
      fp32_round #(.TestTruncate(TestTruncate)) u_round (
        .bundle_i(s2_q), .result_o(s3_d[36:5]), .flags_o(s3_d[4:0]));
      units_pipe #(.Width(37), .Depth(D3)) u_p3 (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2_q), .data_i(s3_d), .valid_o(valid_o),
        .data_o({result_o, flags_o}));
    end else begin : g_multicycle
      wire [65:0] ops_q;
      wire [97:0] s1;
      wire [69:0] s2;
      wire        busy_unused;
      units_hold #(.Width(66), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({op_i, a_i, b_i}), .busy_o(busy_unused),
        .valid_o(valid_o), .data_o(ops_q));
      fp32_add_align u_align (.op_i(ops_q[65:64]), .a_i(ops_q[63:32]), .b_i(ops_q[31:0]), .bundle_o(s1));
      fp32_add_sum u_sum (.bundle_i(s1), .bundle_o(s2));
      fp32_round #(.TestTruncate(TestTruncate)) u_round (.bundle_i(s2), .result_o(result_o), .flags_o(flags_o));
    end
  endgenerate
endmodule
