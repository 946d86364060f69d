`timescale 1ns/1ps
// fx_mul_deep: fixed-point multiplier, format fixed:I.F with Width = I + F bits (4 <= Width <= 32), two's
// complement (contract 4): exact 2*Width-bit product, round to nearest even at Frac bits, saturate. The same
// result bits as fx_mul; the pipeline is cut where the device has its registers, so that a stage holds one
// multiplier, one carry chain or a few levels of LUTs (docs/units.md, "Deep units").
//
// The product is split where an ECP5 MULT18X18D (18x18 signed) fits: a = aH*2^Lo + aL, b likewise, with
// Lo = Width/2 low bits unsigned and the Width-Lo high bits signed, so each partial product is at most 17x17 signed.
// Five combinational sections:
//   1 the four partial products aL*bL, aL*bH, aH*bL, aH*bH (the DSP blocks; a cut here is their output register);
//   2 mid = aL*bH + aH*bL, and outer = aH*bH*2^(2Lo) + aL*bL as a concatenation (0 <= aL*bL < 2^(2Lo): no carry
//     crosses): one carry chain of Width+2 bits;
//   3 the exact product p = outer + mid*2^Lo: one carry chain of 2*Width bits;
//   4 the rounding decision, LUTs only: q = p >> Frac (floor), round_up = rem > half or (rem == half and q odd),
//     whether q fits in Width bits, and q's sign;
//   5 the result: q + round_up (one Width-bit carry chain) where q fits, else the bound of q's sign. The
//     increment of the largest q is dropped, which is its saturation; below the range, q + 1 is at most the
//     least value, which is what saturation gives, so the increment is never needed there.
// Cut k is a register stage after section k; the table below gives the cuts of each latency (measured on the
// ECP5, docs/units.md), then the remaining registers at the output. CutMask (exploration only): -1 takes the
// table, otherwise bit k-1 enables cut k (at most Latency-1 bits). Always pipelined: one operation per cycle.
// TestTruncate = 1 (tests only): rounding replaced by floor.
module fx_mul_deep #(
  parameter integer Width        = 32,
  parameter integer Frac         = 16,
  parameter integer Latency      = 5,
  parameter integer TestTruncate = 0,
  parameter integer CutMask      = -1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  output wire             valid_o,
  output wire [Width-1:0] result_o
);
  localparam integer Table = (Latency <= 1) ? 0 :    // none
                             (Latency == 2) ? 1 :    // 1
                             (Latency == 3) ? 5 :    // 1 3
                             (Latency == 4) ? 13 :   // 1 3 4
                             15;                     // 1 2 3 4
  localparam integer Mask = (CutMask >= 0) ? CutMask : Table;
  localparam integer C1 = ((Mask & 1) != 0) ? 1 : 0;
  localparam integer C2 = ((Mask & 2) != 0) ? 1 : 0;
  localparam integer C3 = ((Mask & 4) != 0) ? 1 : 0;
  localparam integer C4 = ((Mask & 8) != 0) ? 1 : 0;
  localparam integer DOut = Latency - C1 - C2 - C3 - C4;
  localparam integer Lo = Width / 2;
  localparam integer Hi = Width - Lo;
  localparam integer MW = Lo + Hi + 2;       // |mid| < 2^Width: Width+2 bits signed
  localparam integer QW = 2 * Width - Frac;  // q = p >> Frac

  // Section 1: partial products of signed (Lo+1)- and (Hi+1)-bit operands, the low halves zero-extended.
  wire signed [Lo:0]      a_lo = {1'b0, a_i[Lo-1:0]};
  wire signed [Lo:0]      b_lo = {1'b0, b_i[Lo-1:0]};
  wire signed [Hi:0]      a_hi = {a_i[Width-1], a_i[Width-1:Lo]};
  wire signed [Hi:0]      b_hi = {b_i[Width-1], b_i[Width-1:Lo]};
  wire signed [2*Lo+1:0]  pp_ll = a_lo * b_lo;
  wire signed [MW-1:0]    pp_lh = a_lo * b_hi;
  wire signed [MW-1:0]    pp_hl = a_hi * b_lo;
  wire signed [2*Hi+1:0]  pp_hh = a_hi * b_hi;
  // aL*bL < 2^(2Lo) and |aH*bH| <= 2^(2Hi-2): the top two bits of each are not needed.
  wire unused_pp = ^{pp_ll[2*Lo+1:2*Lo], pp_hh[2*Hi+1:2*Hi]};
  wire [2*Width+2*MW-1:0] s1_d = {pp_hh[2*Hi-1:0], pp_lh, pp_hl, pp_ll[2*Lo-1:0]};
  wire [2*Width+2*MW-1:0] s1_q;
  wire                    v1;
  units_pipe #(.Width(2*Width+2*MW), .Depth(C1)) u_p1 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i(s1_d), .valid_o(v1), .data_o(s1_q));

  // Section 2: the middle terms summed; the outer ones side by side.
  wire [2*Lo-1:0]        q_ll = s1_q[2*Lo-1:0];
  wire signed [MW-1:0]   q_hl = s1_q[2*Lo+MW-1:2*Lo];
  wire signed [MW-1:0]   q_lh = s1_q[2*Lo+2*MW-1:2*Lo+MW];
  wire [2*Hi-1:0]        q_hh = s1_q[2*Width+2*MW-1:2*Lo+2*MW];
  wire signed [MW-1:0]   mid_d = q_lh + q_hl;
  wire [2*Width+MW-1:0]  s2_d = {mid_d, q_hh, q_ll};
  wire [2*Width+MW-1:0]  s2_q;
  wire                   v2;
  units_pipe #(.Width(2*Width+MW), .Depth(C2)) u_p2 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v1), .data_i(s2_d), .valid_o(v2), .data_o(s2_q));

  // Section 3: the exact product outer + mid*2^Lo (mid sign-extended to 2*Width bits).
  wire [MW-1:0]       mid_q  = s2_q[2*Width+MW-1:2*Width];
  wire [2*Width-1:0]  mid_sh = {{(Width-2-Lo){mid_q[MW-1]}}, mid_q, {Lo{1'b0}}};
  wire [2*Width-1:0]  prod_d = s2_q[2*Width-1:0] + mid_sh;
  wire [2*Width-1:0]  prod_q;
  wire                v3;
  units_pipe #(.Width(2*Width), .Depth(C3)) u_p3 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v2), .data_i(prod_d), .valid_o(v3), .data_o(prod_q));

  // Section 4: the rounding decision.
  wire [QW-1:0] q = prod_q[2*Width-1:Frac];
  wire          round_up;
  generate
    if (Frac == 0 || TestTruncate != 0) begin : g_floor
      wire unused_rem = ^prod_q[(Frac > 0 ? Frac : 1)-1:0];
      assign round_up = 1'b0;
    end else begin : g_rne
      localparam [Frac-1:0] Half = {1'b1, {(Frac-1){1'b0}}};
      wire [Frac-1:0] rem = prod_q[Frac-1:0];
      assign round_up = (rem > Half) | ((rem == Half) & q[0]);
    end
  endgenerate
  wire             fits   = (q[QW-1:Width-1] == {(QW-Width+1){1'b0}}) | (q[QW-1:Width-1] == {(QW-Width+1){1'b1}});
  wire             at_max = (q[Width-1:0] == {1'b0, {(Width-1){1'b1}}});
  wire [Width+2:0] s4_d   = {fits, q[QW-1], round_up & ~at_max, q[Width-1:0]};
  wire [Width+2:0] s4_q;
  wire             v4;
  units_pipe #(.Width(Width+3), .Depth(C4)) u_p4 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v3), .data_i(s4_d), .valid_o(v4), .data_o(s4_q));

  // Section 5: the increment where q fits, else the bound of q's sign; then the output registers.
  wire [Width-1:0] q_low = s4_q[Width-1:0];
  wire [Width-1:0] res_d = s4_q[Width+2] ? q_low + {{(Width-1){1'b0}}, s4_q[Width]} :
                           (s4_q[Width+1] ? {1'b1, {(Width-1){1'b0}}} : {1'b0, {(Width-1){1'b1}}});
  units_pipe #(.Width(Width), .Depth(DOut)) u_p5 (
    .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(v4), .data_i(res_d), .valid_o(valid_o), .data_o(result_o));
endmodule
