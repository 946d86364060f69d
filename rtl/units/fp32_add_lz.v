`timescale 1ns/1ps
// fp32_add_lz: section 4 of fp32_add: leading zero count of the sum and the normalising left shift,
// clamped at the subnormal exponent. Input: the fp32_add_sum bundle (72 bits). Output bundle (77 bits,
// MSB first): special (1) special_res (32) special_inv (1) sign (1) sub (1) e_big (8) sum (28) shl (5).
module fp32_add_lz (
  input  wire [71:0] bundle_i,
  output wire [76:0] bundle_o
);
  wire [7:0]  e_big = bundle_i[35:28];
  wire [26:0] sum   = bundle_i[26:0];  // bit 27 (carry) is passed on, not counted

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

  wire [4:0]  lz  = lzc27(sum);
  wire [7:0]  lim = e_big - 8'd1;                       // left shift stops at the subnormal exponent
  wire [4:0]  shl = ({3'b000, lz} > lim) ? lim[4:0] : lz;

  assign bundle_o = {bundle_i, shl};
endmodule
