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
  // Classes, special results and sign are fp32_mul_unpack's (one definition); its shifts and exponent are not used
  // here and synthesis removes them.
  wire [93:0] unpack;
  fp32_mul_unpack u_unpack (.a_i(a_i), .b_i(b_i), .bundle_o(unpack));
  wire unused_unpack = ^unpack[58:0];

  wire [7:0]  ea = a_i[30:23];
  wire [7:0]  eb = b_i[30:23];
  wire [23:0] siga = {(ea != 8'h00), a_i[22:0]};
  wire [23:0] sigb = {(eb != 8'h00), b_i[22:0]};
  wire [4:0]  lza, lzb;
  units_lzc32 u_lza (.x_i({siga, 8'hFF}), .count_o(lza));  // 24 when siga is 0
  units_lzc32 u_lzb (.x_i({sigb, 8'hFF}), .count_o(lzb));
  wire [10:0] ea_eff = {3'b000, (ea == 8'h00) ? 8'h01 : ea};
  wire [10:0] eb_eff = {3'b000, (eb == 8'h00) ? 8'h01 : eb};
  wire [10:0] esum = ea_eff + eb_eff - 11'd126;

  assign bundle_o = {unpack[93:59], esum, siga, sigb, lza, lzb};
endmodule
