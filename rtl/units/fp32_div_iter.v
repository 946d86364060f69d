`timescale 1ns/1ps
// fp32_div_iter: sections 2..6 of fp32_div: Bits steps of restoring division on the fp32_div_unpack bundle
// (122 bits): per step, the quotient bit is rem >= den, den is subtracted if so, and the remainder doubles.
// The dividend lies in [den, 2 den), so after 25 steps q holds the quotient's 24 bits and the guard bit
// (q[24] = 1) and rem != 0 is the sticky bit.
module fp32_div_iter #(
  parameter integer Bits = 5
) (
  input  wire [121:0] bundle_i,
  output wire [121:0] bundle_o
);
  wire [23:0] den = bundle_i[23:0];
  reg  [25:0] rem;
  reg  [24:0] q;
  reg         ge;
  integer     k;
  always @* begin
    rem = bundle_i[74:49];
    q   = bundle_i[48:24];
    for (k = 0; k < Bits; k = k + 1) begin
      ge  = (rem >= {2'b00, den});
      rem = (ge ? (rem - {2'b00, den}) : rem) << 1;
      q   = {q[23:0], ge};
    end
  end
  assign bundle_o = {bundle_i[121:75], rem, q, den};
endmodule
