`timescale 1ns/1ps
// fp32_add_deep_cmp: section 1 of fp32_add_deep, the first half of fp32_add_swap: operand classes and special
// results, the magnitude compare (one 31-bit carry chain) and, beside it, both clamped exponent differences; the
// swap itself is section 2 (fp32_add_deep_sel). The same values as fp32_add_swap.
// Output bundle (109 bits, MSB first): special (1) special_res (32) special_inv (1) swap (1) sa (1) sb (1, the
//   effective sign of b) sh_ab (5) sh_ba (5) a (31: a_i[30:0]) b (31: b_i[30:0]).
module fp32_add_deep_cmp (
  input  wire [1:0]   op_i,
  input  wire [31:0]  a_i,
  input  wire [31:0]  b_i,
  output wire [108:0] bundle_o
);
  // Classes and special results are fp32_add_swap's (one definition); its swap multiplexers and shift select are
  // not used here (section 2 does them) and synthesis removes them.
  wire [96:0] swap_bundle;
  fp32_add_swap u_swap (.op_i(op_i), .a_i(a_i), .b_i(b_i), .bundle_o(swap_bundle));
  wire unused_swap = ^swap_bundle[62:0];

  wire        sa     = a_i[31];
  wire        sb     = b_i[31] ^ (op_i == 2'd1);  // effective sign of b
  wire [7:0]  ea     = a_i[30:23];
  wire [7:0]  eb     = b_i[30:23];
  wire        swap   = (b_i[30:0] > a_i[30:0]);
  wire [7:0]  ea_eff = (ea == 8'h00) ? 8'h01 : ea;
  wire [7:0]  eb_eff = (eb == 8'h00) ? 8'h01 : eb;
  wire [7:0]  d_ab   = ea_eff - eb_eff;
  wire [7:0]  d_ba   = eb_eff - ea_eff;
  wire [4:0]  sh_ab  = (d_ab > 8'd27) ? 5'd27 : d_ab[4:0];
  wire [4:0]  sh_ba  = (d_ba > 8'd27) ? 5'd27 : d_ba[4:0];

  assign bundle_o = {swap_bundle[96:63], swap, sa, sb, sh_ab, sh_ba, a_i[30:0], b_i[30:0]};
endmodule
