`timescale 1ns/1ps
// fp32_div_norm: section 7 of fp32_div: exponent range, tininess after rounding, and below the normal range
// the shift right to the subnormal position with sticky; cut the 23 fraction bits, guard and sticky.
// Input: the fp32_div_iter bundle after 25 steps (122 bits). Output (71 bits): dz (1), then the
// fp32_round_inc bundle (70 bits).
module fp32_div_norm (
  input  wire [121:0] bundle_i,
  output wire [70:0]  bundle_o
);
  wire [33:0] head   = bundle_i[121:88];  // special, special_res, special_inv
  wire        dz     = bundle_i[87];
  wire        sign   = bundle_i[86];
  wire [10:0] e      = bundle_i[85:75];
  wire [25:0] rem    = bundle_i[74:49];
  wire [24:0] q      = bundle_i[48:24];   // leading one at bit 24
  wire        e_neg  = e[10];
  wire        e_zero = (e == 11'd0);
  wire        ovf_pre = ~e_neg & (e >= 11'd255);
  wire [10:0] rsh_w  = 11'd1 - e;
  wire [4:0]  rsh    = (~e_neg & ~e_zero) ? 5'd0 : ((rsh_w > 11'd31) ? 5'd31 : rsh_w[4:0]);
  wire [24:0] qd     = q >> rsh;
  wire [24:0] lostm  = q & ~({25{1'b1}} << rsh);
  wire        tiny   = e_neg | (e_zero & ~(&q[23:0]));
  wire [7:0]  field  = (e_neg | e_zero) ? 8'd0 : e[7:0];
  wire        sticky = (rem != 26'd0) | (|lostm);

  assign bundle_o = {dz, head, sign, ovf_pre, tiny, field, qd[23:1], qd[0], sticky};
  wire unused_ok = qd[24] ^ (|bundle_i[23:0]);
endmodule
