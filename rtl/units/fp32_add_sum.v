`timescale 1ns/1ps
// fp32_add_sum: second section of fp32_add: add or subtract the aligned significands, normalise (right by
// one on carry, left by the leading zero count but not below the subnormal exponent), cut fraction, guard
// and sticky. An exact zero sum is +0 (round to nearest even) unless both addends are zeros of the same
// sign. Output: the fp32_round bundle (70 bits).
module fp32_add_sum (
  input  wire [97:0] bundle_i,
  output wire [69:0] bundle_o
);
  wire        special     = bundle_i[97];
  wire [31:0] special_res = bundle_i[96:65];
  wire        special_inv = bundle_i[64];
  wire        sign        = bundle_i[63];
  wire        sub         = bundle_i[62];
  wire [7:0]  e_big       = bundle_i[61:54];
  wire [26:0] greater         = bundle_i[53:27];
  wire [26:0] lesser       = bundle_i[26:0];

  function automatic [4:0] lzc27;
    input [26:0] x;
    integer i;
    reg found;
    begin
      lzc27 = 5'd27;
      found = 1'b0;
      for (i = 26; i >= 0; i = i - 1) begin
        if (!found && x[i]) begin
          lzc27 = 5'd26 - i[4:0];
          found = 1'b1;
        end
      end
    end
  endfunction

  wire [27:0] sum   = sub ? ({1'b0, greater} - {1'b0, lesser}) : ({1'b0, greater} + {1'b0, lesser});
  wire        zero  = (sum == 28'd0);
  wire        carry = sum[27];
  wire [4:0]  lz    = lzc27(sum[26:0]);
  wire [7:0]  lim   = e_big - 8'd1;                       // left shift stops at the subnormal exponent
  wire [4:0]  shl   = ({3'b000, lz} > lim) ? lim[4:0] : lz;
  wire [26:0] left  = sum[26:0] << shl;
  wire [26:0] n     = carry ? {sum[27:2], sum[1] | sum[0]} : left;
  wire [8:0]  e     = carry ? ({1'b0, e_big} + 9'd1) : ({1'b0, e_big} - {4'd0, shl});
  wire        ovf_pre = (e >= 9'd255);
  wire [7:0]  field = n[26] ? e[7:0] : 8'd0;
  wire        guard  = n[2];
  wire        sticky = n[1] | n[0];
  // Sums below 2^-126 are exact (both addends are multiples of 2^-149), so tiny results never raise
  // underflow; tiny is still computed for fp32_round's uniform rule.
  wire        tiny  = ~n[26] & ~zero;
  wire        res_sign = zero ? (sign & ~sub) : sign;

  assign bundle_o = {special, special_res, special_inv, res_sign, ovf_pre, tiny, field, n[25:3], guard, sticky};
endmodule
