`timescale 1ns/1ps
// fx_mul_round: second section of fx_mul (contract 4): q = p >> Frac (arithmetic, floor), rem = p mod 2^Frac,
// q += 1 if rem > 2^(Frac-1) or (rem == 2^(Frac-1) and q is odd) (round to nearest, ties to even), then
// saturate to [-2^(Width-1), 2^(Width-1)-1]. TestTruncate = 1 (tests only) drops the rounding increment.
module fx_mul_round #(
  parameter integer Width        = 32,
  parameter integer Frac         = 16,
  parameter integer TestTruncate = 0
) (
  input  wire [2*Width-1:0] prod_i,
  output wire [Width-1:0]   result_o
);
  wire [2*Width-1:0] q;
  wire               round_up;
  generate
    if (Frac == 0) begin : g_int
      assign q        = prod_i;
      assign round_up = 1'b0;
    end else begin : g_frac
      localparam [Frac-1:0] Half = {1'b1, {(Frac-1){1'b0}}};
      wire [Frac-1:0] rem = prod_i[Frac-1:0];
      assign q        = $signed(prod_i) >>> Frac;
      assign round_up = (TestTruncate != 0) ? 1'b0 : ((rem > Half) | ((rem == Half) & q[0]));
    end
  endgenerate
  // |q| <= 2^(2*Width-2-Frac): the increment cannot overflow 2*Width bits.
  wire [2*Width-1:0] qr = q + {{(2*Width-1){1'b0}}, round_up};
  wire fits = (qr[2*Width-1:Width-1] == {(Width+1){1'b0}}) | (qr[2*Width-1:Width-1] == {(Width+1){1'b1}});
  assign result_o = fits ? qr[Width-1:0] :
                    (qr[2*Width-1] ? {1'b1, {(Width-1){1'b0}}} : {1'b0, {(Width-1){1'b1}}});
endmodule
