`timescale 1ns/1ps
// fx_div_step: Steps steps of restoring division on the fx_div_pre state: the top numerator bit shifts
// into the remainder, the quotient bit (rem >= den) into the bottom of nq, den is subtracted if it fits.
// After Width+Frac steps nq holds floor(|a| 2^Frac / |b|) and rem the remainder.
module fx_div_step #(
  parameter integer Width = 32,
  parameter integer Frac  = 16,
  parameter integer Steps = 8
) (
  input  wire [3*Width+Frac+4:0] state_i,
  output wire [3*Width+Frac+4:0] state_o
);
  localparam integer NB = Width + Frac;
  wire [Width-1:0] den = state_i[2*Width+NB:Width+1+NB];
  reg  [Width:0]   rem;
  reg  [NB-1:0]    nq;
  reg              ge;
  integer          k;
  always @* begin
    rem = state_i[Width+NB:NB];
    nq  = state_i[NB-1:0];
    ge  = 1'b0;
    for (k = 0; k < Steps; k = k + 1) begin
      rem = {rem[Width-1:0], nq[NB-1]};
      ge  = (rem >= {1'b0, den});
      nq  = {nq[NB-2:0], ge};
      if (ge) rem = rem - {1'b0, den};
    end
  end
  assign state_o = {state_i[3*Width+Frac+4:2*Width+NB+1], den, rem, nq};
endmodule
