`timescale 1ns/1ps
// add4: a 4-bit adder between registers, the smallest design with a register-to-register path through a few
// cells: the committed Yosys and OpenSTA reports of tests/cost/test_asic.cpp were made from it (tests/cost/README.md).
module add4 (
  input  wire       clk_i,
  input  wire [3:0] a_i,
  input  wire [3:0] b_i,
  output reg  [4:0] s_o
);
  reg [3:0] a_q, b_q;
  always @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
    s_o <= a_q + b_q;
  end
endmodule
