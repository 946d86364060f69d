`timescale 1ns/1ps
// Register file as memory arrays (docs/datapath.md "Register file as memory"): NumWr write ports, NumRd
// asynchronous read ports, built from 1-write 1-read banks (nea_rf_bank) that FPGA flows map to distributed RAM.
//
// - Read ports: one copy of the data per read port (banking by read port), so every bank has one read port.
// - Write ports: one set of banks per write port (NumWr x NumRd banks) and a live value table (LVT; LaForest and
//   Steffan, FPGA 2010): per register, the index of the write port that wrote it last (flip-flops, ceil(log2
//   NumWr) bits per register). A read takes the bank of that write port. With NumWr = 1 there is no table.
// - A write is seen by reads from the next cycle on (as the flip-flop register file); two writes to one register
//   in one cycle do not occur in a verified program (the highest-numbered port wins, as in the flip-flop file).
module nea_regfile #(
  parameter integer Width = 32,
  parameter integer Depth = 16,
  parameter integer NumWr = 2,
  parameter integer NumRd = 4,
  // Derived (do not override).
  parameter integer AddrW = (Depth > 1) ? $clog2(Depth) : 1,
  parameter integer SelW = (NumWr > 1) ? $clog2(NumWr) : 1
) (
  input  wire                   clk_i,
  input  wire [NumWr-1:0]       we_i,
  input  wire [NumWr*AddrW-1:0] waddr_i,
  input  wire [NumWr*Width-1:0] wdata_i,
  input  wire [NumRd*AddrW-1:0] raddr_i,
  output wire [NumRd*Width-1:0] rdata_o
);
  // bank_data[w][r]: read port r of the copy written by write port w.
  wire [Width-1:0] bank_data [0:NumWr*NumRd-1];

  genvar w, r;
  generate
    for (w = 0; w < NumWr; w = w + 1) begin : g_wr
      for (r = 0; r < NumRd; r = r + 1) begin : g_rd
        nea_rf_bank #(.Width(Width), .Depth(Depth), .AddrW(AddrW)) u_bank (
          .clk_i(clk_i), .we_i(we_i[w]), .waddr_i(waddr_i[w*AddrW +: AddrW]), .wdata_i(wdata_i[w*Width +: Width]),
          .raddr_i(raddr_i[r*AddrW +: AddrW]), .rdata_o(bank_data[w*NumRd + r]));
      end
    end

    if (NumWr == 1) begin : g_single
      for (r = 0; r < NumRd; r = r + 1) begin : g_rd
        assign rdata_o[r*Width +: Width] = bank_data[r];
      end
    end else begin : g_lvt
      reg  [SelW-1:0] lvt [0:Depth-1];
      wire [SelW-1:0] port_id [0:NumWr-1];
      for (w = 0; w < NumWr; w = w + 1) begin : g_port
        localparam [SelW-1:0] Port = w;
        assign port_id[w] = Port;
      end
      // One process, ports in order: the highest-numbered port writing a register wins, as in the banks' reads.
      integer i;
      always @(posedge clk_i) begin
        for (i = 0; i < NumWr; i = i + 1)
          if (we_i[i]) lvt[waddr_i[i*AddrW +: AddrW]] <= port_id[i];
      end
      for (r = 0; r < NumRd; r = r + 1) begin : g_rd
        wire [Width-1:0] copy [0:NumWr-1];
        for (w = 0; w < NumWr; w = w + 1) begin : g_copy
          assign copy[w] = bank_data[w*NumRd + r];
        end
        assign rdata_o[r*Width +: Width] = copy[lvt[raddr_i[r*AddrW +: AddrW]]];
      end
    end
  endgenerate
endmodule
