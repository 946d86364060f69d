`timescale 1ns/1ps
// fp32_mul_norm: second section of fp32_mul: normalise the product (leading one to bit 47), detect
// tininess after rounding, denormalise (shift right with sticky) when the exponent is below the normal
// range, and cut the 23 fraction bits, guard and sticky. Output: the fp32_round bundle (70 bits).
module fp32_mul_norm (
  input  wire [93:0] bundle_i,
  output wire [69:0] bundle_o
);
  wire        special     = bundle_i[93];
  wire [31:0] special_res = bundle_i[92:61];
  wire        special_inv = bundle_i[60];
  wire        sign        = bundle_i[59];
  wire [10:0] exp0        = bundle_i[58:48];
  wire [47:0] prod        = bundle_i[47:0];

  // Leading zero count of the product (48 when zero, which only happens for special operands).
  function automatic [5:0] lzc48;
    input [47:0] x;
    integer i;
    reg found;
    begin
      lzc48 = 6'd48;
      found = 1'b0;
      for (i = 47; i >= 0; i = i - 1) begin
        if (!found && x[i]) begin
          lzc48 = 6'd47 - i[5:0];
          found = 1'b1;
        end
      end
    end
  endfunction

  wire [5:0]  lz   = lzc48(prod);
  wire [47:0] pn   = prod << lz;
  wire [10:0] e    = exp0 - {5'd0, lz};   // signed biased exponent of pn / 2^47
  wire        e_neg  = e[10];
  wire        e_zero = (e == 11'd0);
  wire        ovf_pre = ~e_neg & (e >= 11'd255);
  // Tininess after rounding (as x86 / TestFloat's default): the value rounded to 24 bits with an unbounded
  // exponent is below 2^-126. For e == 0 that fails only when rounding carries to 2^-126.
  wire        tiny = e_neg | (e_zero & ~(&pn[46:23]));
  // Subnormal result: shift right by 1 - e (clamped; beyond 49 everything is sticky).
  wire [10:0] sh_full = 11'd1 - e;
  wire [5:0]  sh      = (e_neg | e_zero) ? ((sh_full > 11'd63) ? 6'd63 : sh_full[5:0]) : 6'd0;
  wire [47:0] pd      = pn >> sh;
  wire [47:0] lost    = pn & ~({48{1'b1}} << sh);
  wire [7:0]  field   = (e_neg | e_zero) ? 8'd0 : e[7:0];
  wire        guard   = pd[23];
  wire        sticky  = (|pd[22:0]) | (|lost);

  assign bundle_o = {special, special_res, special_inv, sign, ovf_pre, tiny, field, pd[46:24], guard, sticky};
  // pd[47] is the hidden bit (implied by field != 0; 0 for subnormals).
  wire unused_ok = pd[47];
endmodule
