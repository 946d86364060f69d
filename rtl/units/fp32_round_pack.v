`timescale 1ns/1ps
// fp32_round_pack: last section shared by fp32_mul and fp32_add: overflow to infinity, flags, result
// selection. Input: the fp32_round_inc bundle (69 bits).
module fp32_round_pack (
  input  wire [68:0] bundle_i,
  output wire [31:0] result_o,
  output wire [4:0]  flags_o
);
  wire        special     = bundle_i[68];
  wire [31:0] special_res = bundle_i[67:36];
  wire        special_inv = bundle_i[35];
  wire        sign        = bundle_i[34];
  wire        ovf_pre     = bundle_i[33];
  wire        tiny        = bundle_i[32];
  wire        lost        = bundle_i[31];
  wire [30:0] word        = bundle_i[30:0];

  wire        ovf     = ovf_pre | (word[30:23] == 8'hFF);
  wire        inexact = lost | ovf;
  wire        uf      = tiny & inexact & ~ovf;

  assign result_o = special ? special_res : (ovf ? {sign, 8'hFF, 23'd0} : {sign, word});
  // TestFloat flag order: bit0 inexact, 1 underflow, 2 overflow, 3 divide-by-zero, 4 invalid.
  assign flags_o  = special ? {special_inv, 4'd0} : {2'b00, ovf, uf, inexact};
endmodule
