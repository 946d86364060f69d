`timescale 1ns/1ps
// The execution part shared by the scheduled datapaths nea_datapath (latency) and nea_stream (streaming)
// (docs/datapath.md): the arithmetic units, the register file, the constant ROM, the parameter memory and the operand
// selection of the unit ports and of the output port. The instantiating top runs the sequencer and decodes its own
// microcode word into the fields of the ports below (issue, write-back, input lanes, output operand), all for the
// current cycle; register and parameter writes take effect at the clock edge.
//
// Operand address space (OpAddrW bits): [0, U) unit result buses (bypass in the arrival cycle),
// [U, U+MaxRegs) registers, [U+MaxRegs, U+MaxRegs+MaxConsts) constants (HexDir/const.hex, simulation: overridable
// with +neaccel_hex=DIR), then MaxParams words of the parameter memory.
// Units, in order: NumMul multipliers, NumAdd adders, NumDiv dividers (nea_unit), NumFma FMA units (nea_fma_unit,
// whose third operands are src_c_i, one field per FMA unit).
// Register writes of one cycle, in this order (a later write to one register wins): unit u's result when wb_en_i[u],
// then input lane l of in_data_i (load_en_o, load_addr_o: lane 0's write, for the trace).
// Parameter memory (MaxParams > 0): cfg_we_i writes lane 0 of in_data_i into word cfg_idx_i; need_cfg_o is high from
// reset until cfg_done_i (the configuration phase is over).
// PhasedIo = 1 (nea_datapath: load, compute and unload are phases of their own; InWords = 1): the input ROM
// (in.hex, per input word {write, register}) and the output ROM (out.hex, per output word the operand address) are
// read at the phase counter io_idx_i; ld_en_i says an input word is taken; a memory register file (RegFile = 1) takes
// the input load through unit 0's write port and the output through unit 0's first read port while out_rd_i is high.
// PhasedIo = 0 (nea_stream: loads and outputs overlap the computation): lane l writes register ld_addr_i[l] when
// ld_en_i[l], the output reads operand out_src_i, and a memory register file has ports of their own for them.
module nea_exec #(
  parameter integer IsFixed = 0,
  parameter integer Width = 32,
  parameter integer Frac = 0,
  parameter integer NumMul = 1,
  parameter integer NumAdd = 1,
  parameter integer LatMul = 1,
  parameter integer LatAdd = 1,
  parameter integer PipeMul = 1,
  parameter integer PipeAdd = 1,
  parameter integer NumDiv = 0,   // dividers (nea_unit Kind 2)
  parameter integer LatDiv = 1,
  parameter integer PipeDiv = 1,
  parameter integer NumFma = 0,   // fused multiply-add units (nea_fma_unit; RegFile = 0 only)
  /* verilator lint_off UNUSEDPARAM */
  parameter integer LatFma = 1,   // used only when NumFma > 0 (the g_fma branch)
  parameter integer PipeFma = 1,
  /* verilator lint_on UNUSEDPARAM */
  parameter integer MaxRegs = 16,
  parameter integer MaxConsts = 16,
  parameter integer MaxParams = 0,  // parameter memory words (0: none)
  parameter integer RegFile = 0,    // 0: flip-flops + read multiplexers; 1: memory arrays (nea_regfile)
  parameter integer InWords = 1,    // input lanes of in_data_i (RegFile = 1: lane 0 only)
  parameter integer PhasedIo = 0,   // 1: load and unload phases addressed through the input and output ROMs
  parameter integer MaxIn = 16,     // input ROM words (PhasedIo = 1)
  parameter integer MaxOut = 8,     // output ROM words (PhasedIo = 1)
  parameter HexDir = ".",
  // Derived (do not override).
  parameter integer NumUnits = NumMul + NumAdd + NumDiv + NumFma,
  parameter integer RegAddrW = (MaxRegs > 1) ? $clog2(MaxRegs) : 1,
  parameter integer OpAddrW = (NumUnits + MaxRegs + MaxConsts + MaxParams > 1) ?
                              $clog2(NumUnits + MaxRegs + MaxConsts + MaxParams) : 1,
  parameter integer FmaN = (NumFma > 0) ? NumFma : 1  // src_c_i fields (one unused field without FMA units)
) (
  input  wire                         clk_i,
  input  wire                         rst_ni,
  // Issue, per unit u: valid (already qualified by the sequencer), op, operand addresses.
  input  wire [NumUnits-1:0]          iss_valid_i,
  input  wire [NumUnits*2-1:0]        iss_op_i,
  input  wire [NumUnits*OpAddrW-1:0]  src_a_i,
  input  wire [NumUnits*OpAddrW-1:0]  src_b_i,
  input  wire [FmaN*OpAddrW-1:0]      src_c_i,
  // Write-back, per unit u: the result on unit u's bus is written into register wb_dest_i[u].
  input  wire [NumUnits-1:0]          wb_en_i,
  input  wire [NumUnits*RegAddrW-1:0] wb_dest_i,
  // Input port: per lane a register write; lane 0 also feeds the parameter memory.
  input  wire [InWords*Width-1:0]     in_data_i,
  input  wire [15:0]                  io_idx_i,
  input  wire [InWords-1:0]           ld_en_i,
  input  wire [InWords*RegAddrW-1:0]  ld_addr_i,
  output wire                         load_en_o,
  output wire [RegAddrW-1:0]          load_addr_o,
  input  wire                         cfg_we_i,
  input  wire [15:0]                  cfg_idx_i,
  input  wire                         cfg_done_i,
  output wire                         need_cfg_o,
  // Output port: the operand at out_src_i or (PhasedIo = 1) at the output ROM's word io_idx_i (out_rd_i: unloading).
  input  wire [OpAddrW-1:0]           out_src_i,
  input  wire                         out_rd_i,
  output wire [Width-1:0]             out_word_o,
  // Unit result buses.
  output wire [NumUnits-1:0]          unit_valid_o,
  output wire [NumUnits*Width-1:0]    unit_result_o
);
  localparam integer NumSrc = NumUnits + MaxRegs + MaxConsts + MaxParams;

  // ROMs ($readmemh): constants; input and output ROMs (PhasedIo = 1).
  reg [Width-1:0]   consts [0:MaxConsts-1];
  /* verilator lint_off UNUSEDSIGNAL */
  /* verilator lint_off UNDRIVEN */
  reg [RegAddrW:0]  inrom  [0:MaxIn-1];
  reg [OpAddrW-1:0] outrom [0:MaxOut-1];
  /* verilator lint_on UNDRIVEN */
  /* verilator lint_on UNUSEDSIGNAL */

`ifdef SYNTHESIS
  initial $readmemh({HexDir, "/const.hex"}, consts);
  generate
    if (PhasedIo != 0) begin : g_io_hex
      initial begin
        $readmemh({HexDir, "/in.hex"}, inrom);
        $readmemh({HexDir, "/out.hex"}, outrom);
      end
    end
  endgenerate
