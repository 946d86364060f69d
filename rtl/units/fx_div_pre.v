`timescale 1ns/1ps
// fx_div_pre: first part of fx_div: signs, magnitudes and the initial division state.
// State (4 + Width + (Width+1) + Width+Frac bits, MSB first): neg (quotient negative) a_neg (a < 0)
//   a_nz (a != 0) b_zero (b == 0) den (Width: |b|) rem (Width+1: partial remainder, 0) nq (Width+Frac:
//   numerator bits still to shift in at the top, quotient bits entering at the bottom; initially |a| * 2^Frac).
module fx_div_pre #(
  parameter integer Width = 32,
  parameter integer Frac  = 16
) (
  input  wire [Width-1:0]           a_i,
  input  wire [Width-1:0]           b_i,
  output wire [3*Width+Frac+4:0]    state_o
);
  wire             a_neg = a_i[Width-1];
  wire             b_neg = b_i[Width-1];
  wire [Width-1:0] na    = a_neg ? (~a_i + {{(Width-1){1'b0}}, 1'b1}) : a_i;  // |-2^(W-1)| = 2^(W-1) fits
  wire [Width-1:0] nb    = b_neg ? (~b_i + {{(Width-1){1'b0}}, 1'b1}) : b_i;
  wire [Width+Frac-1:0] nq;
  generate
    if (Frac == 0) begin : g_int
      assign nq = na;
    end else begin : g_frac
      assign nq = {na, {Frac{1'b0}}};
    end
  endgenerate
  assign state_o = {a_neg ^ b_neg, a_neg, a_i != {Width{1'b0}}, b_i == {Width{1'b0}}, nb, {(Width+1){1'b0}}, nq};
endmodule
