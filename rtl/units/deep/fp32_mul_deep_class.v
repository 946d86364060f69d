`timescale 1ns/1ps
// fp32_mul_deep_class: section 1 of fp32_mul_deep, the first half of fp32_mul_unpack: operand classes, special
// results, sign, the leading-zero counts of both significands (units_lzc32) and the sum of the biased exponents;
// the shifts, and the exponent's adjustment by the counts, are section 2 (fp32_mul_deep_shift).
// Output bundle (104 bits, MSB first): special (1) special_res (32) special_inv (1) sign (1) esum (11:
//   ea + eb - 126, subnormal exponents taken as 1) siga (24) sigb (24) lza (5) lzb (5).
module fp32_mul_deep_class (
  input  wire [31:0]  a_i,
  input  wire [31:0]  b_i,
  output wire [103:0] bundle_o
);
  localparam [31:0] QNan = 32'h7FC00000;
  wire        sa = a_i[31];
  wire        sb = b_i[31];
  wire [7:0]  ea = a_i[30:23];
  wire [7:0]  eb = b_i[30:23];
  wire [22:0] ma = a_i[22:0];
  wire [22:0] mb = b_i[22:0];

  wire a_nan  = (ea == 8'hFF) & (ma != 23'd0);
  wire b_nan  = (eb == 8'hFF) & (mb != 23'd0);
  wire a_snan = a_nan & ~ma[22];
  wire b_snan = b_nan & ~mb[22];
  wire a_inf  = (ea == 8'hFF) & (ma == 23'd0);
  wire b_inf  = (eb == 8'hFF) & (mb == 23'd0);
  wire a_zero = (ea == 8'h00) & (ma == 23'd0);
  wire b_zero = (eb == 8'h00) & (mb == 23'd0);
  wire sign   = sa ^ sb;

  wire inf_times_zero = (a_inf & b_zero) | (a_zero & b_inf);
  wire res_nan  = a_nan | b_nan | inf_times_zero;
  wire special  = res_nan | a_inf | b_inf | a_zero | b_zero;
  wire [31:0] special_res = res_nan ? QNan :
                            ((a_inf | b_inf) ? {sign, 8'hFF, 23'd0} : {sign, 31'd0});
  wire special_inv = a_snan | b_snan | inf_times_zero;

  wire [23:0] siga = {(ea != 8'h00), ma};
  wire [23:0] sigb = {(eb != 8'h00), mb};
  wire [4:0]  lza, lzb;
  units_lzc32 u_lza (.x_i({siga, 8'hFF}), .count_o(lza));  // 24 when siga is 0
  units_lzc32 u_lzb (.x_i({sigb, 8'hFF}), .count_o(lzb));
  wire [10:0] ea_eff = {3'b000, (ea == 8'h00) ? 8'h01 : ea};
  wire [10:0] eb_eff = {3'b000, (eb == 8'h00) ? 8'h01 : eb};
  wire [10:0] esum = ea_eff + eb_eff - 11'd126;

  assign bundle_o = {special, special_res, special_inv, sign, esum, siga, sigb, lza, lzb};
endmodule
