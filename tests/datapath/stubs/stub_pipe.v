`timescale 1ns/1ps
// TEST STUB helper: delays (valid, data) by Latency cycles (Latency >= 1).
module stub_pipe #(parameter integer Width = 32, parameter integer Latency = 1) (
  input wire clk_i, input wire rst_ni, input wire valid_i, input wire [Width-1:0] d_i,
  output wire valid_o, output wire [Width-1:0] q_o);
  reg [Width-1:0] d_q [0:Latency-1];
  reg             v_q [0:Latency-1];
  integer i;
  always @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) begin
      for (i = 0; i < Latency; i = i + 1) v_q[i] <= 1'b0;
    end else begin
      v_q[0] <= valid_i;
      for (i = 1; i < Latency; i = i + 1) v_q[i] <= v_q[i-1];
    end
  always @(posedge clk_i) begin
    d_q[0] <= d_i;
    for (i = 1; i < Latency; i = i + 1) d_q[i] <= d_q[i-1];
  end
  assign valid_o = v_q[Latency-1];
  assign q_o = d_q[Latency-1];
endmodule
