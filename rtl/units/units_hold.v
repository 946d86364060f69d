`timescale 1ns/1ps
// units_hold: the operand register and busy counter of a non-pipelined unit (Pipelined = 0).
// valid_i loads data_i into the operand register and starts a count of Latency cycles; the unit's
// combinational datapath reads data_o, and valid_o is high in the Latency-th cycle after valid_i (the
// datapath is a Latency-cycle multicycle path). The caller must not issue while busy_o is high; an issue
// while busy restarts the unit with the new operands (the old result is lost).
module units_hold #(
  parameter integer Width   = 64,
  parameter integer Latency = 3
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] data_i,
  output wire             busy_o,
  output wire             valid_o,
  output wire [Width-1:0] data_o
);
  localparam integer CntW = 4;  // Latency <= 15
  localparam [CntW-1:0] LatencyCnt = Latency[CntW-1:0];
  localparam [CntW-1:0] One = {{(CntW-1){1'b0}}, 1'b1};
  reg [CntW-1:0]  cnt_q;
  reg [Width-1:0] data_q;
  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= {CntW{1'b0}};
    end else if (valid_i) begin
      cnt_q <= LatencyCnt;
    end else if (cnt_q != {CntW{1'b0}}) begin
      cnt_q <= cnt_q - One;
    end
  end
  always @(posedge clk_i) begin
    if (valid_i) data_q <= data_i;
  end
  assign busy_o  = (cnt_q > One);
  assign valid_o = (cnt_q == One);
  assign data_o  = data_q;
endmodule
