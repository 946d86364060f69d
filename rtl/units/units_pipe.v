`timescale 1ns/1ps
// units_pipe: Depth register stages carrying a valid bit and a Width-bit payload (Depth = 0: wires).
// The valid bits reset (asynchronous, active low) to 0; the payload registers have no reset and load only
// when their stage's input is valid (they hold the last valid value otherwise).
module units_pipe #(
  parameter integer Width = 32,
  parameter integer Depth = 1
) (
  input  wire             clk_i,
  input  wire             rst_ni,
  input  wire             valid_i,
  input  wire [Width-1:0] data_i,
  output wire             valid_o,
  output wire [Width-1:0] data_o
);
  generate
    if (Depth == 0) begin : g_wire
      assign valid_o = valid_i;
      assign data_o  = data_i;
      wire unused_clk_rst = clk_i ^ rst_ni;  // no registers at Depth 0
    end else begin : g_regs
      reg [Depth-1:0] valid_q;
      reg [Width-1:0] data_q [0:Depth-1];
      integer s;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          valid_q <= {Depth{1'b0}};
        end else begin
          valid_q[0] <= valid_i;
          for (s = 1; s < Depth; s = s + 1) valid_q[s] <= valid_q[s-1];
        end
      end
      always @(posedge clk_i) begin
        if (valid_i) data_q[0] <= data_i;
        for (s = 1; s < Depth; s = s + 1) begin
          if (valid_q[s-1]) data_q[s] <= data_q[s-1];
        end
      end
      assign valid_o = valid_q[Depth-1];
      assign data_o  = data_q[Depth-1];
    end
  endgenerate
endmodule
