`timescale 1ns/1ps
// fx_add_deep: fixed-point adder/subtractor/negator (op_i: 0 a + b, 1 a - b, 2 saturating -b, 3 as 0), format
// fixed:I.F with Width = I + F (contract 4): exact result, then saturation. The same result bits as fx_add; the
// pipeline is cut around the carry chain (docs/units.md, "Deep units").
// Three combinational sections:
//   1 the operation folded into the adder's inputs: b inverted with a carry in for a - b and -b, a replaced by 0
//     for -b (one LUT level);
//   2 the exact (Width+1)-bit sum: one carry chain and no multiplexer after it;
//   3 saturation to [-2^(Width-1), 2^(Width-1)-1] (overflow iff the two top bits of the sum differ).
// Cut k is a register stage after section k: latency 1 none, 2 cut 2, Latency >= 3 cuts 1 and 2 (measured on the
// ECP5, docs/units.md), then the remaining registers at the output. CutMask (exploration only): -1 takes the
// table, otherwise bit k-1 enables cut k (at most Latency-1 bits). Always pipelined: one operation per cycle.
module fx_add_deep #(
  parameter integer Width   = 32,
  /* verilator lint_off UNUSEDPARAM */
  parameter integer Frac    = 16,  // interface uniformity only: the binary point does not change the sum
  /* verilator lint_on UNUSEDPARAM */
  parameter integer Latency = 3,
  parameter integer CutMask = -1
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
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 2 :    // 2
                             3;                      // 1 2
  localparam integer Mask = (CutMask >= 0) ? CutMask : Table;
  localparam integer C1   = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2   = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer DOut = Latency - C1 - C2;

  // Section 1.
  wire           sub = (op_i == 2'd1) | (op_i == 2'd2);
  wire [Width:0] ax  = (op_i == 2'd2) ? {(Width+1){1'b0}} : {a_i[Width-1], a_i};
  wire [Width:0] bx  = {b_i[Width-1], b_i} ^ {(Width+1){sub}};
  wire [2*Width+2:0] s1_q;
  wire               v1;
  units_pipe #(.Width(2*Width+3), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({sub, ax, bx}), .valid_o(v1), .data_o(s1_q));

  // Section 2.
  wire [Width:0] sum_d = s1_q[2*Width+1:Width+1] + s1_q[Width:0] + {{Width{1'b0}}, s1_q[2*Width+2]};
  wire [Width:0] sum_q;
  wire           v2;
  units_pipe #(.Width(Width+1), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(sum_d), .valid_o(v2), .data_o(sum_q));

  // Section 3, then the output registers.
  wire [Width-1:0] res_d = (sum_q[Width] == sum_q[Width-1]) ? sum_q[Width-1:0] :
                           (sum_q[Width] ? {1'b1, {(Width-1){1'b0}}} : {1'b0, {(Width-1){1'b1}}});
  units_pipe #(.Width(Width), .Depth(DOut)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(res_d), .valid_o(valid_o), .data_o(result_o));
endmodule
