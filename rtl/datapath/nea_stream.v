`timescale 1ns/1ps
// The streaming Newton-Euler datapath (docs/datapath.md "Streaming"): the units, register file, constant ROM and
// operand space of nea_datapath, driven by a kernel of K * II microcode words generated from a modulo schedule
// (neaccel::hw::build_stream). A new set point is admitted every II cycles; results leave in order.
//
// Microcode word, LSB first: per unit u {valid, op[1:0], stage, src_a, src_b}, per unit {wb_valid, stage, wb_dest},
// then {launch}, {ld_take, ld_write, ld_dest}, {out_valid, out_stage, out_src}, then per FMA unit {src_c} (units:
// NumMul multipliers, NumAdd adders, NumDiv dividers, NumFma FMA units). Every issue, write-back and output
// event is predicated by the stage-valid bit of its stage: sv_q[j] = the set point admitted j launches ago (after the
// shift of the current launch word: stage 0 of a launch word is the set point being admitted, admit = in_valid_i).
// Loads are always stage 0 (n_in <= II). InWords > 1: in_data_i carries InWords words per beat (lane l in bits
// [l*Width +: Width]); the load field has {write, dest} per lane; the configuration phase uses lane 0.
//
// Protocol: IDLE -(start_i)-> RUN: the kernel word counter runs modulo n_prog. In a launch word in_ready_o is high;
// in_valid_i high admits a set point whose n_in words are taken in this and the next n_in - 1 cycles (in_ready_o
// high; the source must hold in_valid_i high through the burst: a modulo-scheduled pipeline has no stall).
// OutFifo = 0: out_valid_o is high while a result word is driven (n_out consecutive cycles per set point, in
// order); the sink must take it (out_ready_i is not used: no back-pressure). OutFifo > 0 (back-pressure): result
// words enter a FIFO of OutFifo words and leave it on out_valid_o/out_ready_i; a set point is admitted only with one
// of `credits` (meta) free, a credit being returned when its last word leaves, so the FIFO never overflows and a
// sink holding out_ready_i low makes in_ready_o low at launch words. RUN ends in a launch word where no set point is
// admitted, no stage holds one and the FIFO is empty: DONE (done_o for one cycle) -> IDLE. ROM contents come from
// HexDir as in nea_datapath (ucode.hex, const.hex, meta.hex = {n_in, n_prog, n_out, n_stages, credits}).
// Parameter memory (MaxParams > 0, issue 16), as in nea_datapath: after reset the first start_i runs the
// configuration phase IDLE -> CONFIG (n_par = meta[5] words on in_valid/in_ready into the parameter memory, read as
// operands after the constants) -> DONE -> IDLE; a reset and another configuration phase change the robot.
module nea_stream #(
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
  parameter integer MaxStages = 4,
  parameter integer OutFifo = 0,  // output FIFO words (0: no back-pressure)
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
  parameter integer InWords = 1,    // input port words per cycle (issue 16)
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
  input  wire [InWords*Width-1:0]     in_data_i,
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
  localparam integer MetaN = (MaxParams > 0) ? 6 : 5;
  localparam integer StW = (MaxStages > 1) ? $clog2(MaxStages) : 1;
  localparam integer IssueW = 3 + StW + 2 * OpAddrW;
  localparam integer WbW = 1 + StW + RegAddrW;
  localparam integer CtlLo = NumUnits * (IssueW + WbW);          // first control bit (launch)
  localparam integer LaneW = 1 + RegAddrW;                        // per input lane {write, dest}
  localparam integer FmaLo = CtlLo + 1 + (1 + InWords * LaneW) + (1 + StW + OpAddrW);  // per FMA unit {src_c}
  localparam integer WordW = FmaLo + NumFma * OpAddrW;
  localparam integer PcW = (MaxProg > 1) ? $clog2(MaxProg) : 1;

  localparam [1:0] StIdle = 2'd0, StRun = 2'd1, StDone = 2'd2, StConfig = 2'd3;

  // ROMs ($readmemh).
  reg [WordW-1:0]    ucode  [0:MaxProg-1];
  reg [Width-1:0]    consts [0:MaxConsts-1];
  reg [15:0]         meta   [0:MetaN-1];

`ifdef SYNTHESIS
  initial begin
    $readmemh({HexDir, "/ucode.hex"}, ucode);
    $readmemh({HexDir, "/const.hex"}, consts);
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
    $sformat(hex_file, "%0s/meta.hex", hex_dir);
    $readmemh(hex_file, meta);
  end
