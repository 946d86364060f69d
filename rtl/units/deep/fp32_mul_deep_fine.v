`timescale 1ns/1ps
// fp32_mul_deep_fine: section 7 of fp32_mul_deep, the second half of fp32_mul_norm: the subnormal right shift's
// fine part (by sh[2:0]), guard and sticky (the coarse part's sticky, what the fine shift drops, and the bits
// below the guard). Output: the fp32_mul_norm bundle (70 bits), so the sections after it are fp32_mul's.
module fp32_mul_deep_fine (
  input  wire [96:0] bundle_i,
  output wire [69:0] bundle_o
);
  wire [44:0] head     = bundle_i[96:52];  // special, special_res, special_inv, sign, ovf_pre, tiny, field
  wire [47:0] pc       = bundle_i[51:4];
  wire [2:0]  sh       = bundle_i[3:1];
  wire        sticky_c = bundle_i[0];
  wire [47:0] pd       = pc >> sh;
  wire        lost     = |(pc & ~({48{1'b1}} << sh));
  wire        guard    = pd[23];
  wire        sticky   = sticky_c | lost | (|pd[22:0]);

  assign bundle_o = {head, pd[46:24], guard, sticky};
  wire unused_ok = pd[47];
endmodule
