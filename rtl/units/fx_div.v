`timescale 1ns/1ps
// fx_div: fixed-point divider a / b, format fixed:I.F with Width = I + F bits, two's complement (contract 4,
// num::fixed::div): the exact quotient |a| 2^Frac / |b| by Width+Frac steps of restoring division, rounded to
// nearest, ties to even, signed and saturated; division by zero saturates toward the sign of a (0/0 = 0).
// Ports: as fx_mul.
// Pipelined = 1: Latency sections, each Latency-th of the division steps (the first also forms the
//   magnitudes, the last rounds and saturates), each followed by a register.
// Pipelined = 0: operands registered, the whole division is a Latency-cycle multicycle path, busy for
//   Latency cycles (the iterative variant's occupancy).
module fx_div #(
  parameter integer Width     = 32,
  parameter integer Frac      = 16,
  parameter integer Latency   = 4,
  parameter integer Pipelined = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] a_i,
  input  wire [Width-1:0] b_i,
  output wire             valid_o,
  output wire [Width-1:0] result_o
);
  localparam integer NB    = Width + Frac;
  localparam integer SW    = 3 * Width + Frac + 5;
  localparam integer S     = (Pipelined != 0) ? Latency : 1;
  localparam integer Chunk = (NB + S - 1) / S;

  wire [Width-1:0] a0, b0;
  wire             v0;
  generate
    if (Pipelined != 0) begin : g_in
      assign v0 = valid_i;
      assign a0 = a_i;
      assign b0 = b_i;
    end else begin : g_hold
      wire busy_unused;
      units_hold #(.Width(2*Width), .Latency(Latency)) u_hold (
        .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(valid_i), .data_i({a_i, b_i}), .busy_o(busy_unused),
        .valid_o(v0), .data_o({a0, b0}));
    end
  endgenerate

  wire [SW*(S+1)-1:0] chain;
  wire [S:0]          vchain;
  fx_div_pre #(.Width(Width), .Frac(Frac)) u_pre (.a_i(a0), .b_i(b0), .state_o(chain[SW-1:0]));
  assign vchain[0] = v0;
  genvar k;
  generate
    for (k = 0; k < S; k = k + 1) begin : g_sec
      localparam integer Lo    = k * Chunk;
      localparam integer Steps = (Lo >= NB) ? 0 : ((Lo + Chunk > NB) ? NB - Lo : Chunk);
      localparam integer Depth = (Pipelined != 0) ? 1 : 0;
      wire [SW-1:0] st;
      fx_div_step #(.Width(Width), .Frac(Frac), .Steps(Steps)) u_step (
        .state_i(chain[k*SW +: SW]), .state_o(st));
      if (k < S - 1) begin : g_mid
        units_pipe #(.Width(SW), .Depth(Depth)) u_p (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(vchain[k]), .data_i(st), .valid_o(vchain[k+1]),
          .data_o(chain[(k+1)*SW +: SW]));
      end else begin : g_last
        wire [Width-1:0] res;
        fx_div_post #(.Width(Width), .Frac(Frac)) u_post (.state_i(st), .result_o(res));
        units_pipe #(.Width(Width), .Depth(Depth)) u_p (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(vchain[k]), .data_i(res), .valid_o(valid_o), .data_o(result_o));
        assign vchain[k+1] = 1'b0;
        assign chain[(k+1)*SW +: SW] = {SW{1'b0}};
      end
    end
  endgenerate
  wire unused_chain = ^chain[SW*(S+1)-1:SW*S] ^ vchain[S];
endmodule