`endif

  /* verilator lint_off UNUSEDSIGNAL */
  wire [15:0] n_in = meta[0];
  wire [15:0] n_out = meta[2];
  wire [15:0] n_credits = meta[4];
  /* verilator lint_on UNUSEDSIGNAL */
  wire [15:0] n_prog = meta[1];
  wire [15:0] n_stages = meta[3];

  // Sequencer: kernel word counter, stage-valid bits.
  reg [1:0]  state_q, state_d;
  reg [15:0] pc_q, pc_d;
  reg [MaxStages-1:0] sv_q, sv_d;
  reg [WordW-1:0] word_q;  // microcode word of the current cycle (synchronous ROM read, prefetched)
  wire       need_cfg;    // parameter memory not written since reset: the next start configures
  wire [15:0] n_par;

  wire running = (state_q == StRun);
  wire launch = running & word_q[CtlLo];
  wire credit_ok;   // back-pressure: a set point may be admitted (always 1 without the FIFO)
  wire fifo_empty;  // back-pressure: no result word waits (always 1 without the FIFO)
  wire admit = launch & in_valid_i & credit_ok;
  // Stage-valid bits of this cycle: in a launch word, shifted with the admission of the new set point.
  wire [MaxStages-1:0] sv_shift;
  generate
    if (MaxStages > 1) begin : g_shift
      assign sv_shift = {sv_q[MaxStages-2:0], admit};
    end else begin : g_shift1
      assign sv_shift = admit;
    end
  endgenerate
  wire [MaxStages-1:0] sv_now = launch ? sv_shift : sv_q;
  // Stages of the program (n_stages <= MaxStages): a set point beyond them has finished.
  reg [MaxStages-1:0] stage_mask;
  integer m;
  always @* begin
    for (m = 0; m < MaxStages; m = m + 1) stage_mask[m] = (m < n_stages);
  end
  wire drained = launch & ((sv_shift & stage_mask) == {MaxStages{1'b0}}) & fifo_empty;

  always @* begin
    state_d = state_q;
    pc_d = pc_q;
    sv_d = sv_q;
    case (state_q)
      StIdle: if (start_i) begin
        state_d = need_cfg ? StConfig : StRun;
        pc_d = 16'd0;
        sv_d = {MaxStages{1'b0}};
      end
      StConfig: if (in_valid_i) begin  // pc counts the parameter words
        pc_d = pc_q + 16'd1;
        if (pc_d == n_par) begin
          state_d = StDone;
          pc_d = 16'd0;
        end
      end
      StRun: begin
        sv_d = sv_now;
        if (drained) begin
          state_d = StDone;
          pc_d = 16'd0;
        end else begin
          pc_d = (pc_q + 16'd1 == n_prog) ? 16'd0 : pc_q + 16'd1;
        end
      end
      default: state_d = StIdle;  // StDone
    endcase
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      pc_q <= 16'd0;
      sv_q <= {MaxStages{1'b0}};
    end else begin
      state_q <= state_d;
      pc_q <= pc_d;
      sv_q <= sv_d;
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire [15:0] fetch_idx = (state_d == StRun) ? pc_d : 16'd0;
  /* verilator lint_on UNUSEDSIGNAL */
  always @(posedge clk_i) word_q <= ucode[fetch_idx[PcW-1:0]];

  // Parameter memory (MaxParams > 0): written in CONFIG, one word per accepted input word.
  localparam integer ParDepth = (MaxParams > 0) ? MaxParams : 1;
  /* verilator lint_off UNUSEDSIGNAL */
  reg [Width-1:0] params [0:ParDepth-1];
  /* verilator lint_on UNUSEDSIGNAL */
  wire configuring = (state_q == StConfig);
  generate
    if (MaxParams > 0) begin : g_params
      localparam integer ParW = (MaxParams > 1) ? $clog2(MaxParams) : 1;
      reg cfgd_q;
      assign need_cfg = !cfgd_q;
      assign n_par = meta[5];
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) cfgd_q <= 1'b0;
        else if (configuring && state_d == StDone) cfgd_q <= 1'b1;
      end
      always @(posedge clk_i) if (configuring && in_valid_i) params[pc_q[ParW-1:0]] <= in_data_i[Width-1:0];
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

  // Units, issue and write-back fields, each predicated by its stage.
  wire [NumUnits-1:0] wb_en;
  wire [NumUnits*OpAddrW-1:0] src_a_all, src_b_all;
  wire [NumUnits*RegAddrW-1:0] wb_dest;
  genvar u;
  generate
    for (u = 0; u < NumUnits; u = u + 1) begin : g_unit
      wire               iss_valid = word_q[u*IssueW];
      wire [1:0]         iss_op = word_q[u*IssueW+1 +: 2];
      wire [StW-1:0]     iss_stage = word_q[u*IssueW+3 +: StW];
      wire [OpAddrW-1:0] src_a = word_q[u*IssueW+3+StW +: OpAddrW];
      wire [OpAddrW-1:0] src_b = word_q[u*IssueW+3+StW+OpAddrW +: OpAddrW];
      wire [StW-1:0]     wb_stage = word_q[NumUnits*IssueW + u*WbW + 1 +: StW];
      assign src_a_all[u*OpAddrW +: OpAddrW] = src_a;
      assign src_b_all[u*OpAddrW +: OpAddrW] = src_b;
      assign wb_en[u] = running & word_q[NumUnits*IssueW + u*WbW] & sv_now[wb_stage];
      assign wb_dest[u*RegAddrW +: RegAddrW] = word_q[NumUnits*IssueW + u*WbW + 1 + StW +: RegAddrW];
      if (u >= NumMul + NumAdd + NumDiv) begin : g_fma
        /* verilator lint_off UNUSEDSIGNAL */
        wire [1:0] unused_op = iss_op;
        /* verilator lint_on UNUSEDSIGNAL */
        wire [OpAddrW-1:0] src_c = word_q[FmaLo + (u-NumMul-NumAdd-NumDiv)*OpAddrW +: OpAddrW];
        nea_fma_unit #(
          .IsFixed(IsFixed), .Width(Width), .Frac(Frac), .Latency(LatFma), .Pipelined(PipeFma)
        ) u_unit (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(running & iss_valid & sv_now[iss_stage]),
          .a_i(opnd_a[u]), .b_i(opnd_b[u]), .c_i(opnd[src_c]),
          .valid_o(unit_valid[u]), .result_o(unit_result[u*Width +: Width]));
      end else begin : g_op2
        nea_unit #(
          .Kind(u < NumMul ? 0 : u < NumMul + NumAdd ? 1 : 2), .IsFixed(IsFixed), .Width(Width), .Frac(Frac),
          .Latency(u < NumMul ? LatMul : u < NumMul + NumAdd ? LatAdd : LatDiv),
          .Pipelined(u < NumMul ? PipeMul : u < NumMul + NumAdd ? PipeAdd : PipeDiv)
        ) u_unit (
          .clk_i(clk_i), .rst_ni(rst_ni), .valid_i(running & iss_valid & sv_now[iss_stage]), .op_i(iss_op),
          .a_i(opnd_a[u]), .b_i(opnd_b[u]),
          .valid_o(unit_valid[u]), .result_o(unit_result[u*Width +: Width]));
      end
    end
  endgenerate

  // Input port (stage 0) and output port.
  wire               ld_take = word_q[CtlLo + 1];
  wire               ld_write = word_q[CtlLo + 2];
  wire [RegAddrW-1:0] load_addr = word_q[CtlLo + 3 +: RegAddrW];
  localparam integer OutLo = CtlLo + 2 + InWords * LaneW;         // first bit of the output field
  wire               out_fld = word_q[OutLo];
  wire [StW-1:0]     out_stage = word_q[OutLo + 1 +: StW];
  wire [OpAddrW-1:0] out_src = word_q[OutLo + 1 + StW +: OpAddrW];
  // A launch word takes the first word of a set point being admitted; the others, of the set point in stage 0.
  wire run_ready = running & ld_take & (launch ? credit_ok : sv_q[0]);
  assign in_ready_o = run_ready | configuring;
  wire load_en = run_ready & in_valid_i & ld_write;


  // Output port: the word the microcode drives now, straight out or through the FIFO.
  wire             out_now = running & out_fld & sv_now[out_stage];

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
        if (load_en) regs[load_addr] <= in_data_i[Width-1:0];
        for (w = 1; w < InWords; w = w + 1)  // lanes 1.. of a wider input port
          if (run_ready & in_valid_i & word_q[CtlLo + 2 + w * LaneW])
            regs[word_q[CtlLo + 3 + w * LaneW +: RegAddrW]] <= in_data_i[w*Width +: Width];
      end
      for (u = 0; u < NumUnits; u = u + 1) begin : g_opnd
        assign opnd_a[u] = opnd[src_a_all[u*OpAddrW +: OpAddrW]];
        assign opnd_b[u] = opnd[src_b_all[u*OpAddrW +: OpAddrW]];
      end
      assign out_word = opnd[out_src];
    end else begin : g_memrf  // one input lane (InWords > 1 is refused by the generator)
      localparam integer NumWr = NumUnits + 1;
      localparam integer NumRd = 2 * NumUnits + 1;
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
      // Write ports: one per unit, then the input load (loads overlap write-backs of earlier set points). Read
      // ports: two per unit, then the output port.
      for (u = 0; u < NumUnits; u = u + 1) begin : g_wr
        assign we[u] = wb_en[u];
        assign waddr[u*RegAddrW +: RegAddrW] = wb_dest[u*RegAddrW +: RegAddrW];
        assign wdata[u*Width +: Width] = unit_result[u*Width +: Width];
      end
      assign we[NumUnits] = load_en;
      assign waddr[NumUnits*RegAddrW +: RegAddrW] = load_addr;
      assign wdata[NumUnits*Width +: Width] = in_data_i[Width-1:0];
      assign rd_src[2*NumUnits] = out_src;
      for (u = 0; u < NumUnits; u = u + 1) begin : g_rd_unit
        assign rd_src[2*u] = src_a_all[u*OpAddrW +: OpAddrW];
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
      assign out_word = rd_word[2 * NumUnits];
      nea_regfile #(.Width(Width), .Depth(MaxRegs), .NumWr(NumWr), .NumRd(NumRd)) u_regfile (
        .clk_i(clk_i), .we_i(we), .waddr_i(waddr), .wdata_i(wdata), .raddr_i(raddr), .rdata_o(rdata));
    end
  endgenerate
  generate
    if (OutFifo == 0) begin : g_direct
      /* verilator lint_off UNUSEDSIGNAL */
      wire unused_out_ready = out_ready_i;
      /* verilator lint_on UNUSEDSIGNAL */
      assign credit_ok = 1'b1;
      assign fifo_empty = 1'b1;
      assign out_valid_o = out_now;
      assign out_data_o = out_now ? out_word : {Width{1'b0}};
    end else begin : g_fifo
      localparam integer FifoAw = (OutFifo > 1) ? $clog2(OutFifo) : 1;
      localparam integer CntW = $clog2(OutFifo + 1);
      localparam [31:0] FifoLast = OutFifo - 1;
      reg [Width-1:0]  fifo_mem [0:OutFifo-1];
      reg [FifoAw-1:0] wr_ptr_q, rd_ptr_q;
      reg [CntW-1:0]   count_q;
      reg [15:0]       credits_q;  // set points that may still be admitted
      reg [15:0]       popped_q;   // words of the current set point already taken by the sink
      wire push = out_now;
      wire pop = out_ready_i & (count_q != {CntW{1'b0}});
      wire last_word = pop & (popped_q + 16'd1 == n_out);
      assign credit_ok = (credits_q != 16'd0);
      assign fifo_empty = (count_q == {CntW{1'b0}});
      assign out_valid_o = !fifo_empty;
      assign out_data_o = fifo_empty ? {Width{1'b0}} : fifo_mem[rd_ptr_q];
      always @(posedge clk_i) if (push) fifo_mem[wr_ptr_q] <= out_word;
      always @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          wr_ptr_q <= {FifoAw{1'b0}};
          rd_ptr_q <= {FifoAw{1'b0}};
          count_q <= {CntW{1'b0}};
          credits_q <= 16'd0;
          popped_q <= 16'd0;
        end else if (state_q == StIdle) begin
          wr_ptr_q <= {FifoAw{1'b0}};
          rd_ptr_q <= {FifoAw{1'b0}};
          count_q <= {CntW{1'b0}};
          credits_q <= n_credits;
          popped_q <= 16'd0;
        end else begin
          if (push) wr_ptr_q <= (wr_ptr_q == FifoLast[FifoAw-1:0]) ? {FifoAw{1'b0}} : wr_ptr_q + 1'b1;
          if (pop) rd_ptr_q <= (rd_ptr_q == FifoLast[FifoAw-1:0]) ? {FifoAw{1'b0}} : rd_ptr_q + 1'b1;
          count_q <= count_q + {{(CntW-1){1'b0}}, push} - {{(CntW-1){1'b0}}, pop};
          credits_q <= credits_q - {15'd0, admit} + {15'd0, last_word};
          if (pop) popped_q <= last_word ? 16'd0 : popped_q + 16'd1;
        end
      end
    end
  endgenerate
  assign busy_o = (state_q != StIdle);
  assign done_o = (state_q == StDone);
  assign dbg_unit_valid_o = unit_valid;
  assign dbg_unit_result_o = unit_result;
  assign dbg_wr_en_o = wb_en;
  assign dbg_wr_addr_o = wb_dest;
  assign dbg_load_en_o = load_en;
  assign dbg_load_addr_o = load_addr;
endmodule
