`timescale 1ns/1ps
// fp32_add_deep_lz: section 5 of fp32_add_deep: the normalising shift fp32_add_lz computes,
// min(leading zeros of the sum, e_big - 1), as one leading zero count (units_lzc32) of the sum with the limit's
// one-hot bit OR-ed in (fp32_add_deep_sum): no compare and no multiplexer after the count. Output: the fp32_add_lz
// bundle (77 bits).
module fp32_add_deep_lz (
  input  wire [98:0] bundle_i,
  output wire [76:0] bundle_o
);
  wire [71:0] sum_bundle = bundle_i[98:27];
  wire [26:0] stop       = bundle_i[26:0];
  wire [26:0] sum        = sum_bundle[26:0];  // bit 27 (carry) is passed on, not counted
  wire [4:0]  shl;
  units_lzc32 u_lzc (.x_i({sum | stop, 5'b11111}), .count_o(shl));  // 27 when sum is 0 and no limit applies

  assign bundle_o = {sum_bundle, shl};
endmodule
