`timescale 1ns/1ps
// The streaming Newton-Euler datapath (docs/datapath.md "Streaming"): the units, register file, constant ROM and
// operand space of nea_datapath (nea_exec, shared with it), driven by a kernel of K * II microcode words generated
// from a modulo schedule (neaccel::hw::build_stream). A new set point is admitted every II cycles; results leave in
// order. This module holds the sequencer, the microcode and meta ROMs and the output FIFO, and decodes the microcode
// word for nea_exec.
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
// Parameter memory (MaxParams > 0), as in nea_datapath: after reset the first start_i runs the
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
  parameter integer LatFma = 1,
  parameter integer PipeFma = 1,
  parameter integer MaxParams = 0,  // parameter memory words (0: none)
  parameter integer InWords = 1,    // input port words per cycle
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
  localparam integer MetaN = (MaxParams > 0) ? 6 : 5;
  localparam integer StW = (MaxStages > 1) ? $clog2(MaxStages) : 1;
  localparam integer IssueW = 3 + StW + 2 * OpAddrW;
  localparam integer WbW = 1 + StW + RegAddrW;
  localparam integer CtlLo = NumUnits * (IssueW + WbW);          // first control bit (launch)
  localparam integer LaneW = 1 + RegAddrW;                        // per input lane {write, dest}
  localparam integer FmaLo = CtlLo + 1 + (1 + InWords * LaneW) + (1 + StW + OpAddrW);  // per FMA unit {src_c}
  localparam integer WordW = FmaLo + NumFma * OpAddrW;
  localparam integer PcW = (MaxProg > 1) ? $clog2(MaxProg) : 1;
  localparam integer FmaN = (NumFma > 0) ? NumFma : 1;

  localparam [1:0] StIdle = 2'd0, StRun = 2'd1, StDone = 2'd2, StConfig = 2'd3;

  // ROMs ($readmemh; the constant ROM is in nea_exec).
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

  // Configuration phase (MaxParams > 0): the parameter memory (in nea_exec) takes n_par words.
  wire configuring = (state_q == StConfig);
  generate
    if (MaxParams > 0) begin : g_params
      assign n_par = meta[5];
    end else begin : g_no_params
      assign n_par = 16'd0;
    end
  endgenerate

  // Issue and write-back fields of the microcode word, each predicated by its stage.
  wire [NumUnits-1:0] iss_valid, wb_en;
  wire [NumUnits*2-1:0] iss_op;
  wire [NumUnits*OpAddrW-1:0] src_a_all, src_b_all;
  wire [NumUnits*RegAddrW-1:0] wb_dest;
  wire [FmaN*OpAddrW-1:0] src_c_all;
  genvar u;
  generate
    for (u = 0; u < NumUnits; u = u + 1) begin : g_unit
      wire [StW-1:0] iss_stage = word_q[u*IssueW+3 +: StW];
      wire [StW-1:0] wb_stage = word_q[NumUnits*IssueW + u*WbW + 1 +: StW];
      assign iss_valid[u] = running & word_q[u*IssueW] & sv_now[iss_stage];
      assign iss_op[u*2 +: 2] = word_q[u*IssueW+1 +: 2];
      assign src_a_all[u*OpAddrW +: OpAddrW] = word_q[u*IssueW+3+StW +: OpAddrW];
      assign src_b_all[u*OpAddrW +: OpAddrW] = word_q[u*IssueW+3+StW+OpAddrW +: OpAddrW];
      assign wb_en[u] = running & word_q[NumUnits*IssueW + u*WbW] & sv_now[wb_stage];
      assign wb_dest[u*RegAddrW +: RegAddrW] = word_q[NumUnits*IssueW + u*WbW + 1 + StW +: RegAddrW];
    end
    if (NumFma > 0) begin : g_fma
      assign src_c_all = word_q[FmaLo +: NumFma*OpAddrW];
    end else begin : g_no_fma
      assign src_c_all = {OpAddrW{1'b0}};
    end
  endgenerate

  // Input port (stage 0): per lane {write, dest}; and output port.
  wire               ld_take = word_q[CtlLo + 1];
  localparam integer OutLo = CtlLo + 2 + InWords * LaneW;         // first bit of the output field
  wire               out_fld = word_q[OutLo];
  wire [StW-1:0]     out_stage = word_q[OutLo + 1 +: StW];
  wire [OpAddrW-1:0] out_src = word_q[OutLo + 1 + StW +: OpAddrW];
  // A launch word takes the first word of a set point being admitted; the others, of the set point in stage 0.
  wire run_ready = running & ld_take & (launch ? credit_ok : sv_q[0]);
  assign in_ready_o = run_ready | configuring;
  wire [InWords-1:0] ld_en;
  wire [InWords*RegAddrW-1:0] ld_addr;
  genvar l;
  generate
    for (l = 0; l < InWords; l = l + 1) begin : g_lane
      assign ld_en[l] = run_ready & in_valid_i & word_q[CtlLo + 2 + l * LaneW];
      assign ld_addr[l*RegAddrW +: RegAddrW] = word_q[CtlLo + 3 + l * LaneW +: RegAddrW];
    end
  endgenerate

  // Output port: the word the microcode drives now, straight out or through the FIFO.
  wire             out_now = running & out_fld & sv_now[out_stage];

  // Units, register file, operand space, parameter memory.
  wire [Width-1:0] out_word;
  nea_exec #(
    .IsFixed(IsFixed), .Width(Width), .Frac(Frac), .NumMul(NumMul), .NumAdd(NumAdd), .LatMul(LatMul),
    .LatAdd(LatAdd), .PipeMul(PipeMul), .PipeAdd(PipeAdd), .NumDiv(NumDiv), .LatDiv(LatDiv), .PipeDiv(PipeDiv),
    .NumFma(NumFma), .LatFma(LatFma), .PipeFma(PipeFma), .MaxRegs(MaxRegs), .MaxConsts(MaxConsts),
    .MaxParams(MaxParams), .RegFile(RegFile), .InWords(InWords), .PhasedIo(0), .HexDir(HexDir),
    .NumUnits(NumUnits), .RegAddrW(RegAddrW), .OpAddrW(OpAddrW), .FmaN(FmaN)
  ) u_exec (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .iss_valid_i(iss_valid), .iss_op_i(iss_op), .src_a_i(src_a_all), .src_b_i(src_b_all), .src_c_i(src_c_all),
    .wb_en_i(wb_en), .wb_dest_i(wb_dest),
    .in_data_i(in_data_i), .io_idx_i(16'd0), .ld_en_i(ld_en), .ld_addr_i(ld_addr),
    .load_en_o(dbg_load_en_o), .load_addr_o(dbg_load_addr_o),
    .cfg_we_i(configuring & in_valid_i), .cfg_idx_i(pc_q),
    .cfg_done_i(configuring & (state_d == StDone)), .need_cfg_o(need_cfg),
    .out_src_i(out_src), .out_rd_i(1'b0), .out_word_o(out_word),
    .unit_valid_o(dbg_unit_valid_o), .unit_result_o(dbg_unit_result_o));

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
  assign dbg_wr_en_o = wb_en;
  assign dbg_wr_addr_o = wb_dest;
endmodule
