`timescale 1ns/1ps
// fx_fma_round: second section of fx_fma (contract 4, num::fixed::fma): the exact s = a*b + c*2^Frac
// (2*Width+1 bits) to q = s >> Frac (arithmetic, floor), rem = s mod 2^Frac, q += 1 if rem > 2^(Frac-1) or
// (rem == 2^(Frac-1) and q is odd) (round to nearest, ties to even), then saturate to
// [-2^(Width-1), 2^(Width-1)-1].
module fx_fma_round #(
  parameter integer Width = 32,
  parameter integer Frac  = 16
) (
  input  wire [2*Width:0] sum_i,
  output wire [Width-1:0] result_o
);
  wire [2*Width:0] q;
  wire             round_up;
  generate
    if (Frac == 0) begin : g_int
      assign q        = sum_i;
      assign round_up = 1'b0;
    end else begin : g_frac
      localparam [Frac-1:0] Half = {1'b1, {(Frac-1){1'b0}}};
      wire [Frac-1:0] rem = sum_i[Frac-1:0];
      assign q        = $signed(sum_i) >>> Frac;
      assign round_up = (rem > Half) | ((rem == Half) & q[0]);
    end
  endgenerate
  // |q| < 2^(2*Width-1-Frac): the increment cannot overflow 2*Width+1 bits.
  wire [2*Width:0] qr = q + {{(2*Width){1'b0}}, round_up};
  wire fits = (qr[2*Width:Width-1] == {(Width+2){1'b0}}) | (qr[2*Width:Width-1] == {(Width+2){1'b1}});
  assign result_o = fits ? qr[Width-1:0] :
                    (qr[2*Width] ? {1'b1, {(Width-1){1'b0}}} : {1'b0, {(Width-1){1'b1}}});
endmodule
