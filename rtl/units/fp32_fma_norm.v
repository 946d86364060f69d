`timescale 1ns/1ps
// fp32_fma_norm: section 6 of fp32_fma: normalise the sum (leading one to bit 50), its biased exponent
// e = e_big + 1 - lz, tininess after rounding, and below the normal range the shift right to the subnormal
// position with sticky; cut the 23 fraction bits, guard and sticky. An exact zero sum (cancellation) is +0.
// Input: the fp32_fma_lz bundle (103 bits). Output: the fp32_round_inc bundle (70 bits).
module fp32_fma_norm (
  input  wire [102:0] bundle_i,
  output wire [69:0]  bundle_o
);
  wire        special     = bundle_i[102];
  wire [31:0] special_res = bundle_i[101:70];
  wire        special_inv = bundle_i[69];
  wire        sign        = bundle_i[68];
  wire [10:0] e_big       = bundle_i[67:57];
  wire [50:0] sum         = bundle_i[56:6];
  wire [5:0]  lz          = bundle_i[5:0];

  wire        zero = (sum == 51'd0);
  wire [50:0] pn   = sum << lz;                             // leading one at bit 50
  wire [10:0] e    = e_big + 11'd1 - {5'd0, lz};            // biased exponent of pn / 2^50
  wire        e_neg  = e[10];
  wire        e_zero = (e == 11'd0);
  wire        ovf_pre = ~e_neg & (e >= 11'd255);
  // Below the normal range (e <= 0): shift right by 1 - e (clamped; beyond 51 everything is sticky).
  wire [10:0] rsh_w = 11'd1 - e;
  wire [5:0]  rsh   = (~e_neg & ~e_zero) ? 6'd0 : ((rsh_w > 11'd63) ? 6'd63 : rsh_w[5:0]);
  wire [50:0] pd    = pn >> rsh;
  wire [50:0] lostm = pn & ~({51{1'b1}} << rsh);
  // Tininess after rounding: e < 0, or e == 0 unless rounding to 24 bits carries up to 2^-126.
  wire        tiny   = ~zero & (e_neg | (e_zero & ~(&pn[49:26])));
  wire [7:0]  field  = (zero | e_neg | e_zero) ? 8'd0 : e[7:0];
  wire        guard  = pd[26];
  wire        sticky = (|pd[25:0]) | (|lostm);

  assign bundle_o = {special, special_res, special_inv, sign & ~zero, ovf_pre & ~zero, tiny, field, pd[49:27],
                     guard, sticky};
  wire unused_ok = pd[50];
endmodule
