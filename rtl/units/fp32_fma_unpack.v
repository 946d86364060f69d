`timescale 1ns/1ps
// fp32_fma_unpack: section 1 of fp32_fma (a * b + c): operand classes, special results, signs, and the three
// significands normalised (a subnormal's leading one shifted up to bit 23) with the exponents adjusted.
// Special results (SoftFloat f32_mulAdd): any NaN operand, inf x 0 (invalid whatever c is) or inf x finite +
// inf of the opposite sign (invalid) give the quiet NaN; a signalling NaN operand is invalid; an infinite
// product or an infinite c gives that infinity; a zero product gives c (exact), or for c = +-0 the zero
// whose sign is negative only if both addends are negative.
// Output bundle (131 bits, MSB first):
//   special (1) special_res (32) special_inv (1) sp (1: product sign) sc (1: c sign) c_zero (1)
//   pexp (11, signed: biased exponent of the product when its leading one is at bit 47)
//   cexp (11, signed: biased exponent of c) siga (24) sigb (24) sigc (24)
module fp32_fma_unpack (
  input  wire [31:0]  a_i,
  input  wire [31:0]  b_i,
  input  wire [31:0]  c_i,
  output wire [130:0] bundle_o
);
  localparam [31:0] QNan = 32'h7FC00000;
  wire [7:0]  ea = a_i[30:23];
  wire [7:0]  eb = b_i[30:23];
  wire [7:0]  ec = c_i[30:23];
  wire [22:0] ma = a_i[22:0];
  wire [22:0] mb = b_i[22:0];
  wire [22:0] mc = c_i[22:0];

  wire a_nan  = (ea == 8'hFF) & (ma != 23'd0);
  wire b_nan  = (eb == 8'hFF) & (mb != 23'd0);
  wire c_nan  = (ec == 8'hFF) & (mc != 23'd0);
  wire any_snan = (a_nan & ~ma[22]) | (b_nan & ~mb[22]) | (c_nan & ~mc[22]);
  wire a_inf  = (ea == 8'hFF) & (ma == 23'd0);
  wire b_inf  = (eb == 8'hFF) & (mb == 23'd0);
  wire c_inf  = (ec == 8'hFF) & (mc == 23'd0);
  wire a_zero = (ea == 8'h00) & (ma == 23'd0);
  wire b_zero = (eb == 8'h00) & (mb == 23'd0);
  wire c_zero = (ec == 8'h00) & (mc == 23'd0);
  wire sp     = a_i[31] ^ b_i[31];
  wire sc     = c_i[31];

  wire inf_zero = (a_inf & b_zero) | (a_zero & b_inf);
  wire p_inf    = (a_inf | b_inf) & ~inf_zero;
  wire inf_diff = p_inf & c_inf & (sp != sc);
  wire any_nan  = a_nan | b_nan | c_nan;
  wire res_nan  = any_nan | inf_zero | inf_diff;
  wire p_zero   = a_zero | b_zero;
  wire special  = res_nan | p_inf | c_inf | p_zero;
  wire [31:0] special_res = res_nan ? QNan :
                            p_inf   ? {sp, 8'hFF, 23'd0} :
                            c_inf   ? c_i :
                            c_zero  ? {sp & sc, 31'd0} : c_i;
  wire special_inv = any_snan | (~any_nan & (inf_zero | inf_diff)) | (any_nan & inf_zero);

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

  wire [23:0] siga = {(ea != 8'h00), ma};
  wire [23:0] sigb = {(eb != 8'h00), mb};
  wire [23:0] sigc = {(ec != 8'h00), mc};
  wire [4:0]  lza  = lzc24(siga);
  wire [4:0]  lzb  = lzc24(sigb);
  wire [4:0]  lzc  = lzc24(sigc);
  wire [10:0] ea_eff = {3'b000, (ea == 8'h00) ? 8'h01 : ea};
  wire [10:0] eb_eff = {3'b000, (eb == 8'h00) ? 8'h01 : eb};
  wire [10:0] ec_eff = {3'b000, (ec == 8'h00) ? 8'h01 : ec};
  // prod / 2^47 in [1,2) corresponds to the biased exponent ea + eb - 127 + 1, less the normalising shifts.
  wire [10:0] pexp = ea_eff + eb_eff - 11'd126 - {6'd0, lza} - {6'd0, lzb};
  wire [10:0] cexp = ec_eff - {6'd0, lzc};

  assign bundle_o = {special, special_res, special_inv, sp, sc, c_zero, pexp, cexp,
                     siga << lza, sigb << lzb, sigc << lzc};
endmodule