`else
  reg [8*1024-1:0] hex_dir;
  reg [8*1040-1:0] hex_file;
  initial begin
    /* verilator lint_off WIDTH */
    if (!$value$plusargs("neaccel_hex=%s", hex_dir)) hex_dir = HexDir;
    /* verilator lint_on WIDTH */
    $sformat(hex_file, "%0s/const.hex", hex_dir);
    $readmemh(hex_file, consts);
    if (PhasedIo != 0) begin
      $sformat(hex_file, "%0s/in.hex", hex_dir);
      $readmemh(hex_file, inrom);
      $sformat(hex_file, "%0s/out.hex", hex_dir);
      $readmemh(hex_file, outrom);
    end
  end
`endif

  // Parameter memory (MaxParams > 0): written in the configuration phase, one word per accepted input word.
  localparam integer ParDepth = (MaxParams > 0) ? MaxParams : 1;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [Width-1:0] params [0:ParDepth-1];
  /* verilator lint_on UNUSEDSIGNAL */
  generate
    if (MaxParams > 0) begin : g_params
      localparam integer ParW = (MaxParams > 1) ? $clog2(MaxParams) : 1;
      reg cfgd_q;
      assign need_cfg_o = !cfgd_q;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) cfgd_q <= 1'b0;
        else if (cfg_done_i) cfgd_q <= 1'b1;
      end
      always @(posedge clk_i) if (cfg_we_i) params[cfg_idx_i[ParW-1:0]] <= in_data_i[Width-1:0];
      if (ParW < 16) begin : g_unused_idx
        /* verilator lint_off UNUSEDSIGNAL */
        wire [15-ParW:0] unused_idx = cfg_idx_i[15:ParW];
        /* verilator lint_on UNUSEDSIGNAL */
      end
    end else begin : g_no_params
      /* verilator lint_off UNUSEDSIGNAL */
      wire [17:0] unused_cfg = {cfg_we_i, cfg_idx_i, cfg_done_i};
      /* verilator lint_on UNUSEDSIGNAL */
      assign need_cfg_o = 1'b0;
    end
  endgenerate

  // Operand space.
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

  // Units.
  wire [Width-1:0] opnd_a [0:NumUnits-1];
  wire [Width-1:0] opnd_b [0:NumUnits-1];
  genvar u;
  generate
    for (u = 0; u < NumUnits; u = u + 1) begin : g_unit
      wire [1:0] iss_op = iss_op_i[u*2 +: 2];
      if (u >= NumMul + NumAdd + NumDiv) begin : g_fma
        /* verilator lint_off UNUSEDSIGNAL */
        wire [1:0] unused_op = iss_op;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [OpAddrW-1:0] src_c = src_c_i[(u-NumMul-NumAdd-NumDiv)*OpAddrW +: OpAddrW];
        nea_fma_unit #(
          .IsFixed(IsFixed), .Width(Width), .Frac(Frac), .Latency(LatFma), .Pipelined(PipeFma)
        ) u_unit (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(iss_valid_i[u]),
          .a_i(opnd_a[u]), .b_i(opnd_b[u]), .c_i(opnd[src_c]),
          .valid_o(unit_valid[u]), .result_o(unit_result[u*Width +: Width]));
      end else begin : g_op2
        nea_unit #(
          .Kind(u < NumMul ? 0 : u < NumMul + NumAdd ? 1 : 2), .IsFixed(IsFixed), .Width(Width), .Frac(Frac),
          .Latency(u < NumMul ? LatMul : u < NumMul + NumAdd ? LatAdd : LatDiv),
          .Pipelined(u < NumMul ? PipeMul : u < NumMul + NumAdd ? PipeAdd : PipeDiv)
        ) u_unit (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(iss_valid_i[u]), .op_i(iss_op),
          .a_i(opnd_a[u]), .b_i(opnd_b[u]),
          .valid_o(unit_valid[u]), .result_o(unit_result[u*Width +: Width]));
      end
    end
    if (NumFma == 0) begin : g_no_fma
      /* verilator lint_off UNUSEDSIGNAL */
      wire [OpAddrW-1:0] unused_src_c = src_c_i;
      /* verilator lint_on UNUSEDSIGNAL */
    end
  endgenerate

  // Register writes of the input lanes and the output operand: through the input and output ROMs (PhasedIo = 1) or
  // as the instantiating top decodes them.
  wire [InWords-1:0]          wr_en;
  wire [InWords*RegAddrW-1:0] wr_addr;
  wire [OpAddrW-1:0]          out_src;
  generate
    if (PhasedIo != 0) begin : g_io_rom
      localparam integer InW = (MaxIn > 1) ? $clog2(MaxIn) : 1;
      localparam integer OutW = (MaxOut > 1) ? $clog2(MaxOut) : 1;
      wire [RegAddrW:0] load_word = inrom[io_idx_i[InW-1:0]];
      assign wr_en = ld_en_i & load_word[RegAddrW];
      assign wr_addr = load_word[RegAddrW-1:0];
      assign out_src = outrom[io_idx_i[OutW-1:0]];
      /* verilator lint_off UNUSEDSIGNAL */
      wire unused_io = ^{io_idx_i, ld_addr_i, out_src_i};
      /* verilator lint_on UNUSEDSIGNAL */
    end else begin : g_io_fields
      assign wr_en = ld_en_i;
      assign wr_addr = ld_addr_i;
      assign out_src = out_src_i;
      /* verilator lint_off UNUSEDSIGNAL */
      wire [15:0] unused_io_idx = io_idx_i;
      /* verilator lint_on UNUSEDSIGNAL */
    end
  endgenerate
  assign load_en_o = wr_en[0];
  assign load_addr_o = wr_addr[RegAddrW-1:0];

  // Register file: flip-flops (RegFile = 0) or memory arrays (RegFile = 1); operands of the units and the output.
  wire [Width-1:0] out_word;
  generate
    if (RegFile == 0) begin : g_ffrf
      reg [Width-1:0] regs [0:MaxRegs-1];
      for (s = 0; s < MaxRegs; s = s + 1) begin : g_reg
        assign opnd[NumUnits + s] = regs[s];
      end
      // PhasedIo = 1: the units write back and the input load writes in phases of their own (wb_en_i and ld_en_i are
      // never high together); qualifying the write-backs with !ld_en_i shows synthesis that the write ports are
      // exclusive, so that it shares them as it would with the phase register in this module.
      wire [NumUnits-1:0] wb_en = (PhasedIo != 0) ? wb_en_i & ~{NumUnits{ld_en_i[0]}} : wb_en_i;
      integer w;
      always @(posedge clk_i) begin
        for (w = 0; w < NumUnits; w = w + 1)
          if (wb_en[w]) regs[wb_dest_i[w*RegAddrW +: RegAddrW]] <= unit_result[w*Width +: Width];
        for (w = 0; w < InWords; w = w + 1)
          if (wr_en[w]) regs[wr_addr[w*RegAddrW +: RegAddrW]] <= in_data_i[w*Width +: Width];
      end
      for (u = 0; u < NumUnits; u = u + 1) begin : g_opnd
        assign opnd_a[u] = opnd[src_a_i[u*OpAddrW +: OpAddrW]];
        assign opnd_b[u] = opnd[src_b_i[u*OpAddrW +: OpAddrW]];
      end
      assign out_word = opnd[out_src];
      /* verilator lint_off UNUSEDSIGNAL */
      wire unused_out_rd = out_rd_i;
      /* verilator lint_on UNUSEDSIGNAL */
    end else begin : g_memrf  // one input lane (InWords > 1 is refused by the generator)
      // Write ports: one per unit, then (PhasedIo = 0) the input load; read ports: two per unit, then (PhasedIo = 0)
      // the output. PhasedIo = 1: the input load writes through port 0 (LOAD: no unit writes back) and the output
      // reads through port 0 (UNLOAD: no unit issues).
      localparam integer NumWr = (PhasedIo != 0) ? NumUnits : NumUnits + 1;
      localparam integer NumRd = (PhasedIo != 0) ? 2 * NumUnits : 2 * NumUnits + 1;
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
      wire                      load_en = wr_en[0];
      wire [RegAddrW-1:0]       load_addr = wr_addr[RegAddrW-1:0];
      wire [Width-1:0]          load_data = in_data_i[Width-1:0];
      if (InWords > 1) begin : g_unused_lanes
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused_lanes = ^{wr_en[InWords-1:1], wr_addr[InWords*RegAddrW-1:RegAddrW],
                              in_data_i[InWords*Width-1:Width]};
        /* verilator lint_on UNUSEDSIGNAL */
      end
      for (s = 0; s < MaxRegs; s = s + 1) begin : g_reg
        assign opnd[NumUnits + s] = {Width{1'b0}};  // registers come from the read ports
      end
      for (u = 0; u < NumUnits; u = u + 1) begin : g_wr
        if (PhasedIo != 0 && u == 0) begin : g_load
          assign we[u] = wb_en_i[u] | load_en;
          assign waddr[u*RegAddrW +: RegAddrW] = load_en ? load_addr : wb_dest_i[u*RegAddrW +: RegAddrW];
          assign wdata[u*Width +: Width] = load_en ? load_data : unit_result[u*Width +: Width];
        end else begin : g_unit_only
          assign we[u] = wb_en_i[u];
          assign waddr[u*RegAddrW +: RegAddrW] = wb_dest_i[u*RegAddrW +: RegAddrW];
          assign wdata[u*Width +: Width] = unit_result[u*Width +: Width];
        end
      end
      for (u = 0; u < NumUnits; u = u + 1) begin : g_rd_unit
        if (PhasedIo != 0 && u == 0) begin : g_unload
          assign rd_src[2*u] = out_rd_i ? out_src : src_a_i[u*OpAddrW +: OpAddrW];
        end else begin : g_src_a
          assign rd_src[2*u] = src_a_i[u*OpAddrW +: OpAddrW];
        end
        assign rd_src[2*u+1] = src_b_i[u*OpAddrW +: OpAddrW];
        assign opnd_a[u] = rd_word[2*u];
        assign opnd_b[u] = rd_word[2*u+1];
      end
      if (PhasedIo != 0) begin : g_phased_io
        assign out_word = rd_word[0];
      end else begin : g_own_io
        /* verilator lint_off UNUSEDSIGNAL */
        wire unused_out_rd = out_rd_i;
        /* verilator lint_on UNUSEDSIGNAL */
        assign we[NumUnits] = load_en;
        assign waddr[NumUnits*RegAddrW +: RegAddrW] = load_addr;
        assign wdata[NumUnits*Width +: Width] = load_data;
        assign rd_src[2*NumUnits] = out_src;
        assign out_word = rd_word[2*NumUnits];
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
      nea_regfile #(.Width(Width), .Depth(MaxRegs), .NumWr(NumWr), .NumRd(NumRd)) u_regfile (
        .clk_i(clk_i), .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .raddr_i(raddr), .rdata_o(rdata));
    end
  endgenerate

  assign out_word_o = out_word;
  assign unit_valid_o = unit_valid;
  assign unit_result_o = unit_result;
endmodule
