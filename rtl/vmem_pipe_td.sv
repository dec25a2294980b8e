`ifndef VMEM_VMEM_PIPE_TD_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TD_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_td: the TD and completion of vmem_pipe (docs/decisions.md "vmem_pipe", "TD and
// completion"): the instructions in flight, the gather of returned blocks, the conversion, the
// VGPR writes, the done and its counters. Sub-block of rtl/vmem_pipe.sv.
//
// In flight: ids 0..3, an id from the address stage's take to the edge before its done
// (inflight_full_o when all four are). Per id: the instruction's fields (pipe_info_t), per lane
// what the address stage found (pipe_tdlane_t), whether its step stage has ended and its TA
// cycles, and per lane its first and second returned block (ret_i with data: the TCP's hits,
// fills, GLC reads and atomic responses, written at the edge of their completion).
//
// Complete: step stage ended and no request outstanding in the TCP (quiet_i). Instructions
// finish in the order taken. The TD starts the oldest unfinished one in cycle s when, at the
// start of s, it is complete and the TD is idle:
//   Writing instructions (loads, atomics with GLC; EXEC != 0): the groups with an EXEC lane are
//     fed one per cycle from s on (the k-th in s + k) to the conversion of their kind:
//       format/sized loads: format_unpack (2 edges) then swizzle (2 edges; dst_sel, DMASK =
//         (1 << count) - 1, oor and unbound as the executor builds them, TFE off): the k-th
//         group's results show in s + 4 + k;
//       D16 format loads: the same, then each result component narrowed as the d16 unit's
//         OP_LOAD_FORMAT does (vmem_fp_pkg::f32_to_f16, the function the d16 unit applies;
//         uint/sint: the low 16 bits), two halves per dword, combinationally on swizzle's
//         output registers: a d16 instance after swizzle would add two edges and show the first
//         group in s + 6, after the contract's first write in s + 4 (the data can arrive at the
//         edge that ends s - 1, so unpack and swizzle alone fill s .. s + 3);
//       D16 byte/short loads: the d16 unit alone (OP_LOAD_UBYTE/SBYTE/SHORT, hi for D16_HI,
//         the old VGPR value): results in s + 2 + k;
//       atomics: the returned dwords as they are (0 for lanes that did not take part).
//     The element bytes of a lane are its two returned blocks shifted by its address bits 3:0,
//     each dword 0 where out of range (per dword above 4 bytes, else dword 0's verdict), and
//     everything 0 when unbound; above the element's bytes 0.
//     Writes, group-major: for each group g with an EXEC lane, for each result dword
//     i < min(R, 256 - VDATA): (VDATA + i, g, EXEC lanes of g, dword i; 0 for other lanes). R =
//     the conversion's dwords plus the TFE dword (0) of format/sized loads; D16 byte/short loads
//     write their one dword (the executor appends no TFE dword there); atomics 1 or 2. The first
//     write is presented in s + 4, each next one in the cycle after the previous was accepted
//     (vgpr_ready_i); a write is held until accepted. Its data is a function of registers: the
//     result store, or in the cycle a group's swizzle results show, those results (then stored).
//     After the edge e that accepts the last write the TD is idle; done in e + 1, done_td =
//     e - s + 1.
//   Other instructions: done in s + 1, done_td = 0; the TD stays idle.
// The instruction leaves the in-flight set at the edge before its done cycle. done_issue = first
// to last beat, inclusive; done_total = the done cycle minus the first beat's cycle; done_ta,
// the TCP and L2 counters as kept by the TA and the TCP.
//
// Test input:
//   test_break_asserts_i  TEST ONLY (vmem_pipe's TestBreakAsserts: the program's key, 0 when
//                 off). Key k corrupts a copy of what one assertion reads, nothing else:
//                   18: at a start, a request reads as outstanding     -> StartComplete_A
//                   19: at a take, the id taken reads as in flight     -> TakeFree_A
//                   20: at a take, the id taken reads one higher       -> TakeInOrder_A
//                   21: at a take, four read as in flight              -> InflightMax_A
//                   22: at a step end, the id's step stage reads as
//                       already ended                                  -> StepEndInFlight_A
//                   23: a stalled write's previous data has bit 0 of
//                       lane 0 flipped                                 -> VgprHold_A
//                   24: a write's mask reads 0                         -> VgprMask_A
//                   25: a write's VDATA + i reads 256                  -> VgprAddr_A
//                   26: an idle write port's data has bit 0 of lane 0
//                       set                                            -> VgprIdleZero_A
//                   27: an idle done has bit 0 of its conflicts set    -> DoneIdleZero_A
//                   28: format_unpack's results tagged one edge early  -> UnpackTag_A
//                   29: swizzle's results tagged one edge early        -> SwizzleTag_A
//                   30: d16's results tagged one edge early            -> D16Tag_A
//                   31: done's hits read requests - misses + 1         -> DoneHitsMisses_A
//                   32: done's TCP cycles read 1 when 0, else 0        -> DoneTcpZero_A
//                   33: done's requests read 0 and its L2 cycles 1     -> DoneL2Zero_A
//                   34: done's conflicts read requests (1 with none),
//                       one past requests - 1                          -> DoneConflicts_A
//                   35: done's issue cycles read 3                     -> DoneIssueMin_A
//                   36: done's TA cycles read 3                        -> DoneTaMin_A
//                   37: done's TD cycles read 4                        -> DoneTdMin_A
//                 All fire on every program except 23 (a VGPR write stalled by vgpr_ready_i),
//                 24, 25 (a load or returning atomic with EXEC lanes), 28, 29 (a load through
//                 format_unpack) and 30 (a D16 byte/short load). Other keys: no effect.
//
// Spec: docs/spec.md §3, §5, §6, §14 "TD", "Completion"  Contract: docs/decisions.md "vmem_pipe"


// The modules instantiated here, for a Verilator run given this file alone (lint without
// -y rtl, from the repository root); each file includes once (its guard).
`ifdef VERILATOR
`include "rtl/format_unpack.sv"
`include "rtl/swizzle.sv"
`include "rtl/d16.sv"
`include "rtl/vmem_pipe_td_gather.sv"
`endif

module vmem_pipe_td
  import vmem_pkg::*;
  import vmem_fp_pkg::f32_to_f16;
  import vmem_fp_pkg::NfmtUint;
  import vmem_fp_pkg::NfmtSint;
(
  input  logic                clk_i,
  input  logic                rst_ni,           // async, active low
  input  logic [5:0]          test_break_asserts_i,  // TEST ONLY: see the contract above.
  input  logic [15:0]         now_i,
  // From the TA
  input  pipe_take_t          take_i,
  input  pipe_res_t           res_i,
  input  pipe_step_end_t      step_end_i,
  // From the TCP
  input  pipe_ret_t [31:0]    ret_i,
  input  logic [3:0]          quiet_i,
  input  pipe_ctr_t [3:0]     ctr_i,
  // To the TA
  output logic                inflight_full_o,
  // VGPR write port and done (vmem_pipe's ports)
  input  logic                vgpr_ready_i,
  output pipe_vgpr_t          vgpr_o,
  output pipe_done_t          done_o
);

  localparam int unsigned Ids        = 4;
  localparam int unsigned GroupLanes = 16;
  localparam int unsigned Quads      = 16;  // quads of lanes in a wave of 64

  typedef struct packed {
    logic       valid;
    logic [1:0] group;
  } tp_t;

  // The lowest set bit of a group mask, and whether there is one.
  function automatic logic [1:0] lowest(logic [3:0] m);
    logic [1:0] g;
    g = '0;
    for (int i = 3; i >= 0; i--) begin
      if (m[i]) begin
        g = 2'(i);
      end
    end
    return g;
  endfunction

  ///////////
  // State //
  ///////////

  logic [Ids-1:0]         slot_q, slot_d;        // in flight
  pipe_info_t [Ids-1:0]   info_q, info_d;
  logic [Ids-1:0]         stepped_q, stepped_d;  // step stage ended
  logic [Ids-1:0][15:0]   ta_q, ta_d;

  // Stores (no reset), registers written by constant index: a lane's entry is written by the
  // address stage before it is read; a block only once its request completed (read only for
  // lanes that took part and bytes in range); a result only after its conversion.
  pipe_tdlane_t [Ids-1:0][3:0][GroupLanes-1:0] tdl_q;    // [id][group][lane]
  logic [3:0][GroupLanes-1:0][3:0][31:0]       res_q;    // [group][lane][dword]
  // The gathered blocks: one vmem_pipe_td_gather row per id and quad of lanes.
  logic [3:0][1:0][127:0]                      gath [Ids][Quads];  // [id][quad][lane][block]

  logic [1:0]             td_id_q, td_id_d;      // the oldest unfinished instruction
  logic                   td_busy_q, td_busy_d;  // writing it
  logic [15:0]            td_s_q, td_s_d;        // its start cycle
  logic [2:0]             td_cnt_q, td_cnt_d;    // cycles since the start, up to 4
  logic [3:0]             feed_rem_q, feed_rem_d;
  tp_t                    tp1_d, tp1_q, tp2_q, tp3_q, tp4_q;
  logic                   wr_valid_q, wr_valid_d;
  logic [1:0]             wr_g_q, wr_g_d;
  logic [2:0]             wr_i_q, wr_i_d;
  pipe_done_t             done_q, done_d;

  //////////////////////////////////////
  // The oldest unfinished instruction //
  //////////////////////////////////////

  pipe_info_t ci;
  logic       c_load, c_atomic, c_d16bs, c_d16fmt, c_conv, c_writes, c_int;
  logic [3:0] c_egroups;     // groups with an EXEC lane
  logic [3:0] c_dmask;       // (1 << count) - 1, as the executor gives swizzle
  logic [2:0] c_pc;          // swizzle's data dwords: popcount of DMASK (0 acts as 0001)
  logic [2:0] c_rdata;       // data dwords of a lane's result
  logic [2:0] c_r;           // result dwords (with TFE)
  logic [2:0] c_w;           // dwords written per group: min(R, 256 - VDATA)
  logic [2:0] c_ndw;         // dwords of the element
  logic [31:0] c_bmask;      // bytes of dword 0 below 4-byte elements

  logic [8:0] room;         // VGPRs from VDATA to 255

  always_comb begin
    ci        = info_q[td_id_q];
    c_load    = ci.kind == PipeLoad;
    c_atomic  = ci.kind == PipeAtomic;
    c_d16bs   = c_load && ci.sized && (ci.d16 != 2'd0) && ((ci.bytes == 5'd1) || (ci.bytes == 5'd2));
    c_d16fmt  = c_load && !c_d16bs && (ci.d16 == 2'd1);
    c_conv    = c_load && !c_d16bs;
    c_int     = (ci.nfmt == NfmtUint) || (ci.nfmt == NfmtSint);
    for (int g = 0; g < 4; g++) begin
      c_egroups[g] = ci.exec[GroupLanes*g +: GroupLanes] != '0;
    end
    c_writes  = (c_load || (c_atomic && ci.glc)) && (ci.exec != '0);
    c_dmask   = 4'((8'd1 << ci.count) - 8'd1);
    c_pc      = '0;
    for (int i = 0; i < 4; i++) begin
      c_pc = c_pc + {2'b00, c_dmask[i]};
    end
    if (c_dmask == 4'd0) begin
      c_pc = 3'd1;
    end
    if (c_atomic) begin
      c_rdata = ci.wide ? 3'd2 : 3'd1;
    end else if (c_d16bs) begin
      c_rdata = 3'd1;
    end else if (c_d16fmt) begin
      c_rdata = (c_pc + 3'd1) >> 1;
    end else begin
      c_rdata = c_pc;
    end
    c_r   = c_rdata + {2'b00, c_conv & ci.tfe};
    room  = 9'd256 - {1'b0, ci.vdata};
    c_w   = ({6'd0, c_r} > room) ? room[2:0] : c_r;
    c_ndw = (ci.bytes <= 5'd4) ? 3'd1 : (3'(ci.bytes[4:2]) + {2'b00, ci.bytes[1:0] != 2'd0});
    c_bmask = (ci.bytes >= 5'd4) ? 32'hffff_ffff : ((32'd1 << {ci.bytes[1:0], 3'b000}) - 32'd1);
  end

  ///////////////////////
  // Start and writes  //
  ///////////////////////

  logic       start;         // the TD starts td_id_q this cycle
  logic       start_w;       // ... a writing instruction
  logic       finish_now;    // ... one without writes: done next cycle
  logic       finish_w;      // the last write is accepted this cycle
  logic       feed_v;
  logic [1:0] feed_g;
  logic [3:0] feed_src;
  logic       wr_acc;
  logic       wr_last_i;     // the write is its group's last dword
  logic [3:0] wr_later;      // EXEC groups after wr_g_q
  logic       finish;

  always_comb begin
    start      = ~td_busy_q & slot_q[td_id_q] & stepped_q[td_id_q] & quiet_i[td_id_q];
    start_w    = start & c_writes;
    finish_now = start & ~c_writes;

    feed_src   = start_w ? c_egroups : (td_busy_q ? feed_rem_q : 4'd0);
    feed_v     = feed_src != 4'd0;
    feed_g     = lowest(feed_src);
    feed_rem_d = feed_v ? (feed_src & ~(4'd1 << feed_g)) : feed_rem_q;
    tp1_d      = '{valid: feed_v, group: feed_g};

    wr_acc    = wr_valid_q & vgpr_ready_i;
    wr_last_i = (wr_i_q + 3'd1) >= c_w;
    wr_later  = c_egroups & ~((4'd2 << wr_g_q) - 4'd1);
    finish_w  = wr_acc & wr_last_i & (wr_later == 4'd0);
    finish    = finish_now | finish_w;

    td_busy_d  = td_busy_q;
    td_s_d     = td_s_q;
    td_cnt_d   = td_cnt_q;
    wr_valid_d = wr_valid_q;
    wr_g_d     = wr_g_q;
    wr_i_d     = wr_i_q;
    td_id_d    = finish ? td_id_q + 2'd1 : td_id_q;
    if (start_w) begin
      td_busy_d = 1'b1;
      td_s_d    = now_i;
      td_cnt_d  = 3'd1;
    end else if (td_busy_q && (td_cnt_q < 3'd3)) begin
      td_cnt_d = td_cnt_q + 3'd1;
    end else if (td_busy_q && (td_cnt_q == 3'd3)) begin
      // The first write is presented in s + 4.
      td_cnt_d   = 3'd4;
      wr_valid_d = 1'b1;
      wr_g_d     = lowest(c_egroups);
      wr_i_d     = '0;
    end
    if (wr_acc) begin
      if (!wr_last_i) begin
        wr_i_d = wr_i_q + 3'd1;
      end else if (wr_later != 4'd0) begin
        wr_g_d = lowest(wr_later);
        wr_i_d = '0;
      end else begin
        wr_valid_d = 1'b0;
        td_busy_d  = 1'b0;
        td_cnt_d   = '0;
      end
    end
  end

  ////////////////
  // Conversion //
  ////////////////

  logic [15:0][127:0] el;          // element bytes of the fed group's lanes
  logic [15:0]        up_valid;
  logic [15:0][127:0] up_comp;
  logic [15:0][2:0]   up_count;
  logic [15:0]        up_fmt_valid;
  logic [15:0][3:0]   sw_oor;
  logic [15:0]        sw_unbound;
  logic [15:0]        sw_valid;
  logic [15:0][127:0] sw_res;
  logic [15:0][2:0]   sw_count;
  logic [15:0]        dh_valid;
  logic [15:0][127:0] dh_res;
  logic [15:0][2:0]   dh_count;
  logic [15:0]        dh_illegal;
  logic [15:0][127:0] cv_now;      // a group's results in the cycle they show (tp4_q)
  logic [2:0]         d16_op;

  logic [15:0][3:0]       fd_offset;   // the fed lanes' address bits 3:0
  logic [15:0]            fd_unbound;
  logic [15:0][3:0]       fd_in_range;
  logic [15:0][255:0]     fd_both;     // their second and first blocks
  logic [15:0][127:0]     fd_raw;      // the element's bytes as fetched
  logic [15:0][3:0]       sw_in_range; // in_range of the lanes unpack shows (tp2_q)
  logic [15:0][3:0][15:0] nar;         // D16 format loads: the halves

  always_comb begin
    for (int l = 0; l < GroupLanes; l++) begin
      fd_offset[l]   = tdl_q[td_id_q][feed_g][l].offset;
      fd_unbound[l]  = tdl_q[td_id_q][feed_g][l].unbound;
      fd_in_range[l] = tdl_q[td_id_q][feed_g][l].in_range;
      fd_both[l]     = gath[td_id_q][{feed_g, 2'(l / 4)}][l % 4];
      fd_raw[l]      = 128'(fd_both[l] >> {fd_offset[l], 3'b000});
      for (int i = 0; i < 4; i++) begin
        el[l][32*i +: 32] = ((3'(i) < c_ndw) && !fd_unbound[l] &&
                             fd_in_range[l][(ci.bytes > 5'd4) ? i : 0])
                          ? (fd_raw[l][32*i +: 32] & c_bmask) : 32'd0;
      end

      // Swizzle's out-of-range and unbound inputs, for the group that unpack shows (tp2_q).
      sw_in_range[l] = tdl_q[td_id_q][tp2_q.group][l].in_range;
      sw_oor[l]      = (ci.sized && (ci.bytes > 5'd4)) ? ~sw_in_range[l]
                     : (sw_in_range[l][0] ? 4'd0 : 4'hf);
      sw_unbound[l]  = tdl_q[td_id_q][tp2_q.group][l].unbound | ~up_fmt_valid[l];

      // D16 format loads: each component narrowed to a half, two per dword (d16 OP_LOAD_FORMAT).
      for (int i = 0; i < 4; i++) begin
        nar[l][i] = '0;
        if (3'(i) < sw_count[l]) begin
          nar[l][i] = c_int ? sw_res[l][32*i +: 16] : f32_to_f16(sw_res[l][32*i +: 32]);
        end
      end
      cv_now[l] = c_d16fmt ? {64'd0, nar[l]} : sw_res[l];
    end
  end

  assign d16_op = (ci.bytes == 5'd1) ? ((ci.nfmt == NfmtSint) ? D16LoadSbyte : D16LoadUbyte)
                                     : D16LoadShort;

  for (genvar l = 0; l < GroupLanes; l++) begin : g_lane
    format_unpack u_format_unpack (
      .clk_i,
      .rst_ni,
      .valid_i      (feed_v & c_conv),
      .dfmt_i       (ci.dfmt),
      .nfmt_i       (ci.nfmt),
      .data_i       (el[l]),
      .valid_o      (up_valid[l]),
      .components_o (up_comp[l]),
      .count_o      (up_count[l]),
      .fmt_valid_o  (up_fmt_valid[l])
    );

    swizzle u_swizzle (
      .clk_i,
      .rst_ni,
      .valid_i        (tp2_q.valid & c_conv),
      .components_i   (up_comp[l]),
      .count_i        (up_count[l]),
      .dst_sel_i      (ci.dst_sel),
      .integer_i      (c_int),
      .dmask_i        (c_dmask),
      .oor_i          (sw_oor[l]),
      .unbound_i      (sw_unbound[l]),
      .tfe_i          (1'b0),
      .valid_o        (sw_valid[l]),
      .result_o       (sw_res[l]),
      .result_count_o (sw_count[l])
    );

    d16 u_d16 (
      .clk_i,
      .rst_ni,
      .valid_i        (feed_v & c_d16bs),
      .op_i           (d16_op),
      .hi_i           (ci.d16 == 2'd2),
      .nfmt_i         (3'd0),
      .count_i        (3'd0),
      .data_i         (el[l]),
      .old_i          (tdl_q[td_id_q][feed_g][l].old),
      .valid_o        (dh_valid[l]),
      .result_o       (dh_res[l]),
      .result_count_o (dh_count[l]),
      .illegal_o      (dh_illegal[l])
    );
  end

  // Unit outputs this block does not need: the valids (the tags tp2_q / tp4_q travel with them,
  // asserted below), d16's count (1) and illegal (never for the byte/short ops).
  logic [15:0][95:0] dh_res_hi;
  for (genvar l = 0; l < GroupLanes; l++) begin : g_dh_hi
    assign dh_res_hi[l] = dh_res[l][127:32];
  end
  logic unused_units;
  assign unused_units = ^{up_valid[15:1], sw_valid[15:1], dh_valid[15:1], dh_count, dh_illegal,
                          dh_res_hi};

  //////////////////
  // VGPR writes  //
  //////////////////

  logic [31:0] v;

  always_comb begin
    v            = '0;
    vgpr_o.valid = wr_valid_q;
    vgpr_o.addr  = '0;
    vgpr_o.group = '0;
    vgpr_o.mask  = '0;
    vgpr_o.data  = '0;
    if (wr_valid_q) begin
      vgpr_o.addr  = ci.vdata + {5'd0, wr_i_q};
      vgpr_o.group = wr_g_q;
      vgpr_o.mask  = ci.exec[GroupLanes*wr_g_q +: GroupLanes];
      for (int l = 0; l < GroupLanes; l++) begin
        if (c_atomic) begin
          v = tdl_q[td_id_q][wr_g_q][l].part
            ? gath[td_id_q][{wr_g_q, 2'(l / 4)}][l % 4][0][32*wr_i_q[0] +: 32] : 32'd0;
        end else if (c_d16bs) begin
          v = res_q[wr_g_q][l][0];
        end else if (wr_i_q >= c_rdata) begin
          v = 32'd0;   // the TFE status dword
        end else if (tp4_q.valid && (tp4_q.group == wr_g_q)) begin
          v = cv_now[l][32*wr_i_q[1:0] +: 32];
        end else begin
          v = res_q[wr_g_q][l][wr_i_q[1:0]];
        end
        vgpr_o.data[l] = vgpr_o.mask[l] ? v : 32'd0;
      end
    end
  end

  ///////////////////////
  // In flight, done   //
  ///////////////////////

  pipe_ctr_t cc;

  always_comb begin
    slot_d    = slot_q;
    info_d    = info_q;
    stepped_d = stepped_q;
    ta_d      = ta_q;
    if (finish) begin
      slot_d[td_id_q] = 1'b0;
    end
    if (take_i.valid) begin
      slot_d[take_i.id]    = 1'b1;
      info_d[take_i.id]    = take_i.info;
      stepped_d[take_i.id] = 1'b0;
    end
    if (step_end_i.valid) begin
      stepped_d[step_end_i.id] = 1'b1;
      ta_d[step_end_i.id]      = step_end_i.ta;
    end

    cc     = ctr_i[td_id_q];
    done_d = '0;
    if (finish) begin
      done_d.valid     = 1'b1;
      done_d.issue     = ci.t_last - ci.t_first + 16'd1;
      done_d.ta        = ta_q[td_id_q];
      done_d.tcp       = cc.tcp_any ? (cc.tcp_last - cc.tcp_first + 16'd1) : 16'd0;
      done_d.l2        = cc.l2_any ? (cc.l2_last - cc.l2_first + 16'd1) : 16'd0;
      done_d.td        = finish_w ? (now_i - td_s_q + 16'd1) : 16'd0;
      done_d.total     = now_i + 16'd1 - ci.t_first;
      done_d.n         = cc.n;
    end
  end

  assign inflight_full_o  = &slot_q;
  assign done_o           = done_q;

  ///////////////
  // Registers //
  ///////////////

  `VMEM_FF(slot_q, slot_d, '0)
  `VMEM_FF(info_q, info_d, '0)
  `VMEM_FF(stepped_q, stepped_d, '0)
  `VMEM_FF(ta_q, ta_d, '0)
  `VMEM_FF(td_id_q, td_id_d, '0)
  `VMEM_FF(td_busy_q, td_busy_d, 1'b0)
  `VMEM_FF(td_s_q, td_s_d, '0)
  `VMEM_FF(td_cnt_q, td_cnt_d, '0)
  `VMEM_FF(feed_rem_q, feed_rem_d, '0)
  `VMEM_FF(tp1_q, tp1_d, '0)
  `VMEM_FF(tp2_q, tp1_q, '0)
  `VMEM_FF(tp3_q, tp2_q, '0)
  `VMEM_FF(tp4_q, tp3_q, '0)
  `VMEM_FF(wr_valid_q, wr_valid_d, 1'b0)
  `VMEM_FF(wr_g_q, wr_g_d, '0)
  `VMEM_FF(wr_i_q, wr_i_d, '0)
  `VMEM_FF(done_q, done_d, '0)

  always_ff @(posedge clk_i) begin
    for (int g = 0; g < 4; g++) begin
      for (int i = 0; i < Ids; i++) begin
        if (res_i.valid && (res_i.id == 2'(i)) && (res_i.group == 2'(g))) begin
          tdl_q[i][g] <= res_i.lanes;
        end
      end
      if (tp4_q.valid && c_conv && (tp4_q.group == 2'(g))) begin
        res_q[g] <= cv_now;
      end
      if (tp2_q.valid && c_d16bs && (tp2_q.group == 2'(g))) begin
        for (int l = 0; l < GroupLanes; l++) begin
          res_q[g][l][0] <= dh_res[l][31:0];
        end
      end
    end
  end

  // The gather rows each slot writes: its id and quad, decoded once.
  logic [Ids-1:0][Quads-1:0][31:0] gath_wr;   // [id][quad][slot]

  always_comb begin
    gath_wr = '0;
    for (int s = 0; s < 32; s++) begin
      gath_wr[ret_i[s].id][ret_i[s].quad][s] = ret_i[s].valid & ret_i[s].data_en;
    end
  end

  for (genvar i = 0; i < Ids; i++) begin : g_gath_id
    for (genvar q = 0; q < Quads; q++) begin : g_gath_quad
      vmem_pipe_td_gather u_gather (
        .clk_i,
        .wr_i  (gath_wr[i][q]),
        .ret_i,
        .blk_o (gath[i][q])
      );
    end
  end

  ////////////////
  // Assertions //
  ////////////////

// What the assertions read: the values themselves, except that the break-asserts key corrupts
// one of them (see the contract above; the copies feed nothing else).
`ifndef SYNTHESIS
  logic       vg_stall_q;
  pipe_vgpr_t vg_prev_q;
  `VMEM_FF(vg_stall_q, vgpr_o.valid & ~vgpr_ready_i, 1'b0)
  `VMEM_FF(vg_prev_q, vgpr_o, '0)

  logic [5:0]        brk;
  logic [Ids-1:0]    a_quiet, a_slot, a_stepped;
  logic [1:0]        a_take_id;
  logic              a_full;
  pipe_vgpr_t        a_vg_prev;
  logic [15:0][31:0] a_vdata_idle;
  logic [15:0]       a_vmask;
  logic [8:0]        a_vaddr;
  pipe_done_t        a_done;
  logic              a_tp2_up, a_tp4, a_tp2_dh;
  logic [15:0]       a_hits, a_tcp, a_req_l2, a_l2, a_conf, a_issue, a_ta, a_td;
  always_comb begin
    brk          = test_break_asserts_i;
    a_quiet      = quiet_i;
    a_quiet[td_id_q] = quiet_i[td_id_q] & (brk != 6'd18);
    a_slot       = slot_q;
    a_slot[take_i.id] = slot_q[take_i.id] | (brk == 6'd19);
    a_take_id    = take_i.id + {1'b0, brk == 6'd20};
    a_full       = inflight_full_o | (brk == 6'd21);
    a_stepped    = stepped_q;
    a_stepped[step_end_i.id] = stepped_q[step_end_i.id] | (brk == 6'd22);
    a_vg_prev    = vg_prev_q;
    a_vg_prev.data[0][0] = vg_prev_q.data[0][0] ^ (brk == 6'd23);
    a_vmask      = (brk == 6'd24) ? 16'd0 : vgpr_o.mask;
    a_vaddr      = (brk == 6'd25) ? 9'd256 : ({1'b0, ci.vdata} + {6'd0, wr_i_q});
    a_vdata_idle = vgpr_o.data;
    a_vdata_idle[0][0] = vgpr_o.data[0][0] | (brk == 6'd26);
    a_done       = done_q;
    a_done.n.conflicts[0] = done_q.n.conflicts[0] | (brk == 6'd27);
    a_tp2_up     = (brk == 6'd28) ? tp1_q.valid : tp2_q.valid;
    a_tp4        = (brk == 6'd29) ? tp3_q.valid : tp4_q.valid;
    a_tp2_dh     = (brk == 6'd30) ? tp1_q.valid : tp2_q.valid;
    a_hits       = (brk == 6'd31) ? (done_o.n.requests - done_o.n.misses + 16'd1) : done_o.n.hits;
    a_tcp        = (brk == 6'd32) ? {15'd0, done_o.tcp == '0} : done_o.tcp;
    a_req_l2     = (brk == 6'd33) ? 16'd0 : done_o.n.requests;
    a_l2         = (brk == 6'd33) ? 16'd1 : done_o.l2;
    a_conf       = (brk == 6'd34) ? (done_o.n.requests - {15'd0, done_o.n.requests != '0} + 16'd1)
                                  : done_o.n.conflicts;
    a_issue      = (brk == 6'd35) ? 16'd3 : done_o.issue;
    a_ta         = (brk == 6'd36) ? 16'd3 : done_o.ta;
    a_td         = (brk == 6'd37) ? 16'd4 : done_o.td;
  end
`endif

// The TD starts only a complete instruction that is in flight, and finishes the oldest.
`VMEM_ASSERT(StartComplete_A, start |-> (slot_q[td_id_q] && stepped_q[td_id_q] && a_quiet[td_id_q]))
// Ids are taken in order: the id taken is the next after the in-flight ones, and is free.
`VMEM_ASSERT(TakeFree_A, take_i.valid |-> !a_slot[take_i.id])
`VMEM_ASSERT(TakeInOrder_A, take_i.valid |-> (a_take_id == (td_id_q + 2'($countones(slot_q)))))
// At most four in flight, and no take while four are.
`VMEM_ASSERT(InflightMax_A, take_i.valid |-> !a_full)
// The step stage ends only an instruction in flight whose step stage had not ended.
`VMEM_ASSERT(StepEndInFlight_A, step_end_i.valid |-> (slot_q[step_end_i.id] && !a_stepped[step_end_i.id]))
// A write is held until accepted: the next cycle presents the same write.
`VMEM_ASSERT(VgprHold_A, vg_stall_q |-> (vgpr_o == a_vg_prev))
// A write names an EXEC group and a VGPR at most 255 (VDATA + i <= 255 by construction).
`VMEM_ASSERT(VgprMask_A, vgpr_o.valid |-> (a_vmask != '0))
`VMEM_ASSERT(VgprAddr_A, vgpr_o.valid |-> (a_vaddr <= 9'd255))
// Idle zero of the write port and of the done counters.
`VMEM_ASSERT(VgprIdleZero_A, !vgpr_o.valid |->
    ({vgpr_o.addr, vgpr_o.group, vgpr_o.mask, a_vdata_idle} == '0))
`VMEM_ASSERT(DoneIdleZero_A, !done_o.valid |-> (a_done == '0))
// The conversion units' results arrive with their tags.
`VMEM_ASSERT(UnpackTag_A, up_valid[0] == (a_tp2_up && c_conv))
`VMEM_ASSERT(SwizzleTag_A, sw_valid[0] == (a_tp4 && c_conv))
`VMEM_ASSERT(D16Tag_A, dh_valid[0] == (a_tp2_dh && c_d16bs))
// Counters: hits and misses are load requests; a request-less instruction has no TCP or L2
// cycles; conflicts come from bundles of two or more requests; issue and TA take at least the
// four beats / four groups; a writing TD takes at least s .. s + 4.
`VMEM_ASSERT(DoneHitsMisses_A, done_o.valid |->
    ({1'b0, a_hits} + {1'b0, done_o.n.misses} <= {1'b0, done_o.n.requests}))
`VMEM_ASSERT(DoneTcpZero_A, done_o.valid |-> ((done_o.n.requests == '0) == (a_tcp == '0)))
`VMEM_ASSERT(DoneL2Zero_A, (done_o.valid && (a_req_l2 == '0)) |-> (a_l2 == '0))
`VMEM_ASSERT(DoneConflicts_A, done_o.valid |->
    ({1'b0, a_conf} + {16'd0, done_o.n.requests != '0} <= {1'b0, done_o.n.requests}))
`VMEM_ASSERT(DoneIssueMin_A, done_o.valid |-> (a_issue >= 16'd4))
`VMEM_ASSERT(DoneTaMin_A, done_o.valid |-> (a_ta >= 16'd4))
`VMEM_ASSERT(DoneTdMin_A, done_o.valid |-> ((a_td == '0) || (a_td >= 16'd5)))

endmodule : vmem_pipe_td

`endif  // VMEM_VMEM_PIPE_TD_SV
