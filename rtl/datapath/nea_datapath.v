`timescale 1ns/1ps
// The scheduled Newton-Euler datapath (docs/datapath.md): NumMul multipliers and NumAdd adders (contract 6 units),
// a register file of MaxRegs words (2 read ports per unit + 1 for unload, 1 write port per unit + 1 for load), a
// constant ROM, and a sequencer stepping a microcode ROM. ROM contents come from .hex files written by
// neaccel::hw::write_hex into the directory HexDir (simulation: overridable with +neaccel_hex=DIR), so one
// parameter set serves every schedule of its unit mix that fits the capacities. The units, register file, constant
// ROM, parameter memory and operand selection are nea_exec (shared with nea_stream); this module holds the
// sequencer and the microcode, input, output and meta ROMs, and decodes the microcode word for nea_exec.
//
// Operand address space (OpAddrW bits): [0, U) unit result buses (bypass in the arrival cycle),
// [U, U+MaxRegs) registers, [U+MaxRegs, U+MaxRegs+MaxConsts) constants, then MaxParams words of the parameter memory.
// Microcode word, LSB first: per unit u {valid, op[1:0], src_a, src_b}, then per unit {wb_valid, wb_dest}, then
// per FMA unit {src_c}. Unit order: NumMul multipliers, NumAdd adders, NumDiv dividers, NumFma FMA units.
// Protocol: IDLE -(start_i)-> LOAD (n_in words on in_valid/in_ready) -> COMPUTE (n_prog words) -> UNLOAD
// (n_out words on out_valid/out_ready) -> DONE (done_o for one cycle) -> IDLE.
// Parameter memory (MaxParams > 0): after reset the datapath is unconfigured and the first start_i runs
// the configuration phase instead: IDLE -(start_i)-> CONFIG (n_par words on in_valid/in_ready, written into the
// parameter memory in order; meta[3] = n_par) -> DONE -> IDLE. Evaluations follow. A reset (the parameter memory
// keeps its contents but is marked unconfigured) and another configuration phase change the robot.
module nea_datapath #(
  parameter integer IsFixed = 0,
  parameter integer Width = 32,
  parameter integer Frac = 0,
  parameter integer NumMul = 1,
  parameter integer NumAdd = 1,
  parameter integer LatMul = 1,
  parameter integer LatAdd = 1,
  parameter integer PipeMul = 1,
  parameter integer PipeAdd = 1,
  parameter integer MaxRegs = 16,
  parameter integer MaxConsts = 16,
  parameter integer MaxProg = 64,
  parameter integer MaxIn = 16,
  parameter integer MaxOut = 8,
  parameter integer RegFile = 0,  // 0: flip-flops + read multiplexers; 1: memory arrays (nea_regfile)
  parameter integer NumDiv = 0,   // dividers (nea_unit Kind 2)
  parameter integer LatDiv = 1,
  parameter integer PipeDiv = 1,
  parameter integer NumFma = 0,   // fused multiply-add units (nea_fma_unit; RegFile = 0 only)
  parameter integer LatFma = 1,
  parameter integer PipeFma = 1,
  parameter integer MaxParams = 0,  // parameter memory words (0: none)
  parameter HexDir = ".",
  // Derived (do not override).
  parameter integer NumUnits = NumMul + NumAdd + NumDiv + NumFma,
  parameter integer RegAddrW = (MaxRegs > 1) ? $clog2(MaxRegs) : 1,
  parameter integer OpAddrW = (NumUnits + MaxRegs + MaxConsts + MaxParams > 1) ?
                              $clog2(NumUnits + MaxRegs + MaxConsts + MaxParams) : 1
) (
  input  wire                         clk_i,
  input  wire                         rst_ni,
  input  wire                         start_i,
  input  wire                         in_valid_i,
  input  wire [Width-1:0]             in_data_i,
  output wire                         in_ready_o,
  output wire                         out_valid_o,
  output wire [Width-1:0]             out_data_o,
  input  wire                         out_ready_i,
  output wire                         busy_o,
  output wire                         done_o,
  // Debug/trace (co-simulation): unit result buses, register writes of the units and of the input load.
  output wire [NumUnits-1:0]          dbg_unit_valid_o,
  output wire [NumUnits*Width-1:0]    dbg_unit_result_o,
  output wire [NumUnits-1:0]          dbg_wr_en_o,
  output wire [NumUnits*RegAddrW-1:0] dbg_wr_addr_o,
  output wire                         dbg_load_en_o,
  output wire [RegAddrW-1:0]          dbg_load_addr_o
);
  localparam integer MetaN = (MaxParams > 0) ? 4 : 3;
  localparam integer IssueW = 3 + 2 * OpAddrW;
  localparam integer WbW = 1 + RegAddrW;
  localparam integer WordW = NumUnits * (IssueW + WbW) + NumFma * OpAddrW;
  localparam integer PcW = (MaxProg > 1) ? $clog2(MaxProg) : 1;
  localparam integer FmaN = (NumFma > 0) ? NumFma : 1;

  localparam [2:0] StIdle = 3'd0, StLoad = 3'd1, StCompute = 3'd2, StUnload = 3'd3, StDone = 3'd4, StConfig = 3'd5;

  // ROMs ($readmemh; the constant, input and output ROMs are in nea_exec).
  reg [WordW-1:0]    ucode  [0:MaxProg-1];
  reg [15:0]         meta   [0:MetaN-1];

`ifdef SYNTHESIS
  initial begin
    $readmemh({HexDir, "/ucode.hex"}, ucode);
    $readmemh({HexDir, "/meta.hex"}, meta);
  end
