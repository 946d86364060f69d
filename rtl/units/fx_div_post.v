`timescale 1ns/1ps
// fx_div_post: last part of fx_div (num::fixed::div): round the quotient to nearest, ties to even
// (q += 1 if 2 rem > |b| or 2 rem == |b| and q odd), apply the sign, saturate to [-2^(Width-1), 2^(Width-1)-1];
// b == 0 saturates toward the sign of a (0 / 0 = 0).
module fx_div_post #(
  parameter integer Width = 32,
  parameter integer Frac  = 16
) (
  input  wire [3*Width+Frac+4:0] state_i,
  output wire [Width-1:0]        result_o
);
  localparam integer NB = Width + Frac;
  localparam [Width-1:0] Max = {1'b0, {(Width-1){1'b1}}};
  localparam [Width-1:0] Min = {1'b1, {(Width-1){1'b0}}};
  wire             neg    = state_i[3*Width+Frac+4];
  wire             a_neg  = state_i[3*Width+Frac+3];
  wire             a_nz   = state_i[3*Width+Frac+2];
  wire             b_zero = state_i[3*Width+Frac+1];
  wire [Width-1:0] den    = state_i[2*Width+NB:Width+1+NB];
  wire [Width:0]   rem    = state_i[Width+NB:NB];
  wire [NB-1:0]    q      = state_i[NB-1:0];
  wire [Width+1:0] rem2   = {rem, 1'b0};
  wire [Width+1:0] den2   = {2'b00, den};
  wire             up     = (rem2 > den2) | ((rem2 == den2) & q[0]);
  wire [NB:0]      qr     = {1'b0, q} + {{NB{1'b0}}, up};
  // Magnitude limits: 2^(W-1) for a negative result, 2^(W-1) - 1 for a positive one.
  wire [NB:0]      lim    = {{(NB-Width+1){1'b0}}, Min} - {{NB{1'b0}}, ~neg};
  wire             sat    = qr > lim;
  wire [Width-1:0] mag    = qr[Width-1:0];
  wire [Width-1:0] val    = sat ? (neg ? Min : Max) : (neg ? (~mag + {{(Width-1){1'b0}}, 1'b1}) : mag);
  assign result_o = b_zero ? (a_nz ? (a_neg ? Min : Max) : {Width{1'b0}}) : val;
endmodule
