`timescale 1ns/1ps
// fp32_add_norm: section 5 of fp32_add: normalise the sum (right by one on carry, left by shl), exponent,
// cut fraction, guard and sticky. An exact zero sum is +0 (round to nearest even) unless both addends are
// zeros of the same sign. Input: the fp32_add_lz bundle (77 bits). Output: the fp32_round_inc bundle
// (70 bits).
module fp32_add_norm (
  input  wire [76:0] bundle_i,
  output wire [69:0] bundle_o
);
  wire        special     = bundle_i[76];
  wire [31:0] special_res = bundle_i[75:44];
  wire        special_inv = bundle_i[43];
  wire        sign        = bundle_i[42];
  wire        sub         = bundle_i[41];
  wire [7:0]  e_big       = bundle_i[40:33];
  wire [27:0] sum         = bundle_i[32:5];
  wire [4:0]  shl         = bundle_i[4:0];

  wire        zero  = (sum == 28'd0);
  wire        carry = sum[27];
  wire [26:0] left  = sum[26:0] << shl;
  wire [26:0] n     = carry ? {sum[27:2], sum[1] | sum[0]} : left;
  wire [8:0]  e     = carry ? ({1'b0, e_big} + 9'd1) : ({1'b0, e_big} - {4'd0, shl});
  wire        ovf_pre = (e >= 9'd255);
  wire [7:0]  field = n[26] ? e[7:0] : 8'd0;
  wire        guard  = n[2];
  wire        sticky = n[1] | n[0];
  // Sums below 2^-126 are exact (both addends are multiples of 2^-149), so tiny results never raise
  // underflow; tiny is still computed for the uniform rounding rule.
  wire        tiny  = ~n[26] & ~zero;
  wire        res_sign = zero ? (sign & ~sub) : sign;

  assign bundle_o = {special, special_res, special_inv, res_sign, ovf_pre, tiny, field, n[25:3], guard, sticky};
endmodule
