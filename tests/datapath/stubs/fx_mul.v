`timescale 1ns/1ps
// TEST STUB (until branch units lands): contract-4 fixed-point multiplier with the ports of contract 6.
module fx_mul #(parameter integer Width = 32, parameter integer Frac = 16, parameter integer Latency = 1,
                parameter integer Pipelined = 1) (
  input wire clk_i, input wire rst_ni, input wire valid_i, input wire [Width-1:0] a_i, input wire [Width-1:0] b_i,
  output wire valid_o, output wire [Width-1:0] result_o);
  localparam integer W2 = 2 * Width;
  wire signed [W2-1:0] p = $signed({{Width{a_i[Width-1]}}, a_i}) * $signed({{Width{b_i[Width-1]}}, b_i});
  wire signed [W2-1:0] q0 = p >>> Frac;
  wire [W2-1:0] rem = p - (q0 <<< Frac);
  wire [W2-1:0] half = {{(W2-1){1'b0}}, 1'b1} << (Frac > 0 ? Frac - 1 : 0);
  wire up = (Frac > 0) && ((rem > half) || (rem == half && q0[0]));
  wire signed [W2-1:0] q = q0 + {{(W2-1){1'b0}}, up};
  wire signed [W2-1:0] hi = {{(Width+1){1'b0}}, {(Width-1){1'b1}}};
  wire signed [W2-1:0] lo = ~hi;
  wire [Width-1:0] r = (q > hi) ? hi[Width-1:0] : ((q < lo) ? lo[Width-1:0] : q[Width-1:0]);
  stub_pipe #(.Width(Width), .Latency(Latency)) u_pipe (.clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .d_i(r),
    .valid_o(valid_o), .q_o(result_o));
  wire unused = Pipelined[0];
endmodule
