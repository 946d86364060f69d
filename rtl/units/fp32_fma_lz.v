`timescale 1ns/1ps
// fp32_fma_lz: section 5 of fp32_fma: leading zero count of the 51-bit sum (51 for a zero sum).
// Input: the fp32_fma_sum bundle (97 bits). Output bundle (103 bits): the input, then lz (6).
module fp32_fma_lz (
  input  wire [96:0]  bundle_i,
  output wire [102:0] bundle_o
);
  function automatic [5:0] lzc51;
    input [50:0] x;
    integer i;
    reg found;
    begin
      lzc51 = 6'd51;
      found = 1'b0;
      for (i = 50; i >= 0; i = i - 1) begin
        if (!found && x[i]) begin
          lzc51 = 6'd50 - i[5:0];
          found = 1'b1;
        end
      end
    end
  endfunction
  assign bundle_o = {bundle_i, lzc51(bundle_i[50:0])};
endmodule
