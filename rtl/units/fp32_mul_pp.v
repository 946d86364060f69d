`timescale 1ns/1ps
// fp32_mul_pp: section 2 of fp32_mul: the two 24x12-bit partial products of the normalised significands
// (b split in halves) and, beside them, the result exponent terms for both positions of the product's
// leading one (bit 47: e = exp1; bit 46: e = exp1 - 1), so that fp32_mul_norm only selects.
// Input: the fp32_mul_unpack bundle (94 bits). Output bundle (141 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sign (1) ehi (17) elo (17) pp_hi (36: siga * sigb[23:12])
//   pp_lo (36: siga * sigb[11:0]); ehi / elo: e_neg (1) e_zero (1) ovf_pre (1) field (8) sh (6)
module fp32_mul_pp (
  input  wire [93:0]  bundle_i,
  output wire [140:0] bundle_o
);
  wire [34:0] head = bundle_i[93:59];  // special, special_res, special_inv, sign
  wire [10:0] exp1 = bundle_i[58:48];
  wire [23:0] siga = bundle_i[47:24];
  wire [23:0] sigb = bundle_i[23:0];
  wire [35:0] pp_hi = {12'd0, siga} * {24'd0, sigb[23:12]};
  wire [35:0] pp_lo = {12'd0, siga} * {24'd0, sigb[11:0]};

  // Exponent terms of a product whose normalised value has the signed biased exponent e.
  function automatic [16:0] eterms;
    input [10:0] e;
    reg        e_neg, e_zero, ovf_pre;
    reg [10:0] sh_full;
    reg [5:0]  sh;
    reg [7:0]  field;
    begin
      e_neg   = e[10];
      e_zero  = (e == 11'd0);
      ovf_pre = ~e_neg & (e >= 11'd255);
      // Subnormal result: shift right by 1 - e (clamped; beyond 49 everything is sticky).
      sh_full = 11'd1 - e;
      sh      = (e_neg | e_zero) ? ((sh_full > 11'd63) ? 6'd63 : sh_full[5:0]) : 6'd0;
      field   = (e_neg | e_zero) ? 8'd0 : e[7:0];
      eterms  = {e_neg, e_zero, ovf_pre, field, sh};
    end
  endfunction

  wire [16:0] ehi = eterms(exp1);
  wire [16:0] elo = eterms(exp1 - 11'd1);

  assign bundle_o = {head, ehi, elo, pp_hi, pp_lo};
endmodule
