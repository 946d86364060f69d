`timescale 1ns/1ps
// fp32_add_deep_sum: section 4 of fp32_add_deep: fp32_add_sum's add/subtract and, beside the carry chain, the
// limit of the normalising shift as a one-hot mask: bit 26 - lim set when lim = e_big - 1 <= 26 (the left shift
// stops at the subnormal exponent). OR-ed into the sum before the leading zero count (fp32_add_deep_lz), it makes
// the count min(leading zeros, lim), the clamp fp32_add_lz applies after its count.
// Output bundle (99 bits, MSB first): the fp32_add_sum bundle (72) and the mask (27).
module fp32_add_deep_sum (
  input  wire [97:0] bundle_i,
  output wire [98:0] bundle_o
);
  wire [71:0] sum_bundle;
  fp32_add_sum u_sum (.bundle_i(bundle_i), .bundle_o(sum_bundle));
  wire [7:0]  e_big = bundle_i[61:54];
  wire [7:0]  lim   = e_big - 8'd1;
  wire [26:0] stop  = (lim <= 8'd26) ? (27'd1 << (5'd26 - lim[4:0])) : 27'd0;

  assign bundle_o = {sum_bundle, stop};
endmodule
