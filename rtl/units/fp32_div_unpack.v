`timescale 1ns/1ps
// fp32_div_unpack: section 1 of fp32_div (a / b): operand classes, special results, sign, the significands
// normalised (a subnormal's leading one shifted up to bit 23), and the dividend doubled when its
// significand is below the divisor's, so that the quotient of the significands lies in [1, 2).
// Specials (IEEE 754, SoftFloat f32_div): a NaN operand, 0/0 or inf/inf give the quiet NaN (invalid for 0/0,
// inf/inf and a signalling NaN); inf/finite and finite nonzero/0 give inf (the latter with divide-by-zero);
// 0/nonzero and finite/inf give zero; signs XORed.
// Output bundle (122 bits, MSB first):
//   special (1) special_res (32) special_inv (1) dz (1) sign (1) eq (11, signed: biased exponent of the
//   quotient) rem (26: the partial remainder, initially the dividend) q (25: quotient bits, initially 0)
//   den (24: the divisor's significand)
module fp32_div_unpack (
  input  wire [31:0]  a_i,
  input  wire [31:0]  b_i,
  output wire [121:0] bundle_o
);
  localparam [31:0] QNan = 32'h7FC00000;
  wire [7:0]  ea = a_i[30:23];
  wire [7:0]  eb = b_i[30:23];
  wire [22:0] ma = a_i[22:0];
  wire [22:0] mb = b_i[22:0];
  wire a_nan  = (ea == 8'hFF) & (ma != 23'd0);
  wire b_nan  = (eb == 8'hFF) & (mb != 23'd0);
  wire a_inf  = (ea == 8'hFF) & (ma == 23'd0);
  wire b_inf  = (eb == 8'hFF) & (mb == 23'd0);
  wire a_zero = (ea == 8'h00) & (ma == 23'd0);
  wire b_zero = (eb == 8'h00) & (mb == 23'd0);
  wire sign   = a_i[31] ^ b_i[31];

  wire invalid_op = (a_zero & b_zero) | (a_inf & b_inf);
  wire res_nan    = a_nan | b_nan | invalid_op;
  wire res_inf    = ~res_nan & (a_inf | b_zero);
  wire special    = res_nan | a_inf | b_inf | a_zero | b_zero;
  wire [31:0] special_res = res_nan ? QNan : (res_inf ? {sign, 8'hFF, 23'd0} : {sign, 31'd0});
  wire special_inv = (a_nan & ~ma[22]) | (b_nan & ~mb[22]) | invalid_op;
  wire dz          = ~res_nan & ~a_inf & b_zero;  // finite nonzero / 0

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

  wire [23:0] siga   = {(ea != 8'h00), ma};
  wire [23:0] sigb   = {(eb != 8'h00), mb};
  wire [4:0]  lza    = lzc24(siga);
  wire [4:0]  lzb    = lzc24(sigb);
  wire [23:0] siga_n = siga << lza;
  wire [23:0] sigb_n = sigb << lzb;
  wire        lower  = siga_n < sigb_n;
  wire [10:0] ea_eff = {3'b000, (ea == 8'h00) ? 8'h01 : ea};
  wire [10:0] eb_eff = {3'b000, (eb == 8'h00) ? 8'h01 : eb};
  wire [10:0] eq     = ea_eff - {6'd0, lza} - eb_eff + {6'd0, lzb} + 11'd127 - {10'd0, lower};
  wire [25:0] num    = lower ? {1'b0, siga_n, 1'b0} : {2'b00, siga_n};

  assign bundle_o = {special, special_res, special_inv, dz, sign, eq, num, 25'd0, sigb_n};
endmodule
