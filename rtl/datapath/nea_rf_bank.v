`timescale 1ns/1ps
// One bank of the memory register file (nea_regfile, docs/datapath.md "Register file as memory"): a Depth x Width
// array with one write port (written at the clock edge) and one asynchronous read port. Written as a plain array so
// that synthesis infers a memory ($mem): distributed RAM (LUTRAM) on FPGAs with asynchronous-read RAM (Xilinx),
// flip-flops where the fabric has only synchronous-read block RAM (iCE40).
module nea_rf_bank #(
  parameter integer Width = 32,
  parameter integer Depth = 16,
  parameter integer AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire             clk_i,
  input  wire             we_i,
  input  wire [AddrW-1:0] waddr_i,
  input  wire [Width-1:0] wdata_i,
  input  wire [AddrW-1:0] raddr_i,
  output wire [Width-1:0] rdata_o
);
  reg [Width-1:0] mem [0:Depth-1];

  always @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
  end

  assign rdata_o = mem[raddr_i];
endmodule
