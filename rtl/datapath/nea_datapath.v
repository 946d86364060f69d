`timescale 1ns/1ps
// The scheduled Newton-Euler datapath (docs/datapath.md): NumMul multipliers and NumAdd adders (contract 6 units),
// a register file of MaxRegs words (2 read ports per unit + 1 for unload, 1 write port per unit + 1 for load), a
// constant ROM, and a sequencer stepping a microcode ROM. ROM contents come from .hex files written by
// neaccel::hw::write_hex into the directory HexDir (simulation: overridable with +neaccel_hex=DIR), so one
// parameter set serves every schedule of its unit mix that fits the capacities.
//
// Operand address space (OpAddrW bits): [0, U) unit result buses (bypass in the arrival cycle),
// [U, U+MaxRegs) registers, [U+MaxRegs, U+MaxRegs+MaxConsts) constants, then MaxParams words of the parameter memory.
// Microcode word, LSB first: per unit u {valid, op[1:0], src_a, src_b}, then per unit {wb_valid, wb_dest}, then
// per FMA unit {src_c}. Unit order: NumMul multipliers, NumAdd adders, NumDiv dividers, NumFma FMA units.
// Protocol: IDLE -(start_i)-> LOAD (n_in words on in_valid/in_ready) -> COMPUTE (n_prog words) -> UNLOAD
// (n_out words on out_valid/out_ready) -> DONE (done_o for one cycle) -> IDLE.
// Parameter memory (MaxParams > 0, issue 16): after reset the datapath is unconfigured and the first start_i runs
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
  /* verilator lint_off UNUSEDPARAM */
  parameter integer LatFma = 1,   // used only when NumFma > 0 (the g_fma branch)
  parameter integer PipeFma = 1,
  /* verilator lint_on UNUSEDPARAM */
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
  localparam integer NumSrc = NumUnits + MaxRegs + MaxConsts + MaxParams;
  localparam integer MetaN = (MaxParams > 0) ? 4 : 3;
  localparam integer IssueW = 3 + 2 * OpAddrW;
  localparam integer WbW = 1 + RegAddrW;
  localparam integer WordW = NumUnits * (IssueW + WbW) + NumFma * OpAddrW;
  localparam integer PcW = (MaxProg > 1) ? $clog2(MaxProg) : 1;
  localparam integer InW = (MaxIn > 1) ? $clog2(MaxIn) : 1;
  localparam integer OutW = (MaxOut > 1) ? $clog2(MaxOut) : 1;

  localparam [2:0] StIdle = 3'd0, StLoad = 3'd1, StCompute = 3'd2, StUnload = 3'd3, StDone = 3'd4, StConfig = 3'd5;

  // ROMs ($readmemh).
  reg [WordW-1:0]    ucode  [0:MaxProg-1];
  reg [Width-1:0]    consts [0:MaxConsts-1];
  reg [RegAddrW:0]   inrom  [0:MaxIn-1];
  reg [OpAddrW-1:0]  outrom [0:MaxOut-1];
  reg [15:0]         meta   [0:MetaN-1];

`ifdef SYNTHESIS
  initial begin
    $readmemh({HexDir, "/ucode.hex"}, ucode);
    $readmemh({HexDir, "/const.hex"}, consts);
    $readmemh({HexDir, "/in.hex"}, inrom);
    $readmemh({HexDir, "/out.hex"}, outrom);
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
    $sformat(hex_file, "%0s/const.hex", hex_dir);
    $readmemh(hex_file, consts);
    $sformat(hex_file, "%0s/in.hex", hex_dir);
    $readmemh(hex_file, inrom);
    $sformat(hex_file, "%0s/out.hex", hex_dir);
    $readmemh(hex_file, outrom);
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

  // Parameter memory (MaxParams > 0): written in CONFIG, one word per accepted input word.
  localparam integer ParDepth = (MaxParams > 0) ? MaxParams : 1;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [Width-1:0] params [0:ParDepth-1];
  /* verilator lint_on UNUSEDSIGNAL */
  generate
    if (MaxParams > 0) begin : g_params
      localparam integer ParW = (MaxParams > 1) ? $clog2(MaxParams) : 1;
      reg cfgd_q;
      assign need_cfg = !cfgd_q;
      assign n_par = meta[3];
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) cfgd_q <= 1'b0;
        else if (state_q == StConfig && state_d == StDone) cfgd_q <= 1'b1;
      end
      always @(posedge clk_i) if (state_q == StConfig && in_valid_i) params[idx_q[ParW-1:0]] <= in_data_i;
    end else begin : g_no_params
      assign need_cfg = 1'b0;
      assign n_par = 16'd0;
    end
  endgenerate

  // Register file and operand space.
  wire [Width-1:0] opnd [0:NumSrc-1];
  wire [NumUnits*Width-1:0] unit_result;
  wire [NumUnits-1:0] unit_valid;

  genvar s;
  generate
    for (s = 0; s < NumSrc; s = s + 1) begin : g_src
      if (s < NumUnits) begin : g_bus
        assign opnd[s] = unit_result[s*Width +: Width];
      end else if (s >= NumUnits + MaxRegs + MaxConsts) begin : g_param
        assign opnd[s] = params[s - NumUnits - MaxRegs - MaxConsts];
      end else if (s >= NumUnits + MaxRegs) begin : g_const
        assign opnd[s] = consts[s - NumUnits - MaxRegs];
      end  // registers: g_ffrf / g_memrf below
    end
  endgenerate

  // Units, issue and write-back fields.
  wire [NumUnits-1:0] wb_en;
  wire [NumUnits*OpAddrW-1:0] src_a_all, src_b_all;
  wire [NumUnits*RegAddrW-1:0] wb_dest;
  genvar u;
  generate
    for (u = 0; u < NumUnits; u = u + 1) begin : g_unit
      wire               iss_valid = word_q[u*IssueW];
      wire [1:0]         iss_op = word_q[u*IssueW+1 +: 2];
      wire [OpAddrW-1:0] src_a = word_q[u*IssueW+3 +: OpAddrW];
      wire [OpAddrW-1:0] src_b = word_q[u*IssueW+3+OpAddrW +: OpAddrW];
      assign src_a_all[u*OpAddrW +: OpAddrW] = src_a;
      assign src_b_all[u*OpAddrW +: OpAddrW] = src_b;
      assign wb_en[u] = computing & word_q[NumUnits*IssueW + u*WbW];
      assign wb_dest[u*RegAddrW +: RegAddrW] = word_q[NumUnits*IssueW + u*WbW + 1 +: RegAddrW];
      if (u >= NumMul + NumAdd + NumDiv) begin : g_fma
        /* verilator lint_off UNUSEDSIGNAL */
        wire [1:0] unused_op = iss_op;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [OpAddrW-1:0] src_c = word_q[NumUnits*(IssueW+WbW) + (u-NumMul-NumAdd-NumDiv)*OpAddrW +: OpAddrW];
        nea_fma_unit #(
          .IsFixed(IsFixed), .Width(Width), .Frac(Frac), .Latency(LatFma), .Pipelined(PipeFma)
        ) u_unit (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(computing & iss_valid),
          .a_i(opnd_a[u]), .b_i(opnd_b[u]), .c_i(opnd[src_c]),
          .valid_o(unit_valid[u]), .result_o(unit_result[u*Width +: Width]));
      end else begin : g_op2
        nea_unit #(
          .Kind(u < NumMul ? 0 : u < NumMul + NumAdd ? 1 : 2), .IsFixed(IsFixed), .Width(Width), .Frac(Frac),
          .Latency(u < NumMul ? LatMul : u < NumMul + NumAdd ? LatAdd : LatDiv),
          .Pipelined(u < NumMul ? PipeMul : u < NumMul + NumAdd ? PipeAdd : PipeDiv)
        ) u_unit (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(computing & iss_valid), .op_i(iss_op),
          .a_i(opnd_a[u]), .b_i(opnd_b[u]),
          .valid_o(unit_valid[u]), .result_o(unit_result[u*Width +: Width]));
      end
    end
  endgenerate

  wire [RegAddrW:0] load_word = inrom[idx_q[InW-1:0]];
  wire load_en = (state_q == StLoad) & in_valid_i & load_word[RegAddrW];
  wire [RegAddrW-1:0] load_addr = load_word[RegAddrW-1:0];


  wire [OpAddrW-1:0] out_src = outrom[idx_q[OutW-1:0]];

  // Register file: flip-flops (RegFile = 0) or memory arrays (RegFile = 1); operands of the units and the output.
  wire [Width-1:0] opnd_a [0:NumUnits-1];
  wire [Width-1:0] opnd_b [0:NumUnits-1];
  wire [Width-1:0] out_word;
  generate
    if (RegFile == 0) begin : g_ffrf
      reg [Width-1:0] regs [0:MaxRegs-1];
      for (s = 0; s < MaxRegs; s = s + 1) begin : g_reg
        assign opnd[NumUnits + s] = regs[s];
      end
      integer w;
      always @(posedge clk_i) begin
        for (w = 0; w < NumUnits; w = w + 1)
          if (wb_en[w]) regs[wb_dest[w*RegAddrW +: RegAddrW]] <= unit_result[w*Width +: Width];
        if (load_en) regs[load_addr] <= in_data_i;
      end
      for (u = 0; u < NumUnits; u = u + 1) begin : g_opnd
        assign opnd_a[u] = opnd[src_a_all[u*OpAddrW +: OpAddrW]];
        assign opnd_b[u] = opnd[src_b_all[u*OpAddrW +: OpAddrW]];
      end
      assign out_word = opnd[out_src];
    end else begin : g_memrf
      localparam integer NumWr = NumUnits;
      wire unloading = (state_q == StUnload);
      localparam integer NumRd = 2 * NumUnits;
      localparam [31:0] RegLo = NumUnits;
      localparam [31:0] RegHi = NumUnits + MaxRegs;
      wire [NumWr-1:0]          we;
      wire [NumWr*RegAddrW-1:0] waddr;
      wire [NumWr*Width-1:0]    wdata;
      wire [OpAddrW-1:0]        rd_src [0:NumRd-1];
      wire [NumRd-1:0]          rd_is_reg;
      wire [NumRd*RegAddrW-1:0] raddr;
      wire [NumRd*Width-1:0]    rdata;
      wire [Width-1:0]          rd_word [0:NumRd-1];
      for (s = 0; s < MaxRegs; s = s + 1) begin : g_reg
        assign opnd[NumUnits + s] = {Width{1'b0}};  // registers come from the read ports
      end
      // Write ports: one per unit; the input load writes through port 0 (LOAD: no unit writes back). Read ports:
      // two per unit; the output unload reads through port 0 (UNLOAD: no unit issues).
      for (u = 0; u < NumUnits; u = u + 1) begin : g_wr
        if (u == 0) begin : g_load
          assign we[u] = wb_en[u] | load_en;
          assign waddr[u*RegAddrW +: RegAddrW] = load_en ? load_addr : wb_dest[u*RegAddrW +: RegAddrW];
          assign wdata[u*Width +: Width] = load_en ? in_data_i : unit_result[u*Width +: Width];
        end else begin : g_unit_only
          assign we[u] = wb_en[u];
          assign waddr[u*RegAddrW +: RegAddrW] = wb_dest[u*RegAddrW +: RegAddrW];
          assign wdata[u*Width +: Width] = unit_result[u*Width +: Width];
        end
      end
      for (u = 0; u < NumUnits; u = u + 1) begin : g_rd_unit
        assign rd_src[2*u] = (u == 0 && unloading) ? out_src : src_a_all[u*OpAddrW +: OpAddrW];
        assign rd_src[2*u+1] = src_b_all[u*OpAddrW +: OpAddrW];
        assign opnd_a[u] = rd_word[2*u];
        assign opnd_b[u] = rd_word[2*u+1];
      end
      for (s = 0; s < NumRd; s = s + 1) begin : g_rd
        /* verilator lint_off UNUSEDSIGNAL */
        wire [31:0] src32 = {{(32-OpAddrW){1'b0}}, rd_src[s]};
        wire [31:0] reg_off = src32 - RegLo;  // register index when rd_is_reg
        /* verilator lint_on UNUSEDSIGNAL */
        assign rd_is_reg[s] = (src32 >= RegLo) && (src32 < RegHi);
        assign raddr[s*RegAddrW +: RegAddrW] = reg_off[RegAddrW-1:0];
        assign rd_word[s] = rd_is_reg[s] ? rdata[s*Width +: Width] : opnd[rd_src[s]];
      end
      assign out_word = rd_word[0];
      nea_regfile #(.Width(Width), .Depth(MaxRegs), .NumWr(NumWr), .NumRd(NumRd)) u_regfile (
        .clk_i(clk_i), .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .raddr_i(raddr), .rdata_o(rdata));
    end
  endgenerate

  assign in_ready_o = (state_q == StLoad) | (state_q == StConfig);
  assign out_valid_o = (state_q == StUnload);
  assign out_data_o = out_valid_o ? out_word : {Width{1'b0}};
  assign busy_o = (state_q != StIdle);
  assign done_o = (state_q == StDone);
  assign dbg_unit_valid_o = unit_valid;
  assign dbg_unit_result_o = unit_result;
  assign dbg_wr_en_o = wb_en;
  assign dbg_wr_addr_o = wb_dest;
  assign dbg_load_en_o = load_en;
  assign dbg_load_addr_o = load_addr;
endmodule
