`timescale 1ns/1ps
// fp32_mul_deep_mid: section 4 of fp32_mul_deep: the two middle partial products summed (one 25-bit carry
// chain); the outer two stay side by side, since hh*2^24 + ll is their concatenation (ll < 2^24).
// Output bundle (142 bits, MSB first): the 69-bit head (special ... elo), outer (48: {hh, ll}), mid (25).
module fp32_mul_deep_mid (
  input  wire [164:0] bundle_i,
  output wire [141:0] bundle_o
);
  wire [68:0] head = bundle_i[164:96];
  wire [23:0] hh   = bundle_i[95:72];
  wire [23:0] hl   = bundle_i[71:48];
  wire [23:0] lh   = bundle_i[47:24];
  wire [23:0] ll   = bundle_i[23:0];
  wire [24:0] mid  = {1'b0, hl} + {1'b0, lh};

  assign bundle_o = {head, hh, ll, mid};
endmodule
