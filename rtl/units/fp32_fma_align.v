`timescale 1ns/1ps
// fp32_fma_align: section 3 of fp32_fma: normalise the product by one bit (exact), compare the magnitudes of
// the product and c (both 48-bit significands with their leading one at bit 47), swap so that `big` is the
// larger, and align `small` to it: both in a 50-bit frame ({sig, 2'b00}), small shifted right by the exponent
// difference with every shifted-out bit ORed into bit 0 (sticky). The retained bits of both are then
// multiples of 2 and the sticky sits below them, so big -/+ small rounds as the exact sum at any position
// above bit 0 (the result's guard bit is at bit 24 or higher).
// Input: the fp32_fma_prod bundle (131 bits). Output bundle (147 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sign (1: of big) sub (1) e_big (11, signed) big (50) small (50)
module fp32_fma_align (
  input  wire [130:0] bundle_i,
  output wire [146:0] bundle_o
);
  wire [33:0] head   = bundle_i[130:97];
  wire        sp     = bundle_i[96];
  wire        sc     = bundle_i[95];
  wire        c_zero = bundle_i[94];
  wire [10:0] pexp   = bundle_i[93:83];
  wire [10:0] cexp   = bundle_i[82:72];
  wire [23:0] sigc   = bundle_i[71:48];
  wire [47:0] prod   = bundle_i[47:0];

  wire [47:0] p_n  = prod[47] ? prod : {prod[46:0], 1'b0};
  wire [10:0] p_e  = prod[47] ? pexp : (pexp - 11'd1);
  wire [47:0] c_n  = {sigc, 24'd0};
  // c is bigger: larger exponent, or equal exponent and larger significand (signed exponent compare).
  wire        e_gt  = $signed(cexp) > $signed(p_e);
  wire        e_eq  = (cexp == p_e);
  wire        c_big = ~c_zero & (e_gt | (e_eq & (c_n > p_n)));
  wire [47:0] big_s   = c_big ? c_n : p_n;
  wire [47:0] small_s = c_big ? p_n : (c_zero ? 48'd0 : c_n);
  wire [10:0] e_big   = c_big ? cexp : p_e;
  wire [10:0] diff    = c_big ? (cexp - p_e) : (p_e - cexp);
  wire [5:0]  d       = (c_zero || diff > 11'd63) ? 6'd63 : diff[5:0];

  wire [49:0] s_ext = {small_s, 2'b00};
  wire [49:0] s_sh  = s_ext >> d;
  wire [49:0] lostm = s_ext & ~({50{1'b1}} << d);
  wire [49:0] sml = {s_sh[49:1], s_sh[0] | (|lostm)};

  assign bundle_o = {head, c_big ? sc : sp, sp ^ sc, e_big, big_s, 2'b00, sml};
endmodule