`else
  reg [8*1024-1:0] hex_dir;
  reg [8*1040-1:0] hex_file;
  initial begin
    /* verilator lint_off WIDTH */
    if (!$value$plusargs("neaccel_hex=%s", hex_dir)) hex_dir = HexDir;
    /* verilator lint_on WIDTH */
    $sformat(hex_file, "%0s/ucode.hex", hex_dir);
    $readmemh(hex_file, ucode);
    $sformat(hex_file, "%0s/meta.hex", hex_dir);
    $readmemh(hex_file, meta);
  end
`endif

  wire [15:0] n_in = meta[0];
  wire [15:0] n_prog = meta[1];
  wire [15:0] n_out = meta[2];

  // Sequencer state.
  reg [2:0]  state_q, state_d;
  reg [15:0] idx_q, idx_d;
  wire       need_cfg;    // parameter memory not written since reset: the next start configures
  wire [15:0] n_par;
  reg [WordW-1:0] word_q;  // microcode word of the current cycle (synchronous ROM read, prefetched)

  wire computing = (state_q == StCompute);
  /* verilator lint_off UNUSEDSIGNAL */
  wire [15:0] fetch_idx = (computing && state_d == StCompute) ? idx_q + 16'd1 : 16'd0;
  /* verilator lint_on UNUSEDSIGNAL */

  always @* begin
    state_d = state_q;
    idx_d = idx_q;
    case (state_q)
      StIdle: if (start_i) begin
        state_d = need_cfg ? StConfig : (n_in != 16'd0) ? StLoad : StCompute;
        idx_d = 16'd0;
      end
      StConfig: if (in_valid_i) begin
        idx_d = idx_q + 16'd1;
        if (idx_d == n_par) begin
          state_d = StDone;
          idx_d = 16'd0;
        end
      end
      StLoad: if (in_valid_i) begin
        idx_d = idx_q + 16'd1;
        if (idx_d == n_in) begin
          state_d = StCompute;
          idx_d = 16'd0;
        end
      end
      StCompute: begin
        idx_d = idx_q + 16'd1;
        if (idx_d == n_prog) begin
          state_d = (n_out != 16'd0) ? StUnload : StDone;
          idx_d = 16'd0;
        end
      end
      StUnload: if (out_ready_i) begin
        idx_d = idx_q + 16'd1;
        if (idx_d == n_out) begin
          state_d = StDone;
          idx_d = 16'd0;
        end
      end
      default: state_d = StIdle;  // StDone
    endcase
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      idx_q <= 16'd0;
    end else begin
      state_q <= state_d;
      idx_q <= idx_d;
    end
  end

  always @(posedge clk_i) word_q <= ucode[fetch_idx[PcW-1:0]];

  // Configuration phase (MaxParams > 0): the parameter memory (in nea_exec) takes n_par words.
  generate
    if (MaxParams > 0) begin : g_params
      assign n_par = meta[3];
    end else begin : g_no_params
      assign n_par = 16'd0;
    end
  endgenerate

  // Issue and write-back fields of the microcode word.
  wire [NumUnits-1:0] iss_valid, wb_en;
  wire [NumUnits*2-1:0] iss_op;
  wire [NumUnits*OpAddrW-1:0] src_a_all, src_b_all;
  wire [NumUnits*RegAddrW-1:0] wb_dest;
  wire [FmaN*OpAddrW-1:0] src_c_all;
  genvar u;
  generate
    for (u = 0; u < NumUnits; u = u + 1) begin : g_unit
      assign iss_valid[u] = computing & word_q[u*IssueW];
      assign iss_op[u*2 +: 2] = word_q[u*IssueW+1 +: 2];
      assign src_a_all[u*OpAddrW +: OpAddrW] = word_q[u*IssueW+3 +: OpAddrW];
      assign src_b_all[u*OpAddrW +: OpAddrW] = word_q[u*IssueW+3+OpAddrW +: OpAddrW];
      assign wb_en[u] = computing & word_q[NumUnits*IssueW + u*WbW];
      assign wb_dest[u*RegAddrW +: RegAddrW] = word_q[NumUnits*IssueW + u*WbW + 1 +: RegAddrW];
    end
    if (NumFma > 0) begin : g_fma
      assign src_c_all = word_q[NumUnits*(IssueW+WbW) +: NumFma*OpAddrW];
    end else begin : g_no_fma
      assign src_c_all = {OpAddrW{1'b0}};
    end
  endgenerate

  // Units, register file, operand space, parameter memory; its input and output ROMs map idx_q, the word index of the
  // load and unload phases, to registers and operands.
  wire [Width-1:0] out_word;
  nea_exec #(
    .IsFixed(IsFixed), .Width(Width), .Frac(Frac), .NumMul(NumMul), .NumAdd(NumAdd), .LatMul(LatMul),
    .LatAdd(LatAdd), .PipeMul(PipeMul), .PipeAdd(PipeAdd), .NumDiv(NumDiv), .LatDiv(LatDiv), .PipeDiv(PipeDiv),
    .NumFma(NumFma), .LatFma(LatFma), .PipeFma(PipeFma), .MaxRegs(MaxRegs), .MaxConsts(MaxConsts),
    .MaxParams(MaxParams), .RegFile(RegFile), .InWords(1), .PhasedIo(1), .MaxIn(MaxIn), .MaxOut(MaxOut),
    .HexDir(HexDir), .NumUnits(NumUnits), .RegAddrW(RegAddrW), .OpAddrW(OpAddrW), .FmaN(FmaN)
  ) u_exec (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .iss_valid_i(iss_valid), .iss_op_i(iss_op), .src_a_i(src_a_all), .src_b_i(src_b_all), .src_c_i(src_c_all),
    .wb_en_i(wb_en), .wb_dest_i(wb_dest),
    .in_data_i(in_data_i), .io_idx_i(idx_q), .ld_en_i((state_q == StLoad) & in_valid_i), .ld_addr_i({RegAddrW{1'b0}}),
    .load_en_o(dbg_load_en_o), .load_addr_o(dbg_load_addr_o),
    .cfg_we_i((state_q == StConfig) & in_valid_i), .cfg_idx_i(idx_q),
    .cfg_done_i((state_q == StConfig) & (state_d == StDone)), .need_cfg_o(need_cfg),
    .out_src_i({OpAddrW{1'b0}}), .out_rd_i(state_q == StUnload), .out_word_o(out_word),
    .unit_valid_o(dbg_unit_valid_o), .unit_result_o(dbg_unit_result_o));

  assign in_ready_o = (state_q == StLoad) | (state_q == StConfig);
  assign out_valid_o = (state_q == StUnload);
  assign out_data_o = out_valid_o ? out_word : {Width{1'b0}};
  assign busy_o = (state_q != StIdle);
  assign done_o = (state_q == StDone);
  assign dbg_wr_en_o = wb_en;
  assign dbg_wr_addr_o = wb_dest;
endmodule
