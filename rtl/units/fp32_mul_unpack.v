`timescale 1ns/1ps
// fp32_mul_unpack: section 1 of fp32_mul: operand classes, special results, sign, and the significands
// normalised (a subnormal's leading one shifted up to bit 23) with the exponent of the product adjusted by
// both shifts. The product of the normalised significands then has its leading one at bit 47 or 46, so
// fp32_mul_norm needs a one-bit normalisation instead of a 48-bit leading zero count and shift.
// Output bundle (94 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sign (1) exp1 (11, signed: biased exponent of the product
//   when its leading one is at bit 47) siga (24) sigb (24)
module fp32_mul_unpack (
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  output wire [93:0] bundle_o
);
  localparam [31:0] QNan = 32'h7FC00000;
  wire       sa = a_i[31];
  wire       sb = b_i[31];
  wire [7:0] ea = a_i[30:23];
  wire [7:0] eb = b_i[30:23];
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

  // Leading zero count of a 24-bit significand (24 when zero: a zero operand is special, the rest of the
  // datapath is then not used).
  function automatic [4:0] lzc24;
    input [23:0] x;
    integer i;
    reg found;
    begin
      lzc24 = 5'd24;
      found = 1'b0;
      for (i = 23; i >= 0; i = i - 1) begin
        if (!found && x[i]) begin
          lzc24 = 5'd23 - i[4:0];
          found = 1'b1;
        end
      end
    end
  endfunction

  // Subnormals: exponent field 0 means 2^-126 with no hidden bit.
  wire [23:0] siga = {(ea != 8'h00), ma};
  wire [23:0] sigb = {(eb != 8'h00), mb};
  wire [4:0]  lza  = lzc24(siga);
  wire [4:0]  lzb  = lzc24(sigb);
  wire [10:0] ea_eff = {3'b000, (ea == 8'h00) ? 8'h01 : ea};
  wire [10:0] eb_eff = {3'b000, (eb == 8'h00) ? 8'h01 : eb};
  // prod / 2^47 in [1,2) corresponds to the biased exponent ea + eb - 127 + 1, less the normalising shifts.
  wire [10:0] exp1 = ea_eff + eb_eff - 11'd126 - {6'd0, lza} - {6'd0, lzb};
  wire [23:0] siga_n = siga << lza;
  wire [23:0] sigb_n = sigb << lzb;

  assign bundle_o = {special, special_res, special_inv, sign, exp1, siga_n, sigb_n};
endmodule
