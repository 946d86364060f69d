`timescale 1ns/1ps
// fp32_mul_deep_sum: section 5 of fp32_mul_deep: the 48-bit product outer + mid*2^12 (one carry chain). Output:
// the fp32_mul_prod bundle (117 bits), so the sections after it are fp32_mul's.
module fp32_mul_deep_sum (
  input  wire [141:0] bundle_i,
  output wire [116:0] bundle_o
);
  wire [68:0] head  = bundle_i[141:73];
  wire [47:0] outer = bundle_i[72:25];
  wire [24:0] mid   = bundle_i[24:0];
  wire [47:0] prod  = outer + {11'd0, mid, 12'd0};

  assign bundle_o = {head, prod};
endmodule
