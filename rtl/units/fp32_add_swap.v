`timescale 1ns/1ps
// fp32_add_swap: section 1 of fp32_add: operation select (op_i: 0 a+b, 1 a-b, 2 -b, 3 as 0), operand
// classes and special results, magnitude compare and swap, alignment shift distance (both exponent
// differences are computed beside the compare, the swap selects one). Output bundle (97 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sign (1: of the larger magnitude) sub (1: effective
//   subtraction) e_big (8: effective biased exponent, >= 1) sig_big (24) sig_small (24) (hidden bit and
//   fraction) sh (5: alignment shift, clamped to 27)
module fp32_add_swap (
  input  wire [1:0]  op_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  output wire [96:0] bundle_o
);
  localparam [31:0] QNan = 32'h7FC00000;
  wire        is_neg = (op_i == 2'd2);
  wire        sa = a_i[31];
  wire        sb = b_i[31] ^ (op_i == 2'd1);  // effective sign of b
  wire [7:0]  ea = a_i[30:23];
  wire [7:0]  eb = b_i[30:23];
  wire [22:0] ma = a_i[22:0];
  wire [22:0] mb = b_i[22:0];

  wire a_nan  = (ea == 8'hFF) & (ma != 23'd0);
  wire b_nan  = (eb == 8'hFF) & (mb != 23'd0);
  wire a_inf  = (ea == 8'hFF) & (ma == 23'd0);
  wire b_inf  = (eb == 8'hFF) & (mb == 23'd0);
  wire inf_minus_inf = a_inf & b_inf & (sa != sb);
  wire res_nan  = a_nan | b_nan | inf_minus_inf;
  // Negation is a sign flip of b (exact, no flags, NaN payload and sign kept) like C++ unary minus.
  wire special  = is_neg | res_nan | a_inf | b_inf;
  wire [31:0] special_res = is_neg ? {~b_i[31], b_i[30:0]} :
                            res_nan ? QNan :
                            a_inf ? {sa, 8'hFF, 23'd0} : {sb, 8'hFF, 23'd0};
  wire special_inv = ~is_neg & ((a_nan & ~ma[22]) | (b_nan & ~mb[22]) | inf_minus_inf);

  // Larger magnitude first (finite operands: {exponent, fraction} orders the magnitudes).
  wire        swap    = (b_i[30:0] > a_i[30:0]);
  wire [30:0] greater = swap ? b_i[30:0] : a_i[30:0];
  wire [30:0] lesser  = swap ? a_i[30:0] : b_i[30:0];
  wire        sign    = swap ? sb : sa;
  wire        sub     = (sa != sb);
  wire [7:0]  e_big   = (greater[30:23] == 8'h00) ? 8'h01 : greater[30:23];
  // e_big - e_small for either order, beside the compare (the unselected difference is not used).
  wire [7:0]  ea_eff  = (ea == 8'h00) ? 8'h01 : ea;
  wire [7:0]  eb_eff  = (eb == 8'h00) ? 8'h01 : eb;
  wire [7:0]  d_ab    = ea_eff - eb_eff;
  wire [7:0]  d_ba    = eb_eff - ea_eff;
  wire [4:0]  sh_ab   = (d_ab > 8'd27) ? 5'd27 : d_ab[4:0];
  wire [4:0]  sh_ba   = (d_ba > 8'd27) ? 5'd27 : d_ba[4:0];
  wire [4:0]  sh      = swap ? sh_ba : sh_ab;
  wire [23:0] sig_big   = {(greater[30:23] != 8'h00), greater[22:0]};
  wire [23:0] sig_small = {(lesser[30:23] != 8'h00), lesser[22:0]};

  assign bundle_o = {special, special_res, special_inv, sign, sub, e_big, sig_big, sig_small, sh};
endmodule
